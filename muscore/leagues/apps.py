from typing import Any

from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "muscore.leagues"
    label = "leagues"
    verbose_name = "Leagues"

    def ready(self) -> None:
        # A league match takes its result from its table: listen without tables importing us.
        from muscore.leagues.results import on_table_changed
        from muscore.tables.models import Table
        from muscore.tables.signals import table_changed
        from muscore.tables.state import TableState

        def listener(sender: object, table: Table, state: TableState, **kwargs: object) -> None:
            on_table_changed(table, state)

        table_changed.connect(listener, weak=False, dispatch_uid="leagues-table-result")

        # ...and refuses, through the table's own write, any change of a final result.
        from muscore.leagues.results import check_table_write
        from muscore.tables.signals import table_changing

        def guard(sender: object, table: Table, vaca: int, **kwargs: object) -> None:
            check_table_write(table, vaca)

        table_changing.connect(guard, weak=False, dispatch_uid="leagues-table-settled")

        # ...and tells its board which competition and match it is, and the league's result.
        from muscore.leagues.pages import table_board
        from muscore.tables.signals import board_shown

        def board(sender: object, table: Any, **kwargs: object) -> dict[str, Any] | None:
            return table_board(table.pk)

        board_shown.connect(board, weak=False, dispatch_uid="leagues-table-board")

        # A renamed pair or player changes the league's document: its ETag must change.
        from django.db.models.signals import post_delete, post_save

        from muscore.clubs.models import Pair, PairMember, Player
        from muscore.leagues.competitions import on_club_change

        for model in (Pair, PairMember, Player):
            post_save.connect(on_club_change, sender=model, dispatch_uid=f"leagues-{model}")
            post_delete.connect(on_club_change, sender=model,
                                dispatch_uid=f"leagues-del-{model}")
