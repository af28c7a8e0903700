from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "muscore.leagues"
    label = "leagues"
    verbose_name = "Leagues"

    def ready(self) -> None:
        # A league match takes its result from its table: listen without tables importing us.
        from muscore.leagues.services import on_table_changed
        from muscore.tables.signals import table_changed

        def listener(sender: object, table: object, state: object, **kwargs: object) -> None:
            on_table_changed(table, state)  # type: ignore[arg-type]

        table_changed.connect(listener, weak=False, dispatch_uid="leagues-table-result")
