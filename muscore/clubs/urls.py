"""The club pages: clubs, organisers' accounts, players and pairs. The club page itself and
its competitions' pages are in muscore/leagues/urls.py; muscore/urls.py puts both lists
under the one namespace "clubs" (clubs:club, clubs:competition...), as before they moved."""

from django.urls import path

from muscore.clubs import views

urlpatterns = [
    path("clubs/", views.index, name="index"),
    path("clubs/nuevo", views.new_club, name="new"),
    path("cuentas/entrar", views.login, name="login"),
    path("cuentas/salir", views.logout, name="logout"),
    path("cuentas/clave/<str:uidb64>/<str:token>/", views.set_password, name="set_password"),
    path("club/<slug:slug>/editar", views.edit_club, name="edit"),
    path("club/<slug:slug>/invitacion", views.answer_invitation, name="answer_invitation"),
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
]
