"""Vacas and evenings: a table's entries in order, the score carried, the mano rotating.

:func:`replay` serves the contract's "A vaca" (one vaca; an entry after it was won is
an error). :func:`replay_evening` replays a table's whole list of entries, splitting it
into vacas itself: a vaca ends at the entry that wins it and the next starts at 0-0
juegos and score, with the next mano. It can start from a :class:`Checkpoint` (where a
vaca starts), so a table replays only from the vaca of the entry that changed.

An entry is a hand (the contract's record without ``rules``, ``mano`` or ``score``) or
a **piedras entry**, ``{"piedras": {"side": "A", "n": 5}}``: piedras tapped for a side
by a table that does not enter lances (``n`` may be negative; the score never goes
below 0). It ends the juego and the vaca at the target like a hand, but it is not a
dealt hand, so the mano does not move.

A table whose rules have ``perete`` on also notes a **perete entry**,
``{"perete": {"side": "A"}}``: a player of that side showed 4 5 6 7 (seed 001,
"Variantes regionales": "en algunas zonas da derecho a un tanto y a pedir cartas
nuevas"). It scores exactly like a tap of one piedra for the side, named: the cards
are dealt again, so the mano does not move either.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from muscore.rules.cards import DEFAULT_RULES, Rules, Side, show
from muscore.rules.contract import Evening, HandResultDict, VacaReplay
from muscore.rules.errors import RecordError, RuleError, VacaError
from muscore.rules.scoring import VACA_HAND_KEYS, ZEROS, parse_head, parse_mano, score_parts
from muscore.rules.winners import player_list

VACA_KEYS = frozenset({"rules", "mano", "hands"})
#: The largest piedras a single tap may add or take away.
PIEDRAS_LIMIT = 100


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """Where a vaca starts in a table's list of entries: a replay can resume there.

    ``index`` is the 0-based position of the vaca's first entry in the table's list,
    ``mano`` the seat that is mano in that entry. The score and the juegos are 0-0 at
    the start of every vaca, so nothing else is needed.
    """

    index: int
    mano: int


def _zero(rules: Rules) -> dict[str, int]:
    """Every side of the table at 0."""
    return dict.fromkeys(rules.letters, 0)


def _empty_vaca(rules: Rules, mano: int) -> dict[str, Any]:
    return {"hands": [], "juegos": _zero(rules), "winner": None,
            "score": _zero(rules), "next_mano": mano}


def _entry_data(
    entry: Mapping[str, object], name: str, keys: tuple[str, ...]
) -> Mapping[str, object]:
    """The object of an entry that holds ``name`` alone, with no key but ``keys``."""
    for key in entry:
        if key != name:
            raise RecordError(f"{name}_alone", key=str(key)[:40])
    data = entry[name]
    if not isinstance(data, Mapping):
        raise RecordError("not_a", field=name, what="object", got=show(data))
    for key in data:
        if key not in keys:
            raise RecordError("unknown_key", key=str(key)[:40], where=name)
    return data


def _tap_side(side: object, rules: Rules, entry: str) -> Side:
    """The side a tap names, one of the table's (``entry``: "piedras" or "perete")."""
    letters = rules.letters
    if type(side) is not str or side not in letters:
        if rules.sides == 2:
            raise RecordError(f"{entry}_side", got=show(side))
        raise RecordError(f"{entry}_player", got=show(side),
                          letters=player_list(range(rules.sides)))
    return Side(side)


def read_piedras(entry: Mapping[str, object], rules: Rules | None = None) -> tuple[Side, int]:
    """The side and the piedras of a piedras entry, checked (against the table's sides:
    A and B, or one a player in individual play)."""
    data = _entry_data(entry, "piedras", ("side", "n"))
    side = _tap_side(data.get("side"), rules or DEFAULT_RULES, "piedras")
    n = data.get("n")
    if type(n) is not int or n == 0 or abs(n) > PIEDRAS_LIMIT:
        raise RecordError("piedras_n", got=show(n), limit=PIEDRAS_LIMIT)
    return side, n


def score_piedras(entry: Mapping[str, object], rules: Rules, *scores: int) -> HandResultDict:
    """The result of a piedras entry on a score of ``scores`` (each side's piedras, in
    side order: ``a, b`` in pairs): a hand result's shape.

    ``lances`` is empty and ``recuento`` holds one step with lance ``null`` and
    ``why`` ``"piedras"``; the step's ``points`` are what the score really moved (a
    -1 at 0 moves nothing). ``ended_by`` is ``"piedras"`` when the tap reached the
    target.
    """
    side, n = read_piedras(entry, rules)
    letters = rules.letters
    if len(scores) != len(letters):
        raise TypeError(f"a score for each of the {len(letters)} sides, not {len(scores)}")
    index = letters.index(side)
    before = scores[index]
    after = max(0, before + n)
    now = list(scores)
    now[index] = after
    won = after >= rules.target
    result: dict[str, Any] = {
        "score": dict(zip(letters, now, strict=True)),
        "winner": side.value if won else None,
        "ended_by": "piedras" if won else None,
        "lances": {},
        "recuento": [{"lance": None, "side": side.value, "points": after - before,
                      "why": "piedras", "score": dict(zip(letters, now, strict=True))}],
        "piedras": {"side": side.value, "n": n},
    }
    return cast(HandResultDict, result)


def read_perete(entry: Mapping[str, object], rules: Rules) -> Side:
    """The side of a perete entry, checked (refused when the table does not play it)."""
    data = _entry_data(entry, "perete", ("side",))
    side = _tap_side(data.get("side"), rules, "perete")
    if not rules.perete:
        raise RecordError("perete_off")
    return side


def score_perete(entry: Mapping[str, object], rules: Rules, *scores: int) -> HandResultDict:
    """The result of a perete entry on a score of ``scores`` (``a, b`` in pairs): one
    piedra to its side.

    The shape of :func:`score_piedras`'s (a tap of 1, named): ``lances`` empty, one
    ``recuento`` step with lance ``null`` and ``why`` ``"perete"``, ``ended_by``
    ``"perete"`` when the piedra reached the target, and ``perete``: ``{"side"}``.
    Raises ``RecordError`` (code ``perete_off``) when ``rules.perete`` is off.

    >>> score_perete({"perete": {"side": "B"}}, Rules(perete=True), 3, 39)["winner"]
    'B'
    """
    side = read_perete(entry, rules)
    result = score_piedras({"piedras": {"side": side.value, "n": 1}}, rules, *scores)
    del result["piedras"]
    result["recuento"][0]["why"] = "perete"
    if result["ended_by"] is not None:
        result["ended_by"] = "perete"
    result["perete"] = {"side": side.value}
    return result


def score_entry(entry: Mapping[str, object], rules: Rules, mano: int, *scores: int
                ) -> Mapping[str, Any]:
    """The result of any entry of a vaca (a hand, a piedras tap or a perete) on a score of
    ``scores`` (``a, b`` in pairs), read as the plain mapping the counting builds (its
    sides are Side members)."""
    if "piedras" in entry:
        return score_piedras(entry, rules, *scores)
    if "perete" in entry:
        return score_perete(entry, rules, *scores)
    return score_parts(entry, rules, mano, scores)


def _check_entry(entry: object, number: int) -> Mapping[str, object]:
    if not isinstance(entry, Mapping):
        raise VacaError("vaca_hand", n=number, inner=RecordError("not_object"))
    if "piedras" in entry or "perete" in entry:
        return entry
    for key in entry:
        if key not in VACA_HAND_KEYS:
            if key in VACA_KEYS or key == "score":
                raise VacaError("vaca_hand_field", n=number, field=key)
            raise VacaError(
                "vaca_hand", n=number,
                inner=RecordError("unknown_key", key=str(key)[:40], where="record"),
            )
    return entry


def _one_vaca(
    rules: Rules, mano: int, entries: Sequence[object], start: int, first_number: int
) -> tuple[dict[str, Any], int]:
    """Replay ``entries[start:]`` as one vaca until a side wins it.

    Returns the vaca's replay output and the index after its last entry. Errors name
    the entry by its number: ``first_number`` is the number of ``entries[0]``.
    """
    n = rules.players
    letters = rules.letters
    zeros = ZEROS[rules.sides]
    scores = zeros
    juego = 1
    juegos = _zero(rules)
    winner: str | None = None
    out: list[dict[str, Any]] = []
    i = start
    while i < len(entries) and winner is None:
        number = first_number + i
        entry = _check_entry(entries[i], number)
        try:
            result = score_entry(entry, rules, mano, *scores)
        except RuleError as error:
            raise VacaError("vaca_hand", n=number, inner=error) from error
        won = result["winner"]
        row = {"mano": mano, "juego": juego, "score": result["score"], "winner": won,
               "result": result}
        if "piedras" in entry:
            row["piedras"] = result["piedras"]
        elif "perete" in entry:
            row["perete"] = result["perete"]
        else:
            mano = (mano + 1) % n  # a tap or a perete is not a dealt hand: the mano stays
        out.append(row)
        i += 1
        if won is None:
            after = result["score"]
            scores = tuple(after[side] for side in letters)
            continue
        juegos[won] += 1
        if juegos[won] >= rules.juegos:
            winner = won
            after = result["score"]
            scores = tuple(after[side] for side in letters)
        else:
            # The next juego starts at 0-0; the mano carries on round the table.
            scores = zeros
            juego += 1
    vaca = {"hands": out, "juegos": juegos, "winner": winner,
            "score": dict(zip(letters, scores, strict=True)), "next_mano": mano}
    return vaca, i


def replay(vaca: object) -> VacaReplay:
    """Replay a vaca (docs/contract.md, "A vaca"): returns its contract output.

    Each hand is scored with the score carried from the hand before and the
    mano one seat on; a won juego starts the next at 0-0; the side that wins
    ``rules.juegos`` juegos wins the vaca, and a hand after that is an error.
    Every entry of ``hands`` also carries the hand's full ``result``. Piedras
    entries and, when the rules play it, perete entries (see the module) may stand
    among the hands.
    """
    if not isinstance(vaca, Mapping):
        raise VacaError("not_vaca")
    rules, mano = parse_head(vaca, VACA_KEYS, "vaca")
    hands = vaca.get("hands")
    if hands is None:
        raise VacaError("vaca_hands")
    if not isinstance(hands, list):
        raise RecordError("not_a", field="hands", what="list", got=show(hands))
    out, end = _one_vaca(rules, mano, hands, 0, 1)
    if end < len(hands):
        code = "vaca_over" if rules.sides == 2 else "vaca_over_player"
        raise VacaError(code, n=end + 1, side=out["winner"], at=end)
    return cast(VacaReplay, out)


def replay_evening(
    rules: Rules | Mapping[str, object] | None,
    entries: Sequence[object],
    start: Checkpoint | None = None,
) -> Evening:
    """Replay a table's entries from ``start``, split into vacas.

    ``entries`` are the table's entries from ``start.index`` on (default: from the
    first, mano 0) (``entries[0]`` is the
    table's entry number ``start.index + 1``), ``start.mano`` the mano of that entry.
    Returns ``{"finished": [vaca, ...], "current": vaca, "vacas": {"A": n, "B": m}}``:
    each vaca is :func:`replay`'s output plus ``first_hand`` (the table-wide number,
    from 1, of its first entry) and ``mano`` (its first mano). ``current`` is the vaca
    being played, with no hands when the last entry won a vaca; ``vacas`` counts the
    finished vacas each side won. :func:`checkpoints` gives where each vaca starts.

    Raises :class:`VacaError` (code ``vaca_hand``) whose ``number`` is the table-wide
    number of the first entry that breaks a rule, and ``cause`` the entry's own error.
    """
    if start is None:
        start = Checkpoint(0, 0)
    table_rules = rules if isinstance(rules, Rules) else Rules.from_json(rules)
    mano = parse_mano(start.mano, table_rules)
    if type(start.index) is not int or start.index < 0:
        raise RecordError("not_a", field="start.index", what="number",
                          got=show(start.index))
    finished: list[dict[str, Any]] = []
    tally = _zero(table_rules)
    i = 0
    first_number = start.index + 1
    while True:
        vaca, end = _one_vaca(table_rules, mano, entries, i, first_number)
        vaca["first_hand"] = first_number + i
        vaca["mano"] = mano
        if vaca["winner"] is None:
            return cast(Evening, {"finished": finished, "current": vaca, "vacas": tally})
        finished.append(vaca)
        tally[vaca["winner"]] += 1
        i, mano = end, vaca["next_mano"]
        if i == len(entries):
            current = {**_empty_vaca(table_rules, mano), "first_hand": first_number + i,
                       "mano": mano}
            return cast(Evening, {"finished": finished, "current": current, "vacas": tally})


def checkpoints(evening: Evening) -> list[Checkpoint]:
    """Where each vaca of a :func:`replay_evening` result starts, the current one last."""
    return [Checkpoint(v["first_hand"] - 1, v["mano"])
            for v in [*evening["finished"], evening["current"]]]
