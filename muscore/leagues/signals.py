"""What the league tells the apps above it (championships) without importing them."""

from django.dispatch import Signal

#: Sent by :func:`muscore.leagues.results.after_change` inside the result's transaction,
#: once a competition's results, status and revision are stored, with ``competition`` and
#: ``by`` (the user, None for a table's result). What a receiver writes is part of the
#: result's write; a receiver's CompetitionError refuses the result (nothing is kept).
result_changed = Signal()

#: Sent wherever competitions' revisions move (a result, a pair renamed, two players
#: merged: what their pages and documents show), with ``competitions`` (their ids), inside
#: that write: an app keeping figures read from those revisions drops them (a
#: championship's pages, muscore.championships.kept).
revisions_moved = Signal()
