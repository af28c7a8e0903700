"""What the hands say, stored (muscore.leagues.stats_store): counted when a table's result
arrives, following its edits, dropped when an organiser's result replaces it or it is
cleared, recounted by `manage.py count_hand_stats`, summed for the pages."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command

from muscore.clubs.models import Player
from muscore.leagues import competitions, results, stats_store
from muscore.leagues.compute.handstats import FIELDS, count_vaca
from muscore.leagues.models import Match, PairHandStats, PlayerHandStats
from muscore.tables import services as tables

from .factory import liguilla
from .helpers import ORDAGO_A, ORDAGO_B, PLAIN

pytestmark = pytest.mark.django_db

VACA = [PLAIN, ORDAGO_A, ORDAGO_B, PLAIN, ORDAGO_A, ORDAGO_A]  # A wins 3-1
ENVITE = {**PLAIN, "lances": {"grande": {"bets": [{"side": "A", "n": 2}], "end": "quiero"}}}


def play(table: Any, *records: dict[str, Any]) -> None:
    for record in records:
        tables.add_hand(table, record, via="edit_link")


def stored(match: Match) -> dict[int, dict[str, int]]:
    return {row["side"]: {k: row[k] for k in FIELDS}
            for row in PairHandStats.objects.filter(match=match).values("side", *FIELDS)}


def expected(hands: list[dict[str, Any]]) -> dict[int, dict[str, int]]:
    counts = count_vaca({"rules": {"juegos": 3}, "mano": 0, "hands": hands})
    return {0: counts["A"].as_dict(), 1: counts["B"].as_dict()}


def played_match() -> tuple[Match, Any, Any]:
    competition, user = liguilla(2)
    match = competition.matches.select_related("first__pair", "second__pair").get()
    table = competitions.open_table(match, by=user)
    play(table, *VACA)
    match.refresh_from_db()
    assert match.outcome.source == "table"
    return match, table, user


def test_a_tables_result_stores_its_hands_counts_per_pair_and_player() -> None:
    match, table, user = played_match()
    assert stored(match) == expected(VACA)
    a, b = stored(match)[0], stored(match)[1]
    assert (a["juegos"], a["juegos_ordago"], a["ordagos"], a["ordagos_won"]) == (3, 3, 3, 3)
    assert (b["juegos"], b["juegos_ordago"], b["ordagos"], b["ordagos_won"]) == (1, 1, 1, 1)
    assert a["hands"] == b["hands"] == 6
    by_player = {row.player.name: row.side for row in
                 PlayerHandStats.objects.filter(match=match).select_related("player")}
    assert by_player == {**dict.fromkeys(match.first.pair.player_names(), 0),
                         **dict.fromkeys(match.second.pair.player_names(), 1)}
    row = PlayerHandStats.objects.filter(match=match, side=0).values(*FIELDS).first()
    assert row == expected(VACA)[0]
    # Pages read the sums: the pair's and the player's include.
    context = stats_store.pair_context(match.first.pair)["hand_stats"]
    assert (context["matches"], context["ordagos_won"], context["juegos_ordago"]) == (1, 3, 3)
    assert [lance["lance"] for lance in context["lances"]] == [
        "grande", "chica", "pares", "juego", "punto"]
    player = Player.objects.get(name=match.second.pair.player_names()[0])
    assert stats_store.player_context(player)["hand_stats"]["ordagos_won"] == 1


def test_the_counts_follow_the_vaca_undone_and_edited() -> None:
    match, table, user = played_match()
    tables.undo_last(table, via="edit_link")  # the vaca is not won any more
    assert stored(match) == {} and not PlayerHandStats.objects.filter(match=match).exists()
    play(table, ORDAGO_A)
    assert stored(match) == expected(VACA)
    # An envite in the first hand: the result's tantos change, and so do the counts.
    tables.replace_hand(table, 1, ENVITE, via="edit_link")
    assert stored(match) == expected([ENVITE, *VACA[1:]])
    assert stored(match)[0]["envites"] == stored(match)[0]["envites_accepted"] == 1


def test_an_organisers_result_or_a_clear_drops_the_counts() -> None:
    match, table, user = played_match()
    results.record_result(match, by=user, juegos=[0, 3], reason="acta")
    assert stored(match) == {} and not PlayerHandStats.objects.exists()
    results.clear_result(match, by=user, reason="un error")
    play(table, PLAIN)  # a later hand on the table brings the table's result back
    match.refresh_from_db()
    assert match.outcome.source == "table" and stored(match) == expected(VACA)
    results.clear_result(match, by=user, reason="un error")
    assert stored(match) == {}


def test_a_substitute_gets_the_counts_of_the_side_he_sat_for() -> None:
    match, table, user = played_match()
    own = match.first.pair.player_names()
    competitions.substitute(match, by=user, side=0, replaced=own[1], substitute="Iñaki")
    names = set(PlayerHandStats.objects.filter(match=match, side=0).values_list(
        "player__name", flat=True))
    assert names == {own[0], "Iñaki"}
    assert stored(match) == expected(VACA)  # the pair's counts are the pair's still


def test_count_hand_stats_counts_again_from_the_tables() -> None:
    match, table, user = played_match()
    before = stored(match)
    players = sorted(PlayerHandStats.objects.values_list("player_id", "side", "ordagos"))
    PairHandStats.objects.all().delete()
    PlayerHandStats.objects.all().delete()
    call_command("count_hand_stats", club=match.competition.club.slug, stdout=None)
    assert stored(match) == before
    assert sorted(PlayerHandStats.objects.values_list("player_id", "side", "ordagos")) == players


def test_the_leaders_need_matches_for_the_shares() -> None:
    match, table, user = played_match()
    got = stats_store.leaders(match.competition.club)
    assert got["matches"] == 1
    boards = {board["stat"]: board for board in got["boards"]}
    top = boards["ordagos_won"]
    assert [leader.value for leader in top["pairs"]] == [3, 1]
    assert top["pairs"][0].name == match.first.pair.name
    assert len(top["players"]) == 4
    # The first pair's two players share the first place, the others the third.
    assert [leader.position for leader in top["players"]] == [1, 1, 3, 3]
    assert all(not board["players"] and not board["pairs"]
               for board in got["boards"] if board["kind"] == "share")  # 1 < MIN_MATCHES


def test_the_stats_models_have_the_counts_columns() -> None:
    columns = {f.name for f in PairHandStats._meta.get_fields()}
    assert set(FIELDS) <= columns
    assert set(FIELDS) <= {f.name for f in PlayerHandStats._meta.get_fields()}


def test_a_later_vaca_at_the_same_table_leaves_the_counts_alone() -> None:
    match, table, user = played_match()
    ids = sorted(PairHandStats.objects.filter(match=match).values_list("pk", flat=True))
    play(table, PLAIN, ORDAGO_B)  # the table plays on after the match's vaca
    assert sorted(PairHandStats.objects.filter(match=match).values_list("pk", flat=True)) == ids
    assert stored(match) == expected(VACA)
