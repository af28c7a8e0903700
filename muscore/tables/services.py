"""A table's business logic: create it, add, undo and replace hands, replay the state.

The pages (muscore.tables.views) and the JSON API (muscore.api.tables) both sit
on these functions and nothing else. The stable API:

- `create_table(*, players=None, rules=None, mano=None) -> Table`
- `get_table(table_id) -> Table` (raises `TableNotFound`)
- `table_state(table) -> TableState`: {"id", "players", "rules", "current", "finished",
  "revision"}, typed in muscore/tables/state.py like everything below that returns a state
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
- `hand_entry(table, number) -> dict`: one stored hand with its replayed result
- `table_changes(table) -> list[Change]`: the audit, oldest first
- `export_table(table) -> dict` / `import_table(data, *, via) -> Table`

Every write runs in one transaction holding the table's row lock, so two
phones writing at once are served one after the other; a write that fails
leaves nothing behind. `via` is a `Change.Via` value ("edit_link" or "api").

The stored truth is the hand records: the scores, juegos, vacas and manos are
the replay of those records through `muscore.rules.replay`, cached by
(table id, revision) so an unchanged board is never replayed twice.
"""

from __future__ import annotations

import copy
import hashlib
import json
import secrets
from collections.abc import Mapping
from typing import Any, cast

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.translation import gettext_lazy as _
from django.utils.translation import override

from muscore import rules as rules_engine
from muscore.rule_messages import rule_message
from muscore.tables.models import Change, Hand, IdempotentWrite, Table
from muscore.tables.signals import table_changed
from muscore.tables.state import EditedState, ReplayedHand, StoredHand, TableState, Vaca

NAME_MAX = 40
# Lengths that fit the columns (Hand.client_id 100; IdempotentWrite.key 200 with a prefix).
CLIENT_ID_MAX = 100
KEY_MAX = 150
# Keys a hand record on a table must not carry: the table knows them.
TABLE_OWNED_KEYS = ("score", "mano", "rules")
STATE_CACHE_SECONDS = 3600


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
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in text):
        raise TableError(
            _("el nombre del asiento %(seat)s lleva un carácter de control"), seat=seat + 1
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
    return clean


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


def _replay(
    table_rules: dict[str, Any], mano: int, records: list[dict[str, Any]]
) -> dict[str, Any]:
    if not records:
        return _empty_vaca(mano)
    vaca = {"rules": table_rules, "mano": mano, "hands": records}
    try:
        return rules_engine.replay(vaca)
    except rules_engine.RuleError:
        raise
    except (TypeError, KeyError, AttributeError, IndexError) as exc:
        # An input the engine did not expect is still the record's fault, never a crash.
        raise UnreadableHand(f"{type(exc).__name__}: {exc}"[:200]) from exc


def _score(record: dict[str, Any]) -> dict[str, Any]:
    try:
        return rules_engine.score(record)
    except rules_engine.RuleError:
        raise
    except (TypeError, KeyError, AttributeError, IndexError) as exc:
        raise UnreadableHand(f"{type(exc).__name__}: {exc}"[:200]) from exc


def _next_context(vaca: Mapping[str, Any]) -> tuple[int, dict[str, int]]:
    """The mano and the score before the hand that would follow `vaca`'s hands."""
    hands = vaca["hands"]
    if not hands or hands[-1]["winner"] is not None:
        return vaca["next_mano"], {"A": 0, "B": 0}
    return vaca["next_mano"], dict(hands[-1]["score"])


class _BadHand(Exception):
    def __init__(self, number: int, error: rules_engine.RuleError) -> None:
        super().__init__(str(error))
        self.number = number
        self.error = error


def replay_table(
    table_rules: dict[str, Any], first_mano: int, records: list[dict[str, Any]]
) -> Replayed:
    """(current vaca, finished vacas) of a table's records, hands numbered from 1.

    A vaca ends at the hand that wins it; the next hand starts a new vaca whose
    first mano is the won vaca's next_mano. Raises _BadHand with the table-wide
    number of the first hand that breaks the rules.
    """
    finished: list[Vaca] = []
    start, mano = 0, first_mano
    while True:
        rest = records[start:]
        try:
            whole = _replay(table_rules, mano, rest)
        except rules_engine.RuleError:
            whole = None
        if whole is not None:
            if whole["winner"] is None:
                return _label(whole, start, mano), finished
            finished.append(_label(whole, start, mano))
            next_mano = whole["next_mano"]
            return _label(_empty_vaca(next_mano), len(records), next_mano), finished
        # Something in `rest` fails: either a hand after this vaca was won, or a bad hand.
        # A prefix that replays stays valid when shortened, so bisect the longest one.
        good, bad = 0, len(rest)
        results: dict[int, dict[str, Any]] = {0: _empty_vaca(mano)}
        while bad - good > 1:
            middle = (good + bad) // 2
            try:
                results[middle] = _replay(table_rules, mano, rest[:middle])
                good = middle
            except rules_engine.RuleError:
                bad = middle
        prefix = results[good]
        if good and prefix["winner"] is not None:
            finished.append(_label(prefix, start, mano))
            start, mano = start + good, prefix["next_mano"]
            continue
        number = start + good + 1
        hand_mano, score = _next_context(prefix)
        try:
            _score({**rest[good], "rules": table_rules, "mano": hand_mano, "score": score})
        except rules_engine.RuleError as exc:
            raise _BadHand(number, exc) from None
        # score() accepts the hand alone: report the replay's own complaint.
        try:
            _replay(table_rules, mano, rest[: good + 1])
        except rules_engine.RuleError as exc:
            raise _BadHand(number, exc) from None
        raise AssertionError("replay_table: a failing replay that replays")  # pragma: no cover


def _label(vaca: dict[str, Any], start: int, mano: int) -> Vaca:
    # The engine's replay() output, which the state's Vaca describes, plus the labels.
    return cast(Vaca, {**vaca, "first_hand": start + 1, "mano": mano})


def _records(table: Table) -> list[dict[str, Any]]:
    return list(table.hands.order_by("number").values_list("record", flat=True))


Replayed = tuple[Vaca, list[Vaca]]


def _build_state(
    table: Table, records: list[dict[str, Any]], replayed: Replayed | None = None
) -> TableState:
    try:
        current, finished = replayed or replay_table(table.rules, table.first_mano, records)
    except _BadHand as bad:
        raise LaterHandInvalid(
            _("mano %(n)s: %(why)s"), bad.number, n=bad.number, why=_InLanguage(bad.error)
        ) from None
    return {
        "id": table.id,
        "players": list(table.players),
        "rules": dict(table.rules),
        "current": current,
        "finished": finished,
        "revision": table.revision,
    }


def _cache_key(table_id: str, revision: int) -> str:
    return f"muscore:table-state:{table_id}:{revision}"


def table_state(table: Table) -> TableState:
    """The API's GET shape: {"id","players","rules","current","finished","revision"}.

    Each vaca is muscore.rules.replay's output plus "first_hand" (the table-wide
    number of its first hand) and "mano" (its first mano). The hand at index i
    of a vaca is table-wide hand number first_hand + i.
    """
    for _attempt in range(5):
        revision = Table.objects.filter(pk=table.pk).values_list("revision", flat=True).first()
        if revision is None:
            raise TableNotFound(_("no hay ninguna mesa con ese enlace"))
        key = _cache_key(table.pk, revision)
        state: TableState | None = cache.get(key)
        if state is not None:
            return state
        fresh = Table.objects.get(pk=table.pk)
        records = _records(fresh)
        if fresh.revision != revision:
            continue  # a write landed between the reads: read again
        state = _build_state(fresh, records)
        cache.set(key, state, STATE_CACHE_SECONDS)
        return state
    # Under a storm of writes, a state computed inside the lock is always consistent.
    with transaction.atomic():
        fresh = _lock(table.pk)
        return _build_state(fresh, _records(fresh))


def replay_stored(table: Table) -> TableState:
    """The state replayed from the stored records, never from the cache (backups use it).

    Raises LaterHandInvalid naming the first stored hand that breaks the rules."""
    fresh = Table.objects.get(pk=table.pk)
    return _build_state(fresh, _records(fresh))


def table_revision(table_id: str) -> int | None:
    """The table's revision in one indexed query (the ETag check), None when unknown."""
    return Table.objects.filter(pk=table_id).values_list("revision", flat=True).first()


def iter_hands(state: TableState) -> list[tuple[int, ReplayedHand]]:
    """(table-wide number, replayed hand) for every hand of every vaca, in order."""
    out = []
    for vaca in [*state["finished"], state["current"]]:
        for i, hand in enumerate(vaca["hands"]):
            out.append((vaca["first_hand"] + i, hand))
    return out


# --- reads ------------------------------------------------------------------------------------


def get_table(table_id: Any) -> Table:
    if not isinstance(table_id, str) or len(table_id) > 64:
        raise TableNotFound(_("no hay ninguna mesa con ese enlace"))
    try:
        return Table.objects.get(pk=table_id)
    except Table.DoesNotExist:
        raise TableNotFound(_("no hay ninguna mesa con ese enlace")) from None


def hand_entry(table: Table, number: int) -> StoredHand:
    """One stored hand: {"number", "record", "mano", "juego", "score", "winner", "result"}."""
    try:
        record = table.hands.get(number=number).record
    except Hand.DoesNotExist:
        raise HandNotFound(_("la mano %(n)s no existe"), n=number) from None
    for n, replayed in iter_hands(table_state(table)):
        if n == number:
            return {"number": number, "record": record, **replayed}
    return {"number": number, "record": record}  # pragma: no cover - replay covers every hand


def table_changes(table: Table) -> list[Change]:
    return list(table.changes.order_by("at", "id"))


def preview_hand(table: Table, record: Any) -> dict[str, Any]:
    """The score() result `record` would give as the table's next hand; nothing is saved."""
    clean = check_record(record)
    state = table_state(table)
    mano, score = _next_context(state["current"])
    return _score({**clean, "rules": state["rules"], "mano": mano, "score": score})


# --- writes -----------------------------------------------------------------------------------


def _lock(table_id: str) -> Table:
    """Take the table's write lock inside the current transaction, then read it fresh.

    The no-op UPDATE comes first on purpose: on PostgreSQL it takes the row lock;
    on SQLite it takes the database write lock before any read, so a second
    writer waits (busy timeout) instead of failing to upgrade a read lock.
    """
    if not Table.objects.filter(pk=table_id).update(revision=F("revision")):
        raise TableNotFound(_("no hay ninguna mesa con ese enlace"))
    return Table.objects.select_for_update().get(pk=table_id)


def _fingerprint(action: str, number: int | None, record: Any) -> str:
    payload = json.dumps([action, number, record], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(payload.encode()).hexdigest()


def _replayed_answer(table: Table, keys: list[str], fingerprint: str) -> TableState | None:
    for key in keys:
        stored = IdempotentWrite.objects.filter(table=table, key=key).first()
        if stored is None:
            continue
        if stored.fingerprint != fingerprint:
            raise IdempotencyMismatch(
                _("esta Idempotency-Key (o client id) ya se usó para otra petición distinta")
            )
        # The state (or edited state) stored by the first answer to this key.
        body: TableState = copy.deepcopy(stored.body)
        return body
    return None


def _commit(
    table: Table,
    *,
    action: str,
    number: int | None,
    before: Any,
    after: Any,
    via: str,
    records: list[dict[str, Any]],
    keys: list[str],
    fingerprint: str,
    status: int,
    idempotency_key: str | None,
    replayed: Replayed | None = None,
) -> TableState:
    if via not in Change.Via.values:
        raise TableError(_("forma desconocida de cambiar una mesa: %(via)s"), via=repr(via))
    table.revision += 1
    table.save(update_fields=["revision", "updated_at"])
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
    state = _build_state(table, records, replayed)
    for key in keys:
        IdempotentWrite.objects.create(
            table=table, key=key, fingerprint=fingerprint, status=status, body=state
        )
    cache.set(_cache_key(table.pk, table.revision), state, STATE_CACHE_SECONDS)
    table_changed.send(sender=Table, table=table, state=state)  # e.g. a league match's result
    return copy.deepcopy(state)


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
    """
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
            count = table.hands.count()
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
            records = [*_records(table), clean]
            replayed = _check_new_hand(table, records)
            new = count + 1
            Hand.objects.create(table=table, number=new, record=clean, client_id=client_id)
            return _commit(
                table,
                action=Change.Action.ADD,
                number=new,
                before=None,
                after=clean,
                via=via,
                records=records,
                replayed=replayed,
                keys=keys,
                fingerprint=fingerprint,
                status=201,
                idempotency_key=idempotency_key,
            )
    except IntegrityError:
        # Only reachable if two writers slipped past the lock: answer as for a retry.
        table = get_table(table.pk)
        answer = _replayed_answer(table, keys, fingerprint)
        if answer is not None:
            return answer
        raise TableError(_("la mesa cambió en ese mismo momento: envía la mano otra vez")) from None


def _check_new_hand(table: Table, records: list[dict[str, Any]]) -> Replayed:
    """The replay with the new last record, or the engine's own RuleError about it."""
    try:
        return replay_table(table.rules, table.first_mano, records)
    except _BadHand as bad:
        if bad.number == len(records):
            raise bad.error from None
        raise LaterHandInvalid(
            _("mano %(n)s: %(why)s"), bad.number, n=bad.number, why=_InLanguage(bad.error)
        ) from None


def undo_last(
    table: Table,
    *,
    base_revision: Any = None,
    idempotency_key: Any = None,
    via: str,
) -> TableState:
    """Remove the last hand (its record stays in the audit) and return the new state."""
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
        last.delete()
        return _commit(
            table,
            action=Change.Action.UNDO,
            number=number,
            before=before,
            after=None,
            via=via,
            records=_records(table),
            keys=keys,
            fingerprint=fingerprint,
            status=200,
            idempotency_key=idempotency_key,
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
            return answer
        _check_base(table, base_revision)
        candidate = redo_candidate(table)
        if candidate is None:
            raise TableError(_("no hay ninguna mano deshecha que rehacer"))
        number, record = candidate["number"], candidate["record"]
        records = [*_records(table), record]
        replayed = _check_new_hand(table, records)
        Hand.objects.create(table=table, number=number, record=record)
        return _commit(
            table,
            action=Change.Action.REDO,
            number=number,
            before=None,
            after=record,
            via=via,
            records=records,
            replayed=replayed,
            keys=keys,
            fingerprint=fingerprint,
            status=200,
            idempotency_key=idempotency_key,
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
    """Replace hand `number`, replay everything after it, return the state plus "changed".

    "changed" lists the table-wide numbers of the hands whose mano, juego, score or
    winner differ from before the edit (the edited hand itself when its own result
    changed). A stale `base_revision` raises StaleEdit; a later hand that would
    break the rules raises LaterHandInvalid; nothing is saved in either case.
    """
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
            return cast(EditedState, answer)  # what this key's first answer stored
        _check_base(table, base_revision)
        try:
            hand = table.hands.get(number=number)
        except Hand.DoesNotExist:
            raise HandNotFound(_("la mano %(n)s no existe"), n=number) from None
        old_records = _records(table)
        old_state = _build_state(table, old_records)
        records = list(old_records)
        records[number - 1] = clean
        try:
            replayed = replay_table(table.rules, table.first_mano, records)
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
        state = _commit(
            table,
            action=Change.Action.EDIT,
            number=number,
            before=before,
            after=clean,
            via=via,
            records=records,
            replayed=replayed,
            keys=[],
            fingerprint=fingerprint,
            status=200,
            idempotency_key=idempotency_key,
        )
        edited = EditedState(**state, changed=_changed(old_state, state))
        for key in keys:
            IdempotentWrite.objects.create(
                table=table, key=key, fingerprint=fingerprint, status=200, body=edited
            )
        return edited


def _changed(old: TableState, new: TableState) -> list[int]:
    def summary(state: TableState) -> dict[int, Any]:
        return {n: (h["mano"], h["juego"], h["score"], h["winner"]) for n, h in iter_hands(state)}

    before, after = summary(old), summary(new)
    return sorted(n for n in set(before) | set(after) if before.get(n) != after.get(n))


# --- create, export, import -------------------------------------------------------------------


def create_table(*, players: Any = None, rules: Any = None, mano: Any = None) -> Table:
    """A new table. players: names by seat (None or blank: A1, B1, A2, B2...);
    rules: any options of rules.md (defaults filled in; with 6 names and no
    "players" option the table is for 6); mano: a seat, None for seat 0, or
    "random" for the cut."""
    raw_rules = {} if rules is None else dict(rules) if isinstance(rules, Mapping) else rules
    if (
        isinstance(raw_rules, dict)
        and "players" not in raw_rules
        and isinstance(players, list | tuple)
        and len(players) == 6
    ):
        raw_rules["players"] = 6
    table_rules = normalize_rules(raw_rules)
    count = table_rules["players"]
    names = normalize_players(players, count)
    first_mano = normalize_mano(mano, count)
    return Table.objects.create(players=names, rules=table_rules, first_mano=first_mano)


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
    """A new table identical to the exported one (new id and edit key), or TableError/RuleError."""
    if not isinstance(data, Mapping):
        raise TableError(_("una mesa exportada debe ser un objeto JSON"))
    unknown = sorted(set(data) - EXPORT_KEYS)
    if unknown:
        raise TableError(_("campo desconocido %(key)s en la mesa exportada"), key=repr(unknown[0]))
    if data.get("format", EXPORT_FORMAT) != EXPORT_FORMAT or data.get("version", 1) != 1:
        raise TableError(_("esto no es una mesa exportada por muscore (versión 1)"))
    hands = data.get("hands", [])
    if not isinstance(hands, list):
        raise TableError(_("hands debe ser una lista de manos"))
    records = [check_record(record) for record in hands]
    with transaction.atomic():
        table = create_table(
            players=data.get("players"), rules=data.get("rules"), mano=data.get("mano")
        )
        if data.get("mano") == "random":
            raise TableError(_("en una mesa exportada la mano es un número de asiento"))
        try:
            replay_table(table.rules, table.first_mano, records)
        except _BadHand as bad:
            raise TableError(
                _("mano %(n)s: %(why)s"), n=bad.number, why=_InLanguage(bad.error)
            ) from None
        Hand.objects.bulk_create(
            Hand(table=table, number=n, record=record) for n, record in enumerate(records, 1)
        )
        if via not in Change.Via.values:
            raise TableError(_("forma desconocida de cambiar una mesa: %(via)s"), via=repr(via))
        table.revision += 1
        table.save(update_fields=["revision", "updated_at"])
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
