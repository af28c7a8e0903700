from django.urls import URLPattern, URLResolver, path, re_path

from muscore.api import championships, docs, leagues, tables, views

app_name = "api"
urlpatterns: list[URLPattern | URLResolver] = [
    # The scoring contract (muscore/api/views.py).
    path("score", views.score, name="score"),
    path("replay", views.replay, name="replay"),
    # The OpenAPI description of all of this (muscore/api/openapi.py, served by docs.py).
    path("openapi.json", docs.openapi_json, name="openapi"),
    # Tables (muscore/api/tables.py); "import" comes before <table_id> so it is never an id.
    path("tables", tables.create, name="tables"),
    path("tables/import", tables.import_, name="table_import"),
    path("tables/<str:table_id>", tables.detail, name="table"),
    path("tables/<str:table_id>/export", tables.export, name="table_export"),
    path("tables/<str:table_id>/hands", tables.add_hand, name="table_hands"),
    path("tables/<str:table_id>/piedras", tables.add_piedras, name="table_piedras"),
    path("tables/<str:table_id>/perete", tables.add_perete, name="table_perete"),
    path("tables/<str:table_id>/hands/last", tables.undo_last, name="table_hand_last"),
    path("tables/<str:table_id>/hands/<int:number>", tables.hand, name="table_hand"),
    path("tables/<path:rest>", tables.not_found),
    # Championships (muscore/api/championships.py), read-only like the leagues; any other
    # path under championships/ answers in JSON too.
    path("championships/<int:championship_id>", championships.detail, name="championship"),
    path("championships/<int:championship_id>/entries.csv", championships.entries_csv,
         name="championship_entries_csv"),
    re_path(r"^championships/(?P<rest>(?s:.+))$", championships.not_found),
    # Leagues, public and read-only (muscore/api/leagues.py).
    path("leagues/<int:league_id>", leagues.detail, name="league"),
    path("leagues/<int:league_id>/export", leagues.export, name="league_export"),
    path("leagues/<int:league_id>/standings.csv", leagues.standings_csv,
         name="league_standings_csv"),
    path("leagues/<int:league_id>/matches.csv", leagues.matches_csv,
         name="league_matches_csv"),
    path("leagues/<path:rest>", leagues.not_found),
    re_path(r"^leagues/(?P<rest>(?s:.+))$", leagues.not_found),
    # <path:> stops at a newline, so "hands/%0A" fell through to the HTML 404 page (found by
    # schemathesis, tests/api/test_openapi.py): this one catches every character.
    re_path(r"^tables/(?P<rest>(?s:.+))$", tables.not_found),
]
