"""The hand in progress (HandDraft): its answers, and that they never contradict score().

The property: on random deals entered in random order (some seats' cards, others'
jugadas, winners, bets tapped one by one), every answer the draft gives on the way is
either "cannot know yet" or what the completed record scores: lances played, the fourth
lance, which lances can be bet on, every tap legal when tapped, the envite and deje
after each tap, the winners settled, and a preview whose steps begin the final recuento.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, note, settings
from hypothesis import strategies as st

from muscore.rules import (
    BettingError,
    CardError,
    Hand,
    HandDraft,
    Lance,
    RecordError,
    RuleError,
    Rules,
    Side,
    Tap,
    TapKind,
    score,
)
from tests.examples import examples
from tests.rules.strategies import bets, records

SEED = {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"}
ORDER = (Lance.GRANDE, Lance.CHICA, Lance.PARES, Lance.JUEGO, Lance.PUNTO)


def full() -> HandDraft:
    draft = HandDraft()
    for seat, text in SEED.items():
        draft = draft.with_cards(int(seat), text)
    return draft


# -- what the draft answers, case by case -----------------------------------------------


def test_an_empty_draft_knows_grande_and_chica_only() -> None:
    draft = HandDraft()
    assert draft.played(Lance.GRANDE) and draft.played(Lance.CHICA)
    assert draft.has_pares() is None and draft.fourth() is None
    assert draft.bettable(Lance.PARES) is None and draft.bettable(Lance.PUNTO) is None
    assert [state.lance for state in draft.lances()] == list(ORDER)  # juego o punto
    assert draft.preview().steps == () and draft.preview().waiting is Lance.GRANDE


def test_sixteen_cards_with_juego_on_one_side_say_juego_and_no_punto() -> None:
    """Issue 8: offline, the 16 cards entered (one side holding juego), the form said
    "Nadie tiene pares" and offered Punto."""
    draft = full()
    assert draft.has_pares() is True and draft.fourth() is Lance.JUEGO
    assert draft.played(Lance.PUNTO) is False and draft.bettable(Lance.PUNTO) is False
    assert draft.bettable(Lance.JUEGO) is False  # only B holds juego: collected, not bet
    assert draft.legal_taps(Lance.JUEGO) == () and draft.legal_taps(Lance.PUNTO) == ()
    assert [s.lance for s in draft.lances()] == [Lance.GRANDE, Lance.CHICA, Lance.PARES,
                                                 Lance.JUEGO]
    with pytest.raises(BettingError):
        draft.tap(Lance.PUNTO, Tap.envido(Side.A))


def test_who_holds_each_jugada_from_cards_jugadas_or_declarations() -> None:
    draft = (HandDraft().with_cards(0, "R R 5 4").with_jugada(1, pares="par", juego=35)
             .with_declared(2, Lance.PARES, True))
    assert draft.holding(0)[1:] == ("par", "no", True, False, "cards")
    assert draft.holding(1)[1:] == ("par", 35, True, True, "jugadas")
    assert draft.holding(2)[1:] == (None, None, True, None, "declared")
    assert draft.holding(3)[1:] == (None, None, None, None, None)


def test_the_bet_ladder_gives_the_envite_and_deje_after_each_tap() -> None:
    draft = full()
    ladder = [Tap.envido(Side.A), Tap.envido(Side.B, 5), Tap.envido(Side.A, 10)]
    for tap in ladder:
        draft = draft.tap(Lance.GRANDE, tap)
    assert [(stake, deje) for _, stake, deje in draft.envite_ladder(Lance.GRANDE)] == [
        (2, 1), (7, 2), (17, 7)]
    state = draft.lance(Lance.GRANDE)
    assert (state.stake, state.deje, state.closed) == (17, 7, False)
    assert {(t.kind, t.side) for t in state.taps} == {
        (TapKind.QUIERO, Side.B), (TapKind.NO_QUIERO, Side.B), (TapKind.ENVIDO, Side.B),
        (TapKind.ORDAGO, Side.B)}
    with pytest.raises(BettingError) as raised:  # raises alternate between the sides
        draft.tap(Lance.GRANDE, Tap.envido(Side.A))
    assert "cannot be said now" in str(raised.value)
    after = draft.tap(Lance.GRANDE, Tap.ordago(Side.B))
    assert {t.kind for t in after.legal_taps(Lance.GRANDE)} == {TapKind.QUIERO,
                                                                 TapKind.NO_QUIERO}
    done = after.tap(Lance.GRANDE, Tap.no_quiero(Side.A))
    assert done.lance(Lance.GRANDE).closed and done.legal_taps(Lance.GRANDE) == ()
    assert done.preview().steps[0]["points"] == 17  # the deje of a rejected órdago


def test_a_tap_closes_the_earlier_lances_and_needs_their_bets_answered() -> None:
    draft = full().tap(Lance.PARES, Tap.envido(Side.B))
    assert draft.is_closed(Lance.GRANDE) and draft.is_closed(Lance.CHICA)
    assert draft.legal_taps(Lance.GRANDE) == ()
    with pytest.raises(BettingError) as raised:
        draft.tap(Lance.JUEGO, Tap.paso())
    assert "never answered" in str(raised.value) or "cannot be said" in str(raised.value)


def test_no_taps_after_the_juego_was_won_by_a_deje() -> None:
    draft = full().with_score(39, 0).tap(Lance.GRANDE, Tap.envido(Side.A))
    draft = draft.tap(Lance.GRANDE, Tap.no_quiero(Side.B))
    assert draft.preview().result is not None
    assert draft.preview().result["ended_by"] == "deje"  # type: ignore[index]
    assert draft.legal_taps(Lance.CHICA) == ()
    assert draft.winners_needed() == ()


def test_an_accepted_ordago_in_chica_needs_no_winner_for_the_lances_before_it() -> None:
    """Issue 8: the draft still asked the winner of grande after an órdago accepted in
    chica, though the órdago decides the hand by chica alone."""
    draft = (HandDraft().with_cards(0, "R R 5 4").with_jugada(1, "par", 35)
             .with_jugada(2, "par", "no").with_jugada(3, "duples", 34))
    assert draft.winners_needed() == (Lance.GRANDE, Lance.CHICA)
    draft = draft.tap(Lance.CHICA, Tap.ordago(Side.A)).tap(Lance.CHICA, Tap.quiero(Side.B))
    assert draft.winners_needed() == (Lance.CHICA,)
    assert not draft.lance(Lance.GRANDE).needs_winner and draft.lance(Lance.CHICA).needs_winner
    assert draft.closed().winners_needed() == (Lance.CHICA,)
    done = draft.with_winner(Lance.CHICA, Side.B)
    assert done.winners_needed() == () and done.is_complete()
    assert done.closed().result()["ended_by"] == "ordago"
    assert done.closed().result()["winner"] == "B"


def test_a_deje_reaching_the_target_needs_no_winner_for_the_lances_before_it() -> None:
    draft = (HandDraft(score=(39, 0)).with_cards(0, "R R 5 4").with_jugada(1, "par", 35)
             .with_jugada(2, "par", "no").with_jugada(3, "duples", 34))
    draft = draft.tap(Lance.CHICA, Tap.envido(Side.A)).tap(Lance.CHICA, Tap.no_quiero(Side.B))
    assert draft.winners_needed() == ()
    assert draft.closed().result()["ended_by"] == "deje"


def test_the_seat_whose_cards_win_each_lance() -> None:
    draft = full()  # 0: R R 5 4, 1: R C C 5 (35), 2: 1 1 6 7, 3: S S 7 7 (duples, 34)
    assert [draft.lance_winner_seat(lance) for lance in ORDER] == [0, 2, 3, 1, None]
    for lance in (Lance.GRANDE, Lance.CHICA, Lance.PARES, Lance.JUEGO):
        seat = draft.lance_winner_seat(lance)
        assert seat is not None and Side("AB"[seat % 2]) is draft.settled(lance)
    assert draft.with_cards(3, None).lance_winner_seat(Lance.GRANDE) is None


def test_equal_hands_go_to_the_seat_nearest_the_mano() -> None:
    hands = {0: "C C 5 4", 1: "C C 5 4", 2: "1 1 6 7", 3: "S S 7 6"}
    for mano, seat in ((0, 0), (1, 1), (2, 0), (3, 0)):
        draft = HandDraft(mano=mano)
        for key, text in hands.items():
            draft = draft.with_cards(key, text)
        assert draft.lance_winner_seat(Lance.GRANDE) == seat, mano


def test_liars_and_deniers_win_nothing_by_their_cards() -> None:
    lied = full().with_cards(1, "R C 6 5").with_cards(3, "S C 7 4").with_declared(
        1, Lance.PARES, True)
    assert lied.settled(Lance.PARES) is Side.A  # B lied: the cards do not decide pares
    assert lied.lance_winner_seat(Lance.PARES) is None
    said_no = full().with_declared(3, Lance.PARES, False)  # S S 7 7 does not play pares
    assert said_no.lance_winner_seat(Lance.PARES) == 0  # R R beats 1 1
    assert said_no.settled(Lance.PARES) is Side.A
    denied = (HandDraft().with_cards(0, "R R C 1").with_cards(1, "7 6 5 4")
              .with_cards(2, "7 6 5 1").with_cards(3, "6 6 5 4")
              .with_declared(0, Lance.JUEGO, False))  # 31 denied: no juego, no punto
    assert denied.fourth() is Lance.PUNTO
    assert denied.lance_winner_seat(Lance.PUNTO) == 1
    assert denied.lance_winner_seat(Lance.JUEGO) is None


def test_jugadas_settle_pares_and_juego_and_say_which_winners_are_needed() -> None:
    draft = (HandDraft().with_cards(0, "R R 5 4").with_jugada(1, "par", 35)
             .with_jugada(2, "par", "no").with_jugada(3, "duples", 34))
    assert draft.settled(Lance.PARES) is Side.B
    assert draft.winners_needed() == (Lance.GRANDE, Lance.CHICA)
    assert draft.closed().preview().waiting is Lance.GRANDE
    draft = draft.with_winner(Lance.GRANDE, Side.A).with_winner(Lance.CHICA, Side.B)
    assert draft.winners_needed() == ()
    assert draft.closed().result() == score(draft.to_record())
    assert draft.closed().result()["score"] == {"A": 1, "B": 9}


def test_a_winner_contradicting_the_jugadas_is_reported_naming_both() -> None:
    draft = (HandDraft().with_jugada(0, "duples", "no").with_jugada(1, "par", "no")
             .with_jugada(2, "no", "no").with_jugada(3, "no", "no")
             .with_winner(Lance.PARES, Side.B))
    (problem,) = draft.problems()
    assert problem.code == "winner_contradicts_jugadas"
    assert "side A" in str(problem) and "says B" in str(problem)
    assert "seat 0 has duples" in str(problem)
    with pytest.raises(RecordError):
        draft.closed().result()


def test_impossible_entries_are_refused_at_once() -> None:
    draft = HandDraft().with_cards(0, "R R R R")
    with pytest.raises(CardError):
        draft.with_cards(1, "R 5 5 4")  # a fifth rey
    with pytest.raises(RecordError):
        draft.with_jugada(0, pares="no")  # the cards hold pares
    with pytest.raises(RecordError):
        HandDraft().with_cards(9, "R R 5 4")


def test_a_lie_decides_the_lance_in_the_draft_too() -> None:
    """Seed 000, section 14: "la pareja perderá ese lance y los envites que en él pudiera
    haber realizado": seat 2 says juego sí without it; its side bets and B accepts."""
    draft = full().with_declared(2, Lance.JUEGO, True)
    assert draft.bettable(Lance.JUEGO) is True
    draft = draft.tap(Lance.JUEGO, Tap.envido(Side.A)).tap(Lance.JUEGO, Tap.quiero(Side.B))
    assert draft.settled(Lance.JUEGO) is Side.B
    assert draft.closed().result()["lances"]["juego"] == {"side": "B", "points": 6}


def test_the_record_round_trips() -> None:
    record = {"rules": {"players": 4, "reyes": 8, "target": 40, "juegos": 2, "real31": "no"},
              "mano": 1, "score": {"A": 3, "B": 4},
              "hands": {"0": "R R 5 4", "2": "A A 6 7"},
              "jugadas": {"1": {"pares": "par", "juego": 35}, "3": {"pares": "duples",
                                                                   "juego": 34}},
              "declared": {"1": {"pares": True}},
              "lances": {"grande": {"bets": [{"side": "A", "n": 2}], "end": "quiero"}},
              "winners": {"grande": "A", "chica": "B"}}
    draft = HandDraft.from_record(record)
    assert draft.to_record() == {**record, "hands": {"0": "R R 5 4", "2": "7 6 1 1"}}
    assert draft.result() == score(record)
    assert HandDraft.from_record(draft.to_record()) == draft


# -- the property ---------------------------------------------------------------------------


@st.composite
def entries(draw: Any) -> tuple[dict[str, Any], list[tuple[Any, ...]]]:
    """A complete record and the facts that enter it, in a random order."""
    base = draw(records(bets_allowed=False))
    rules = Rules(**base["rules"])
    n = rules.players
    hidden = draw(st.sets(st.integers(0, n - 1), max_size=n))
    declared: dict[str, dict[str, bool]] = {}
    for seat in range(n):
        if seat not in hidden and draw(st.integers(0, 3)) == 0:
            declared[str(seat)] = draw(st.fixed_dictionaries(
                {}, optional={"pares": st.booleans(), "juego": st.booleans()}))
    record: dict[str, Any] = {k: base[k] for k in ("rules", "mano", "score")}
    record["hands"] = {k: v for k, v in base["hands"].items() if int(k) not in hidden}
    record["jugadas"] = {}
    for seat in hidden:
        hand = Hand.parse(base["hands"][str(seat)])
        record["jugadas"][str(seat)] = {
            "pares": hand.pares(rules) or "no",
            "juego": hand.juego_total(rules) if hand.has_juego(rules) else "no",
        }
    if declared:
        record["declared"] = declared
    # The winners the missing cards leave open, from the whole deal (lies included).
    everything = HandDraft.from_record({**base, **({"declared": declared} if declared else {})})
    partial = HandDraft.from_record(record)
    winners = {}
    for lance in partial.winners_needed():
        side = everything.settled(lance)
        if side is not None:
            winners[lance.value] = side.value
    if winners:
        record["winners"] = winners
    # Bets where the table could bet, drawn like the records' own.
    lances: dict[str, Any] = {}
    final_draft = HandDraft.from_record(record)
    for lance in ORDER:
        if final_draft.bettable(lance) and draw(st.booleans()):
            lances[lance.value] = draw(bets())
    if lances:
        record["lances"] = lances
    facts: list[tuple[Any, ...]] = []
    for key, text in record["hands"].items():
        facts.append(("cards", int(key), text))
    for key, jugada in record["jugadas"].items():
        facts.append(("jugada", int(key), jugada["pares"], jugada["juego"]))
    for lance, side in winners.items():
        facts.append(("winner", Lance(lance), Side(side)))
    facts = draw(st.permutations(facts))
    taps: list[tuple[Any, ...]] = []
    for lance in ORDER:
        data = lances.get(lance.value)
        if not data:
            continue
        for bet in data["bets"]:
            side = Side(bet["side"])
            tap = Tap.ordago(side) if bet["n"] == "ordago" else Tap.envido(side, bet["n"])
            taps.append(("tap", lance, tap))
        answer = data["end"]
        last = Side(data["bets"][-1]["side"]).other
        taps.append(("tap", lance, Tap.quiero(last) if answer == "quiero" else Tap.no_quiero(last)))
    # Interleave the taps, in their order, among the other facts.
    for tap_fact in taps:
        facts.insert(draw(st.integers(_after_last_tap(facts), len(facts))), tap_fact)
    declarations = [("declared", int(seat), Lance(lance), said)
                    for seat, said_by in declared.items() for lance, said in said_by.items()]
    return record, declarations + facts


def _after_last_tap(facts: list[tuple[Any, ...]]) -> int:
    positions = [i for i, fact in enumerate(facts) if fact[0] == "tap"]
    return positions[-1] + 1 if positions else 0


def enter(draft: HandDraft, fact: tuple[Any, ...]) -> HandDraft:
    kind = fact[0]
    if kind == "cards":
        return draft.with_cards(fact[1], fact[2])
    if kind == "jugada":
        return draft.with_jugada(fact[1], fact[2], fact[3])
    if kind == "declared":
        return draft.with_declared(fact[1], fact[2], fact[3])
    if kind == "winner":
        return draft.with_winner(fact[1], fact[2])
    return draft.tap(fact[1], fact[2])


@settings(max_examples=examples(250), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(entries())
def test_the_draft_never_contradicts_the_score_of_the_completed_record(
    case: tuple[dict[str, Any], list[tuple[Any, ...]]],
) -> None:
    record, facts = case
    note(f"record: {record!r}")
    note(f"facts: {facts!r}")
    try:
        final = score(record)
    except RuleError:
        assume(False)
        raise
    # Bets the record holds for lances after the juego was won were never made: the
    # draft refuses them (the contract ignores them), so they are not entered.
    end_lance = None
    if final["ended_by"] == "ordago":
        end_lance = Lance(final["ordago"]["lance"])
    elif final["ended_by"] == "deje":
        end_lance = Lance(final["recuento"][-1]["lance"])
    if end_lance is not None:
        later = set(ORDER[ORDER.index(end_lance) + 1:])
        facts = [f for f in facts if not (f[0] == "tap" and f[1] in later)]
        record = {**record, "lances": {k: v for k, v in record.get("lances", {}).items()
                                       if Lance(k) not in later}}
    done = HandDraft.from_record(record)
    final_steps = final["recuento"]
    ladders = {lance: done.envite_ladder(lance) for lance in ORDER}
    draft = HandDraft(rules=Rules(**record["rules"]), mano=record["mano"],
                      score=(record["score"]["A"], record["score"]["B"]))
    for fact in [None, *facts]:
        if fact is not None:
            draft = enter(draft, fact)  # every tap is legal when it is tapped
        assert draft.problems() == ()
        for lance in ORDER:
            for asked, known in ((draft.played(lance), done.played(lance)),
                                 (draft.bettable(lance), done.bettable(lance)),
                                 (draft.settled(lance), done.settled(lance))):
                assert asked is None or asked == known, (lance, fact)
            ladder = draft.envite_ladder(lance)
            assert ladder == ladders[lance][: len(ladder)]
        assert draft.has_pares() in (None, done.has_pares())
        assert draft.fourth() in (None, done.fourth())
        steps = list(draft.preview().steps)
        assert steps == final_steps[: len(steps)], fact
        assert set(draft.winners_needed()) >= set(done.winners_needed()) - set(draft.winners)
    assert draft.closed().result() == final == score(record)
    assert draft.closed().preview().result == final
