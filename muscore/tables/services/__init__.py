"""A table's business logic: create it, add, undo and replace hands, replay the state.

The package, one concept a module, each above the ones it uses (callers import from
`muscore.tables.services`; no module takes another's private name):

- `errors`: TableError and its kinds (what a player is told)
- `checks`: what a table accepts (rules, names, mano, a hand record, any text, keys, a
  hand's number, a revision, piedras, MAX_HANDS)
- `replay`: the records replayed by the engine into vacas (pure), a vaca summed up,
  BadHand (the first hand that breaks the rules)
- `stored`: the stored hands and vacas, and the table's write lock that makes them current
- `rewrite`: what a change does to the stored vacas (Rewrite), or its refusal
- `reads`: the table, its revision, one hand, the audit, a preview
- `cache`: the state's JSON text from the stored vacas, cached per revision
- `idempotency`: a request sent again answers its first answer
- `write`: the one write path (the lock, a retry, the base revision, the commit)
- `hands`: add, undo, redo, replace, piedras
- `transfer`: create, export, import

The pages (muscore.tables.views) and the JSON API (muscore.api.tables) both sit
on these functions and nothing else. The stable API:

- `create_table(*, players=None, rules=None, mano=None) -> Table`
- `get_table(table_id) -> Table` (raises `TableNotFound`)
- `table_state(table) -> TableState`: {"id", "players", "rules", "current", "finished",
  "revision"}
- `read_state(table, finished="full") -> StateText`: the same as the JSON text the API
  sends (cached per revision, never parsed to be sent) and its revision; with
  `finished="summary"` (the API's default read) the finished vacas are summed up
- `board_state(table) -> BoardState`: what the board draws, without the finished vacas'
  hands; `summarize(state)` gives it from a whole state
- `preview_hand(table, record) -> dict`: the score() result of `record` as the next hand
- the writes, each answering a `WriteResult` (its answer's JSON text, whole or summed up
  as `finished` says, the revision, the status, what changed, whether it was a retry;
  `.state` parses the answer): `add_hand(table, record, *, number=None, client_id=None,
  idempotency_key=None, base_revision=None, via, finished="full")`, `undo_last(table, *,
  base_revision=None, idempotency_key=None, via, finished)`, `add_piedras(table, side, n,
  *, client_id=None, idempotency_key=None, base_revision=None, via, finished)`: piedras
  tapped by hand, stored as an entry among the hands (a perete is `add_hand` of
  `perete_record(side)`, refused by the engine where the table does not play it);
  `redo_last(table, *,
  base_revision=None, idempotency_key=None, via, finished)`: bring back the hand undone
  last (`redo_candidate(table) -> dict | None`: which); `replace_hand(table, number,
  record, *, base_revision=None, idempotency_key=None, via, finished)`: its answer
  carries "changed", the table-wide numbers of the hands whose result changed
- `hand_entry(table, number) -> dict`: one stored hand with its replayed result
- `table_changes(table) -> list[Change]`: the audit, oldest first
- `export_table(table) -> dict` / `import_table(data, *, via) -> Table`, which is
  `new_table(data, *, via) -> NewTable` (the rows made and checked outside any
  transaction) then `.store()` (four INSERTs: a new table, nothing to lock, nobody to tell)

Every write of a table that exists goes through `write.write`, the one write path (an
imported one is only inserted: `tests/tables/test_new_table.py` keeps its rows what its
hands written one by one through the path store): one transaction holding the table's
row lock, so two phones writing at once are served one after the other; a write that
fails leaves nothing behind;
`signals.table_changing` sees the vaca every write touches before it is changed,
`signals.table_changed` the new state after. `via` is a `Change.Via` value ("edit_link"
or "api").

The stored truth is the hand records: the scores, juegos, vacas and manos are
the replay of those records through `muscore.rules.replay_evening`. Each vaca's replay is
stored (`VacaCheckpoint`, as JSON text) in the same transaction as the change, so a
write replays only from the start of the vaca of the hand it touches, and a read
(even the first on a fresh worker) replays nothing. A table holds at most MAX_HANDS
hands. Small states are also kept in Django's cache, keyed by (table, revision,
epoch): a restore changes the epoch, so no worker serves a state from before it.
"""

from muscore.handentry.words import NAME_MAX, default_names
from muscore.tables.services.cache import (
    READ_KINDS,
    Finished,
    StateText,
    board_state,
    read_state,
    table_state,
)
from muscore.tables.services.checks import (
    ALL_LETTERS,
    CLIENT_ID_MAX,
    KEY_MAX,
    MAX_HANDS,
    PIEDRAS_MAX,
    TABLE_OWNED_KEYS,
    check_record,
    letters_of,
    normalize_mano,
    normalize_players,
    normalize_rules,
    perete_record,
    piedras_record,
)
from muscore.tables.services.errors import (
    HandConflict,
    HandNotFound,
    IdempotencyMismatch,
    LaterHandInvalid,
    ResultSettled,
    SameNames,
    StaleEdit,
    TableError,
    TableNotFound,
    UnreadableHand,
)
from muscore.tables.services.hands import (
    add_hand,
    add_piedras,
    redo_candidate,
    redo_last,
    replace_hand,
    undo_last,
)
from muscore.tables.services.reads import (
    dealt_number,
    get_table,
    hand_entry,
    preview_hand,
    table_changes,
    table_revision,
)
from muscore.tables.services.replay import (
    SUMMARY_KEYS,
    iter_hands,
    replay_table,
    replay_vacas,
    summarize,
    summary_of,
)
from muscore.tables.services.stored import rebuild_checkpoints, replay_stored
from muscore.tables.services.transfer import (
    EXPORT_FORMAT,
    EXPORT_KEYS,
    NewTable,
    create_table,
    export_table,
    import_table,
    new_table,
)
from muscore.tables.services.write import LazyState, WriteResult

__all__ = [
    "ALL_LETTERS",
    "CLIENT_ID_MAX",
    "EXPORT_FORMAT",
    "EXPORT_KEYS",
    "Finished",
    "HandConflict",
    "HandNotFound",
    "IdempotencyMismatch",
    "KEY_MAX",
    "LaterHandInvalid",
    "LazyState",
    "MAX_HANDS",
    "NAME_MAX",
    "NewTable",
    "PIEDRAS_MAX",
    "READ_KINDS",
    "ResultSettled",
    "SameNames",
    "SUMMARY_KEYS",
    "StateText",
    "StaleEdit",
    "TABLE_OWNED_KEYS",
    "TableError",
    "TableNotFound",
    "UnreadableHand",
    "WriteResult",
    "add_hand",
    "add_piedras",
    "board_state",
    "check_record",
    "create_table",
    "dealt_number",
    "default_names",
    "export_table",
    "get_table",
    "hand_entry",
    "import_table",
    "iter_hands",
    "letters_of",
    "new_table",
    "normalize_mano",
    "normalize_players",
    "normalize_rules",
    "perete_record",
    "piedras_record",
    "preview_hand",
    "read_state",
    "rebuild_checkpoints",
    "redo_candidate",
    "redo_last",
    "replace_hand",
    "replay_stored",
    "replay_table",
    "replay_vacas",
    "summarize",
    "summary_of",
    "table_changes",
    "table_revision",
    "table_state",
    "undo_last",
]
