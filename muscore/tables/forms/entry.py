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

from django.http import QueryDict
from django.utils.translation import gettext as _

from muscore import rules as rules_engine
from muscore.handentry.cards import (
    DECLARED_CHOICES,
    DECLARED_FIELDS,
    JUEGO_CHOICES,
    PARES_CHOICES,
    CardTokenError,
    cards_from_text,
    seat_fields,
)
from muscore.handentry.messages import rule_message, winner_message
from muscore.handentry.spoken import card_field_name, offline_names, spoken_bets
from muscore.handentry.taps import (
    EntryError,
    bet_words,
    bets_of,
    bets_text,
    parse_bets,
    say_draft,
    tap_draft,
)
from muscore.handentry.words import (
    LANCE_NAMES,
    LANCE_WORDS,
    Seating,
    join_words,
    lance_word,
)
from muscore.rules import HandDraft, Lance, Tap, TapKind
from muscore.rules.contract import HandRecord
from muscore.tables.forms.alone import alone_lance, alone_missing, talk_fields

LANCES_FIRST = ("grande", "chica", "pares")


class EntryHead:
    """What the hand page says of a hand before anything is entered
    (tables/_entry_before.html): the score before it and its mano. A HandEntry is one; the
    next hand's alone is drawn into the edit board (muscore.tables.offline.next_hand),
    without a draft to analyse."""

    def __init__(
        self, *, players: Sequence[str], rules: Mapping[str, Any], mano: int,
        score: Mapping[str, int],
    ) -> None:
        self.players = list(players)
        self.n = len(self.players)
        self.rules = dict(rules)
        self.engine_rules = rules_engine.Rules.from_json(self.rules)
        self.seating = Seating(tuple(self.players), self.engine_rules.sides)
        self.letters = self.seating.letters
        # Each for himself among 3 to 6: each lance is entered as its talk, word by word.
        self.individual = self.seating.individual
        self.alone = self.seating.alone
        self.mano = mano
        self.score = {side: int(score[side]) for side in self.letters}

    def speaking_order(self) -> list[int]:
        """The seats from the mano, as the table speaks."""
        return [(self.mano + i) % self.n for i in range(self.n)]

    def mano_name(self) -> str:
        return self.players[self.mano]

    def score_words(self) -> str:
        """The score before the hand: "12–30", or each player's in individual play."""
        if self.individual:
            return join_words([f"{self.seating.names(side)} {self.score[side]}"
                               for side in self.letters])
        return f"{self.score['A']}–{self.score['B']}"


class HandEntry(EntryHead):
    """The state of one hand being entered, read from a POST (or a stored record).

    Fields: c<seat> cards ("R R 5 4"), p<seat>/j<seat> what a seat without cards
    declared, dp<seat>/dj<seat> what a seat that showed cards said for pares and
    juego when it was not what the cards hold ("si"/"no", see DECLARED_CHOICES),
    w_<lance> the winner where the cards do not decide it, b_<lance>
    the bets so far ("A2 B5"), e_<lance> quiero / no_quiero, a_<lance> the
    amount for the next envido; `act` is the button that was tapped. In individual
    play (each for himself, 3 to 6) t_<lance> holds the lance's talk, each player's word
    in turn ("A:paso B:envido:2 C:no_quiero", muscore.rules.Tap.text) in place of the
    bets and the answer (forms/alone.py).
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
        super().__init__(players=players, rules=rules, mano=mano, score=score)
        self.target = int(self.rules.get("target", 40))
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
        self.talks: dict[str, list[str]] = {}
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
                "parts": [self.players[s] for s in self.seating.seats(side)],
                # The side in a sentence ("Bruno y Diego").
                "names": self.seating.names(side),
            }
            for side in self.letters
        ]
        self.taps: list[str] = []
        if data is not None:
            self._read(data)
        self.analyse()
        self._replay_taps()

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
        # Taps kept by a phone without signal, replayed here through the engine's draft.
        self.taps = str(get("taps", "") or "")[:4000].split()[:200]
        for seat in range(self.n):
            name = self.players[seat]
            text = str(get(f"c{seat}", "") or "")[:60]
            try:
                self.cards[seat] = cards_from_text(text)
            except CardTokenError as bad:
                self.errors.append(
                    _("%(name)s: «%(token)s» no es una carta (1-7, S, C, R).")
                    % {"name": name, "token": str(bad)[:10]}
                )
            self.pares[seat] = self._choice(
                str(get(f"p{seat}", "no") or "no"), PARES_CHOICES,
                _("%(name)s: «%(v)s» no es una jugada de pares."), name)
            self.juego[seat] = self._choice(
                str(get(f"j{seat}", "no") or "no"), JUEGO_CHOICES,
                _("%(name)s: «%(v)s» no es un juego (31-37 o 40)."), name)
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
        if self.individual:
            self.talks, unread = talk_fields(get)
            self.errors.extend(
                _("%(lance)s: las apuestas no se entienden.") % {"lance": LANCE_NAMES[lance]}
                for lance in unread)
        for lance in (*LANCES_FIRST, "juego", "punto"):
            winner = get(f"w_{lance}")
            self.winners[lance] = winner if winner in self.letters else None
            try:
                self.bets[lance] = parse_bets(str(get(f"b_{lance}", "") or "")[:200])
            except EntryError:
                self.errors.append(
                    _("%(lance)s: las apuestas no se entienden.")
                    % {"lance": LANCE_NAMES[lance]}
                )
                self.bets[lance] = []
            end = get(f"e_{lance}")
            self.ends[lance] = end if end in ("quiero", "no_quiero") else None
            self.amounts[lance] = str(get(f"a_{lance}", "") or "")[:3]

    def _choice(self, value: str, choices: Sequence[str], message: str, name: str) -> str:
        """A jugada field's value when it is one of `choices`; else "no", said."""
        if value in choices:
            return value
        self.errors.append(message % {"name": name, "v": value[:10]})
        return "no"

    @classmethod
    def from_record(cls, record: Mapping[str, Any], **kwargs: Any) -> HandEntry:
        """The form filled with a stored record, to correct it."""
        data: dict[str, Any] = seat_fields(record)
        for lance, side in (record.get("winners") or {}).items():
            data[f"w_{lance}"] = side
        rules = rules_engine.Rules.from_json(kwargs.get("rules"))
        if rules.sides > 2:
            # Each for himself: the lances' talk, made again by the engine from the bets.
            draft = HandDraft.from_record({**record, "rules": kwargs.get("rules"),
                                           "mano": kwargs.get("mano", 0),
                                           "score": kwargs.get("score")})
            for lance in Lance:
                if draft.talk(lance):
                    data[f"t_{lance.value}"] = draft.talk_text(lance)
            return cls(data=data, **kwargs)
        for lance, betting in (record.get("lances") or {}).items():
            bets = [(b["side"], b["n"]) for b in betting.get("bets") or []]
            data[f"b_{lance}"] = bets_text(bets)
            if betting.get("end"):
                data[f"e_{lance}"] = betting["end"]
        return cls(data=data, **kwargs)

    # what the engine answers ---------------------------------------------------------------------

    def showed(self, seat: int) -> bool:
        return len(self.cards[seat]) == 4

    def said(self, seat: int, lance: str) -> bool:
        """Whether the seat plays pares / juego as the table believed it (the engine's
        reading: his declaration, else what he holds)."""
        if self.draft is None:
            return False
        held = self.draft.holding(seat)
        return bool(held.plays_pares if lance == "pares" else held.plays_juego)

    def holds(self, seat: int, lance: str) -> bool:
        """Whether the seat's shown cards hold pares / juego (the engine reads them)."""
        if self.draft is None:
            return False
        held = self.draft.holding(seat)
        value = held.pares if lance == "pares" else held.juego
        return value not in (None, "no")

    def lied(self) -> bool:
        """Someone's declaration is not what his shown cards hold."""
        return any(
            self.said(seat, lance) != self.holds(seat, lance)
            for seat in range(self.n) if self.showed(seat)
            for lance in ("pares", "juego")
        )

    def _entered(self) -> dict[str, Any]:
        """The hand record of what the fields hold, bets included, winners left out."""
        record: dict[str, Any] = {"rules": self.rules, "mano": self.mano, "score": self.score}
        hands = {str(s): " ".join(c) for s, c in self.cards.items() if self.showed(s)}
        if hands:
            record["hands"] = hands
        jugadas = {}
        for seat in range(self.n):
            if not self.showed(seat) and not self.cards[seat]:
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
        lances: dict[str, dict[str, Any]] = {}
        for lance in (*LANCES_FIRST, "juego", "punto"):
            if self.individual:
                break  # the talk of each lance is said to the draft word by word
            bets = self.bets.get(lance) or []
            if bets:
                lances[lance] = {"bets": [{"side": side, "n": n} for side, n in bets]}
                if self.ends.get(lance):
                    lances[lance]["end"] = self.ends[lance]
        if lances:
            record["lances"] = lances
        return record

    def _make_draft(self) -> HandDraft | None:
        """The engine's draft of what is entered; what it cannot hold becomes an error
        (and bets where nobody can bet are dropped, as the page no longer offers them)."""
        record = self._entered()
        try:
            draft = HandDraft.from_record(record, passed=False)
        except rules_engine.RuleError as error:
            self.errors.append(rule_message(error))
            return None
        if self.individual:
            return self._talked(draft)
        for problem in draft.problems():
            if not isinstance(problem, rules_engine.BettingError):
                continue
            # Bets said on the fourth lance follow it when it turns from punto to juego or
            # back (a declaration corrected, cards entered): they were said on the lance
            # the table played, which the phone could not tell apart ("fourth"). Where the
            # lance it turned to has bets of its own, those stay and these go. Bets where
            # nobody can bet are refused, said, and dropped: nothing goes without a word.
            if problem.code in ("juego_not_punto", "punto_not_juego"):
                stale, played = (("juego", "punto") if problem.code == "juego_not_punto"
                                 else ("punto", "juego"))
                if not self.bets.get(played):
                    self.bets[played], self.ends[played] = self.bets[stale], self.ends[stale]
                self.bets[stale], self.ends[stale] = [], None
            else:
                lance = str(problem.params.get("lance") or "")
                self.errors.append(
                    _("En %(lance)s no se apuesta: solo se apuesta cuando los dos bandos tienen.")
                    % {"lance": lance_word(lance)}
                )
                self.bets[lance], self.ends[lance] = [], None
            return self._make_draft()
        return draft

    def _talked(self, draft: HandDraft) -> HandDraft:
        """Individual play: each lance's talk said to the draft word by word, in the order
        of the lances. A word the engine no longer takes (the cards changed who plays the
        lance, or whose turn it was) stops that lance's talk there, said. The talk of the
        fourth lance follows it from punto to juego or back, as its bets do in pairs."""
        fourth = draft.fourth()
        if fourth is not None:
            other = Lance.PUNTO if fourth is Lance.JUEGO else Lance.JUEGO
            stale = self.talks.get(other.value) or []
            if stale and not self.talks.get(fourth.value):
                self.talks[fourth.value] = stale
            self.talks[other.value] = []
        for lance in Lance:
            words = self.talks.get(lance.value) or []
            if not words:
                continue
            kept: list[str] = []
            for word in words:
                try:
                    draft = draft.tap(lance, Tap.parse(word))
                except rules_engine.RuleError as error:
                    self.errors.append(
                        _("%(lance)s: lo dicho ya no cuadra con las cartas (%(why)s): se queda "
                          "hasta ahí; repasad lo que dijo cada uno.")
                        % {"lance": LANCE_NAMES[lance.value], "why": rule_message(error)})
                    break
                kept.append(word)
            self.talks[lance.value] = kept
        return draft

    def analyse(self) -> None:
        """Ask the engine (a muscore.rules.HandDraft of what is entered) everything the
        page shows: who plays each lance, what can be bet, the dejes, which winners the
        cards and jugadas settle, which the table must still give."""
        for seat in range(self.n):
            cards = self.cards[seat]
            if cards and len(cards) != 4:
                self.errors.append(
                    _("%(name)s: %(k)s cartas; hacen falta 4 (o ninguna).")
                    % {"name": self.players[seat], "k": len(cards)}
                )
        self.all_showed = all(self.showed(seat) for seat in range(self.n))
        self.any_showed = any(self.showed(seat) for seat in range(self.n))
        self.conflicts: list[str] = []
        self.draft = self._make_draft()
        self.lances: list[dict[str, Any]] = []
        if self.draft is None:
            return
        draft = self.draft
        # The winners the table gave: kept where the engine asks for them; one the cards
        # or jugadas contradict is refused, naming both.
        for lance, side in self.winners.items():
            if side is None:
                continue
            settled = draft.settled(lance)
            if settled is not None and settled.value != side:
                trial = draft.with_winner(lance, side)
                self.conflicts.extend(winner_message(p, self.seating) for p in trial.problems()
                                      if isinstance(p, rules_engine.RecordError))
        self.errors.extend(self.conflicts)
        # A lance is asked only when it can count with the other winners given (issue 19,
        # item 4: a count that ends at grande asks nothing after it).
        asked = draft.closed().asking_winners(self.winners)[1]
        needed = set(asked)
        for lance in asked:
            side = self.winners.get(lance.value)
            if side is not None:
                draft = draft.with_winner(lance, side)
        self.draft = draft
        closed = draft.closed()
        self.preview = closed.preview()
        fourth = draft.fourth() or Lance.JUEGO
        order = [Lance.GRANDE, Lance.CHICA, Lance.PARES, fourth]
        # The lance whose betting won the juego (a deje reaching the target, an accepted
        # órdago), as the engine knows it of the hand as it would be saved (a lance nobody
        # bet in passed): only the lances after it are not played.
        ended_at = closed.ended_in()
        for lance in order:
            self.lances.append(self._lance(lance, needed, ended_at, order))

    def _lance(
        self, lance: Lance, needed: set[Lance], ended_at: Lance | None, order: list[Lance]
    ) -> dict[str, Any]:
        assert self.draft is not None
        draft = self.draft
        state = draft.lance(lance)
        name = lance.value
        if self.individual:
            players = draft.players(lance)
            sides_in = [side.value for side in players or ()]
            if lance not in (Lance.PARES, Lance.JUEGO):
                sides_in = list(self.letters)
        elif lance in (Lance.PARES, Lance.JUEGO):
            plays = [self.said(seat, name) for seat in range(self.n)]
            sides_in = [side for side in ("A", "B")
                        if any(plays[s] for s in self.seating.seats(side))]
        else:
            sides_in = ["A", "B"]
        not_played = (ended_at is not None and ended_at in order
                      and order.index(lance) > order.index(ended_at))
        # Ended by an accepted órdago, the juego is not over yet: its lance decides it when
        # the cards are shown (issue 30.6: "el juego ya terminó" said otherwise).
        after_ordago = bool(
            not_played and ended_at is not None and draft.lance(ended_at).ordago
            and draft.ends.get(ended_at) == "quiero"
        )
        bets = bets_of(draft, name)
        end = draft.ends.get(lance)
        info: dict[str, Any] = {
            "lance": name,
            "name": LANCE_NAMES[name],
            "word": LANCE_WORDS[name],
            "bettable": bool(state.bettable),
            "solo": sides_in[0] if len(sides_in) == 1 else None,
            "nobody": not sides_in,
            "bets": bets,
            "end": end,
            "not_played": not_played,
            "after_ordago": after_ordago,
            "amount": self.amounts.get(name, ""),
            "bet_words": self._bet_words(bets, end),
            "ordago": bool(state.ordago and end == "quiero"),
        }
        if info["solo"]:
            info["solo_label"] = self.labels[info["solo"]]
            info["solo_one"] = self.alone  # a side of one player: "tiene", "cobra"
        if not_played:
            return info
        if end == "no_quiero":
            step = next((s for s in self.preview.steps
                         if s["lance"] == name and s["why"] == "deje"), None)
            if step is not None:
                side = step["side"]
                info["deje"] = {"side": side, "label": self.labels[side],
                                "points": step["points"], "score": step["score"][side]}
        info["ends_juego"] = ended_at is lance or info["ordago"]
        info["needs_winner"] = lance in needed
        info["winner"] = self.winners.get(name) if lance in needed else None
        info["open"] = bool(state.taps) and state.bettable is True
        if self.individual:
            info["bet_words"] = alone_lance(draft, state, self.seating, info)
            info["winner_sides"] = [s for s in self.side_list
                                    if s["side"] in info.get("can_win", ())]
            return info
        info["winner_sides"] = self.side_list
        answer = next((t for t in state.taps if t.kind is TapKind.QUIERO), None)
        if answer is not None and answer.side is not None:
            info["to_answer"] = answer.side.value
            info["to_answer_label"] = self.labels[answer.side.value]
            info["last_ordago"] = state.ordago
        names = {side: self.seating.names(side) for side in self.letters}
        spoken_bets(info, self.side_list, names)
        return info

    def _bet_words(self, bets: Sequence[tuple[str, int | str]], end: str | None) -> list[str]:
        return bet_words(bets, end, self.labels)

    # the taps --------------------------------------------------------------------------------

    def _replay_taps(self) -> None:
        """The taps a phone kept without signal, in order, as if tapped online. The
        fourth lance is "fourth" there: the phone could not know juego from punto. The
        first tap the engine refuses stops the replay and says why; the hand then goes
        back to the phone with what was taken."""
        for i, act in enumerate(self.taps):
            parts = act.split(":")
            if len(parts) > 1 and parts[1] == "fourth" and self.lances:
                parts[1] = self.lances[-1]["lance"]
            try:
                self.apply(":".join(parts))
            except EntryError as error:
                self.errors.append(
                    _("Sin conexión se anotó en %(lance)s algo que no cabe: %(why)s "
                      "Lo demás está anotado; repasad las apuestas de ese lance.")
                    % {"lance": lance_word(parts[1]) if len(parts) > 1 else "?",
                       "why": str(error)}
                )
                self.taps = self.taps[i:]
                return
        self.taps = []

    def apply(self, act: str) -> None:
        """Apply one tapped button (bet, quiero / no quiero, undo a step, clear) through
        the engine's draft."""
        parts = act.split(":")
        kind = parts[0]
        if kind not in ("bet", "end", "pop", "clear", "paso") or len(parts) < 2:
            return
        lance = parts[1]
        info = next((i for i in self.lances if i["lance"] == lance), None)
        if info is None or self.draft is None:
            raise EntryError(_("Esa mano no tiene lance «%(lance)s».") % {"lance": lance[:10]})
        name = info["name"]
        if kind == "paso" and not self.individual:
            return  # by pairs "paso" is no tap: a lance nobody bet in passed
        if kind not in ("clear", "pop"):
            if info["not_played"] and info["after_ordago"]:
                raise EntryError(
                    _("%(lance)s no se juega: lo decide el órdago querido.") % {"lance": name}
                )
            if info["not_played"]:
                raise EntryError(
                    _("%(lance)s no se juega: el juego ya terminó.") % {"lance": name}
                )
            if not info["bettable"] and self.individual:
                raise EntryError(
                    _("En %(lance)s no se apuesta: solo se apuesta cuando dos jugadores tienen.")
                    % {"lance": info["word"]}
                )
            if not info["bettable"]:
                raise EntryError(
                    _("En %(lance)s no se apuesta: solo se apuesta cuando los dos bandos tienen.")
                    % {"lance": info["word"]}
                )
        if self.individual:
            draft = say_draft(self.draft, parts, self.amounts.get(lance, ""), name,
                              {side: self.seating.names(side) for side in self.letters})
            self.talks[lance] = draft.talk_text(lance).split()
        else:
            draft = tap_draft(self.draft, parts, self.amounts.get(lance, ""), name)
        self.bets[lance] = bets_of(draft, lance)
        self.ends[lance] = draft.ends.get(Lance(lance))
        self.amounts[lance] = ""
        self.errors = [e for e in self.errors if e not in self.conflicts]
        self.analyse()

    # the record ------------------------------------------------------------------------------

    def missing_items(self) -> list[dict[str, str]]:
        """What must still be answered before the hand can be scored, lance by lance,
        said as the table would ask it (the page marks and scrolls to each lance)."""
        if self.individual:
            return alone_missing(self.lances, self.seating)
        out = []
        for info in self.lances:
            if info["not_played"]:
                continue
            if info["bets"] and info["end"] is None:
                who = self.seating.names(info["to_answer"])
                text = _("%(lance)s: falta si %(who)s quieren o no.") % {
                    "lance": info["name"], "who": who,
                }
            elif info["needs_winner"] and info["winner"] is None:
                text = _("%(lance)s: falta quién gana, %(a)s o %(b)s.") % {
                    "lance": info["name"],
                    "a": self.seating.names("A"),
                    "b": self.seating.names("B"),
                }
            else:
                continue
            out.append({"lance": info["lance"], "text": text})
        return out

    def missing(self) -> list[str]:
        """What must still be answered before the hand can be scored."""
        return [item["text"] for item in self.missing_items()]

    def record(self) -> HandRecord:
        """The hand record (without rules, score and mano: the table knows them), as the
        engine writes the draft: every lance nobody bet in passed."""
        if self.draft is None:
            return {}
        record = self.draft.closed().to_record()
        record.pop("rules", None)
        record.pop("mano", None)
        record.pop("score", None)
        if "hands" in record:
            # The cards as the table entered them (the engine writes them in its order).
            record["hands"] = {str(s): " ".join(c) for s, c in self.cards.items()
                               if self.showed(s)}
        return record

    def is_complete(self) -> bool:
        return not self.errors and not self.conflicts and not self.missing()

    # what the template needs -----------------------------------------------------------------

    def hidden(self) -> dict[str, str]:
        out = {"client_id": self.client_id, "revision": self.revision, "number": str(self.number)}
        for lance in (*LANCES_FIRST, "juego", "punto"):
            if self.individual:
                out[f"t_{lance}"] = " ".join(self.talks.get(lance, []))
                continue
            out[f"b_{lance}"] = bets_text(self.bets.get(lance, []))
            out[f"e_{lance}"] = self.ends.get(lance) or ""
        return out

    def seats(self) -> list[dict[str, Any]]:
        """Seats in speaking order from the mano, as the table speaks."""
        order = self.speaking_order()
        return [
            {
                "seat": seat,
                "name": self.players[seat],
                "side": self.seating.side_of(seat),
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

    @property
    def offline_names_json(self) -> str:
        """The names of the buttons drawn without signal (muscore.handentry.spoken
        .offline_names), for the page's data-offline-names attribute."""
        names = {side: self.seating.names(side) for side in self.letters}
        return json.dumps(offline_names(names, self.labels), ensure_ascii=False)

    @property
    def offline_seats_json(self) -> str:
        """Each seat's name and its card field's names, as mano and not (muscore.handentry
        .spoken.card_field_name), by seat: a page kept without signal moves the mano on
        past the hands it keeps (static/js/muscore.js, moveMano)."""
        return json.dumps([
            {"name": name, "field": card_field_name(name, is_mano=False),
             "field_mano": card_field_name(name, is_mano=True)}
            for name in self.players
        ], ensure_ascii=False)

    @property
    def manos_json(self) -> str:
        """The manos of this hand and of each one after it, round the table once (rules.md:
        the mano moves one seat to the right a hand), for a page kept without signal."""
        return json.dumps(list(self.engine_rules.seats_from(self.mano)))

    @property
    def labels_json(self) -> str:
        """Each side's short label by letter, for the page drawn without signal."""
        return json.dumps(self.labels, ensure_ascii=False)

    def side_labels(self) -> dict[str, str]:
        # Short labels for buttons: first names joined, e.g. "Ana·Carla".
        return {side: self.seating.label(side) for side in self.letters}
