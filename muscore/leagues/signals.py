"""What the league tells the apps above it without importing them: observers only. Every
consequence of a result (a tie's next game and round, a competition's status and final
order) is written by the result's owner (muscore.leagues.results) before these are sent;
a receiver shows or forgets what changed, it writes none of the league's rows."""

from django.dispatch import Signal

#: Sent by :func:`muscore.leagues.results.after_change` inside the result's transaction,
#: once a competition's results, status, revision and final order are stored, with
#: ``competition`` and ``by`` (the user, None for a table's result): muscore.live pushes
#: the pages it changed (its club's night, its championship's).
result_changed = Signal()

#: Sent wherever competitions' revisions move (a result, a pair renamed, two players
#: merged: what their pages and documents show), with ``competitions`` (their ids), inside
#: that write: an app keeping figures read from those revisions drops them (a
#: championship's pages, muscore.championships.kept).
revisions_moved = Signal()
