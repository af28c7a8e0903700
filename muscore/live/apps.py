from django.apps import AppConfig


class LiveConfig(AppConfig):
    name = "muscore.live"
    label = "live"
    verbose_name = "Live screens"

    def ready(self) -> None:
        # The writes below tell their topics through muscore.bus once committed; these
        # receivers are the ones whose apps must not know the streams exist.
        from muscore.leagues.signals import result_changed
        from muscore.live import topics
        from muscore.tables.signals import table_changed

        table_changed.connect(topics.on_table_changed, weak=False, dispatch_uid="live-table")
        result_changed.connect(topics.on_result_changed, weak=False, dispatch_uid="live-result")
