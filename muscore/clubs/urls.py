from django.urls import path

from muscore.clubs import league_views as league
from muscore.clubs import views

app_name = "clubs"
urlpatterns = [
    path("clubs/", views.index, name="index"),
    path("clubs/nuevo", views.new_club, name="new"),
    path("cuentas/entrar", views.login, name="login"),
    path("cuentas/salir", views.logout, name="logout"),
    path("cuentas/clave/<str:uidb64>/<str:token>/", views.set_password, name="set_password"),
    path("club/<slug:slug>/", views.club, name="club"),
    path("club/<slug:slug>/editar", views.edit_club, name="edit"),
    path("club/<slug:slug>/organizadores", views.organisers, name="organisers"),
    path(
        "club/<slug:slug>/organizadores/<int:membership_id>/clave",
        views.reset_password,
        name="reset_password",
    ),
    path("club/<slug:slug>/jugadores/nuevo", views.player_form, name="new_player"),
    path("club/<slug:slug>/jugadores/<int:player_id>/", views.player_form, name="edit_player"),
    path("club/<slug:slug>/parejas/nueva", views.pair_form, name="new_pair"),
    path("club/<slug:slug>/parejas/<int:pair_id>/editar", views.pair_form, name="edit_pair"),
    # A club's competitions (muscore/clubs/league_views.py over muscore.leagues.services).
    path("club/<slug:slug>/ligas/nueva", league.new_competition, name="new_competition"),
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
]
