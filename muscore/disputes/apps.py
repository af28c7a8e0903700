from django.apps import AppConfig


class DisputesConfig(AppConfig):
    name = "muscore.disputes"
    label = "disputes"

    def ready(self) -> None:
        # A phone without signal opens the calculator, the lector and every rules page
        # it was never shown (issue 30.3: only the rules' index was kept).
        from django.urls import reverse

        from muscore.disputes.rules_pages import PAGES
        from muscore.tables import offline

        def pages() -> list[str]:
            return [
                reverse("disputes:calculator"),
                reverse("disputes:lector"),
                reverse("disputes:rules"),
                *(reverse("disputes:rules_page", args=[page.slug]) for page in PAGES),
            ]

        offline.keep_at_install(pages)
