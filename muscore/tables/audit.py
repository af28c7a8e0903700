"""The audit read aloud: each change to a table in the table's own words.

`Change` rows keep the records before and after (muscore.tables.models); this
module says what changed with the players' names instead of seats "0"-"3":
"Chica: Ana y Carla -> Bruno y Diego; tantos de la mano 3: 5-2 -> 3-4".
Presentation only: nothing here writes or decides a score.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from muscore import rules as rules_engine
from muscore.handentry.taps import bet_words
from muscore.handentry.words import LANCE_NAMES, Seating
from muscore.permalink import hand_contexts
from muscore.rules.contract import HandResultDict
from muscore.tables import board
from muscore.tables.models import Change
from muscore.tables.recuento import seating

LANCES = ("grande", "chica", "pares", "juego", "punto")
ARROW = " -> "
Context = dict[int, tuple[int, dict[str, int]]]


def corrected_numbers(changes: Iterable[Change]) -> set[int]:
    """The numbers of the standing hands that were corrected after they were entered.

    A hand undone, or entered again, loses the mark: the mark belongs to the hand
    the history shows, not to its number.
    """
    corrected: set[int] = set()
    for change in changes:
        if change.action == Change.Action.IMPORT:
            corrected.clear()
        elif change.number is None:
            continue
        elif change.action == Change.Action.EDIT:
            corrected.add(change.number)
        else:
            corrected.discard(change.number)
    return corrected


def contexts(state: Mapping[str, Any]) -> Context:
    """For each table-wide hand number, (mano, score before it), plus the next hand's."""
    return hand_contexts(state)


def describe_changes(changes: Sequence[Change], state: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every change, newest first, with its words and the raw records for a referee."""
    players = Seating.of(list(state["players"]), state["rules"])
    known = contexts(state)
    dealt = board.dealt_numbers(state)
    return [describe(change, players, state["rules"], known, dealt)
            for change in reversed(changes)]


def describe(
    change: Change, players: Sequence[str], table_rules: Mapping[str, Any], known: Context,
    dealt: Callable[[int], int] | None = None,
) -> dict[str, Any]:
    """One audit row for the page: what happened, in words, and the records as JSON.

    `number` is the entry's table-wide number (the record's key); `dealt` (from
    board.dealt_numbers) gives the number players read for a hand, which the words use."""
    before, after = change.before, change.after
    number = change.number
    context = known.get(number) if number is not None else None
    shown = dealt(number) if dealt is not None and number is not None else number
    details: list[str] = []
    if change.action == Change.Action.IMPORT:
        hands = (after or {}).get("hands") if isinstance(after, Mapping) else None
        entries = hands if isinstance(hands, list) else []
        # Hands as players count them: taps and peretes are entries, said apart.
        taps = sum(1 for h in entries if isinstance(h, Mapping) and (
            "piedras" in h or "perete" in h))
        hands_dealt = len(entries) - taps
        details.append(ngettext("%(n)s mano importada", "%(n)s manos importadas", hands_dealt)
                       % {"n": hands_dealt})
        if taps:
            details.append(ngettext("%(n)s anotación de piedras o perete",
                                    "%(n)s anotaciones de piedras o perete", taps) % {"n": taps})
    elif change.action == Change.Action.EDIT and isinstance(before, Mapping) and isinstance(
        after, Mapping
    ):
        details.extend(record_changes(before, after, players))
        details.extend(result_changes(before, after, players, table_rules, context, shown))
        if not details:
            details.append(_("sin cambios"))
    else:
        record = after if change.action in (Change.Action.ADD, Change.Action.REDO) else before
        if isinstance(record, Mapping):
            details.extend(summary(record, players, table_rules, context, shown))
    entries = [r for r in (before, after) if isinstance(r, Mapping)]
    return {
        "at": change.at,
        "action": change.action,
        # Piedras tapped by hand and a perete are an "anotación", not a dealt hand.
        "piedras": bool(entries) and all("piedras" in r or "perete" in r for r in entries),
        "perete": bool(entries) and all("perete" in r for r in entries),
        "number": number,
        "dealt": shown,
        "via": change.via,
        "revision": change.revision,
        "words": "; ".join(details),
        "before": _shown(before),
        "after": _shown(after),
        # The same records read out, seat by seat with the players' names (issue 19.7).
        "before_words": record_lines(before, players),
        "after_words": record_lines(after, players),
    }


def record_lines(record: object, players: Sequence[str]) -> list[str]:
    """A stored entry in the table's words, one line per thing entered: the cards, the
    jugadas and what each seat said, each lance's bets and its winner, or the piedras."""
    if not isinstance(record, Mapping):
        return []
    lines: list[str] = []
    if (tap := entry_words(record, players)) is not None:
        lines.append(tap)
    for seat, cards in sorted(_by_seat(record, "hands").items(), key=lambda kv: str(kv[0])):
        lines.append(
            _("cartas de %(name)s: %(cards)s")
            % {"name": _seat_name(players, seat), "cards": cards}
        )
    for seat, jugada in sorted(_by_seat(record, "jugadas").items(), key=lambda kv: str(kv[0])):
        lines.append(
            (_("jugadas de %(name)s") % {"name": _seat_name(players, seat)})
            + ": " + _jugada_words(jugada)
        )
    for seat, said in sorted(_by_seat(record, "declared").items(), key=lambda kv: str(kv[0])):
        lines.append(
            (_("lo que dijo %(name)s") % {"name": _seat_name(players, seat)})
            + ": " + _declared_words(said)
        )
    lances, winners = _by_seat(record, "lances"), _by_seat(record, "winners")
    for lance in LANCES:
        if lance in lances:
            lines.append(
                _("apuestas a %(lance)s: %(bets)s")
                % {"lance": _lance_name(lance).lower(), "bets": bets_words(lances[lance], players)}
            )
        if lance in winners:
            lines.append(
                _("%(lance)s para %(names)s")
                % {"lance": _lance_name(lance), "names": _side_words(players, winners[lance])}
            )
    return [str(line) for line in lines]


def _shown(record: object) -> str | None:
    if record is None:
        return None
    return json.dumps(record, ensure_ascii=False, indent=1, sort_keys=True)


def _seat_name(players: Sequence[str], seat: Any) -> str:
    try:
        return players[int(seat)]
    except (TypeError, ValueError, IndexError):
        return str(seat)


def _side_words(players: Sequence[str], side: object) -> str:
    seats = seating(players)
    if side in seats.letters:
        return seats.names(side)
    return str(_("nadie"))


def _lance_name(lance: str) -> str:
    return str(LANCE_NAMES.get(lance, lance))


def _score_words(score: Mapping[str, int]) -> str:
    """Each side's piedras in side order: "5-2" (in individual play "5-2-0")."""
    return "-".join(str(score.get(side, 0)) for side in sorted({"A", "B", *score}))


def piedras_words(entry: Mapping[str, Any], players: Sequence[str]) -> str:
    """A hand-kept piedras entry: "piedras a mano: Ana y Carla +5"."""
    side = entry.get("side")
    n = entry.get("n")
    sign = f"+{n}" if isinstance(n, int) and n > 0 else str(n)
    words = _("piedras a mano: %(names)s %(n)s")
    return str(words % {"names": _side_words(players, side), "n": sign})


def perete_words(entry: Mapping[str, Any], players: Sequence[str]) -> str:
    """A perete noted: "perete de Ana y Carla: 1 piedra"."""
    words = _("perete de %(names)s: 1 piedra")
    return str(words % {"names": _side_words(players, entry.get("side"))})


def entry_words(record: Mapping[str, Any], players: Sequence[str]) -> str | None:
    """An entry that is no dealt hand (piedras tapped, a perete) in words, else None."""
    if isinstance(record.get("piedras"), Mapping):
        return piedras_words(record["piedras"], players)
    if isinstance(record.get("perete"), Mapping):
        return perete_words(record["perete"], players)
    return None


def bets_words(lance: object, players: Sequence[str]) -> str:
    """A lance's betting as a player reads it, each step with who said it: "Ana y Carla:
    envido 2, Bruno y Diego: 5 más, Ana y Carla: no quiero" (the hand entry's own words,
    muscore.handentry.taps.bet_words; "2, quiero -> 2, no quiero" named nobody, 30.6)."""
    if not isinstance(lance, Mapping) or not lance.get("bets"):
        return str(_("paso"))
    seats = seating(players)
    bets: list[tuple[str, int | str]] = [
        (str(bet.get("side")), bet["n"] if isinstance(bet.get("n"), int) else str(bet.get("n")))
        for bet in lance.get("bets") or []
        if isinstance(bet, Mapping) and bet.get("side") in seats.letters
    ]
    labels = {side: _side_words(players, side) for side in seats.letters}
    end = lance.get("end") if lance.get("end") in ("quiero", "no_quiero") else None
    if not seats.individual:
        return ", ".join(bet_words(bets, end, labels))
    out = lance.get("out")
    left = [str(side) for side in out] if isinstance(out, list) else []
    return ", ".join(bet_words(bets, end, labels, out=left))


def _jugada_words(jugada: object) -> str:
    if not isinstance(jugada, Mapping):
        return str(_("(nada)"))
    words = []
    if "pares" in jugada:
        words.append(_("pares: %(v)s") % {"v": jugada["pares"]})
    if "juego" in jugada:
        words.append(_("juego: %(v)s") % {"v": jugada["juego"]})
    return ", ".join(words) or _("(nada)")


def _declared_words(said: object) -> str:
    if not isinstance(said, Mapping):
        return str(_("(nada)"))
    words = []
    for jugada in ("pares", "juego"):
        if jugada in said:
            yes = _("sí") if said[jugada] else _("no")
            words.append(f"{jugada} {yes}")
    return ", ".join(words) or _("(nada)")


def _by_seat(record: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = record.get(key)
    return value if isinstance(value, Mapping) else {}


def record_changes(
    before: Mapping[str, Any], after: Mapping[str, Any], players: Sequence[str]
) -> list[str]:
    """What was entered differently, field by field, with names for seats."""
    out: list[str] = []
    old_tap, new_tap = entry_words(before, players), entry_words(after, players)
    if old_tap is not None or new_tap is not None:
        old = old_tap if old_tap is not None else _("(nada)")
        new = new_tap if new_tap is not None else _("(nada)")
        if old != new:
            out.append(old + ARROW + new)
    cards_before, cards_after = _by_seat(before, "hands"), _by_seat(after, "hands")
    for seat in sorted(set(cards_before) | set(cards_after), key=str):
        shown_before, shown_after = cards_before.get(seat), cards_after.get(seat)
        if shown_before != shown_after:
            out.append(
                _("cartas de %(name)s: %(old)s%(arrow)s%(new)s")
                % {
                    "name": _seat_name(players, seat),
                    "old": shown_before or _("sin enseñar"),
                    "arrow": ARROW,
                    "new": shown_after or _("sin enseñar"),
                }
            )
    for key, label in (
        ("jugadas", _("jugadas de %(name)s")),
        ("declared", _("lo que dijo %(name)s")),
    ):
        old_seats, new_seats = _by_seat(before, key), _by_seat(after, key)
        words = _jugada_words if key == "jugadas" else _declared_words
        for seat in sorted(set(old_seats) | set(new_seats), key=str):
            if old_seats.get(seat) != new_seats.get(seat):
                out.append(
                    (label % {"name": _seat_name(players, seat)})
                    + ": "
                    + words(old_seats.get(seat))
                    + ARROW
                    + words(new_seats.get(seat))
                )
    lances_before, lances_after = _by_seat(before, "lances"), _by_seat(after, "lances")
    for lance in LANCES:
        old_bets = bets_words(lances_before.get(lance), players)
        new_bets = bets_words(lances_after.get(lance), players)
        if old_bets != new_bets:
            out.append(
                _("apuestas a %(lance)s: %(old)s%(arrow)s%(new)s")
                % {"lance": _lance_name(lance).lower(), "old": old_bets, "arrow": ARROW,
                   "new": new_bets}
            )
    return out


def _result(
    record: Mapping[str, Any],
    table_rules: Mapping[str, Any],
    context: tuple[int, dict[str, int]] | None,
) -> HandResultDict | None:
    """The record scored where it stands (its mano, the score before it), or None."""
    if context is None or "piedras" in record or "perete" in record:
        return None
    mano, score = context
    try:
        return rules_engine.score({**record, "rules": dict(table_rules), "mano": mano,
                                   "score": score})
    except (rules_engine.RuleError, TypeError, KeyError, ValueError):
        return None


def _tantos(
    record: Mapping[str, Any],
    result: Mapping[str, Any] | None,
    context: tuple[int, dict[str, int]] | None,
) -> dict[str, int] | None:
    """The piedras each side got in this entry."""
    entry = record.get("piedras")
    sides = sorted(context[1]) if context is not None else list(board.SIDES)
    if isinstance(entry, Mapping) and entry.get("side") in sides:
        n = entry.get("n")
        got = dict.fromkeys(sides, 0)
        got[str(entry["side"])] = n if isinstance(n, int) else 0
        return got
    if result is None or context is None:
        return None
    before = context[1]
    return {side: int(result["score"][side]) - int(before[side]) for side in sides}


def result_changes(
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    players: Sequence[str],
    table_rules: Mapping[str, Any],
    context: tuple[int, dict[str, int]] | None,
    number: int | None,
) -> list[str]:
    """Who each lance went to, and the hand's tantos, before and after the change."""
    out: list[str] = []
    old, new = _result(before, table_rules, context), _result(after, table_rules, context)
    if old is not None and new is not None:
        for lance in LANCES:
            was = (old.get("lances") or {}).get(lance)
            now = (new.get("lances") or {}).get(lance)
            if was is None and now is None:
                continue
            was_side = was.get("side") if was else None
            now_side = now.get("side") if now else None
            if was_side != now_side:
                out.append(
                    f"{_lance_name(lance)}: {_side_words(players, was_side)}{ARROW}"
                    f"{_side_words(players, now_side)}"
                )
    old_tantos = _tantos(before, old, context)
    new_tantos = _tantos(after, new, context)
    if old_tantos is not None and new_tantos is not None and old_tantos != new_tantos:
        out.append(
            _("tantos de la mano %(n)s: %(old)s%(arrow)s%(new)s")
            % {"n": number, "old": _score_words(old_tantos), "arrow": ARROW,
               "new": _score_words(new_tantos)}
        )
    return out


def summary(
    record: Mapping[str, Any],
    players: Sequence[str],
    table_rules: Mapping[str, Any],
    context: tuple[int, dict[str, int]] | None,
    number: int | None,
) -> list[str]:
    """An entry added, undone or brought back: what it scored."""
    if (tap := entry_words(record, players)) is not None:
        return [tap]
    tantos = _tantos(record, _result(record, table_rules, context), context)
    if tantos is None:
        return []
    return [_("tantos de la mano %(n)s: %(score)s") % {"n": number, "score": _score_words(tantos)}]
