"""Declarations and lies, rule by rule, as rules.md "Declarations and lies" states them.

Each test quotes the seed text (seed 000, sections 10 and 14) the rule comes from. The
hands used (8 reyes, mano 0):

H2: seat 0 "R 7 5 4" (no pares, 26), seat 1 "C C 5 1" (par, 26), seat 2 "S S 7 7"
(duples, 34: the only juego), seat 3 "R 6 4 1" (no pares, 21). Pares are held by both
sides (A's duples best); juego by A alone.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from muscore.rules import BettingError, RecordError, Rules, score
from tests.examples import examples
from tests.rules.strategies import records

H2 = {"0": "R 7 5 4", "1": "C C 5 1", "2": "S S 7 7", "3": "R 6 4 1"}
SEAT_0_LIES_PARES = {"0": {"pares": True}}


def h2(**fields: Any) -> dict[str, Any]:
    return {"hands": dict(H2), **fields}


def step(result: dict[str, Any], lance: str, why: str | None = None) -> list[dict[str, Any]]:
    steps = result["recuento"]
    return [s for s in steps if s["lance"] == lance and (why is None or s["why"] == why)]


def test_the_liars_side_loses_the_lance_even_with_the_partners_better_cards() -> None:
    """Seed 000, section 14: "si alguno de los jugadores declara tener pares o juego sin
    tenerlos, la pareja perderá ese lance ... aunque las cartas del compañero sean
    mejores que las de los contrarios".

    Seat 0 says "pares sí" holding none; his partner's duples are the best pares at the
    table, yet B wins pares and collects its own par; A collects no premium.
    """
    result = score(h2(declared=SEAT_0_LIES_PARES))
    assert result["lances"]["pares"] == {"side": "B", "points": 1}
    assert result["lies"] == [{"seat": 0, "lance": "pares", "side": "A"}]
    honest = score(h2())
    assert honest["lances"]["pares"] == {"side": "A", "points": 3}


def test_a_liars_rejected_envite_pays_its_deje_to_the_other_side_at_once() -> None:
    """Seed 000, section 10: "Si se cantan pares o juego ... sin tener la jugada cantada y
    se produce un envite, éste lo ganan los contrarios".

    A (seat 0 lying) bets 2 in pares and B rejects: the deje goes to B, not A, at once,
    so B at 39 wins the juego there and nothing else is counted.
    """
    lances = {"pares": {"bets": [{"side": "A", "n": 2}], "end": "no_quiero"}}
    result = score(h2(score={"A": 20, "B": 39}, lances=lances, declared=SEAT_0_LIES_PARES))
    assert result["winner"] == "B" and result["ended_by"] == "deje"
    assert result["score"] == {"A": 20, "B": 40}
    assert result["recuento"] == [
        {"lance": "pares", "side": "B", "points": 1, "why": "deje", "score": {"A": 20, "B": 40}}
    ]
    # Without the lie the same deje is A's and the hand goes on to the count.
    honest = score(h2(score={"A": 20, "B": 39}, lances=lances))
    assert honest["recuento"][0]["side"] == "A" and honest["ended_by"] == "recuento"


def test_an_envite_the_liars_reject_pays_the_other_side_its_deje_and_premiums() -> None:
    """Seed 000, section 14: "la pareja perderá ese lance y los envites que en él pudiera
    haber realizado".

    B bets 2 in pares, A (lying) rejects: B takes the deje of 1 at once and its own par
    at the count; the lance shows B with both, 2 piedras.
    """
    lances = {"pares": {"bets": [{"side": "B", "n": 2}], "end": "no_quiero"}}
    result = score(h2(lances=lances, declared=SEAT_0_LIES_PARES))
    assert [(s["side"], s["points"], s["why"]) for s in step(result, "pares")] == [
        ("B", 1, "deje"), ("B", 1, "mentira"),
    ]
    assert result["lances"]["pares"] == {"side": "B", "points": 2}


def test_an_accepted_envite_goes_to_the_other_side_with_its_own_premiums() -> None:
    """Seed 000, section 10: "se produce un envite, éste lo ganan los contrarios, aunque
    los pares o el juego del compañero sean superiores a los de los contrarios".

    A (lying) bets 5 in pares, B accepts: B wins the stake of 5 plus its own par, 6.
    """
    lances = {"pares": {"bets": [{"side": "A", "n": 5}], "end": "quiero"}}
    result = score(h2(lances=lances, declared=SEAT_0_LIES_PARES))
    assert step(result, "pares")[0]["points"] == 6
    assert result["lances"]["pares"] == {"side": "B", "points": 6}


def test_an_accepted_ordago_in_a_lance_the_side_lied_in_wins_the_other_side_the_juego() -> None:
    """Seed 000, section 14: "la pareja perderá ese lance y los envites que en él pudiera
    haber realizado, aunque las cartas del compañero sean mejores".

    A's duples would win an órdago in pares; with seat 0's lie, B wins the juego.
    """
    lances = {"pares": {"bets": [{"side": "A", "n": "ordago"}], "end": "quiero"}}
    assert score(h2(lances=lances))["winner"] == "A"
    result = score(h2(lances=lances, declared=SEAT_0_LIES_PARES))
    assert (result["winner"], result["ended_by"]) == ("B", "ordago")
    assert result["lances"]["pares"] == {"side": "B", "points": 0}


def test_at_the_count_the_other_side_collects_only_what_its_real_holders_hold() -> None:
    """Seed 000, section 10: "éste lo ganan los contrarios".

    Seat 2 holds the only juego; seat 1 (B) says "juego sí" without it. Juego is bet on
    (the table believed him); A wins it, stake and seat 2's premium. When instead A
    lies and B holds no juego, B wins the lance but has no premium to collect.
    """
    lances = {"juego": {"bets": [{"side": "B", "n": 2}], "end": "quiero"}}
    result = score(h2(lances=lances, declared={"1": {"juego": True}}))
    assert result["lances"]["juego"] == {"side": "A", "points": 4}
    lying_a = score(h2(declared={"0": {"juego": True}}))
    assert lying_a["lances"]["juego"] == {"side": None, "points": 0}


# Both seats 0 (A) and 1 (B) say "pares sí" without pares: seat 1 "C 6 5 1" has none.
BOTH = {"0": "R 7 5 4", "1": "C 6 5 1", "2": "S S 7 7", "3": "R C 7 1"}
BOTH_LIE = {"0": {"pares": True}, "1": {"pares": True}}


@pytest.mark.parametrize(
    "bet",
    [
        {"bets": [{"side": "B", "n": 2}], "end": "quiero"},
        {"bets": [{"side": "B", "n": 2}], "end": "no_quiero"},
        {"bets": [{"side": "A", "n": 2}, {"side": "B", "n": 5}], "end": "no_quiero"},
        {"bets": [{"side": "B", "n": "ordago"}], "end": "quiero"},
        {"bets": [{"side": "B", "n": "ordago"}], "end": "no_quiero"},
    ],
)
def test_when_both_sides_lied_nobody_collects_anything_in_the_lance(bet: dict[str, Any]) -> None:
    """Seed 000, section 14: "la pareja perderá ese lance y los envites que en él pudiera
    haber realizado" -- said of each side that lied, so neither can win the lance.

    No deje, no stake, no premium (not even A's real duples); an accepted órdago wins
    nobody the juego and the hand goes on to the count.
    """
    result = score({"hands": dict(BOTH), "declared": BOTH_LIE, "lances": {"pares": bet}})
    assert result["lances"]["pares"] == {"side": None, "points": 0}
    assert not step(result, "pares")
    assert result["winner"] is None and result["ended_by"] is None
    assert result["score"] == {"A": 2, "B": 2}  # grande, chica to B; A's juego


def test_a_seat_that_denies_its_pares_does_not_play_them() -> None:
    """Seed 000, section 14: "si por el contrario un jugador niega que tiene juego o pares
    cuando en realidad sí los tiene, es obvio que perderá la ocasión de jugar estos
    lances, ya que sólo los juegan los que los tienen".

    Seat 2's duples denied: B's par is then the only pares; A's side does not play.
    """
    result = score(h2(declared={"2": {"pares": False}}))
    assert result["lances"]["pares"] == {"side": "B", "points": 1}
    assert step(result, "pares")[0]["why"] == "solo"
    with pytest.raises(BettingError):  # only B holds pares now: nothing to bet
        score(h2(declared={"2": {"pares": False}},
                 lances={"pares": {"bets": [{"side": "B", "n": 2}], "end": "quiero"}}))


def test_a_seat_that_denies_its_juego_takes_no_part_in_punto_either() -> None:
    """Seed 000, section 14: "perderá la ocasión de jugar estos lances, ya que sólo los
    juegan los que los tienen"; rules.md: punto is a total under 31.

    Seat 2's 34 is the only juego: denied, the fourth lance is punto, played by the other
    three: seats 0 and 1 both have 26, and the one nearer the mano wins; seat 2's 34
    never does.
    """
    result = score(h2(declared={"2": {"juego": False}}))
    assert "punto" in result["lances"] and "juego" not in result["lances"]
    assert result["lances"]["punto"] == {"side": "A", "points": 1}  # seat 0's 26, the mano
    moved = score(h2(mano=1, declared={"2": {"juego": False}}))
    assert moved["lances"]["punto"] == {"side": "B", "points": 1}  # seat 1's 26, now mano


def test_when_every_seat_denies_its_juego_nobody_plays_punto() -> None:
    """Seed 000, section 14 (as above): a seat that denied its juego plays neither lance."""
    hands = {"0": "R R S 1", "1": "C C S 1", "2": "R C 7 4", "3": "S R 6 5"}
    declared = {str(s): {"juego": False} for s in range(4)}
    result = score({"hands": hands, "declared": declared})
    assert result["lances"]["punto"] == {"side": None, "points": 0}
    with pytest.raises(BettingError):
        score({"hands": hands, "declared": declared,
               "lances": {"punto": {"bets": [{"side": "A", "n": 2}], "end": "quiero"}}})


def test_a_winner_given_against_a_lie_is_refused_naming_both() -> None:
    """Seed 000, section 14: the lying side "perderá ese lance"; 'winners' cannot say
    otherwise."""
    record = {"hands": {"0": "R 7 5 4", "1": "C C 5 1", "2": "S S 7 7"},
              "jugadas": {"3": {"pares": "no", "juego": "no"}},
              "declared": SEAT_0_LIES_PARES,
              "winners": {"grande": "A", "chica": "B", "pares": "A"}}
    with pytest.raises(RecordError) as raised:
        score(record)
    assert "Seat 0 lied in pares" in str(raised.value)
    assert "side B" in str(raised.value) and "says A" in str(raised.value)
    record["winners"]["pares"] = "B"
    assert score(record)["lances"]["pares"] == {"side": "B", "points": 1}


@st.composite
def declared_records(draw: Any) -> dict[str, Any]:
    """A record with random declarations (true, lies and denials) and random bets."""
    record = draw(records(bets_allowed=False))
    n = record["rules"]["players"]
    declared: dict[str, dict[str, bool]] = {}
    for seat in draw(st.sets(st.integers(0, n - 1))):
        said = draw(st.fixed_dictionaries({}, optional={"pares": st.booleans(),
                                                         "juego": st.booleans()}))
        declared[str(seat)] = said
    record["declared"] = declared
    lances = {}
    for lance in ("grande", "chica", "pares", "juego", "punto"):
        if draw(st.booleans()):
            lances[lance] = {"bets": [{"side": draw(st.sampled_from("AB")),
                                       "n": draw(st.sampled_from([2, 5, "ordago"]))}],
                             "end": draw(st.sampled_from(["quiero", "no_quiero"]))}
    record["lances"] = lances
    return record


@settings(max_examples=examples(400), deadline=None)
@given(declared_records())
def test_a_lances_result_is_one_side_with_all_its_piedras(record: dict[str, Any]) -> None:
    """rules.md: "A lance's result names one side and all the piedras that side got in it
    (the deje and the premiums together)". Over random lies, denials and bets."""
    # Drop the bets the holders make impossible (betting where a side has no jugada).
    for lance in list(record["lances"]):
        try:
            score({**record, "lances": {lance: record["lances"][lance]}})
        except BettingError:
            del record["lances"][lance]
    result = score(record)
    for lance, got in result["lances"].items():
        steps = [s for s in result["recuento"] if s["lance"] == lance]
        assert {s["side"] for s in steps} <= {got["side"]}
        assert sum(s["points"] for s in steps) == got["points"]
        ordago_lance = result.get("ordago", {}).get("lance")
        assert (got["side"] is None) == (got["points"] == 0 and ordago_lance != lance)
    rules = Rules(**record["rules"])
    a, b = record["score"]["A"], record["score"]["B"]
    assert result["score"]["A"] - a == sum(
        g["points"] for g in result["lances"].values() if g["side"] == "A")
    assert result["score"]["B"] - b == sum(
        g["points"] for g in result["lances"].values() if g["side"] == "B")
    assert rules.target  # the record's rules read back


def test_dentro_is_fewer_than_five_piedras_from_the_target() -> None:
    """rules.md: "dentro" when a side lacks fewer than five piedras to the target (seed
    000 section 6: "cuando faltan menos de cinco piedras para terminar el juego")."""
    assert Rules().dentro() == 36
    assert [n for n in range(40) if Rules().is_dentro(n)] == [36, 37, 38, 39]
    assert Rules(target=30).dentro() == 26
    assert not Rules().is_dentro(40)
