from django.apps import AppConfig


class ChampionshipsConfig(AppConfig):
    name = "muscore.championships"
    label = "championships"
    verbose_name = "Championships"
