"""A match's result: the one owner that writes it (docs/architecture.md, "The path of a
league result").

A result is a value (`Result`: juegos, tantos, who did not show up, where it came from;
its winner derived), stored once as a row that the match, a pair's claim and the audit
share (muscore.leagues.models.result). Every door ends here:

- `doors`: the organiser's (`record_result`, `record_no_show`, `clear_result`), the checks
  every result passes (`read_result`, `check_result`) and what follows each write
  (`after_change`)
- `table`: a played table's (`on_table_changed`) and when a result is final for it
  (`settled`, `is_final`, `check_table_write`)
- `store`: the one write (`write`: the reason, the guard of what depends on it, the row,
  the standings lines, ratings and hand stats, the audit)
- `standings`: the standings from the stored results
- `bracket`: a knockout as ties and games, each tie's winner, and what the results send
  on (a cup's knockout filled from its groups and the ties before)
- `final`: a finished competition's final order, kept by the write for its revision
- `consequences`: what depends on a result, and what placed a competition

The pairs' links (muscore.leagues.confirmations), a ceros round
(muscore.leagues.ceros_rounds) and an import (muscore.leagues.imports) end in `write` and
`after_change` too.
"""

from muscore.leagues.changes import CompetitionError
from muscore.leagues.compute.document import Result
from muscore.leagues.results.bracket import KnockoutConflict
from muscore.leagues.results.doors import (
    after_change,
    check_result,
    clear_result,
    read_result,
    record_no_show,
    record_result,
)
from muscore.leagues.results.store import (
    HasDependents,
    ReasonRequired,
    new_row,
    set_results,
    write,
)
from muscore.leagues.results.table import (
    Settled,
    check_table_write,
    is_final,
    on_table_changed,
    settled,
    table_window,
)

__all__ = [
    "CompetitionError", "HasDependents", "KnockoutConflict", "ReasonRequired", "Result",
    "Settled", "after_change", "check_result", "check_table_write", "clear_result",
    "is_final", "new_row", "on_table_changed", "read_result", "record_no_show",
    "record_result", "set_results", "settled", "table_window", "write",
]
