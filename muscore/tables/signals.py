"""What a table tells the rest of the app, without importing it.

`table_changed` is sent inside each write's transaction (a hand added, undone or
replaced), with `table` and its new `state` (services.table_state's shape), so a
listener (a league match waiting for its result) stays in step with the hands
without muscore.tables knowing it exists. A listener must not raise.
"""

from django.dispatch import Signal

table_changed = Signal()
