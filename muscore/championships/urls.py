from django.urls import path

from muscore.championships import views

app_name = "championships"

urlpatterns = [
    path("", views.index, name="index"),
    path("nuevo/<slug:slug>/", views.new, name="new"),
    path("<int:pk>/", views.detail, name="detail"),
    path("<int:pk>/sedes/", views.add_sede, name="add_sede"),
    path("<int:pk>/inscripcion/", views.enter, name="enter"),
    path("<int:pk>/cerrar/", views.close, name="close"),
    path("<int:pk>/fases/", views.add_phase, name="add_phase"),
    path("<int:pk>/fases/<int:phase_pk>/sorteo/", views.draw, name="draw"),
    path("<int:pk>/fases/<int:phase_pk>/", views.phase, name="phase"),
    path("<int:pk>/fases/<int:phase_pk>/tv/", views.tv, name="tv"),
    path("<int:pk>/fases/<int:phase_pk>/reloj/", views.start_clock, name="start_clock"),
    path("<int:pk>/sedes/<int:sede_pk>/", views.sede, name="sede"),
    path("<int:pk>/sedes/<int:sede_pk>/fase-previa/", views.start_heat, name="start_heat"),
    path("<int:pk>/sedes/<int:sede_pk>/parejas/<int:enrolment_pk>/", views.enrolment_action,
         name="enrolment_action"),
    path("<int:pk>/parejas/<int:enrolment_pk>/", views.pair, name="pair"),
    path("<int:pk>/confirmar/<int:enrolment_pk>/<str:key>/", views.confirm_link,
         name="confirm"),
    path("<int:pk>/jugador/", views.player, name="player"),
]
