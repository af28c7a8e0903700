from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "muscore.api"
    label = "api"
