"""The table's forms: set-up, and the hand entry that turns taps into a hand record.

The hand entry is one page form driven by its own POSTs: every button (a bet, a
quiero, "borrar") is a submit with `act`, the server applies it and renders the
form again. That works as plain HTML and, enhanced by htmx, as a partial swap.
What the cards decide (who has pares or juego, who wins a lance) is asked of
nobody; muscore.rules decides it. The record built here is scored by
muscore.rules alone: the little arithmetic below (the deje) is only what the
form shows while the hand is entered, and the saved result never depends on it.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from muscore import rules as rules_engine
from muscore.tables import board

NAME_MAX = 40
LANCES_FIRST = ("grande", "chica", "pares")
PARES_CHOICES = ("no", "par", "medias", "duples")
JUEGO_CHOICES = ("no", "31", "32", "33", "34", "35", "36", "37", "40")
# The ten card values a table tells apart (suits never matter); 2 and 3 are still
# their own indices for counting the deck, even when they play as as and rey.
CARD_VALUES = ("1", "2", "3", "4", "5", "6", "7", "S", "C", "R")
CARD_ALIASES = {"A": "1", "10": "S", "11": "C", "12": "R", "S": "S", "C": "C", "R": "R"}
MAX_BET = 99
# What a seat said before pares and juego, as the calculator's fields (dp<seat>, dj<seat>):
# "" = what his cards hold (the common case, no tap), "si" / "no" = what he said instead.
DECLARED_CHOICES = ("", "si", "no")
DECLARED_FIELDS = (("pares", "dp"), ("juego", "dj"))


def rule_message(error: Exception) -> str:
    """A RuleError in the page's language (muscore.rule_messages: gettext)."""
    from muscore.rule_messages import rule_message as translated

    return translated(error)


# --- set-up -------------------------------------------------------------------------------------


class SetupForm(forms.Form):
    """Names by seat in speaking order, the first mano and the options of rules.md."""

    players = forms.TypedChoiceField(
        label=gettext_lazy("Jugadores"),
        choices=[(4, gettext_lazy("4 (2 contra 2)")), (6, gettext_lazy("6 (3 contra 3)"))],
        coerce=int,
        initial=4,
        widget=forms.RadioSelect,
    )
    mano = forms.ChoiceField(
        label=gettext_lazy("Mano en la primera"),
        choices=[(str(i), str(i + 1)) for i in range(6)] + [("random", gettext_lazy("Sorteo"))],
        initial="0",
        widget=forms.RadioSelect,
    )
    reyes = forms.TypedChoiceField(
        label=gettext_lazy("Reyes"),
        choices=[(8, gettext_lazy("8 reyes")), (4, gettext_lazy("4 reyes"))],
        coerce=int,
        initial=8,
        widget=forms.RadioSelect,
    )
    target = forms.TypedChoiceField(
        label=gettext_lazy("Piedras por juego"),
        choices=[(30, "30"), (35, "35"), (40, "40")],
        coerce=int,
        initial=40,
        widget=forms.RadioSelect,
    )
    juegos = forms.TypedChoiceField(
        label=gettext_lazy("Juegos para la vaca"),
        choices=[(i, str(i)) for i in range(1, 6)],
        coerce=int,
        initial=2,
        widget=forms.RadioSelect,
    )
    real31 = forms.ChoiceField(
        label=gettext_lazy("31 real"),
        choices=[
            ("no", gettext_lazy("No")),
            ("rey", gettext_lazy("Rey (7 7 7 R)")),
            ("figura", gettext_lazy("Figura (7 7 7 S/C/R)")),
            ("sota", gettext_lazy("Sota (7 7 7 S)")),
        ],
        initial="no",
        widget=forms.RadioSelect,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for seat in range(6):
            self.fields[f"name_{seat}"] = forms.CharField(
                label=_("Asiento %(n)s") % {"n": seat + 1},
                required=False,
                max_length=NAME_MAX,
                widget=forms.TextInput(
                    attrs={
                        "placeholder": f"{'AB'[seat % 2]}{seat // 2 + 1}",
                        "autocomplete": "off",
                        "maxlength": NAME_MAX,
                    }
                ),
            )

    def name_fields(self) -> list[forms.BoundField]:
        return [self[f"name_{seat}"] for seat in range(6)]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        count = data.get("players")
        mano = data.get("mano")
        if count and mano not in (None, "random") and int(mano) >= count:
            self.add_error(
                "mano",
                _("En una mesa de %(n)s la mano es un asiento del 1 al %(n)s.") % {"n": count},
            )
        return data

    def table_kwargs(self) -> dict[str, Any]:
        """The arguments of services.create_table."""
        data = self.cleaned_data
        count = data["players"]
        names = [(data.get(f"name_{seat}") or "").strip() for seat in range(count)]
        mano = data["mano"]
        return {
            "players": [name or None for name in names],
            "rules": {
                "players": count,
                "reyes": data["reyes"],
                "target": data["target"],
                "juegos": data["juegos"],
                "real31": data["real31"],
            },
            "mano": "random" if mano == "random" else int(mano),
        }


# --- the hand entry -----------------------------------------------------------------------------


class EntryError(ValueError):
    """A tap or a field the entry cannot take; str() says what, for the table."""


def _cards_from_text(text: str) -> list[str]:
    cards = []
    for token in text.replace(",", " ").upper().split():
        if token in CARD_VALUES:
            cards.append(token)
        elif token in CARD_ALIASES:
            cards.append(CARD_ALIASES[token])
        else:
            # Written together, as the picker fills the field without JS: "RR54".
            if all(ch in CARD_VALUES or ch == "A" for ch in token):
                cards.extend(CARD_ALIASES.get(ch, ch) for ch in token)
            else:
                raise EntryError(token)
    return cards


def _parse_bets(text: str) -> list[tuple[str, int | str]]:
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


def _bets_text(bets: Sequence[tuple[str, int | str]]) -> str:
    return " ".join(f"{side}{'o' if n == 'ordago' else n}" for side, n in bets)


def _deje(bets: Sequence[tuple[str, int | str]]) -> int:
    # Shown while entering only (see the module docstring): 1 for a rejected first
    # bet, else what stood before the rejected raise.
    if len(bets) == 1:
        return 1
    return sum(int(n) for _side, n in bets[:-1] if n != "ordago")


def bet_words(
    bets: Sequence[tuple[str, int | str]], end: str | None, labels: Mapping[str, str]
) -> list[str]:
    """A lance's bets as the table says them: "Ana y Carla: envido 2", "…: no quiero".

    Shared by the hand entry and the recuento calculator, so both speak alike.
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
    if bets and end:
        answer = _("quiero") if end == "quiero" else _("no quiero")
        words.append(f"{labels[board.other(bets[-1][0])]}: {answer}")
    return words


def tap_bets(
    bets: Sequence[tuple[str, int | str]],
    end: str | None,
    parts: Sequence[str],
    amount: str,
    name: str,
) -> tuple[list[tuple[str, int | str]], str | None]:
    """One tapped bet button (`act` split on ":") applied to a lance's bets and answer.

    The bet buttons (templates/tables/_bets.html) are shared by the hand entry and the
    recuento calculator; this is the one place their taps are understood. `amount` is
    what the lance's "otra cantidad" field held, for a `…:amt` bet. EntryError says why
    a tap cannot be taken.
    """
    bets = list(bets)
    kind = parts[0]
    if kind == "clear":
        return [], None
    if kind == "pop":
        return (bets, None) if end else (bets[:-1], None)
    if end:
        raise EntryError(_("%(lance)s ya está cerrado: bórralo para cambiarlo.") % {"lance": name})
    if kind == "end":
        if not bets or len(parts) != 3 or parts[2] not in ("quiero", "no_quiero"):
            raise EntryError(_("%(lance)s: nadie ha envidado.") % {"lance": name})
        return bets, parts[2]
    # bet:<lance>:<side>:<amount>
    if len(parts) != 4 or parts[2] not in ("A", "B"):
        raise EntryError(_("%(lance)s: esa apuesta no se entiende.") % {"lance": name})
    side, given = parts[2], parts[3]
    if bets and bets[-1][0] == side:
        raise EntryError(_("%(lance)s: ahora contesta el otro bando.") % {"lance": name})
    if bets and bets[-1][1] == "ordago":
        raise EntryError(
            _("%(lance)s: tras un órdago solo cabe quiero o no quiero.") % {"lance": name}
        )
    n: int | str
    if given == "ordago":
        n = "ordago"
    else:
        if given == "amt":
            given = amount or "2"
        if not given.isdigit() or not 1 <= int(given) <= MAX_BET:
            raise EntryError(
                _("%(lance)s: un envite es un número de piedras del 1 al %(max)s.")
                % {"lance": name, "max": MAX_BET}
            )
        n = int(given)
    return [*bets, (side, n)], None


class HandEntry:
    """The state of one hand being entered, read from a POST (or a stored record).

    Fields: c<seat> cards ("R R 5 4"), p<seat>/j<seat> what a seat without cards
    declared, dp<seat>/dj<seat> what a seat that showed cards said for pares and
    juego when it was not what the cards hold ("si"/"no", see DECLARED_CHOICES),
    w_<lance> the winner where the cards do not decide it, b_<lance>
    the bets so far ("A2 B5"), e_<lance> quiero / no_quiero, a_<lance> the
    amount for the next envido; `act` is the button that was tapped.
    """

    def __init__(
        self,
        *,
        players: Sequence[str],
        rules: Mapping[str, Any],
        mano: int,
        score: Mapping[str, int],
        number: int,
        data: QueryDict | Mapping[str, Any] | None = None,
    ) -> None:
        self.players = list(players)
        self.n = len(self.players)
        self.rules = dict(rules)
        self.engine_rules = rules_engine.Rules.from_json(self.rules)
        self.target = int(self.rules.get("target", 40))
        self.mano = mano
        self.score = {"A": int(score["A"]), "B": int(score["B"])}
        self.number = number
        self.errors: list[str] = []
        self.save_errors: list[str] = []
        self.cards: dict[int, list[str]] = {seat: [] for seat in range(self.n)}
        self.pares: dict[int, str] = dict.fromkeys(range(self.n), "no")
        self.juego: dict[int, str] = dict.fromkeys(range(self.n), "no")
        self.declared: dict[int, dict[str, str]] = {seat: {} for seat in range(self.n)}
        self.winners: dict[str, str | None] = {}
        self.bets: dict[str, list[tuple[str, int | str]]] = {}
        self.ends: dict[str, str | None] = {}
        self.amounts: dict[str, str] = {}
        self.client_id = str(uuid.uuid4())
        self.revision: str = ""
        self.act = ""
        self.labels = self.side_labels()
        self.side_list = [
            {
                "side": side,
                "label": self.labels[side],
                # The partners' names, so a button may wrap between them (never inside one).
                "parts": [self.players[s] for s in board.side_seats(side, self.n)],
            }
            for side in ("A", "B")
        ]
        if data is not None:
            self._read(data)
        self.analyse()

    # reading ---------------------------------------------------------------------------------

    def _read(self, data: Any) -> None:
        get = data.get
        client_id = str(get("client_id", "") or "")
        if client_id:
            try:
                self.client_id = str(uuid.UUID(client_id))
            except ValueError:
                self.errors.append(_("El formulario está dañado: vuelve a abrirlo."))
        self.revision = str(get("revision", "") or "")[:20]
        # The number the form was opened for: sent again (a double tap, a retry) it
        # must name the same hand, so another phone's hand is a conflict, not a second hand.
        posted = str(get("number", "") or "")
        if posted.isdigit() and 0 < int(posted) < 100_000:
            self.number = int(posted)
        self.act = str(get("act", "") or "")[:60]
        for seat in range(self.n):
            name = self.players[seat]
            text = str(get(f"c{seat}", "") or "")[:60]
            try:
                self.cards[seat] = _cards_from_text(text)
            except EntryError as bad:
                self.errors.append(
                    _("%(name)s: «%(token)s» no es una carta (1-7, S, C, R).")
                    % {"name": name, "token": str(bad)[:10]}
                )
            pares = str(get(f"p{seat}", "no") or "no")
            if pares not in PARES_CHOICES:
                self.errors.append(
                    _("%(name)s: «%(v)s» no es una jugada de pares.")
                    % {"name": name, "v": pares[:10]}
                )
                pares = "no"
            self.pares[seat] = pares
            juego = str(get(f"j{seat}", "no") or "no")
            if juego not in JUEGO_CHOICES:
                self.errors.append(
                    _("%(name)s: «%(v)s» no es un juego (31-37 o 40).")
                    % {"name": name, "v": juego[:10]}
                )
                juego = "no"
            self.juego[seat] = juego
            for lance, key in DECLARED_FIELDS:
                said = str(get(f"{key}{seat}", "") or "")
                if said not in DECLARED_CHOICES:
                    self.errors.append(
                        _("%(name)s: «%(v)s» no es sí ni no (lo que dijo a %(lance)s).")
                        % {"name": name, "v": said[:10], "lance": lance}
                    )
                    said = ""
                if said:
                    self.declared[seat][lance] = said
        for lance in (*LANCES_FIRST, "juego", "punto"):
            winner = get(f"w_{lance}")
            self.winners[lance] = winner if winner in ("A", "B") else None
            try:
                self.bets[lance] = _parse_bets(str(get(f"b_{lance}", "") or "")[:200])
            except EntryError:
                self.errors.append(
                    _("%(lance)s: las apuestas no se entienden.")
                    % {"lance": board.LANCE_NAMES[lance]}
                )
                self.bets[lance] = []
            end = get(f"e_{lance}")
            self.ends[lance] = end if end in ("quiero", "no_quiero") else None
            self.amounts[lance] = str(get(f"a_{lance}", "") or "")[:3]

    @classmethod
    def from_record(cls, record: Mapping[str, Any], **kwargs: Any) -> HandEntry:
        """The form filled with a stored record, to correct it."""
        data: dict[str, Any] = {}
        for seat, cards in (record.get("hands") or {}).items():
            data[f"c{seat}"] = str(rules_engine.Hand.parse(cards))
        for seat, jugada in (record.get("jugadas") or {}).items():
            data[f"p{seat}"] = str(jugada.get("pares", "no"))
            data[f"j{seat}"] = str(jugada.get("juego", "no"))
        # Kept through an edit: what was said is part of the hand (a lie changes the count).
        for seat, said in (record.get("declared") or {}).items():
            for lance, key in DECLARED_FIELDS:
                if lance in said:
                    data[f"{key}{seat}"] = "si" if said[lance] else "no"
        for lance, side in (record.get("winners") or {}).items():
            data[f"w_{lance}"] = side
        for lance, betting in (record.get("lances") or {}).items():
            bets = [(b["side"], b["n"]) for b in betting.get("bets") or []]
            data[f"b_{lance}"] = _bets_text(bets)
            if betting.get("end"):
                data[f"e_{lance}"] = betting["end"]
        return cls(data=data, **kwargs)

    # what the cards and declarations decide ----------------------------------------------------

    def showed(self, seat: int) -> bool:
        return len(self.cards[seat]) == 4

    def said(self, seat: int, lance: str) -> bool:
        """What the seat said for pares / juego: his declaration, else what he holds."""
        value = self.declared[seat].get(lance)
        if value:
            return value == "si"
        return (self.cards_pares if lance == "pares" else self.cards_juego)[seat]

    def lied(self) -> bool:
        """Someone's declaration is not what his shown cards hold."""
        return any(
            self.said(seat, lance) != self.holds(seat, lance)
            for seat in range(self.n) if self.showed(seat)
            for lance in ("pares", "juego")
        )

    def holds(self, seat: int, lance: str) -> bool:
        return (self.cards_pares if lance == "pares" else self.cards_juego)[seat]

    def analyse(self) -> None:
        """Who holds pares and juego, which lances are bet, which winners are asked."""
        # What the cards (or, without cards, the jugadas) hold; has_* is what the table
        # believed, i.e. what was said: a lie is bet on as if true (rules.md, "Lies").
        self.cards_pares: dict[int, bool] = {}
        self.cards_juego: dict[int, bool] = {}
        self.has_pares: dict[int, bool] = {}
        self.has_juego: dict[int, bool] = {}
        counts: dict[str, int] = {}
        for seat in range(self.n):
            cards = self.cards[seat]
            for card in cards:
                counts[card] = counts.get(card, 0) + 1
            if cards and len(cards) != 4:
                self.errors.append(
                    _("%(name)s: %(k)s cartas; hacen falta 4 (o ninguna).")
                    % {"name": self.players[seat], "k": len(cards)}
                )
            if self.showed(seat):
                hand = rules_engine.Hand.parse(" ".join(cards))
                self.cards_pares[seat] = hand.pares(self.engine_rules) is not None
                self.cards_juego[seat] = hand.has_juego(self.engine_rules)
                self.has_pares[seat] = self.said(seat, "pares")
                self.has_juego[seat] = self.said(seat, "juego")
            else:
                # Without cards the jugada is what he said: a lie cannot be seen.
                self.cards_pares[seat] = self.has_pares[seat] = self.pares[seat] != "no"
                self.cards_juego[seat] = self.has_juego[seat] = self.juego[seat] != "no"
        for card, count in sorted(counts.items()):
            if count > 4:
                self.errors.append(
                    _("Hay %(k)s cartas «%(card)s» en la mesa y la baraja solo tiene 4.")
                    % {"k": count, "card": card}
                )
        self.all_showed = all(self.showed(seat) for seat in range(self.n))
        self.any_showed = any(self.showed(seat) for seat in range(self.n))
        self.fourth = "juego" if any(self.has_juego.values()) else "punto"
        self.order = [*LANCES_FIRST, self.fourth]
        # A fourth lance that is not played keeps no bets from an earlier answer.
        other_fourth = "punto" if self.fourth == "juego" else "juego"
        self.bets[other_fourth] = []
        self.ends[other_fourth] = None
        running = dict(self.score)
        self.ended_at: str | None = None
        self.lances: list[dict[str, Any]] = []
        for lance in self.order:
            info = self._lance(lance, running)
            self.lances.append(info)
            if self.ended_at is None and info.get("ends_juego"):
                self.ended_at = lance
                if info["ordago"]:
                    # An accepted órdago: only its lance decides; nothing before it counts.
                    for earlier in self.lances[:-1]:
                        earlier["needs_winner"] = False
                        earlier["winner"] = None
            elif self.ended_at is not None:
                info["not_played"] = True

    def _holders(self, lance: str) -> dict[str, list[int]]:
        table = self.has_pares if lance == "pares" else self.has_juego
        out: dict[str, list[int]] = {"A": [], "B": []}
        for seat in range(self.n):
            if lance in ("pares", "juego") and not table[seat]:
                continue
            out[board.side_of(seat)].append(seat)
        return out

    def _lance(self, lance: str, running: dict[str, int]) -> dict[str, Any]:
        holders = self._holders(lance)
        sides_in = [side for side in ("A", "B") if holders[side]]
        bettable = len(sides_in) == 2
        info: dict[str, Any] = {
            "lance": lance,
            "name": board.LANCE_NAMES[lance],
            "word": board.LANCE_WORDS[lance],
            "bettable": bettable,
            "solo": sides_in[0] if len(sides_in) == 1 else None,
            "nobody": not sides_in,
            "holders": holders,
            "bets": self.bets.get(lance, []),
            "end": self.ends.get(lance),
            "not_played": self.ended_at is not None,
            "amount": self.amounts.get(lance, ""),
        }
        if info["solo"]:
            info["solo_label"] = self.labels[info["solo"]]
        if self.ended_at is not None:
            return info
        if not bettable and info["bets"]:
            self.errors.append(
                _("En %(lance)s no se apuesta: solo se apuesta cuando los dos bandos tienen.")
                % {"lance": info["word"]}
            )
            self.bets[lance], self.ends[lance] = [], None
            info["bets"], info["end"] = [], None
        bets, end = info["bets"], info["end"]
        info["bet_words"] = self._bet_words(bets, end)
        if bets and end == "no_quiero":
            side = bets[-1][0]
            deje = _deje(bets)
            running[side] += deje
            info["deje"] = {
                "side": side,
                "label": self.labels[side],
                "points": deje,
                "score": running[side],
            }
            if running[side] >= self.target:
                info["ends_juego"] = True
        ordago = bool(bets) and bets[-1][1] == "ordago" and end == "quiero"
        info["ordago"] = ordago
        if ordago:
            info["ends_juego"] = True
        players_in = holders["A"] + holders["B"]
        needs = bettable and end != "no_quiero" and any(not self.showed(s) for s in players_in)
        info["needs_winner"] = needs
        info["winner"] = self.winners.get(lance) if needs else None
        info["open"] = bettable and (not bets or end is None)
        if bets and end is None:
            info["to_answer"] = board.other(bets[-1][0])
            info["to_answer_label"] = self.labels[info["to_answer"]]
            info["last_ordago"] = bets[-1][1] == "ordago"
        return info

    def _bet_words(self, bets: Sequence[tuple[str, int | str]], end: str | None) -> list[str]:
        return bet_words(bets, end, self.labels)

    # the taps --------------------------------------------------------------------------------

    def apply(self, act: str) -> None:
        """Apply one tapped button: bet, end (quiero / no quiero), undo a step, clear."""
        parts = act.split(":")
        kind = parts[0]
        if kind not in ("bet", "end", "pop", "clear") or len(parts) < 2:
            return
        lance = parts[1]
        info = next((i for i in self.lances if i["lance"] == lance), None)
        if info is None:
            raise EntryError(_("Esa mano no tiene lance «%(lance)s».") % {"lance": lance[:10]})
        name = info["name"]
        if kind not in ("clear", "pop"):
            if info["not_played"]:
                raise EntryError(
                    _("%(lance)s no se juega: el juego ya terminó.") % {"lance": name}
                )
            if not info["bettable"]:
                raise EntryError(
                    _("En %(lance)s no se apuesta: solo se apuesta cuando los dos bandos tienen.")
                    % {"lance": lance}
                )
        self.bets[lance], self.ends[lance] = tap_bets(
            self.bets.get(lance, []), self.ends.get(lance), parts, self.amounts.get(lance, ""), name
        )
        self.amounts[lance] = ""
        self.analyse()

    # the record ------------------------------------------------------------------------------

    def missing_items(self) -> list[dict[str, str]]:
        """What must still be answered before the hand can be scored, lance by lance,
        said as the table would ask it (the page marks and scrolls to each lance)."""
        out = []
        for info in self.lances:
            if info["not_played"]:
                continue
            if info["bets"] and info["end"] is None:
                who = board.side_names(self.players, info["to_answer"])
                text = _("%(lance)s: falta si %(who)s quieren o no.") % {
                    "lance": info["name"], "who": who,
                }
            elif info["needs_winner"] and info["winner"] is None:
                text = _("%(lance)s: falta quién gana, %(a)s o %(b)s.") % {
                    "lance": info["name"],
                    "a": board.side_names(self.players, "A"),
                    "b": board.side_names(self.players, "B"),
                }
            else:
                continue
            out.append({"lance": info["lance"], "text": text})
        return out

    def missing(self) -> list[str]:
        """What must still be answered before the hand can be scored."""
        return [item["text"] for item in self.missing_items()]

    def record(self) -> dict[str, Any]:
        """The hand record (without score and mano: the table knows them)."""
        record: dict[str, Any] = {}
        hands = {str(s): " ".join(c) for s, c in self.cards.items() if self.showed(s)}
        if hands:
            record["hands"] = hands
        jugadas = {}
        for seat in range(self.n):
            if not self.showed(seat):
                juego = self.juego[seat]
                jugadas[str(seat)] = {
                    "pares": self.pares[seat],
                    "juego": "no" if juego == "no" else int(juego),
                }
        if jugadas:
            record["jugadas"] = jugadas
        declared: dict[str, dict[str, bool]] = {}
        for seat in range(self.n):
            if not self.showed(seat):
                continue  # without cards the jugada says it all
            for lance, value in self.declared[seat].items():
                declared.setdefault(str(seat), {})[lance] = value == "si"
        if declared:
            record["declared"] = declared
        winners = {
            i["lance"]: i["winner"]
            for i in self.lances
            if not i["not_played"] and i["needs_winner"] and i["winner"]
        }
        if winners:
            record["winners"] = winners
        lances = {}
        for info in self.lances:
            if info["not_played"] or not info["bets"]:
                continue
            lances[info["lance"]] = {
                "bets": [{"side": side, "n": n} for side, n in info["bets"]],
                "end": info["end"],
            }
        if lances:
            record["lances"] = lances
        return record

    def is_complete(self) -> bool:
        return not self.errors and not self.missing()

    # what the template needs -----------------------------------------------------------------

    def hidden(self) -> dict[str, str]:
        out = {"client_id": self.client_id, "revision": self.revision, "number": str(self.number)}
        for lance in (*LANCES_FIRST, "juego", "punto"):
            out[f"b_{lance}"] = _bets_text(self.bets.get(lance, []))
            out[f"e_{lance}"] = self.ends.get(lance) or ""
        return out

    def seats(self) -> list[dict[str, Any]]:
        """Seats in speaking order from the mano, as the table speaks."""
        order = [(self.mano + i) % self.n for i in range(self.n)]
        return [
            {
                "seat": seat,
                "name": self.players[seat],
                "side": board.side_of(seat),
                "cards": " ".join(self.cards[seat]),
                "card_list": self.cards[seat],
                "showed": self.showed(seat),
                "pares": self.pares[seat],
                "juego": self.juego[seat],
                "is_mano": seat == self.mano,
                "said": [
                    self._said_field(seat, lance, key) for lance, key in DECLARED_FIELDS
                ] if self.showed(seat) else [],
            }
            for seat in order
        ]

    def _said_field(self, seat: int, lance: str, key: str) -> dict[str, Any]:
        """The sí / no toggle of one declaration. Saying what the cards hold posts ""
        (follow the cards), so correcting a card later cannot turn it into a lie; a
        declaration that came stored with the hand keeps its own value."""
        holds, said = self.holds(seat, lance), self.said(seat, lance)
        explicit = self.declared[seat].get(lance, "")
        options = []
        for value, truth in (("si", True), ("no", False)):
            posted = value if explicit == value or truth != holds else ""
            options.append({"label": value, "value": posted, "checked": said == truth})
        return {"lance": lance, "field": f"{key}{seat}", "lied": said != holds, "options": options}

    def side_labels(self) -> dict[str, str]:
        # Short labels for buttons: first names joined, e.g. "Ana·Carla".
        return {
            side: "·".join(self.players[s] for s in board.side_seats(side, self.n))
            for side in ("A", "B")
        }


# --- import -------------------------------------------------------------------------------------

IMPORT_MAX_BYTES = 1_000_000  # a vaca of a hundred hands is well under 100 kB


class ImportForm(forms.Form):
    """A table exported as JSON (the API's export), as a file or pasted: parsed, not saved."""

    file = forms.FileField(label=gettext_lazy("Archivo exportado (.json)"), required=False)
    text = forms.CharField(
        label=gettext_lazy("O pega aquí su contenido"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false", "autocomplete": "off"}),
    )

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        upload = data.get("file")
        text = (data.get("text") or "").strip()
        if upload and text:
            raise forms.ValidationError(_("Elige el archivo o pega el texto, no las dos cosas."))
        if upload:
            if upload.size > IMPORT_MAX_BYTES:
                raise forms.ValidationError(
                    _("El archivo pesa demasiado (%(kb)s kB); una mesa exportada pesa mucho menos.")
                    % {"kb": upload.size // 1000}
                )
            raw = upload.read()
            try:
                text = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                raise forms.ValidationError(
                    _("El archivo no es texto UTF-8: no es una mesa exportada por muscore.")
                ) from None
        if not text:
            raise forms.ValidationError(
                _("Falta la mesa: elige el archivo exportado o pega su texto.")
            )
        if len(text.encode()) > IMPORT_MAX_BYTES:
            raise forms.ValidationError(_("El texto es demasiado largo para una mesa exportada."))
        try:
            parsed = json.loads(text)
        except json.JSONDecodeError as error:
            raise forms.ValidationError(
                _("No es JSON válido (línea %(line)s, columna %(col)s): %(why)s")
                % {"line": error.lineno, "col": error.colno, "why": error.msg}
            ) from None
        except RecursionError:
            raise forms.ValidationError(_("No es JSON válido: anida demasiado.")) from None
        if not isinstance(parsed, dict):
            raise forms.ValidationError(
                _("Una mesa exportada es un objeto JSON ({...}), no una lista ni un valor suelto.")
            )
        data["table"] = parsed
        return data
