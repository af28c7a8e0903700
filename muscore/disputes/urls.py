from django.urls import path

from muscore.disputes import views

app_name = "disputes"
urlpatterns = [
    path("calculadora/", views.calculator, name="calculator"),
    path("lector/", views.lector, name="lector"),
    path("reglas/", views.rules_index, name="rules"),
    path("reglas/<slug:page>/", views.rules_page, name="rules_page"),
]
