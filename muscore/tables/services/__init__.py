"""A table's business logic: create it, add, undo and replace hands, replay the state.

The package, by what each part does (callers import from `muscore.tables.services`):

- `errors`: TableError and its kinds (what a player is told)
- `checks`: what a table accepts (rules, names, mano, a hand record, keys, piedras, MAX_HANDS)
- `replay`: the replay of the records into vacas, the stored vacas, the write lock
- `cache`: the state's JSON text from the stored vacas, cached per revision
- `reads`: the table, its revision, one hand, the audit, a preview
- `write`: the write path (idempotency, base revision, the commit of a change)
- `hands`: add, undo, redo, replace, piedras
- `transfer`: create, export, import

The pages (muscore.tables.views) and the JSON API (muscore.api.tables) both sit
on these functions and nothing else. The stable API:

- `create_table(*, players=None, rules=None, mano=None) -> Table`
- `get_table(table_id) -> Table` (raises `TableNotFound`)
- `table_state(table) -> dict`: {"id", "players", "rules", "current", "finished", "revision"}
  (`table_state_json(table) -> str`: the same as JSON text, for the API)
- `board_state(table) -> BoardState`: what the board draws, without the finished vacas'
  hands (`summary_state_json(table) -> str`: the API's default read, as JSON text);
  `summarize(state)` gives it from a whole state
- `preview_hand(table, record) -> dict`: the score() result of `record` as the next hand
- `add_hand(table, record, *, number=None, client_id=None, idempotency_key=None, via) -> dict`
- `undo_last(table, *, base_revision=None, idempotency_key=None, via) -> dict`
- `add_piedras(table, side, n, *, client_id=None, idempotency_key=None, base_revision=None,
  via) -> dict`:
  piedras tapped by hand, stored as an entry among the hands
- `redo_candidate(table) -> dict | None` / `redo_last(table, *, base_revision=None,
  idempotency_key=None, via) -> dict`: bring back the hand undone last
- `replace_hand(table, number, record, *, base_revision=None, idempotency_key=None, via) -> dict`
  (the state plus "changed": the table-wide numbers of the hands whose result changed)
- `add_hand_json`, `undo_last_json`, `replace_hand_json`: the same writes answering the
  state's JSON text, for a caller that sends it on (the API) or does not read it (a page);
  with `finished="summary"` the finished vacas are summed up, as `summary_state_json`
- `hand_entry(table, number) -> dict`: one stored hand with its replayed result
- `table_changes(table) -> list[Change]`: the audit, oldest first
- `export_table(table) -> dict` / `import_table(data, *, via) -> Table`

Every write runs in one transaction holding the table's row lock, so two
phones writing at once are served one after the other; a write that fails
leaves nothing behind. `via` is a `Change.Via` value ("edit_link" or "api").

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
    board_state,
    summary_state_json,
    table_state,
    table_state_json,
)
from muscore.tables.services.checks import (
    CLIENT_ID_MAX,
    KEY_MAX,
    MAX_HANDS,
    PIEDRAS_MAX,
    TABLE_OWNED_KEYS,
    check_record,
    normalize_mano,
    normalize_players,
    normalize_rules,
    piedras_record,
)
from muscore.tables.services.errors import (
    HandConflict,
    HandNotFound,
    IdempotencyMismatch,
    LaterHandInvalid,
    ResultSettled,
    StaleEdit,
    TableError,
    TableNotFound,
    UnreadableHand,
)
from muscore.tables.services.hands import (
    add_hand,
    add_hand_json,
    add_piedras,
    redo_candidate,
    redo_last,
    replace_hand,
    replace_hand_json,
    undo_last,
    undo_last_json,
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
    rebuild_checkpoints,
    replay_stored,
    replay_table,
    replay_vacas,
    summarize,
    summary_of,
)
from muscore.tables.services.transfer import (
    EXPORT_FORMAT,
    EXPORT_KEYS,
    create_table,
    export_table,
    import_table,
)
from muscore.tables.services.write import LazyState

__all__ = [
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
    "PIEDRAS_MAX",
    "READ_KINDS",
    "ResultSettled",
    "SUMMARY_KEYS",
    "StaleEdit",
    "TABLE_OWNED_KEYS",
    "TableError",
    "TableNotFound",
    "UnreadableHand",
    "add_hand",
    "add_hand_json",
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
    "normalize_mano",
    "normalize_players",
    "normalize_rules",
    "piedras_record",
    "preview_hand",
    "rebuild_checkpoints",
    "redo_candidate",
    "redo_last",
    "replace_hand",
    "replace_hand_json",
    "replay_stored",
    "replay_table",
    "replay_vacas",
    "summarize",
    "summary_of",
    "summary_state_json",
    "table_changes",
    "table_revision",
    "table_state",
    "table_state_json",
    "undo_last",
    "undo_last_json",
]
