from django.apps import AppConfig


class DisputesConfig(AppConfig):
    name = "muscore.disputes"
    label = "disputes"
