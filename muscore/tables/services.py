"""A table's business logic: create it, add, undo and replace hands, replay the state.

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

from __future__ import annotations

import copy
import functools
import hashlib
import json
import secrets
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Literal, cast

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.translation import gettext_lazy as _
from django.utils.translation import override

from muscore import rules as rules_engine
from muscore import text as unicode_text
from muscore.permalink import next_context
from muscore.rule_messages import rule_message
from muscore.tables.models import Change, Hand, IdempotentWrite, Table, VacaCheckpoint
from muscore.tables.signals import table_changed, table_changing
from muscore.tables.state import (
    BoardState,
    EditedState,
    ReplayedHand,
    StoredHand,
    TableState,
    VacaSummary,
)

NAME_MAX = 40
# Lengths that fit the columns (Hand.client_id 100; IdempotentWrite.key 200 with a prefix).
CLIENT_ID_MAX = 100
KEY_MAX = 150
# Keys a hand record on a table must not carry: the table knows them.
TABLE_OWNED_KEYS = ("score", "mano", "rules")
# The most hands a table holds (an import above it is refused): a very long night is
# about 300; the limit keeps one table's state (about 0.8 kB a hand) to about 1.5 MB.
MAX_HANDS = 2000
# The state cache (Django's "default" cache) keeps a state's JSON text for a while, and
# only a text up to this size: a longer table is read from its stored vacas, which
# costs one query and no replay. The cache's own limits bound the total.
STATE_CACHE_SECONDS = 600
STATE_CACHE_MAX_CHARS = 64 * 1024
# Idempotent answers kept per table (the latest): a retry comes within minutes.
IDEMPOTENT_ANSWERS_KEPT = 20


class _InLanguage:
    """A message rendered in the active language when str() is taken (an engine error)."""

    def __init__(self, error: Exception) -> None:
        self.error = error

    def __str__(self) -> str:
        return rule_message(self.error)


def _fill(template: Any, params: Mapping[str, Any]) -> str:
    text = str(template)
    return text % {k: str(v) for k, v in params.items()} if params else text


class TableError(ValueError):
    """Something about a table request is wrong; str() says what, for a player.

    Raised with a translatable (Spanish) template and its params: str() is English,
    the language of the JSON API and the logs; `page_message()` says it in the
    language of the page being answered (the catalogue in locale/).
    """

    def __init__(self, message: Any, **params: Any) -> None:
        self.template = message
        self.params = params
        with override("en"):
            english = _fill(message, params)
        super().__init__(english)

    def page_message(self) -> str:
        return _fill(self.template, self.params)


class TableNotFound(TableError):
    pass


class HandNotFound(TableError):
    pass


class HandConflict(TableError):
    """The hand number was already filled (by another phone). `hand` is the stored one."""

    def __init__(self, message: Any, hand: StoredHand, **params: Any) -> None:
        super().__init__(message, **params)
        self.hand = hand


class StaleEdit(TableError):
    """The change started from an older revision than the table's."""

    def __init__(self, message: Any, revision: int, **params: Any) -> None:
        super().__init__(message, **params)
        self.revision = revision


class IdempotencyMismatch(TableError):
    """An Idempotency-Key (or client id) sent again with a different request."""


class ResultSettled(TableError):
    """A change refused because what its vaca decided is final elsewhere (a league match's
    result): raised by a `signals.table_changing` receiver; a 409."""


class LaterHandInvalid(TableError):
    """A change would make a later stored hand break the rules."""

    def __init__(self, message: Any, number: int, **params: Any) -> None:
        super().__init__(message, **params)
        self.number = number


# --- validation of the table's set-up -------------------------------------------------------


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def normalize_rules(raw: Mapping[str, Any] | None) -> dict[str, Any]:
    """Every option of rules.md filled in, or TableError naming the bad one.

    The engine's `Rules` is the one place that knows the options and their values.
    """
    try:
        return rules_engine.Rules.from_json(raw).to_json()
    except rules_engine.RuleError as error:
        raise TableError(_InLanguage(error)) from error


def default_names(players: int) -> list[str]:
    """A1, B1, A2, B2 (A3, B3): the side of each seat and its place in the side."""
    return [f"{'AB'[seat % 2]}{seat // 2 + 1}" for seat in range(players)]


def _check_name(seat: int, name: Any, default: str) -> str:
    if name is None:
        return default
    if not isinstance(name, str):
        raise TableError(_("el nombre del asiento %(seat)s debe ser un texto"), seat=seat + 1)
    if unicode_text.problem(name) == unicode_text.SURROGATE:
        raise TableError(
            _("el nombre del asiento %(seat)s no es texto Unicode válido"), seat=seat + 1
        )
    text = name.strip()
    if not text:
        return default
    if len(text) > NAME_MAX:
        raise TableError(
            _("el nombre del asiento %(seat)s tiene %(length)s caracteres; como mucho %(max)s"),
            seat=seat + 1,
            length=len(text),
            max=NAME_MAX,
        )
    if unicode_text.problem(text):
        raise TableError(
            _("el nombre del asiento %(seat)s lleva un carácter de control"), seat=seat + 1
        )
    if unicode_text.is_invisible(text):
        raise TableError(
            _("el nombre del asiento %(seat)s solo tiene caracteres invisibles"), seat=seat + 1
        )
    if unicode_text.has_bidi_control(text):
        raise TableError(
            _("el nombre del asiento %(seat)s lleva un carácter que cambia el sentido del texto"),
            seat=seat + 1,
        )
    return text


def normalize_players(raw: Any, count: int) -> list[str]:
    defaults = default_names(count)
    if raw is None:
        return defaults
    if not isinstance(raw, list | tuple):
        raise TableError(_("los jugadores deben ser una lista de nombres por asiento"))
    if len(raw) != count:
        raise TableError(
            _("%(names)s nombres para una mesa de %(count)s jugadores"), names=len(raw), count=count
        )
    return [_check_name(seat, name, defaults[seat]) for seat, name in enumerate(raw)]


def normalize_mano(raw: Any, count: int) -> int:
    if raw is None:
        return 0
    if raw == "random":
        # "We cut for it": the draw must not be predictable.
        return secrets.randbelow(count)
    if not _is_int(raw) or not 0 <= raw < count:
        raise TableError(
            _('la mano debe ser un asiento del 0 al %(last)s, o "random"'), last=count - 1
        )
    return int(raw)


def _check_key(name: str, value: Any, limit: int = KEY_MAX) -> str | None:
    if value is None:
        return None
    if (
        not isinstance(value, str)
        or not 1 <= len(value) <= limit
        or not value.isascii()
        or not value.isprintable()
    ):
        raise TableError(
            _("%(name)s debe tener de 1 a %(limit)s caracteres ASCII imprimibles"),
            name=name,
            limit=limit,
        )
    return value


def check_record(record: Any) -> dict[str, Any]:
    """A plain, JSON-clean copy of a hand record as a table stores it, or TableError."""
    if not isinstance(record, Mapping):
        raise TableError(_("una mano debe ser un objeto JSON"))
    present = [key for key in TABLE_OWNED_KEYS if key in record]
    if present:
        raise TableError(
            _(
                "una mano de una mesa no lleva %(key)s: la mesa ya sabe sus reglas, el tanteo "
                "y la mano"
            ),
            key=repr(present[0]),
        )
    try:
        clean = json.loads(json.dumps(record, allow_nan=False))
    except (TypeError, ValueError):
        raise TableError(_("una mano solo puede llevar valores JSON")) from None
    if not isinstance(clean, dict):
        raise TableError(_("una mano debe ser un objeto JSON"))
    _check_json_text(clean, _("una mano"))
    return clean


def _check_json_text(data: Any, what: Any) -> None:
    """TableError when a string of `data` is not text both databases and a page can hold."""
    found = unicode_text.json_problem(data)
    if found == unicode_text.SURROGATE:
        raise TableError(
            _("%(what)s lleva texto que no es Unicode válido (un surrogate suelto)"), what=what
        )
    if found:
        raise TableError(_("%(what)s lleva un carácter de control"), what=what)


# --- replay -----------------------------------------------------------------------------------


def _empty_vaca(mano: int) -> dict[str, Any]:
    return {
        "hands": [],
        "juegos": {"A": 0, "B": 0},
        "winner": None,
        "score": {"A": 0, "B": 0},
        "next_mano": mano,
    }


class UnreadableHand(rules_engine.RuleError):
    """A record the engine choked on (a TypeError, a KeyError...): still the record's
    fault, answered like any RuleError, never a crash. The engine's RuleError takes a
    code of its own catalogue; this one carries a translatable template instead."""

    def __init__(self, detail: str) -> None:
        self.code = "unreadable_hand"
        self.params = {"detail": detail}
        ValueError.__init__(self, self.message("en"))

    def message(self, language: str = "es") -> str:
        with override(language[:2]):
            return _fill(_("esta mano no se puede leer (%(detail)s)"), self.params)


def _score(record: dict[str, Any]) -> dict[str, Any]:
    try:
        return rules_engine.score(record)
    except rules_engine.RuleError:
        raise
    except (TypeError, KeyError, AttributeError, IndexError) as exc:
        raise UnreadableHand(f"{type(exc).__name__}: {exc}"[:200]) from exc


class _BadHand(Exception):
    def __init__(self, number: int, error: rules_engine.RuleError) -> None:
        super().__init__(str(error))
        self.number = number
        self.error = error


def replay_vacas(
    table_rules: dict[str, Any],
    mano: int,
    records: list[dict[str, Any]],
    first_hand: int = 1,
) -> list[dict[str, Any]]:
    """The vacas of `records`, played from a vaca's start: `mano` is its first mano and
    `first_hand` the table-wide number of records[0].

    muscore.rules.replay_evening splits them into vacas and resumes from that
    checkpoint: each vaca is muscore.rules.replay's output plus "first_hand" and
    "mano"; a vaca ends at the hand that wins it and the next starts at 0-0 with the
    won vaca's next_mano; the last vaca returned is the current one (no winner, maybe
    no hands). Raises _BadHand with the table-wide number of the first hand that breaks
    the rules.
    """
    start = rules_engine.Checkpoint(first_hand - 1, mano)
    try:
        evening = rules_engine.replay_evening(table_rules, records, start)
    except rules_engine.VacaError as error:
        number = error.number if error.number is not None else first_hand
        raise _BadHand(number, error.cause or error) from None
    except rules_engine.RuleError as error:
        raise _BadHand(first_hand, error) from None
    except (TypeError, KeyError, AttributeError, IndexError) as exc:
        # An input the engine did not expect is still a record's fault, never a crash:
        # the last one, the hand being added or the first that no replay has taken yet.
        bad = UnreadableHand(f"{type(exc).__name__}: {exc}"[:200])
        raise _BadHand(first_hand + max(len(records) - 1, 0), bad) from exc
    return [*evening["finished"], evening["current"]]


def replay_table(
    table_rules: dict[str, Any], first_mano: int, records: list[dict[str, Any]]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(current vaca, finished vacas) of a whole table's records, hands numbered from 1."""
    vacas = replay_vacas(table_rules, first_mano, records)
    return vacas[-1], vacas[:-1]


def _label(vaca: dict[str, Any], start: int, mano: int) -> dict[str, Any]:
    return {**vaca, "first_hand": start + 1, "mano": mano}


def _records(table: Table, first: int = 1) -> list[dict[str, Any]]:
    """The table's records from hand number `first` on, in order."""
    hands = Hand.objects.filter(table_id=table.pk)
    if first > 1:
        hands = hands.filter(number__gte=first)
    return list(hands.order_by("number").values_list("record", flat=True))


# --- the stored vacas (VacaCheckpoint) and the state read from them ---------------------------


def _dumps(value: Any) -> str:
    # The separators JsonResponse uses: the text stored is the text the API answers.
    return json.dumps(value)


SUMMARY_KEYS = ("juegos", "winner", "score", "next_mano", "first_hand", "mano")


def summary_of(vaca: Mapping[str, Any]) -> VacaSummary:
    """A vaca without its hands: its SUMMARY_KEYS and "hand_count" (stored beside each vaca:
    `VacaCheckpoint.summary`)."""
    summary = {key: vaca[key] for key in SUMMARY_KEYS}
    summary["hand_count"] = len(vaca["hands"])
    return cast(VacaSummary, summary)


def summarize(state: TableState) -> BoardState:
    """A whole state as the board reads it (`board_state`): the finished vacas summed up,
    the last one kept whole only when the board shows its end (the current vaca has no
    hands yet)."""
    finished = state["finished"]
    last = finished[-1] if finished and not state["current"]["hands"] else None
    return {
        "id": state["id"],
        "players": state["players"],
        "rules": state["rules"],
        "current": state["current"],
        "finished": [summary_of(vaca) for vaca in finished],
        "last_finished": last,
        "revision": state["revision"],
    }


def _rows(table: Table, index: int, vacas: list[dict[str, Any]]) -> list[VacaCheckpoint]:
    return [
        VacaCheckpoint(
            table_id=table.pk,
            index=index + i,
            first_hand=vaca["first_hand"],
            mano=vaca["mano"],
            hand_count=len(vaca["hands"]),
            winner=vaca["winner"],
            result=_dumps(vaca),
            summary=_dumps(summary_of(vaca)),
        )
        for i, vaca in enumerate(vacas)
    ]


def _store_vacas(
    table: Table, index: int, vacas: list[dict[str, Any]], *, alone: bool = False
) -> None:
    """Replace the table's stored vacas from `index` on by `vacas` (inside the write lock);
    with `alone`, only the one at `index`."""
    rows = VacaCheckpoint.objects.filter(table_id=table.pk, index__gte=index)
    if alone:
        rows = rows.filter(index=index)
    rows.delete()
    VacaCheckpoint.objects.bulk_create(_rows(table, index, vacas))


def _state_text(table: Table, texts: list[str]) -> str:
    """The state's JSON text from the stored vacas' texts, none of them parsed again.

    The same text as json.dumps of {"id", "players", "rules", "current", "finished",
    "revision"}: what JsonResponse would send."""
    head = _dumps({"id": table.id, "players": list(table.players), "rules": dict(table.rules)})
    finished = ", ".join(texts[:-1])
    return (
        f'{head[:-1]}, "current": {texts[-1]}, "finished": [{finished}], '
        f'"revision": {int(table.revision)}}}'
    )


def _texts(table: Table) -> list[str]:
    return list(
        VacaCheckpoint.objects.filter(table_id=table.pk)
        .order_by("index")
        .values_list("result", flat=True)
    )


def _replay_all(table: Table) -> list[dict[str, Any]]:
    try:
        return replay_vacas(table.rules, table.first_mano, _records(table))
    except _BadHand as bad:
        raise LaterHandInvalid(
            _("mano %(n)s: %(why)s"), bad.number, n=bad.number, why=_InLanguage(bad.error)
        ) from None


def _ensure_replayed(table: Table) -> None:
    """Inside the write lock: replay the whole table once if its stored vacas are not
    those of its revision (a table from before them, or loaded with loaddata)."""
    if table.replayed_revision == table.revision and table.vacas.exists():
        return
    _store_vacas(table, 0, _replay_all(table))
    table.replayed_revision = table.revision
    table.save(update_fields=["replayed_revision"])


def rebuild_checkpoints(table: Table) -> None:
    """Replay the table's records from scratch and store its vacas again (restore uses it).

    Raises LaterHandInvalid naming the first stored hand that breaks the rules."""
    with transaction.atomic():
        fresh = _lock(table.pk, replayed=False)
        _store_vacas(fresh, 0, _replay_all(fresh))
        fresh.replayed_revision = fresh.revision
        fresh.save(update_fields=["replayed_revision"])


def replay_stored(table: Table) -> TableState:
    """The state replayed from the stored records, never from the stored vacas or the cache.

    Raises LaterHandInvalid naming the first stored hand that breaks the rules."""
    fresh = Table.objects.get(pk=table.pk)
    vacas = _replay_all(fresh)
    state = {
        "id": fresh.id,
        "players": list(fresh.players),
        "rules": dict(fresh.rules),
        "current": vacas[-1],
        "finished": vacas[:-1],
        "revision": fresh.revision,
    }
    return cast(TableState, state)


# What a read gives, each cached under its own key: the whole state ("state", the API's
# ?finished=full and the pages that list every hand), the API's default read ("summary":
# the finished vacas without their hands) and the board's ("board": the same, plus the
# last finished vaca whole when the board shows its end).
READ_KINDS = ("state", "summary", "board")
# How a write answers: the whole state ("full", the Python API's default) or the API's
# default read ("summary": no hands of the finished vacas, so a write on a full table
# answers what one on a short table does).
Finished = Literal["summary", "full"]


def _cache_key(table: Table, kind: str = "state") -> str:
    # The epoch changes at a restore: a state cached before it is never read again.
    name = "table-state" if kind == "state" else f"table-{kind}"
    return f"muscore:{name}:{table.pk}:{table.revision}:{table.epoch}"


def _cache_put(table: Table, text: str, kind: str = "state") -> None:
    # Bounded per entry: a long table's state is read from its stored vacas instead.
    if len(text) <= STATE_CACHE_MAX_CHARS:
        cache.set(_cache_key(table, kind), text, STATE_CACHE_SECONDS)


def _summary_text(table: Table, *, board: bool) -> str | None:
    """The state's JSON text with each finished vaca's summary instead of the vaca (and,
    for the board, "last_finished"), from the stored vacas: two queries whatever the
    table's length. The hands of a finished vaca are read only when the board shows
    its end (the current vaca has no hands yet). None when nothing is stored."""
    rows = list(
        VacaCheckpoint.objects.filter(table_id=table.pk)
        .order_by("index")
        .values_list("index", "hand_count", "summary")
    )
    if not rows:
        return None
    current = rows[-1][0]
    shows_end = rows[-1][1] == 0 and len(rows) > 1
    last = rows[-2][0] if shows_end and board else None
    # A row stored before the summary column (and not yet filled) gives it from its vaca.
    wanted = {current, *(index for index, _count, text in rows[:-1] if not text)}
    if last is not None:
        wanted.add(last)
    texts = dict(
        VacaCheckpoint.objects.filter(table_id=table.pk, index__in=wanted).values_list(
            "index", "result"
        )
    )
    summaries = ", ".join(
        text or _dumps(summary_of(json.loads(texts[index]))) for index, _count, text in rows[:-1]
    )
    head = _dumps({"id": table.id, "players": list(table.players), "rules": dict(table.rules)})
    extra = ""
    if board:
        extra = f', "last_finished": {texts[last] if last is not None else "null"}'
    return (
        f'{head[:-1]}, "current": {texts[current]}, "finished": [{summaries}]{extra}, '
        f'"revision": {int(table.revision)}}}'
    )


def _read(table: Table, kind: str) -> str:
    """The JSON text of a read (`kind` of READ_KINDS), from the cache or the stored vacas:
    no replay, and the revision checked again after reading so that a write landing in
    between is never half seen."""
    build: dict[str, Callable[[Table], str | None]] = {
        "state": lambda t: _state_text(t, texts) if (texts := _texts(t)) else None,
        "summary": lambda t: _summary_text(t, board=False),
        "board": lambda t: _summary_text(t, board=True),
    }
    for _attempt in range(5):
        fresh = Table.objects.filter(pk=table.pk).first()
        if fresh is None:
            raise TableNotFound(_("no hay ninguna mesa con ese enlace"))
        if fresh.replayed_revision != fresh.revision:
            break
        text = cache.get(_cache_key(fresh, kind))
        if isinstance(text, str):
            return text
        text = build[kind](fresh)
        if text is None:
            break
        if table_revision(fresh.pk) != fresh.revision:
            continue  # a write landed between the reads: read again
        _cache_put(fresh, text, kind)
        return text
    # Vacas to replay first, or a storm of writes: read inside the lock, always consistent.
    with transaction.atomic():
        fresh = _lock(table.pk)
        text = build[kind](fresh)
    assert text is not None, "_lock stored the vacas"
    _cache_put(fresh, text, kind)
    return text


def table_state_json(table: Table) -> str:
    """table_state() as its JSON text, read from the cache or the stored vacas: no replay,
    no parsing (the API sends it as it is)."""
    return _read(table, "state")


def summary_state_json(table: Table) -> str:
    """The API's default read as JSON text: table_state() with each finished vaca's
    summary (VacaSummary: no hands) in "finished". Its cost does not grow with the hands
    of the finished vacas."""
    return _read(table, "summary")


def board_state(table: Table) -> BoardState:
    """What the board draws (BoardState): the current vaca, the finished vacas' summaries,
    and the last finished vaca whole only when the board shows its end. Never replays,
    and never reads the hands of the other finished vacas."""
    return cast(BoardState, json.loads(_read(table, "board")))


def table_state(table: Table) -> TableState:
    """The API's GET shape: {"id","players","rules","current","finished","revision"}.

    Each vaca is muscore.rules.replay's output plus "first_hand" (the table-wide
    number of its first hand) and "mano" (its first mano). The hand at index i
    of a vaca is table-wide hand number first_hand + i.
    """
    return cast(TableState, json.loads(table_state_json(table)))


def _possible_id(table_id: Any) -> bool:
    # A NUL or a lone surrogate in a URL never names a table, and PostgreSQL refuses to
    # even compare it (a 500): such a link is a table that does not exist.
    return isinstance(table_id, str) and len(table_id) <= 64 and not unicode_text.problem(table_id)


def table_revision(table_id: str) -> int | None:
    """The table's revision in one indexed query (the ETag check), None when unknown."""
    if not _possible_id(table_id):
        return None
    return Table.objects.filter(pk=table_id).values_list("revision", flat=True).first()


def dealt_number(table: Table, number: int) -> int:
    """The number a player reads for entry `number`: hands dealt up to it, piedras taps
    tapped by hand not counted (the entry number stays the record's key)."""
    taps = table.hands.filter(number__lt=number, record__has_key="piedras").count()
    return number - taps


def iter_hands(state: TableState) -> list[tuple[int, ReplayedHand]]:
    """(table-wide number, replayed hand) for every hand of every vaca, in order."""
    out: list[tuple[int, ReplayedHand]] = []
    for vaca in [*state["finished"], state["current"]]:
        for i, hand in enumerate(vaca["hands"]):
            out.append((vaca["first_hand"] + i, hand))
    return out


# --- reads ------------------------------------------------------------------------------------


def get_table(table_id: Any) -> Table:
    if not _possible_id(table_id):
        raise TableNotFound(_("no hay ninguna mesa con ese enlace"))
    try:
        return Table.objects.get(pk=table_id)
    except Table.DoesNotExist:
        raise TableNotFound(_("no hay ninguna mesa con ese enlace")) from None


def _vaca_of(table: Table, number: int | None) -> dict[str, Any]:
    """The stored vaca holding hand `number` (None: the current vaca), parsed."""
    for _attempt in range(5):
        fresh = Table.objects.filter(pk=table.pk).first()
        if fresh is None:
            raise TableNotFound(_("no hay ninguna mesa con ese enlace"))
        if fresh.replayed_revision != fresh.revision:
            break
        rows = VacaCheckpoint.objects.filter(table_id=fresh.pk)
        if number is not None:
            rows = rows.filter(first_hand__lte=number)
        text = rows.order_by("-index").values_list("result", flat=True).first()
        if text is None:
            break
        if table_revision(fresh.pk) != fresh.revision:
            continue
        vaca: dict[str, Any] = json.loads(text)
        return vaca
    with transaction.atomic():
        _lock(table.pk)
        return _vaca_of(table, number)


def hand_entry(table: Table, number: int) -> StoredHand:
    """One stored hand: {"number", "record", "mano", "juego", "score", "winner", "result"}."""
    try:
        record = table.hands.get(number=number).record
    except Hand.DoesNotExist:
        raise HandNotFound(_("la mano %(n)s no existe"), n=number) from None
    vaca = _vaca_of(table, number)
    i = number - vaca["first_hand"]
    if 0 <= i < len(vaca["hands"]):
        return cast(StoredHand, {"number": number, "record": record, **vaca["hands"][i]})
    # pragma: no cover - replay covers every hand
    return cast(StoredHand, {"number": number, "record": record})


def table_changes(table: Table) -> list[Change]:
    return list(table.changes.order_by("at", "id"))


def preview_hand(table: Table, record: Any) -> dict[str, Any]:
    """The score() result `record` would give as the table's next hand; nothing is saved."""
    clean = check_record(record)
    mano, score = next_context(_vaca_of(table, None))
    return _score({**clean, "rules": dict(table.rules), "mano": mano, "score": score})


# --- writes -----------------------------------------------------------------------------------
#
# A write function: check its input, then in one transaction `_lock` the table (which
# also makes sure its stored vacas are current), compute what to store with
# `_append` / `_rewrite_from`, change the Hand rows, and finish with `_commit`, which
# bumps the revision, writes the audit row, stores the vacas and the idempotent answer
# and returns the new state's JSON text. See add_hand_json for the pattern.


def _lock(table_id: str, *, replayed: bool = True) -> Table:
    """Take the table's write lock inside the current transaction, then read it fresh.

    The no-op UPDATE comes first on purpose: on PostgreSQL it takes the row lock;
    on SQLite it takes the database write lock before any read, so a second
    writer waits (busy timeout) instead of failing to upgrade a read lock.
    With `replayed` (the default) the table's stored vacas are made current.
    """
    if not Table.objects.filter(pk=table_id).update(revision=F("revision")):
        raise TableNotFound(_("no hay ninguna mesa con ese enlace"))
    table = Table.objects.select_for_update().get(pk=table_id)
    if replayed:
        _ensure_replayed(table)
    return table


def _fingerprint(action: str, number: int | None, record: Any) -> str:
    payload = json.dumps([action, number, record], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(payload.encode()).hexdigest()


def _replayed_answer(table: Table, keys: list[str], fingerprint: str) -> str | None:
    for key in keys:
        stored = IdempotentWrite.objects.filter(table=table, key=key).first()
        if stored is None:
            continue
        if stored.fingerprint != fingerprint:
            raise IdempotencyMismatch(
                _("esta Idempotency-Key (o client id) ya se usó para otra petición distinta")
            )
        return stored.body
    return None


class Rewrite:
    """What a change does to the stored vacas: from `index` on, they become `vacas`
    (only the vaca at `index` when `alone`: the later ones stay as they are).

    `old` are the vacas they replace (to tell which hands' results changed)."""

    def __init__(
        self,
        index: int,
        vacas: list[dict[str, Any]],
        old: list[dict[str, Any]],
        *,
        alone: bool = False,
    ) -> None:
        self.index = index
        self.vacas = vacas
        self.old = old
        self.alone = alone

    def changed(self) -> list[int]:
        """Table-wide numbers of the hands whose mano, juego, score or winner differ."""

        def summary(vacas: list[dict[str, Any]]) -> dict[int, Any]:
            return {
                vaca["first_hand"] + i: (h["mano"], h["juego"], h["score"], h["winner"])
                for vaca in vacas
                for i, h in enumerate(vaca["hands"])
            }

        before, after = summary(self.old), summary(self.vacas)
        return sorted(n for n in set(before) | set(after) if before.get(n) != after.get(n))


def _stored_vacas(table: Table, index: int, last: int | None = None) -> list[dict[str, Any]]:
    rows = VacaCheckpoint.objects.filter(table_id=table.pk, index__gte=index)
    if last is not None:
        rows = rows.filter(index__lte=last)
    return [json.loads(text) for text in rows.order_by("index").values_list("result", flat=True)]


def _current_row(table: Table) -> VacaCheckpoint:
    row = VacaCheckpoint.objects.filter(table_id=table.pk).order_by("-index").first()
    assert row is not None, "_lock made the stored vacas current"
    return row


def _replay_from(table: Table, row: VacaCheckpoint, records: list[dict[str, Any]]) -> Rewrite:
    """The vacas of `records` replayed from the start of `row`'s vaca, replacing it and
    every later one."""
    vacas = replay_vacas(table.rules, row.mano, records, row.first_hand)
    return Rewrite(row.index, vacas, _stored_vacas(table, row.index))


def _append(table: Table, record: dict[str, Any]) -> Rewrite:
    """`record` as the table's next hand: only the current vaca is replayed.

    Raises the engine's RuleError about the new hand (nothing is stored)."""
    row = _current_row(table)
    records = [*_records(table, row.first_hand), record]
    new = row.first_hand + len(records) - 1
    try:
        return _replay_from(table, row, records)
    except _BadHand as bad:
        if bad.number == new:
            raise bad.error from None
        raise LaterHandInvalid(
            _("mano %(n)s: %(why)s"), bad.number, n=bad.number, why=_InLanguage(bad.error)
        ) from None


def _check_limit(count: int) -> None:
    if count >= MAX_HANDS:
        raise TableError(
            _(
                "la mesa ya tiene %(max)s manos, el máximo de una mesa: exporta esta y "
                "empieza una mesa nueva para seguir"
            ),
            max=MAX_HANDS,
        )


def _answer_text(table: Table, finished: Finished) -> str:
    """The state's JSON text a write answers, read inside its lock from the stored vacas."""
    if finished == "full":
        return _state_text(table, _texts(table))
    text = _summary_text(table, board=False)
    assert text is not None, "the write stored the vacas"
    return text


def _commit_json(
    table: Table,
    *,
    action: str,
    number: int | None,
    before: Any,
    after: Any,
    via: str,
    rewrite: Rewrite,
    keys: list[str],
    fingerprint: str,
    status: int,
    idempotency_key: str | None,
    extra: Mapping[str, Any] | None = None,
    finished: Finished = "full",
) -> str:
    """Store a change made inside the write lock; the new state's JSON text (plus `extra`),
    whole or with the finished vacas summed up (`finished`)."""
    if via not in Change.Via.values:
        raise TableError(_("forma desconocida de cambiar una mesa: %(via)s"), via=repr(via))
    table.revision += 1
    table.replayed_revision = table.revision
    table.save(update_fields=["revision", "replayed_revision", "updated_at"])
    Change.objects.create(
        table=table,
        action=action,
        number=number,
        before=before,
        after=after,
        via=via,
        idempotency_key=idempotency_key,
        revision=table.revision,
    )
    _store_vacas(table, rewrite.index, rewrite.vacas, alone=rewrite.alone)
    state = _answer_text(table, finished)
    _cache_put(table, state, "state" if finished == "full" else "summary")
    answer = state
    if extra:
        answer = state[:-1] + ", " + _dumps(dict(extra))[1:]
    if keys:
        IdempotentWrite.objects.bulk_create(
            IdempotentWrite(
                table=table, key=key, fingerprint=fingerprint, status=status, body=answer
            )
            for key in keys
        )
        # A retry comes within minutes: only the latest answers are kept, so a long table
        # does not keep a copy of its state per hand.
        stale = (
            IdempotentWrite.objects.filter(table=table)
            .order_by("-id")
            .values_list("id", flat=True)[IDEMPOTENT_ANSWERS_KEPT : IDEMPOTENT_ANSWERS_KEPT + 1]
        )
        if stale:
            IdempotentWrite.objects.filter(table=table, id__lte=stale[0]).delete()
    # Parsed (and, after a summed-up answer, read whole) only if a listener looks inside.
    whole: str | Callable[[], str] = state
    if finished != "full":
        whole = functools.partial(_answer_text, table, "full")
    table_changed.send(sender=Table, table=table, state=LazyState(whole))
    return answer


def _check_base(table: Table, base_revision: Any) -> None:
    if base_revision is None:
        return
    if not _is_int(base_revision):
        raise TableError(_("revision debe ser un número entero"))
    if base_revision != table.revision:
        raise StaleEdit(
            _(
                "la mesa cambió desde que empezó este cambio (revisión %(base)s, ahora "
                "%(now)s): mira otra vez el marcador y repite el cambio"
            ),
            table.revision,
            base=base_revision,
            now=table.revision,
        )


def _idempotency_keys(client_id: str | None, idempotency_key: str | None) -> list[str]:
    keys = []
    if idempotency_key is not None:
        keys.append(f"key:{idempotency_key}")
    if client_id is not None:
        keys.append(f"client:{client_id}")
    return keys


class LazyState(Mapping[str, Any]):
    """A state (table_state's shape) from its JSON text, or from a function reading it,
    parsed (and read) at the first look inside."""

    def __init__(self, text: str | Callable[[], str]) -> None:
        self.text = text
        self._parsed: dict[str, Any] | None = None

    def _data(self) -> dict[str, Any]:
        if self._parsed is None:
            text = self.text if isinstance(self.text, str) else self.text()
            self._parsed = json.loads(text)
        assert self._parsed is not None
        return self._parsed

    def __getitem__(self, key: str) -> Any:
        return self._data()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data())

    def __len__(self) -> int:
        return len(self._data())


def _loads(text: str) -> TableState:
    return cast(TableState, json.loads(text))


def add_hand(
    table: Table,
    record: Any,
    *,
    number: Any = None,
    client_id: Any = None,
    idempotency_key: Any = None,
    base_revision: Any = None,
    via: str,
) -> TableState:
    """Store `record` as the table's next hand and return the new state.

    - `base_revision` given and not the table's: StaleEdit (a tap aimed at an old board).

    - `number` given and already filled: HandConflict carrying the stored hand;
      given beyond the next number: TableError.
    - the same `client_id` or `idempotency_key` again: the first answer, nothing stored.
    - a record that breaks the rules: RuleError (from muscore.rules), nothing stored.
    - a table already holding MAX_HANDS hands: TableError.
    """
    return _loads(
        add_hand_json(
            table,
            record,
            number=number,
            client_id=client_id,
            idempotency_key=idempotency_key,
            base_revision=base_revision,
            via=via,
        )
    )


def add_hand_json(
    table: Table,
    record: Any,
    *,
    number: Any = None,
    client_id: Any = None,
    idempotency_key: Any = None,
    base_revision: Any = None,
    via: str,
    finished: Finished = "full",
) -> str:
    """add_hand(), answering the state's JSON text (not parsed: the API sends it), whole or
    with the finished vacas summed up (`finished`)."""
    clean = check_record(record)
    client_id = _check_key("client id", client_id, CLIENT_ID_MAX)
    idempotency_key = _check_key("Idempotency-Key", idempotency_key)
    if number is not None and (not _is_int(number) or number < 1):
        raise TableError(_("number debe ser un número entero desde 1"))
    keys = _idempotency_keys(client_id, idempotency_key)
    fingerprint = _fingerprint("add", number, clean)
    try:
        with transaction.atomic():
            table = _lock(table.pk)
            answer = _replayed_answer(table, keys, fingerprint)
            if answer is not None:
                return answer
            _check_base(table, base_revision)
            current = _current_row(table)
            count = current.first_hand + current.hand_count - 1
            if client_id is not None and _same_hand_again(table, client_id, clean):
                # Its stored answer is gone (only the latest are kept): the hand is stored.
                return _answer_text(table, finished)
            if number is not None and number <= count:
                raise HandConflict(
                    _("otro móvil ya guardó la mano %(n)s: aquí está"),
                    hand_entry(table, number),
                    n=number,
                )
            if number is not None and number > count + 1:
                raise TableError(
                    _(
                        "la mano %(n)s no se puede guardar todavía: la mesa tiene %(count)s "
                        "manos, la siguiente es la %(next)s"
                    ),
                    n=number,
                    count=count,
                    next=count + 1,
                )
            _check_limit(count)
            rewrite = _append(table, clean)
            new = count + 1
            Hand.objects.create(table=table, number=new, record=clean, client_id=client_id)
            return _commit_json(
                table,
                action=Change.Action.ADD,
                number=new,
                before=None,
                after=clean,
                via=via,
                rewrite=rewrite,
                keys=keys,
                fingerprint=fingerprint,
                status=201,
                idempotency_key=idempotency_key,
                finished=finished,
            )
    except IntegrityError:
        # Only reachable if two writers slipped past the lock: answer as for a retry.
        table = get_table(table.pk)
        answer = _replayed_answer(table, keys, fingerprint)
        if answer is not None:
            return answer
        raise TableError(_("la mesa cambió en ese mismo momento: envía la mano otra vez")) from None


def _same_hand_again(table: Table, client_id: str, record: dict[str, Any]) -> bool:
    stored = Hand.objects.filter(table=table, client_id=client_id).values_list("record", flat=True)
    return any(_fingerprint("", None, r) == _fingerprint("", None, record) for r in stored)


def undo_last(
    table: Table,
    *,
    base_revision: Any = None,
    idempotency_key: Any = None,
    via: str,
) -> TableState:
    """Remove the last hand (its record stays in the audit) and return the new state."""
    return _loads(
        undo_last_json(table, base_revision=base_revision, idempotency_key=idempotency_key, via=via)
    )


def undo_last_json(
    table: Table,
    *,
    base_revision: Any = None,
    idempotency_key: Any = None,
    via: str,
    finished: Finished = "full",
) -> str:
    """undo_last(), answering the state's JSON text (`finished`: as add_hand_json)."""
    idempotency_key = _check_key("Idempotency-Key", idempotency_key)
    keys = _idempotency_keys(None, idempotency_key)
    fingerprint = _fingerprint("undo", base_revision, None)
    with transaction.atomic():
        table = _lock(table.pk)
        answer = _replayed_answer(table, keys, fingerprint)
        if answer is not None:
            return answer
        _check_base(table, base_revision)
        last = table.hands.order_by("-number").first()
        if last is None:
            raise TableError(_("no hay ninguna mano que deshacer"))
        before, number = last.record, last.number
        row = _current_row(table)
        if row.hand_count == 0:
            # The last hand won the vaca before: that vaca is played again without it.
            row = VacaCheckpoint.objects.get(table_id=table.pk, index=row.index - 1)
        table_changing.send(sender=Table, table=table, vaca=row.index)
        records = _records(table, row.first_hand)[:-1]
        last.delete()
        return _commit_json(
            table,
            action=Change.Action.UNDO,
            number=number,
            before=before,
            after=None,
            via=via,
            rewrite=_replay_from(table, row, records),
            keys=keys,
            fingerprint=fingerprint,
            status=200,
            idempotency_key=idempotency_key,
            finished=finished,
        )


PIEDRAS_MAX = 100


def piedras_record(side: Any, n: Any) -> dict[str, Any]:
    """The record of piedras tapped by hand, `{"piedras": {"side", "n"}}`, or TableError.

    The engine replays it among the hands (docs/contract.md, "Piedras entries"); here
    only what a player can get wrong is said in a player's words.
    """
    if side not in ("A", "B"):
        raise TableError(_('las piedras son para un bando: "A" o "B"'))
    if not _is_int(n) or n == 0 or abs(n) > PIEDRAS_MAX:
        raise TableError(
            _("las piedras son un número entero de -%(max)s a %(max)s, sin el 0"), max=PIEDRAS_MAX
        )
    return {"piedras": {"side": side, "n": n}}


def add_piedras(
    table: Table,
    side: Any,
    n: Any,
    *,
    client_id: Any = None,
    idempotency_key: Any = None,
    base_revision: Any = None,
    via: str,
) -> TableState:
    """Piedras by hand (+1, +5, -1 for a side, as on paper): an entry in the table's record.

    Stored like a hand, in the same list, so undo, redo, the audit and the replay
    treat it as one; the juego and the vaca end as usual when it reaches the target.
    A `base_revision` that is not the table's is a StaleEdit: the tap was aimed at a
    board another phone has changed since.
    """
    return add_hand(
        table,
        piedras_record(side, n),
        client_id=client_id,
        idempotency_key=idempotency_key,
        base_revision=base_revision,
        via=via,
    )


def redo_candidate(table: Table) -> dict[str, Any] | None:
    """The hand a redo would bring back: {"number", "record"}, or None.

    Undos stack up: after undoing hands 5 and 4, a redo brings back 4, then 5.
    Any other change (a hand added, corrected or imported) ends the chance, so a
    redo never lands on a table that moved on.
    """
    pending_redos = 0
    for change in table.changes.order_by("-at", "-id").only("action", "number", "before")[:200]:
        if change.action == Change.Action.REDO:
            pending_redos += 1
        elif change.action == Change.Action.UNDO:
            if pending_redos:
                pending_redos -= 1
                continue
            if change.number != table.hands.count() + 1 or not isinstance(change.before, dict):
                return None
            return {"number": change.number, "record": copy.deepcopy(change.before)}
        else:
            return None
    return None


def redo_last(
    table: Table,
    *,
    base_revision: Any = None,
    idempotency_key: Any = None,
    via: str,
) -> TableState:
    """Bring back the hand undone last (see `redo_candidate`) and return the new state.

    The redo is in the audit like any change; nothing to redo is a TableError.
    """
    idempotency_key = _check_key("Idempotency-Key", idempotency_key)
    keys = _idempotency_keys(None, idempotency_key)
    fingerprint = _fingerprint("redo", base_revision, None)
    with transaction.atomic():
        table = _lock(table.pk)
        answer = _replayed_answer(table, keys, fingerprint)
        if answer is not None:
            return _loads(answer)
        _check_base(table, base_revision)
        candidate = redo_candidate(table)
        if candidate is None:
            raise TableError(_("no hay ninguna mano deshecha que rehacer"))
        number, record = candidate["number"], candidate["record"]
        _check_limit(number - 1)
        rewrite = _append(table, record)
        Hand.objects.create(table=table, number=number, record=record)
        return _loads(
            _commit_json(
                table,
                action=Change.Action.REDO,
                number=number,
                before=None,
                after=record,
                via=via,
                rewrite=rewrite,
                keys=keys,
                fingerprint=fingerprint,
                status=200,
                idempotency_key=idempotency_key,
            )
        )


def replace_hand(
    table: Table,
    number: Any,
    record: Any,
    *,
    base_revision: Any = None,
    idempotency_key: Any = None,
    via: str,
) -> EditedState:
    """Replace hand `number`, replay from the start of its vaca, return the state plus "changed".

    "changed" lists the table-wide numbers of the hands whose mano, juego, score or
    winner differ from before the edit (the edited hand itself when its own result
    changed). A stale `base_revision` raises StaleEdit; a later hand that would
    break the rules raises LaterHandInvalid; nothing is saved in either case.
    """
    return cast(
        EditedState,
        _loads(
            replace_hand_json(
                table,
                number,
                record,
                base_revision=base_revision,
                idempotency_key=idempotency_key,
                via=via,
            )
        ),
    )


def _vaca_index(table: Table, number: int) -> int:
    """The index of the vaca stored hand `number` belongs to."""
    index = (
        VacaCheckpoint.objects.filter(table_id=table.pk, first_hand__lte=number)
        .order_by("-index")
        .values_list("index", flat=True)
        .first()
    )
    return index or 0


def _rewrite_from(table: Table, number: int, record: dict[str, Any]) -> Rewrite:
    """Hand `number` replaced by `record`: its vaca is replayed, and the later ones only
    if that vaca now ends at another hand (each vaca starts at 0-0 with its own mano)."""
    row = (
        VacaCheckpoint.objects.filter(table_id=table.pk, first_hand__lte=number)
        .order_by("-index")
        .first()
    )
    assert row is not None, "hand 1 is in vaca 0"
    end = row.first_hand + row.hand_count - 1 if row.winner is not None else None
    records = _records(table, row.first_hand)
    records[number - row.first_hand] = record
    if end is not None:
        alone = replay_vacas(table.rules, row.mano, records[: row.hand_count], row.first_hand)
        if len(alone) == 2 and alone[0]["winner"] is not None and not alone[1]["hands"]:
            # Still won at its last hand: the vacas after it stay as they are.
            old = _stored_vacas(table, row.index, row.index)
            return Rewrite(row.index, alone[:1], old, alone=True)
    return _replay_from(table, row, records)


def replace_hand_json(
    table: Table,
    number: Any,
    record: Any,
    *,
    base_revision: Any = None,
    idempotency_key: Any = None,
    via: str,
    finished: Finished = "full",
) -> str:
    """replace_hand(), answering the state's JSON text (with "changed"; `finished`: as
    add_hand_json)."""
    clean = check_record(record)
    idempotency_key = _check_key("Idempotency-Key", idempotency_key)
    if not _is_int(number) or number < 1:
        raise HandNotFound(_("la mano %(n)s no existe"), n=number)
    keys = _idempotency_keys(None, idempotency_key)
    fingerprint = _fingerprint("edit", number, clean)
    with transaction.atomic():
        table = _lock(table.pk)
        answer = _replayed_answer(table, keys, fingerprint)
        if answer is not None:
            return answer
        _check_base(table, base_revision)
        try:
            hand = table.hands.get(number=number)
        except Hand.DoesNotExist:
            raise HandNotFound(_("la mano %(n)s no existe"), n=number) from None
        table_changing.send(sender=Table, table=table, vaca=_vaca_index(table, number))
        try:
            rewrite = _rewrite_from(table, number, clean)
        except _BadHand as bad:
            if bad.number == number:
                raise bad.error from None
            raise LaterHandInvalid(
                _("con este cambio la mano %(n)s ya no valdría: %(why)s"),
                bad.number,
                n=bad.number,
                why=_InLanguage(bad.error),
            ) from None
        before = hand.record
        hand.record = clean
        hand.save(update_fields=["record", "updated_at"])
        return _commit_json(
            table,
            action=Change.Action.EDIT,
            number=number,
            before=before,
            after=clean,
            via=via,
            rewrite=rewrite,
            keys=keys,
            fingerprint=fingerprint,
            status=200,
            idempotency_key=idempotency_key,
            finished=finished,
            extra={"changed": rewrite.changed()},
        )


# --- create, export, import -------------------------------------------------------------------


def create_table(*, players: Any = None, rules: Any = None, mano: Any = None) -> Table:
    """A new table. players: names by seat (None or blank: A1, B1, A2, B2...);
    rules: any options of rules.md (defaults filled in; with 2 or 6 names and no
    "players" option the table is for 2 or 6); mano: a seat, None for seat 0, or
    "random" for the cut."""
    _check_json_text(rules, _("las reglas"))
    raw_rules = {} if rules is None else dict(rules) if isinstance(rules, Mapping) else rules
    if (
        isinstance(raw_rules, dict)
        and "players" not in raw_rules
        and isinstance(players, list | tuple)
        and len(players) in (2, 6)
    ):
        raw_rules["players"] = len(players)
    table_rules = normalize_rules(raw_rules)
    count = table_rules["players"]
    names = normalize_players(players, count)
    first_mano = normalize_mano(mano, count)
    with transaction.atomic():
        table = Table.objects.create(
            players=names, rules=table_rules, first_mano=first_mano, replayed_revision=1
        )
        _store_vacas(table, 0, [_label(_empty_vaca(first_mano), 0, first_mano)])
    return table


EXPORT_FORMAT = "muscore-table"
EXPORT_KEYS = {"format", "version", "rules", "mano", "players", "hands"}


def export_table(table: Table) -> dict[str, Any]:
    """The table as the vaca replay contract's input plus the names: import_table reads it."""
    return {
        "format": EXPORT_FORMAT,
        "version": 1,
        "rules": dict(table.rules),
        "mano": table.first_mano,
        "players": list(table.players),
        "hands": _records(table),
    }


def import_table(data: Any, *, via: str) -> Table:
    """A new table identical to the exported one (new id and edit key), or TableError/RuleError.

    At most MAX_HANDS hands."""
    if not isinstance(data, Mapping):
        raise TableError(_("una mesa exportada debe ser un objeto JSON"))
    _check_json_text(data, _("la mesa exportada"))
    unknown = sorted(set(data) - EXPORT_KEYS)
    if unknown:
        raise TableError(_("campo desconocido %(key)s en la mesa exportada"), key=repr(unknown[0]))
    if data.get("format", EXPORT_FORMAT) != EXPORT_FORMAT or data.get("version", 1) != 1:
        raise TableError(_("esto no es una mesa exportada por muscore (versión 1)"))
    hands = data.get("hands", [])
    if not isinstance(hands, list):
        raise TableError(_("hands debe ser una lista de manos"))
    if len(hands) > MAX_HANDS:
        raise TableError(
            _(
                "esta mesa tiene %(count)s manos y una mesa puede tener como mucho %(max)s: "
                "no se ha importado nada"
            ),
            count=len(hands),
            max=MAX_HANDS,
        )
    records = [check_record(record) for record in hands]
    if via not in Change.Via.values:
        raise TableError(_("forma desconocida de cambiar una mesa: %(via)s"), via=repr(via))
    with transaction.atomic():
        table = create_table(
            players=data.get("players"), rules=data.get("rules"), mano=data.get("mano")
        )
        if data.get("mano") == "random":
            raise TableError(_("en una mesa exportada la mano es un número de asiento"))
        try:
            vacas = replay_vacas(table.rules, table.first_mano, records)
        except _BadHand as bad:
            raise TableError(
                _("mano %(n)s: %(why)s"), n=bad.number, why=_InLanguage(bad.error)
            ) from None
        Hand.objects.bulk_create(
            Hand(table=table, number=n, record=record) for n, record in enumerate(records, 1)
        )
        _store_vacas(table, 0, vacas)
        table.revision += 1
        table.replayed_revision = table.revision
        table.save(update_fields=["revision", "replayed_revision", "updated_at"])
        Change.objects.create(
            table=table,
            action=Change.Action.IMPORT,
            number=len(records) or None,
            before=None,
            after={"hands": records},
            via=via,
            revision=table.revision,
        )
    return table
