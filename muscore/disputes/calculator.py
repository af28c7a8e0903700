"""The recuento calculator: a disputed hand typed into a form, as a hand record, scored.

The form is plain fields (so it works without JS and round-trips through a
permalink); this module turns its data into a hand record and back. What the
cards decide, the record leaves to muscore.rules: the fourth lance's name
(juego or punto) and which lances need a winner are found by asking the engine,
never by a second copy of the rules here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from django.utils.translation import gettext as _

from muscore import rules as engine
from muscore.handentry.cards import (
    DECLARED_CHOICES,
    DECLARED_FIELDS,
    JUEGO_CHOICES,
    PARES_CHOICES,
    normal_cards,
    seat_fields,
)
from muscore.handentry.messages import winner_message
from muscore.handentry.options import DEFAULT_RULES, number_reader, read_options
from muscore.handentry.taps import MAX_BET, EntryError, bet_words, bets_of, bets_text, tap_draft
from muscore.handentry.words import LANCE_NAMES, NAME_MAX, default_names, other
from muscore.rules import HandDraft, Lance
from muscore.rules.contract import Bet, HandRecord, HandResultDict, RulesDict

#: The form's lances. The fourth is "juego" in the form; the engine says whether it is punto.
LANCES = ("grande", "chica", "pares", "juego")
ENDS = ("", "quiero", "no_quiero")
_ORDAGO = ("o", "ordago", "órdago")


@dataclass
class Calculation:
    """The calculator's form state, read from a POST (or filled from a record)."""

    players: int = 4
    rules: RulesDict = field(default_factory=lambda: read_options({}, []))  # the defaults
    mano: int = 0
    score: dict[str, int] = field(default_factory=lambda: {"A": 0, "B": 0})
    names: list[str] = field(default_factory=lambda: default_names(4))
    cards: dict[int, str] = field(default_factory=dict)
    pares: dict[int, str] = field(default_factory=dict)
    juego: dict[int, str] = field(default_factory=dict)
    declared: dict[int, dict[str, str]] = field(default_factory=dict)
    first: dict[str, str] = field(default_factory=dict)
    amounts: dict[str, str] = field(default_factory=dict)
    ends: dict[str, str] = field(default_factory=dict)
    winners: dict[str, str] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    #: The bet button tapped (templates/tables/_bets.html), applied to the fields above.
    act: str = ""
    #: Each lance's "otra cantidad" field (a_<lance>), kept until a tap uses it.
    tap_amounts: dict[str, str] = field(default_factory=dict)

    # -- reading the form -------------------------------------------------------------------

    @classmethod
    def from_data(cls, data: Mapping[str, object]) -> Calculation:
        """Read the form's fields; every bad field becomes a message naming it and keeps
        its default (the table options are read as muscore.handentry.options says)."""
        calc = cls()
        calc.rules = read_options(data, calc.errors)
        calc.players = n = calc.rules["players"]
        number = number_reader(data, calc.errors)
        target = calc.rules["target"]
        calc.mano = number("mano", 0, 0, n - 1, _("Mano"))
        calc.score = {
            "A": number("sa", 0, 0, target - 1, _("Tanteo de A")),
            "B": number("sb", 0, 0, target - 1, _("Tanteo de B")),
        }
        defaults = default_names(n)
        calc.names = [
            (_text(data, f"n{seat}").strip()[:NAME_MAX] or defaults[seat]) for seat in range(n)
        ]
        for seat in range(n):
            calc._read_seat(data, seat)
        calc.act = _text(data, "act")[:60]
        for lance in LANCES:
            calc._read_lance(data, lance)
        return calc

    def _read_seat(self, data: Mapping[str, object], seat: int) -> None:
        """A seat's cards, or the jugadas it said without them, and what it declared."""
        name = self.names[seat]
        try:
            self.cards[seat] = normal_cards(_text(data, f"c{seat}")[:60])
        except ValueError as bad:
            self.errors.append(
                _("%(name)s: «%(token)s» no es una carta (1-7, S, C, R).")
                % {"name": name, "token": str(bad)[:10]}
            )
            self.cards[seat] = ""
        if self.cards[seat] and len(self.cards[seat].split()) != 4:
            self.errors.append(
                _("%(name)s: %(k)s cartas; hacen falta 4 (o ninguna).")
                % {"name": name, "k": len(self.cards[seat].split())}
            )
        pares = _text(data, f"p{seat}") or "no"
        self.pares[seat] = pares if pares in PARES_CHOICES else "no"
        juego = _text(data, f"j{seat}") or "no"
        self.juego[seat] = juego if juego in JUEGO_CHOICES else "no"
        said = {}
        for lance, key in DECLARED_FIELDS:
            value = _text(data, f"{key}{seat}")
            said[lance] = value if value in DECLARED_CHOICES else ""
        self.declared[seat] = said

    def _read_lance(self, data: Mapping[str, object], lance: str) -> None:
        """A lance's bets (typed, or the button tapped now), answer and winner."""
        name = str(LANCE_NAMES[lance]) if lance != "juego" else _("Juego / punto")
        first = _text(data, f"f_{lance}")
        self.first[lance] = first if first in ("A", "B") else ""
        self.amounts[lance] = _text(data, f"b_{lance}").strip()[:80]
        written = typed_sides(self.amounts[lance])
        if written:
            self.first[lance] = written[0]
        end = _text(data, f"e_{lance}")
        self.ends[lance] = end if end in ENDS else ""
        amount = _text(data, f"a_{lance}").strip()[:3]
        self.tap_amounts[lance] = amount if amount.isdigit() else ""
        tapped = self.act.split(":")
        if len(tapped) > 1 and tapped[0] in ("bet", "end", "pop") and tapped[1] == lance:
            self._tap(lance, tapped, amount, name)
            self.tap_amounts[lance] = ""
        winner = _text(data, f"w_{lance}")
        self.winners[lance] = winner if winner in ("A", "B") else ""
        try:
            bets = parse_amounts(self.amounts[lance])
        except ValueError as bad:
            self.errors.append(
                _("%(lance)s: «%(token)s» no es un envite: escribe números (2 = envido, "
                  "5 = cinco más) u «o» para el órdago.") % {"lance": name, "token": str(bad)}
            )
            return
        if bets and not self.first[lance]:
            self.errors.append(_("%(lance)s: ¿qué bando envidó primero?") % {"lance": name})
        elif self.first[lance] and "ordago" in bets[:-1]:
            self.errors.append(
                _("%(lance)s: tras un órdago solo cabe quiero o no quiero.") % {"lance": name}
            )
        elif self.first[lance] and not self.ends[lance]:
            self.errors.append(
                _("%(lance)s: falta si quisieron o no quisieron.") % {"lance": name}
            )

    def _tap(self, lance: str, parts: list[str], amount: str, name: str) -> None:
        """Apply a tapped bet button to the lance's fields (first side, amounts, answer).

        The taps only ever write the same fields the text entry uses, so a hand entered
        by taps posts, scores and links exactly as the same hand typed.
        """
        try:
            draft = self._draft_so_far()
            # The form's fourth lance is "juego"; the engine says whether it is punto.
            engine_lance = (draft.fourth() or Lance.JUEGO).value if lance == "juego" else lance
            tapped = tap_draft(draft, [parts[0], engine_lance, *parts[2:]], amount, name)
        except ValueError as bad:  # a typed amount that is not one, or a tap refused
            if isinstance(bad, EntryError):
                self.errors.append(str(bad))
            return
        bets = bets_of(tapped, engine_lance)
        end = tapped.ends.get(Lance(engine_lance))
        self.first[lance] = bets[0][0] if bets else ""
        self.amounts[lance] = bets_text(bets)
        self.ends[lance] = end or ""

    def _draft_so_far(self) -> HandDraft:
        """The engine's draft of the fields read so far, unanswered bets included."""
        record: dict[str, object] = dict(self.record())
        lances: dict[str, dict[str, object]] = {}
        for lance in LANCES:
            bets = self.bets(lance)
            if bets:
                lances[lance] = {"bets": bets}
                if self.ends.get(lance):
                    lances[lance]["end"] = self.ends[lance]
        record["lances"] = lances
        base = HandDraft.from_record({k: v for k, v in record.items() if k != "lances"},
                                     passed=False)
        if base.fourth() is Lance.PUNTO and "juego" in lances:
            lances["punto"] = lances.pop("juego")
        return HandDraft.from_record(record, passed=False)

    def bet_buttons(self, lance: str, labels: Mapping[str, str]) -> dict[str, object]:
        """What templates/tables/_bets.html needs for one lance, as the hand entry gives it."""
        try:
            bets = [(b["side"], b["n"]) for b in self.bets(lance)]
        except ValueError:
            bets = []  # a typed amount that is not one: its error is shown, the taps start over
        end = self.ends.get(lance) or None
        info: dict[str, object] = {
            "bets": bets,
            "bet_words": bet_words(bets, end, labels),
            "open": not bets or end is None,
            "amount": self.tap_amounts.get(lance, ""),
        }
        if bets and end is None:
            info["to_answer"] = to_answer = other(bets[-1][0])
            info["to_answer_label"] = labels[to_answer]
            info["last_ordago"] = bets[-1][1] == "ordago"
        return info

    # -- the record -------------------------------------------------------------------------

    def bets(self, lance: str) -> list[Bet]:
        """The lance's bets: each with its side when written ("A2 B5", as tapped), else
        typed from the first bettor, the sides taking turns ("2 5")."""
        text = self.amounts.get(lance, "")
        sides = typed_sides(text)
        if sides:
            amounts = parse_amounts(text)
            written = [{"side": side, "n": n} for side, n in zip(sides, amounts, strict=True)]
            return cast(list[Bet], written)  # typed_sides and parse_amounts checked them
        side = self.first.get(lance, "")
        if not side:
            return []
        amounts = parse_amounts(text) or [2]
        out = []
        for n in amounts:
            out.append({"side": side, "n": n})
            side = other(side)
        return cast(list[Bet], out)

    def record(self) -> HandRecord:
        """The hand record the form describes (without `winners`: see :func:`settle`)."""
        rules = {k: v for k, v in self.rules.items() if DEFAULT_RULES.get(k) != v}
        record: dict[str, Any] = {}
        if rules:
            record["rules"] = rules
        record["mano"] = self.mano
        record["score"] = dict(self.score)
        hands = {str(s): c for s, c in self.cards.items() if c and len(c.split()) == 4}
        if hands:
            record["hands"] = hands
        jugadas = {}
        for seat in range(self.players):
            if str(seat) not in hands:
                juego = self.juego.get(seat, "no")
                jugadas[str(seat)] = {
                    "pares": self.pares.get(seat, "no"),
                    "juego": "no" if juego == "no" else int(juego),
                }
        if jugadas:
            record["jugadas"] = jugadas
        declared: dict[str, dict[str, bool]] = {}
        for seat, said in sorted(self.declared.items()):
            given = {lance: value == "si" for lance, value in said.items() if value}
            if given:
                declared[str(seat)] = given
        if declared:
            record["declared"] = declared
        lances = {}
        for lance in LANCES:
            bets = self.bets(lance)
            if bets and self.ends.get(lance):
                lances[lance] = {"bets": bets, "end": self.ends[lance]}
        if lances:
            record["lances"] = lances
        return cast(HandRecord, record)  # the fields were checked as they were read

    def form_winners(self) -> dict[str, str]:
        return {lance: side for lance, side in self.winners.items() if side}

    def peretes(self) -> list[int]:
        """The seats whose cards are 4 5 6 7, when the table plays perete (else none)."""
        if not self.rules.get("perete"):
            return []
        return [seat for seat, text in sorted(self.cards.items())
                if len(text.split()) == 4 and engine.Hand.parse(text).is_perete()]

    # -- filling the form from a record -----------------------------------------------------

    @classmethod
    def from_record(cls, record: Mapping[str, Any], names: list[str] | None = None) -> Calculation:
        """The form showing a record (a permalink, a table's hand). The record must score."""
        data: dict[str, object] = {}
        rules = engine.Rules.from_json(record.get("rules")).to_json()
        data.update({k: str(v) for k, v in rules.items()})
        data["mano"] = str(record.get("mano", 0))
        score = record.get("score") or {}
        data["sa"], data["sb"] = str(score.get("A", 0)), str(score.get("B", 0))
        for seat, name in enumerate(names or []):
            data[f"n{seat}"] = name
        data.update(seat_fields(record))
        for lance, side in (record.get("winners") or {}).items():
            data[f"w_{_form_lance(lance)}"] = side
        for lance, betting in (record.get("lances") or {}).items():
            bets = betting.get("bets") or []
            if not bets:
                continue
            key = _form_lance(lance)
            data[f"f_{key}"] = bets[0]["side"]
            data[f"b_{key}"] = bets_text((bet["side"], bet["n"]) for bet in bets)
            data[f"e_{key}"] = betting.get("end") or ""
        return cls.from_data(data)

    def names_changed(self) -> bool:
        return self.names != default_names(self.players)


def _text(data: Mapping[str, object], name: str) -> str:
    """A field's raw text ("" when missing or empty)."""
    return str(data.get(name, "") or "")


def _form_lance(lance: str) -> str:
    return "juego" if lance == "punto" else lance


def typed_sides(text: str) -> list[str] | None:
    """The sides written in a lance's bets, as the hand entry writes them ("A2 B5 Ao"),
    or None when they are not written ("2 5 o": the first bettor says)."""
    tokens = text.replace(",", " ").split()
    if tokens and all(token[:1].upper() in ("A", "B") and token[1:] for token in tokens):
        return [token[:1].upper() for token in tokens]
    return None


def parse_amounts(text: str) -> list[int | str]:
    """'2 5 o' or 'A2 B5 Ao' -> [2, 5, "ordago"]: each bet's piedras, or the órdago."""
    out: list[int | str] = []
    for token in text.replace(",", " ").lower().split():
        if token[:1] in ("a", "b") and token[1:]:
            token = token[1:]
        if token in _ORDAGO:
            out.append("ordago")
        elif token.isdigit() and 1 <= int(token) <= MAX_BET:
            out.append(int(token))
        else:
            raise ValueError(token[:10])
    return out


@dataclass
class Settled:
    """A scored hand: the record as scored (winners and fourth lance settled) and its result."""

    #: as scored; as given (maybe not a valid record: a permalink is anyone's) on an error
    record: dict[str, Any]
    result: HandResultDict | None
    error: str | None
    asked: list[str]  #: the lances whose winner the engine asked for


def settle(
    record: Mapping[str, Any],
    winners: Mapping[str, str] | None = None,
    names: list[str] | None = None,
) -> Settled:
    """Score a record, asking the engine (a muscore.rules.HandDraft) what the form leaves
    open: whether the fourth lance is juego or punto (the form always names it "juego"),
    and which lances need the table's winner. The form's winner is used where the engine
    asks for one; one the cards or jugadas contradict is refused, naming both.
    """
    current: dict[str, Any] = {**record}
    given = dict(winners or {})
    asked: list[str] = []
    try:
        rules = engine.Rules.from_json(current.get("rules"))
        if rules.sides > 2:
            # Individual play of 3 or more (issue 37): the engine scores it, this form
            # (seats and sides A and B) does not enter it yet.
            return Settled(current, None, _(
                "La calculadora aún no cuenta manos de %(players)s jugadores cada uno por su "
                "cuenta.") % {"players": rules.players}, asked)
        reading = HandDraft.from_record(
            {k: v for k, v in current.items() if k not in ("lances", "winners")}
        )
        if reading.fourth() is Lance.PUNTO:
            for key, values in (("lances", dict(current.get("lances") or {})), ("winners", given)):
                if "juego" in values:
                    values["punto"] = values.pop("juego")
                if key == "lances" and values:
                    current["lances"] = values
            winners_in = dict(current.get("winners") or {})
            if "juego" in winners_in:
                winners_in["punto"] = winners_in.pop("juego")
                current["winners"] = winners_in
        draft = HandDraft.from_record(current)
        for lance, side in given.items():
            settled = draft.settled(lance)
            if settled is not None and settled.value != side:
                problems = draft.with_winner(lance, side).problems()
                if problems:
                    return Settled(current, None, winner_message(problems[0], names), asked)
        draft, needed = draft.asking_winners(given)
        for lance in needed:
            asked.append(lance.value)
            chosen = given.get(lance.value)
            if chosen:
                current["winners"] = {**(current.get("winners") or {}), lance.value: chosen}
        return Settled(current, draft.result(), None, asked)
    except engine.RuleError as error:
        return Settled(current, None, winner_message(error, names), asked)
    except (TypeError, KeyError, AttributeError, IndexError):
        # A permalink is anyone's input: an odd shape is its fault, never a crash.
        return Settled(current, None, _("Esa mano no se puede leer."), asked)
