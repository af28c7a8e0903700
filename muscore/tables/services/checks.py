"""What a table accepts: its rules, names, mano, a hand record, any text, a key, a hand's
number, a revision, piedras, its size (MAX_HANDS)."""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping
from typing import Any, TypeGuard

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from muscore import rules as rules_engine
from muscore import text as unicode_text
from muscore.handentry.words import NAME_MAX, default_names
from muscore.tables.services.errors import SameNames, TableError

# Lengths that fit the columns (Hand.client_id 100; IdempotentWrite.key 200 with a prefix).
CLIENT_ID_MAX = 100
KEY_MAX = 150
# Keys a hand record on a table must not carry: the table knows them.
TABLE_OWNED_KEYS = ("score", "mano", "rules")
# The most hands a table holds (an import above it is refused): a very long night is
# about 300; the limit keeps one table's state (about 0.8 kB a hand) to about 1.5 MB.
MAX_HANDS = 2000


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def normalize_rules(raw: Mapping[str, Any] | None) -> dict[str, Any]:
    """Every option of rules.md filled in, or TableError naming the bad one.

    The engine's `Rules` is the one place that knows the options and their values.
    """
    try:
        return rules_engine.Rules.from_json(raw).to_json()
    except rules_engine.RuleError as error:
        raise TableError(error) from error


#: Every side a table can have: A and B, and in individual play up to six players, A to F.
ALL_LETTERS = ("A", "B", "C", "D", "E", "F")


def letters_of(rules: Mapping[str, Any]) -> tuple[str, ...]:
    """The sides of a table (its stored, normalized rules): A and B in pairs and at a table
    of two, one letter a player in individual play (A to F)."""
    return tuple(side.value for side in rules_engine.Rules.from_json(rules).letters)


def _check_name(seat: int, name: object, default: str) -> str:
    if name is None:
        return default
    if not isinstance(name, str):
        raise TableError(_("el nombre del asiento %(seat)s debe ser un texto"), seat=seat + 1)
    if unicode_text.problem(name) == unicode_text.SURROGATE:
        raise TableError(
            _("el nombre del asiento %(seat)s no es texto Unicode válido"), seat=seat + 1
        )
    text = name.strip()
    # The name as sent, spaces included, as the OpenAPI document counts it (maxLength).
    if len(name) > NAME_MAX:
        raise TableError(
            _("el nombre del asiento %(seat)s tiene %(length)s caracteres; como mucho %(max)s"),
            seat=seat + 1,
            length=len(name),
            max=NAME_MAX,
        )
    if not text:
        return default
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


def normalize_players(raw: object, count: int, *, individual: bool = False) -> list[str]:
    defaults = default_names(count, individual=individual)
    if raw is None:
        return defaults
    if not isinstance(raw, list | tuple):
        raise TableError(_("los jugadores deben ser una lista de nombres por asiento"))
    if len(raw) != count:
        raise TableError(
            _("%(names)s nombres para una mesa de %(count)s jugadores"), names=len(raw), count=count
        )
    names = [_check_name(seat, name, defaults[seat]) for seat, name in enumerate(raw)]
    check_names_apart(names)
    return names


def check_names_apart(names: list[str]) -> None:
    """SameNames unless every seat's name tells its player apart, as the new table's
    form compares them (muscore.text.same_people): a table of pairs or each for himself,
    created, by the API or imported; a blank seat's default name counts too."""
    alike = unicode_text.same_people(names)
    if alike:
        first, seat = alike[0]
        raise SameNames(
            _(
                "los asientos %(first)s y %(second)s se llaman igual («%(name)s»): cada "
                "asiento necesita un nombre distinto (Ana M., Ana P.)"
            ),
            first=first + 1,
            second=seat + 1,
            name=names[seat],
        )


def normalize_mano(raw: object, count: int) -> int:
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


def check_key(name: str, value: object, limit: int = KEY_MAX) -> str | None:
    """An Idempotency-Key or a client id (`name` says which): None, or 1 to `limit`
    printable ASCII characters."""
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


def is_hand_number(value: object) -> TypeGuard[int]:
    """Whether `value` can number a hand: a whole number from 1."""
    return _is_int(value) and value >= 1


def check_revision(value: object) -> None:
    """TableError unless the revision a change started from is None or a whole number."""
    if value is not None and not _is_int(value):
        raise TableError(_("revision debe ser un número entero"))


def check_record(record: object) -> dict[str, Any]:
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
    check_text(clean, _("una mano"))
    return clean


def check_text(data: object, what: str | Promise) -> None:
    """TableError when a string of `data` is not text both databases and a page can hold."""
    found = unicode_text.json_problem(data)
    if found == unicode_text.SURROGATE:
        raise TableError(
            _("%(what)s lleva texto que no es Unicode válido (un surrogate suelto)"), what=what
        )
    if found:
        raise TableError(_("%(what)s lleva un carácter de control"), what=what)


def check_room(count: int) -> None:
    """TableError when a table holding `count` hands has no room for one more."""
    if count >= MAX_HANDS:
        raise TableError(
            _(
                "la mesa ya tiene %(max)s manos, el máximo de una mesa: exporta esta y "
                "empieza una mesa nueva para seguir"
            ),
            max=MAX_HANDS,
        )


PIEDRAS_MAX = 100


def _check_side(side: object, letters: tuple[str, ...], pairs: Promise, alone: Promise) -> None:
    """TableError (`pairs` in pairs, `alone` in individual play) unless `side` is one of
    the table's `letters`."""
    if side in letters:
        return
    if len(letters) == 2:
        raise TableError(pairs)
    raise TableError(alone, letters=", ".join(f'"{letter}"' for letter in letters))


def piedras_record(
    side: object, n: object, letters: tuple[str, ...] = ("A", "B")
) -> dict[str, Any]:
    """The record of piedras tapped by hand, `{"piedras": {"side", "n"}}`, or TableError.
    `letters` are the table's sides (:func:`letters_of`).

    The engine replays it among the hands (docs/contract.md, "Piedras entries"); here
    only what a player can get wrong is said in a player's words.
    """
    _check_side(side, letters, _('las piedras son para un bando: "A" o "B"'),
                _("las piedras son para un jugador de la mesa: %(letters)s"))
    if not _is_int(n) or n == 0 or abs(n) > PIEDRAS_MAX:
        raise TableError(
            _("las piedras son un número entero de -%(max)s a %(max)s, sin el 0"), max=PIEDRAS_MAX
        )
    return {"piedras": {"side": side, "n": n}}


def perete_record(side: object, letters: tuple[str, ...] = ("A", "B")) -> dict[str, Any]:
    """The record of a perete shown by a player of `side`, `{"perete": {"side"}}`, or
    TableError. Whether the table plays perete is the engine's to say (`perete_off`)."""
    _check_side(side, letters, _('el perete es de un bando: "A" o "B"'),
                _("el perete es de un jugador de la mesa: %(letters)s"))
    return {"perete": {"side": side}}
