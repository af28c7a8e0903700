"""The bet buttons' taps (templates/tables/_bets.html), shared by the hand entry and the
recuento calculator: understood here once, made legal or refused by the engine's
:class:`muscore.rules.HandDraft`, and the bets said back as the table says them.

A lance's bets travel in the fields as "A2 B5 Ao" (side and piedras, "o" the órdago).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from django.utils.translation import gettext as _

from muscore import rules as rules_engine
from muscore.handentry.messages import rule_message
from muscore.handentry.words import other
from muscore.messages import WordedError
from muscore.rules import HandDraft, Lance, Side, Tap, TapKind

MAX_BET = 99


class EntryError(WordedError):
    """A tap or a field the entry cannot take; str() says what, for the table."""


def parse_bets(text: str) -> list[tuple[str, int | str]]:
    """'A2 B5 Ao' -> [("A", 2), ("B", 5), ("A", "ordago")]: the hidden state of a lance."""
    bets: list[tuple[str, int | str]] = []
    for token in text.split():
        side, amount = token[:1], token[1:]
        if side not in ("A", "B"):
            raise EntryError(token)
        if amount == "o":
            bets.append((side, "ordago"))
        elif amount.isdigit() and 1 <= int(amount) <= MAX_BET:
            bets.append((side, int(amount)))
        else:
            raise EntryError(token)
    return bets


def bets_text(bets: Iterable[tuple[str, int | str]]) -> str:
    """[("A", 2), ("B", "ordago")] -> "A2 Bo": a lance's bets in the fields' one encoding."""
    return " ".join(f"{side}{'o' if n == 'ordago' else n}" for side, n in bets)


def bet_words(
    bets: Sequence[tuple[str, int | str]], end: str | None, labels: Mapping[str, str],
    *, out: Sequence[str] | None = None,
) -> list[str]:
    """A lance's bets as the table says them: "Ana y Carla: envido 2", "…: no quiero".

    Shared by the hand entry and the recuento calculator, so both speak alike. In
    individual play (`out` given: who left the lance) a record keeps the bets and who
    left, not each player's word: "Ana: envido 2, Carla: 3 más, Bruno: no quiero,
    querido" (the talk itself is :func:`talk_words`).
    """
    words = []
    for i, (side, n) in enumerate(bets):
        if n == "ordago":
            what = _("órdago")
        elif i == 0:
            what = _("envido %(n)s") % {"n": n}
        else:
            what = _("%(n)s más") % {"n": n}
        words.append(f"{labels[side]}: {what}")
    if out is not None:
        no = _("no quiero")
        words.extend(f"{labels.get(side, side)}: {no}" for side in out)
        if bets and end:
            words.append(_("querido") if end == "quiero" else _("nadie quiso"))
        return words
    if bets and end:
        answer = _("quiero") if end == "quiero" else _("no quiero")
        words.append(f"{labels[other(bets[-1][0])]}: {answer}")
    return words


def talk_words(taps: Iterable[Tap], labels: Mapping[str, str]) -> list[str]:
    """A lance's talk in individual play, each word with who said it: "Ana: paso",
    "Bruno: envido 2", "Carla: no quiero", "Ana: 3 más", "Bruno: quiero"; "paso" alone
    where everybody who had not spoken passed at once."""
    words = []
    bet = False
    for tap in taps:
        if tap.kind is TapKind.PASO:
            what = _("paso")
        elif tap.kind is TapKind.ORDAGO:
            what = _("órdago")
            bet = True
        elif tap.kind is TapKind.ENVIDO:
            what = (_("%(n)s más") if bet else _("envido %(n)s")) % {"n": tap.n}
            bet = True
        else:
            what = _("quiero") if tap.kind is TapKind.QUIERO else _("no quiero")
        if tap.side is None:
            words.append(str(_("todos: paso")))
        else:
            words.append(f"{labels.get(tap.side.value, tap.side.value)}: {what}")
    return words


def bets_of(draft: HandDraft, lance: str) -> list[tuple[str, int | str]]:
    """A lance's bets in the draft as (side, n) pairs, the fields' own shape."""
    return [(str(bet["side"]), bet["n"]) for bet in draft.bets.get(Lance(lance), ())]


def tap_draft(draft: HandDraft, parts: Sequence[str], amount: str, name: str) -> HandDraft:
    """One tapped bet button (`act` split on ":") applied to a hand draft by the engine.

    The bet buttons (templates/tables/_bets.html) are shared by the hand entry and the
    recuento calculator; this is the one place their taps are understood, and the engine
    (muscore.rules.HandDraft.tap) says which are legal. `amount` is what the lance's "otra
    cantidad" field held, for a `…:amt` bet. EntryError says why a tap cannot be taken.
    """
    kind, lance = parts[0], Lance(parts[1])
    if kind == "clear":
        while draft.bets.get(lance) or lance in draft.ends:
            draft = draft.undo(lance)
        return draft
    if kind == "pop":
        return draft.undo(lance) if draft.bets.get(lance) else draft
    legal = draft.legal_taps(lance)
    tap: Tap | None = None
    if kind == "end" and len(parts) == 3 and parts[2] in ("quiero", "no_quiero"):
        wanted = TapKind.QUIERO if parts[2] == "quiero" else TapKind.NO_QUIERO
        tap = next((t for t in legal if t.kind is wanted), None)
        if tap is None:
            raise EntryError(_("%(lance)s: nadie ha envidado.") % {"lance": name})
    elif kind == "bet" and len(parts) == 4 and parts[2] in ("A", "B"):
        side, given = Side(parts[2]), parts[3]
        wanted = TapKind.ORDAGO if given == "ordago" else TapKind.ENVIDO
        if not any(t.kind is wanted and t.side is side for t in legal):
            if draft.bets.get(lance) and draft.lance(lance).ordago:
                raise EntryError(
                    _("%(lance)s: tras un órdago solo cabe quiero o no quiero.") % {"lance": name}
                )
            if not legal:
                raise EntryError(
                    _("%(lance)s ya está cerrado: bórralo para cambiarlo.") % {"lance": name}
                )
            raise EntryError(_("%(lance)s: ahora contesta el otro bando.") % {"lance": name})
        tap = Tap.ordago(side) if wanted is TapKind.ORDAGO else _envido(side, given, amount, name)
    if tap is None:
        raise EntryError(_("%(lance)s: esa apuesta no se entiende.") % {"lance": name})
    try:
        return draft.tap(lance, tap)
    except rules_engine.RuleError as error:
        raise EntryError(rule_message(error)) from None


def say_draft(
    draft: HandDraft, parts: Sequence[str], amount: str, name: str,
    names: Mapping[str, str],
) -> HandDraft:
    """One player's word in individual play (`act` split on ":"), applied by the engine in
    turn: "paso:<lance>:<side>" (he passes; without a side everybody who has not spoken
    passes), "bet:<lance>:<side>:<n|ordago|amt>" (he envida, or raises after a bet),
    "end:<lance>:<quiero|no_quiero>:<side>" (he answers the standing bet: no quiero and he
    leaves the lance); "pop" and "clear" as in pairs. The engine's HandDraft says whose
    turn it is; a word out of turn is refused naming both players (`names`: by side)."""
    kind, lance = parts[0], Lance(parts[1])
    if kind in ("clear", "pop"):
        return tap_draft(draft, parts, amount, name)
    side_text = parts[3] if kind == "end" and len(parts) == 4 else (
        parts[2] if len(parts) > 2 else "")
    side = Side(side_text) if side_text in draft.rules.letters else None
    if side_text and side is None:
        raise EntryError(_("%(lance)s: en esta mesa no hay ningún jugador «%(side)s».")
                         % {"lance": name, "side": side_text[:3]})
    tap = _said(kind, parts, side, amount, name)
    if tap is None:
        raise EntryError(_("%(lance)s: esa apuesta no se entiende.") % {"lance": name})
    try:
        return draft.tap(lance, tap)
    except rules_engine.RuleError as error:
        raise EntryError(_talk_refusal(error, draft, lance, name, names)) from None


def _said(kind: str, parts: Sequence[str], side: Side | None, amount: str,
          name: str) -> Tap | None:
    """The word an act says (see :func:`say_draft`), or None when it says none."""
    if kind == "paso" and len(parts) in (2, 3):
        return Tap.paso(side)
    if side is None:
        return None
    if kind == "end" and len(parts) == 4 and parts[2] in ("quiero", "no_quiero"):
        return Tap.quiero(side) if parts[2] == "quiero" else Tap.no_quiero(side)
    if kind == "bet" and len(parts) == 4:
        given = parts[3]
        return Tap.ordago(side) if given == "ordago" else _envido(side, given, amount, name)
    return None


def _envido(side: Side, given: str, amount: str, name: str) -> Tap:
    """An envido of `given` piedras (`amount`, the lance's "otra cantidad" field, for
    "amt": 2 when empty), or the refusal naming the lance (`name`)."""
    if given == "amt":
        given = amount or "2"
    if not given.isdigit() or not 1 <= int(given) <= MAX_BET:
        raise EntryError(
            _("%(lance)s: un envite es un número de piedras del 1 al %(max)s.")
            % {"lance": name, "max": MAX_BET}
        )
    return Tap.envido(side, int(given))


def _talk_refusal(error: rules_engine.RuleError, draft: HandDraft, lance: Lance, name: str,
                  names: Mapping[str, str]) -> str:
    """An engine refusal of a word, with the players' names where it names letters."""
    params = error.params
    if error.code == "tap_turn":
        return _("%(lance)s: ahora habla %(turn)s, no %(side)s.") % {
            "lance": name, "turn": names.get(str(params.get("turn")), params.get("turn")),
            "side": names.get(str(params.get("side")), params.get("side"))}
    players = draft.players(lance)
    side = params.get("side")
    if error.code == "tap_illegal" and side and players is not None and side not in players:
        return _("%(lance)s: %(name)s no juega este lance: no puede hablar en él.") % {
            "lance": name, "name": names.get(str(side), side)}
    if error.code == "tap_illegal" and draft.to_speak(lance) is None:
        return _("%(lance)s ya está cerrado: bórralo para cambiarlo.") % {"lance": name}
    return rule_message(error)
