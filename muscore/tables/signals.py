"""What a table tells the rest of the app, without importing it.

`table_changed` is sent inside each write's transaction (a hand added, undone, redone
or replaced, piedras, an import), with `table` and its new `state` (services.table_state's
shape), so a listener (a league match waiting for its result) stays in step with the hands
without muscore.tables knowing it exists. A listener must not raise.

`table_changing` is sent by every write (the one write path, services/write.py) before
anything is replayed or saved, inside the write's lock, with `table` and `vaca` (the index
of the first vaca the change touches). A receiver that owns what that vaca decided (a
league match whose result is final) refuses the change by raising
`services.ResultSettled`: the table's write rolls back and the player is told whom to ask.
The tables never know who listens.

`board_shown` is sent when a board is drawn, with `table`; a receiver whose table it
is (a league match) answers a dict the board shows: "title" and "where" (the
competition, its round and match), "url" (the match's page), "result" and "note" (the
result the owner holds, which is what counts, and how final it is), "back_url" and
"back" (the way back, offered instead of "Otra vaca"), "undo_refused" (the last hand is
not offered for undoing: its change would be refused) and "closed" (the table takes
nothing more: no new vaca either). Other receivers answer None.
"""

from django.dispatch import Signal

table_changed = Signal()
table_changing = Signal()
board_shown = Signal()
