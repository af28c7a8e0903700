from django.apps import AppConfig


class ClubsConfig(AppConfig):
    name = "muscore.clubs"
    verbose_name = "Clubs"
