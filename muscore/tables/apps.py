from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "muscore.tables"
    label = "tables"
