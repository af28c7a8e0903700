"""The typed results' facts the league stats read: the accepted órdago, the lances whose
betting was played, piedras tapped by hand (muscore.rules.results)."""

from __future__ import annotations

from muscore.rules import Lance, Ordago, Side, replay_vaca, score_hand

CARDS = {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"}


def test_an_accepted_ordago_names_its_lance_and_winner() -> None:
    result = score_hand({"hands": CARDS, "lances": {
        "grande": {"bets": [{"side": "A", "n": 2}], "end": "no_quiero"},
        "pares": {"bets": [{"side": "A", "n": "ordago"}], "end": "quiero"}}})
    assert result.ordago == Ordago(Lance.PARES, Side.B)
    assert result.played == (Lance.GRANDE, Lance.CHICA, Lance.PARES)


def test_a_refused_ordago_is_no_ordago_and_every_lance_is_played() -> None:
    result = score_hand({"hands": CARDS, "lances": {
        "grande": {"bets": [{"side": "B", "n": "ordago"}], "end": "no_quiero"}}})
    assert result.ordago is None
    assert result.played == (Lance.GRANDE, Lance.CHICA, Lance.PARES, Lance.JUEGO)


def test_a_deje_reaching_the_target_ends_the_played_lances() -> None:
    result = score_hand({"score": {"A": 39}, "hands": CARDS, "lances": {
        "chica": {"bets": [{"side": "A", "n": 2}], "end": "no_quiero"},
        "pares": {"bets": [{"side": "B", "n": 2}], "end": "quiero"}}})
    assert result.ended_by == "deje"
    assert result.played == (Lance.GRANDE, Lance.CHICA)


def test_piedras_tapped_by_hand_have_no_lance() -> None:
    vaca = replay_vaca({"mano": 0, "hands": [{"piedras": {"side": "B", "n": 5}}]})
    tap = vaca.hands[0]
    assert tap.is_piedras and tap.recuento == () and tap.lances == ()
    assert not score_hand({"hands": CARDS}).is_piedras
