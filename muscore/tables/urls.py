from django.urls import path

from muscore.tables import views

app_name = "tables"
urlpatterns = [
    path("", views.home, name="home"),
]
