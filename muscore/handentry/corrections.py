"""What a correction keeps: every part of a stored hand it did not change, as it was
entered (issue 38.3).

The correction form writes a whole record again from its fields: the cards in the
order the form holds them, every lance as the engine's draft writes it, the winners
the engine still needs. Stored as it is, a correction of one lance's answer would
rewrite the cards ("4 5 2 7" -> "7 5 4 2"), add passed lances and drop a winner nobody
touched, and the audit would list all of it. `as_entered` puts back the stored
writing of every part that means the same, so the record and the audit change only
where the person changed something.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from muscore import rules as rules_engine
from muscore.handentry.cards import CardTokenError, cards_from_text

# The parts of a hand record kept one entry at a time: a seat, a lance.
KEYED_PARTS = ("hands", "jugadas", "declared", "lances", "winners")


def _cards(text: object) -> object:
    """A seat's cards as a table reads them, in the order written ("r r 5 4" and
    "R R 5 4" are the same cards; "4 R R 5" is not the same entry)."""
    if not isinstance(text, str):
        return text
    try:
        return cards_from_text(text)
    except CardTokenError:
        return text


def _lance(betting: object) -> object:
    """A lance's betting as the engine reads it: a lance left out is passed by all."""
    if betting is None:
        return {"bets": [], "end": None}
    if not isinstance(betting, Mapping):
        return betting
    bets = list(betting.get("bets") or [])
    return {"bets": bets, "end": betting.get("end") if bets else None,
            **{k: v for k, v in betting.items() if k not in ("bets", "end")}}


def _jugada(said: object) -> object:
    if not isinstance(said, Mapping):
        return said
    return {key: str(value) for key, value in said.items()}


READ: dict[str, Callable[[object], object]] = {
    "hands": _cards,
    "jugadas": _jugada,
    "declared": lambda said: said,
    "lances": _lance,
    "winners": lambda side: side,
}


def _kept_part(name: str, before: object, after: object, *,
               keep_dropped: bool) -> dict[str, object]:
    """One keyed part (hands, lances...) of the corrected record: the stored entry where
    it reads the same, the corrected one where it changed. A lance left out is passed;
    a seat left out of hands, jugadas or declared was cleared on the form. A winner
    only the stored record has is kept with `keep_dropped` (the form leaves out the
    winners the cards settle)."""
    read = READ[name]
    old = before if isinstance(before, Mapping) else {}
    new = after if isinstance(after, Mapping) else {}
    out: dict[str, object] = {}
    for key in [*old, *(k for k in new if k not in old)]:
        if key in old and key in new:
            out[key] = old[key] if read(old[key]) == read(new[key]) else new[key]
        elif key in new:
            if name == "lances" and read(new[key]) == read(None):
                continue  # a passed lance the stored record left out stays left out
            out[key] = new[key]
        elif name == "lances" and read(old[key]) == read(None):
            out[key] = old[key]  # a passed lance written out stays written out
        elif name == "winners" and keep_dropped:
            out[key] = old[key]
    return out


def _merged(before: Mapping[str, object], after: Mapping[str, object], *,
            keep_dropped: bool) -> dict[str, object]:
    out: dict[str, object] = {}
    for key in [*before, *(k for k in after if k not in before)]:
        if key in KEYED_PARTS:
            part = _kept_part(key, before.get(key), after.get(key), keep_dropped=keep_dropped)
            if part:
                out[key] = part
            elif key in before and not before[key]:
                out[key] = before[key]  # an empty part written out stays written out
        elif key in after:
            out[key] = before[key] if before.get(key) == after[key] else after[key]
        elif keep_dropped:
            out[key] = before[key]
    return out


def _score(record: Mapping[str, object], context: Mapping[str, object]) -> object:
    try:
        return rules_engine.score({**record, **context})
    except rules_engine.RuleError as error:
        return ("refused", str(error))


def as_entered(
    before: Mapping[str, object], after: Mapping[str, object], context: Mapping[str, object]
) -> dict[str, object]:
    """`after`, the record a correction form wrote, with every part that reads as in
    `before` (the stored record) written as `before` has it: a seat's cards, a lance, a
    seat's jugadas or declarations, a lance's winner, in the stored order.

    What only the stored record holds (a winner the cards now settle, a key the form
    does not know) is kept too when the engine scores the hand the same with it
    (`context`: the hand's rules, mano and score), so the correction means exactly what
    the form said and keeps everything else as it was.
    """
    merged = _merged(before, after, keep_dropped=True)
    if merged != dict(after) and _score(merged, context) != _score(after, context):
        merged = _merged(before, after, keep_dropped=False)
    return merged
