"""What the hands say (muscore.leagues.compute.handstats): hand-made vacas whose every count is
known, worked out by hand from the rules (rules.md) before the code counted them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from muscore.leagues.compute.handstats import FIELDS, Counts, count_vaca

ROOT = Path(__file__).resolve().parents[2]

# The same cards every hand. Grande and chica go to A (R R 5 4; 1 1 6 7), pares to B
# (S S 7 7 duples beats every par: 3 + C C 1 = 4 piedras), juego only B holds (35 and 34:
# 2 + 2 = 4, no betting there); with no bets A gets 2 and B 8 a hand.
CARDS = {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"}


def hand(**lances: Any) -> dict[str, Any]:
    return {"hands": CARDS, "lances": lances}


def bets(*pairs: tuple[str, int | str], end: str | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {"bets": [{"side": s, "n": n} for s, n in pairs]}
    if end:
        data["end"] = end
    return data


#: Four hands: an envite accepted and one refused, two órdagos of A accepted (one lost,
#: one won: the juego won by órdago), one of B refused, dejes of 1 and of 5.
NIGHT = {"mano": 0, "hands": [
    # A envido, B quiero: A's grande for 2. B envido in chica, A no quiero: deje 1 to B.
    hand(grande=bets(("A", 2), end="quiero"), chica=bets(("B", 2), end="no_quiero")),
    # B órdago in grande, A no quiero: deje 1 to B. A órdago in pares, B quiero: B's
    # duples win the juego (the chica en paso is never counted).
    hand(grande=bets(("B", "ordago"), end="no_quiero"),
         pares=bets(("A", "ordago"), end="quiero")),
    # A new juego: A órdago in grande, B quiero: A wins it. The chica's bets in the record
    # come after the juego was won: never played, never counted.
    hand(grande=bets(("A", "ordago"), end="quiero"), chica=bets(("B", 2), end="no_quiero")),
    # A envida 5, B raises 10 more, A no quiero: deje 5 to B (what stood before).
    hand(grande=bets(("A", 5), ("B", 10), end="no_quiero")),
]}


def test_a_night_of_envites_ordagos_and_dejes() -> None:
    counts = count_vaca(NIGHT)
    a, b = counts["A"], counts["B"]
    assert a == Counts(
        hands=4, juegos=1, juegos_ordago=1,
        grande=2, piedras_grande=2,  # 2 querido; the órdago's lance (0 piedras)
        chica=1, piedras_chica=1,  # the fourth hand's en paso
        piedras=3,
        envites=2, envites_accepted=1,
        ordagos=2, ordagos_accepted=2, ordagos_won=1,
        dejes_given=3, dejes_given_piedras=7,
    )
    assert b == Counts(
        hands=4, juegos=1, juegos_ordago=1,
        grande=2, piedras_grande=6,  # the two dejes, 1 and 5
        chica=1, piedras_chica=1,  # the deje
        pares=3, piedras_pares=8,  # 4 + the órdago's lance (0) + 4
        juego=2, piedras_juego=8,
        piedras=23,
        envites=2, envites_accepted=0,  # the chica's envido refused; the raise refused
        ordagos=1, ordagos_accepted=0, ordagos_won=0,
        dejes_taken=3, dejes_taken_piedras=7,
    )
    # The lances' piedras add up to what each side scored in its lances.
    assert a.piedras == sum(getattr(a, f"piedras_{n}") for n in ("grande", "chica", "pares",
                                                                  "juego", "punto"))


def test_a_deje_that_reaches_the_target_ends_the_betting() -> None:
    """At 39 a deje of 1 wins the juego: a bet the record holds for a later lance was never
    made, and the count never came."""
    vaca = {"mano": 0, "hands": [
        {"piedras": {"side": "A", "n": 39}},
        hand(grande=bets(("A", 2), end="no_quiero"), chica=bets(("B", 2), end="quiero"),
             pares=bets(("B", "ordago"), end="quiero")),
    ]}
    counts = count_vaca(vaca)
    a, b = counts["A"], counts["B"]
    assert (a.juegos, a.juegos_ordago, a.hands) == (1, 0, 1)  # the tap is no hand
    assert (a.grande, a.piedras_grande, a.piedras, a.dejes_taken) == (1, 1, 1, 1)
    assert (a.chica, a.envites, a.envites_accepted) == (0, 1, 0)
    assert (b.envites, b.ordagos, b.pares, b.piedras, b.dejes_given) == (0, 0, 0, 0, 1)


def test_punto_and_an_envite_accepted_at_the_count() -> None:
    """Nobody has juego: punto is the fourth lance. B envida 2 in punto, A quiero: A's
    R C 5 4 (29, the best total) collects the stake and the punto, 2 + 1."""
    cards = {"0": "R C 5 4", "1": "1 1 6 7", "2": "4 5 6 7", "3": "S 4 5 6"}
    vaca = {"mano": 0, "hands": [
        {"hands": cards, "lances": {"punto": bets(("B", 2), end="quiero")}}]}
    counts = count_vaca(vaca)
    a, b = counts["A"], counts["B"]
    assert (a.punto, a.piedras_punto) == (1, 3)
    assert (b.envites, b.envites_accepted, b.punto) == (1, 1, 0)


def test_counts_add_and_name_their_columns() -> None:
    one = Counts(envites=2, piedras=5)
    one += Counts(envites=1, ordagos=1)
    assert one.as_dict()["envites"] == 3 and one.ordagos == 1
    assert list(one.as_dict()) == list(FIELDS)


def test_handstats_imports_no_django() -> None:
    code = ("import sys, muscore.leagues.compute.handstats; "
            "assert not [k for k in sys.modules if k.startswith('django')]")
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT, timeout=60).returncode == 0


def test_a_lie_gives_the_deje_to_the_other_side_whoever_bet() -> None:
    """Seat 0 said "pares sí" holding none: A's envido refused pays B the deje (rules.md,
    "Declarations and lies"), and B collects the pares at the count. The envite is A's."""
    vaca = {"mano": 0, "hands": [{
        "hands": {"0": "R C 5 4", "1": "R C C 5", "2": "4 5 6 7", "3": "S S 7 7"},
        "declared": {"0": {"pares": True}},
        "lances": {"pares": bets(("A", 2), end="no_quiero")}}]}
    counts = count_vaca(vaca)
    a, b = counts["A"], counts["B"]
    assert (a.envites, a.envites_accepted, a.dejes_given, a.dejes_taken) == (1, 0, 1, 0)
    assert (b.dejes_taken, b.dejes_taken_piedras, b.pares, b.piedras_pares) == (1, 1, 1, 5)


def test_six_players_count_by_side() -> None:
    """Three a side: B's órdago in grande, A quiero, A's R R 5 4 wins the juego."""
    vaca = {"rules": {"players": 6}, "mano": 0, "hands": [{
        "hands": {**CARDS, "4": "4 5 6 1", "5": "4 5 1 6"},
        "lances": {"grande": bets(("B", "ordago"), end="quiero")}}]}
    counts = count_vaca(vaca)
    a, b = counts["A"], counts["B"]
    assert (a.juegos, a.juegos_ordago, a.grande, a.ordagos) == (1, 1, 1, 0)
    assert (b.ordagos, b.ordagos_accepted, b.ordagos_won, b.juegos) == (1, 1, 0, 0)
