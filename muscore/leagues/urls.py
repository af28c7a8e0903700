"""The club page and its competitions' pages (muscore.leagues.views). muscore/urls.py serves
them under the namespace "leagues", and again beside muscore/clubs/urls.py under "clubs",
the names they had before they moved here from clubs (clubs must not import leagues)."""

from django.urls import path

from muscore.leagues.views import ceros, leaders, night, players, roster
from muscore.leagues.views import competitions as league
from muscore.leagues.views import confirmations as confirm
from muscore.leagues.views import documents as views_import
from muscore.leagues.views import screen as tv

urlpatterns = [
    path("club/<slug:slug>/", league.club, name="club"),
    path("club/<slug:slug>/ligas/nueva", league.new_competition, name="new_competition"),
    path("club/<slug:slug>/ligas/importar", views_import.import_competition,
         name="import_competition"),
    path("club/<slug:slug>/liga/<int:competition_id>/", league.competition, name="competition"),
    path("club/<slug:slug>/liga/<int:competition_id>/sorteo", league.draw, name="draw"),
    path("club/<slug:slug>/liga/<int:competition_id>/jornadas", league.rounds, name="rounds"),
    path(
        "club/<slug:slug>/liga/<int:competition_id>/jornada/<int:number>/",
        league.round_page,
        name="round",
    ),
    path(
        "club/<slug:slug>/liga/<int:competition_id>/jornada/<int:number>/hora",
        league.schedule,
        name="schedule",
    ),
    path(
        "club/<slug:slug>/liga/<int:competition_id>/pareja/<int:index>/",
        league.entry,
        name="entry",
    ),
    path(
        "club/<slug:slug>/liga/<int:competition_id>/partida/<int:number>/",
        league.match,
        name="match",
    ),
    path(
        "club/<slug:slug>/liga/<int:competition_id>/partida/<int:number>/jugar",
        league.play,
        name="play",
    ),
    path(
        "club/<slug:slug>/liga/<int:competition_id>/partida/<int:number>/resultado",
        league.result,
        name="result",
    ),
    path(
        "club/<slug:slug>/liga/<int:competition_id>/partida/<int:number>/no-presentado",
        league.no_show,
        name="no_show",
    ),
    path(
        "club/<slug:slug>/liga/<int:competition_id>/partida/<int:number>/suplente",
        league.substitute,
        name="substitute",
    ),
    path(
        "club/<slug:slug>/liga/<int:competition_id>/partida/<int:number>/titulares",
        league.own_players,
        name="own_players",
    ),
    path(
        "club/<slug:slug>/liga/<int:competition_id>/partida/<int:number>/anular",
        league.clear,
        name="clear",
    ),
    # Results both pairs agree on (muscore.leagues.confirmations).
    path(
        "club/<slug:slug>/liga/<int:competition_id>/partida/<int:number>/resultado/<str:key>/",
        confirm.pair_page,
        name="confirm_pair",
    ),
    path(
        "club/<slug:slug>/liga/<int:competition_id>/partida/<int:number>/resultado/<str:key>/"
        "<slug:action>",
        confirm.pair_action,
        name="confirm_pair_action",
    ),
    path(
        "club/<slug:slug>/liga/<int:competition_id>/partida/<int:number>/parejas/<slug:action>",
        confirm.decide,
        name="confirm_decide",
    ),
    path(
        "club/<slug:slug>/liga/<int:competition_id>/jornada/<int:number>/enlaces",
        confirm.round_links,
        name="confirm_round",
    ),
    # Players' ratings (muscore.leagues.rating_store).
    path("club/<slug:slug>/jugador/<int:player_id>/", players.player, name="player"),
    path("club/<slug:slug>/niveles/", players.ranking, name="ranking"),
    # Retire, bring back, merge (muscore.leagues.roster).
    path("club/<slug:slug>/jugador/<int:player_id>/retirar", roster.retire_player,
         name="retire_player"),
    path("club/<slug:slug>/jugador/<int:player_id>/fusionar", roster.merge, name="merge_player"),
    path("club/<slug:slug>/parejas/<int:pair_id>/retirar", roster.retire_pair,
         name="retire_pair"),
    path("nivel/", players.method, name="rating_method"),
    # The organiser's night (muscore.leagues.views.night).
    path("club/<slug:slug>/noche/", night.night_page, name="night"),
    path("club/<slug:slug>/liga/<int:competition_id>/tele", night.on_tv, name="on_tv"),
    path("club/<slug:slug>/liga/<int:competition_id>/archivar", night.archive, name="archive"),
    path("club/<slug:slug>/liga/<int:competition_id>/borrar", night.delete,
         name="delete_competition"),
    # The bar's screen and the group-chat card (muscore.leagues.views.screen).
    path("club/<slug:slug>/tv/", tv.tv, name="tv"),
    path(
        "club/<slug:slug>/liga/<int:competition_id>/jornada/<int:number>/tarjeta.<str:kind>",
        tv.round_card,
        name="round_card",
    ),
    path(
        "club/<slug:slug>/liga/<int:competition_id>/noche/<str:day>/tarjeta.<str:kind>",
        tv.night_card,
        name="night_card",
    ),
    # What the hands say: the club's leaders (muscore.leagues.stats_store).
    path("club/<slug:slug>/lideres/", leaders.leaders, name="leaders"),
    # The one-day tournament "a N ceros" (muscore.leagues.ceros_rounds).
    path("club/<slug:slug>/liga/<int:competition_id>/ceros/", ceros.page, name="ceros"),
    path(
        "club/<slug:slug>/liga/<int:competition_id>/ceros/sortear", ceros.draw, name="ceros_draw"
    ),
    path(
        "club/<slug:slug>/liga/<int:competition_id>/ceros/publicar",
        ceros.publish,
        name="ceros_publish",
    ),
]
