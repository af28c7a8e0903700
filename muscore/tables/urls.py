from django.urls import path
from django.views.generic import RedirectView

from muscore.tables import site_files, views

app_name = "tables"
urlpatterns = [
    path("", views.home, name="home"),
    path("mesa", views.quick_table, name="quick"),
    path("nueva", views.new_table, name="new"),
    path("importar", views.import_table, name="import"),
    # Typed with a slash, as /calculadora/ is (issue 38.9: /nueva/ was a 404).
    *(path(f"{name}/", RedirectView.as_view(pattern_name=f"tables:{target}", query_string=True))
      for name, target in (("nueva", "new"), ("importar", "import"))),
    path("t/<str:table_id>/", views.view_board, name="board"),
    path("t/<str:table_id>/historial", views.view_history, name="history"),
    path("t/<str:table_id>/k/<str:key>/", views.edit_board, name="edit_board"),
    path("t/<str:table_id>/k/<str:key>/historial", views.edit_history, name="edit_history"),
    path("t/<str:table_id>/vaca/<int:number>", views.view_vaca, name="vaca"),
    path("t/<str:table_id>/k/<str:key>/vaca/<int:number>", views.edit_vaca, name="edit_vaca"),
    path("t/<str:table_id>/k/<str:key>/mano", views.hand, name="hand"),
    path("t/<str:table_id>/k/<str:key>/mano/<int:number>", views.hand, name="edit_hand"),
    path("t/<str:table_id>/k/<str:key>/deshacer", views.undo, name="undo"),
    path("t/<str:table_id>/k/<str:key>/rehacer", views.redo, name="redo"),
    path("t/<str:table_id>/k/<str:key>/piedras", views.piedras, name="piedras"),
    path("t/<str:table_id>/k/<str:key>/perete", views.perete, name="perete"),
    path("mostrado/<str:token>", views.shown, name="shown"),
    path("t/<str:table_id>/manifest.webmanifest", views.view_manifest, name="view_manifest"),
    path(
        "t/<str:table_id>/k/<str:key>/manifest.webmanifest",
        views.edit_manifest,
        name="edit_manifest",
    ),
]

# The site's own files, at one address whatever the page's language (muscore.urls includes
# them under the namespace "site", outside the language prefixes). Installable and offline:
# the worker lives at the root so its scope is the whole site, every language's pages.
site_files_patterns = [
    path("robots.txt", site_files.robots, name="robots"),
    path("favicon.ico", site_files.favicon, name="favicon"),
    path("sw.js", site_files.service_worker, name="service_worker"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
]
