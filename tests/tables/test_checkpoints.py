"""The stored vacas (VacaCheckpoint): writes replay from the start of the touched hand's
vaca only, reads replay nothing, and what is stored is always what a replay from
scratch gives."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.core.cache import cache

from muscore import rules
from muscore.tables import services
from muscore.tables.models import Hand, Table, VacaCheckpoint
from tests.tables.factory import make_deje_record, make_record, make_table

pytestmark = pytest.mark.django_db

# Seat 0 (side A) holds the best grande of the seed deal: an ordago there wins the juego.
ORDAGO_A = make_record(grande={"bets": [{"side": "B", "n": "ordago"}], "end": "quiero"})


def varied_records(count: int, seed: int = 7) -> list[dict[str, Any]]:
    """Hands of every kind, so vacas end after a few hands or after many."""
    rng = random.Random(seed)
    kinds = [make_record(), make_record(), ORDAGO_A, make_deje_record("A"), make_deje_record("B")]
    return [rng.choice(kinds) for _ in range(count)]


def long_table(count: int, seed: int = 7) -> Table:
    """A table of `count` hands, imported (the quick way in) and then written to."""
    data = {"players": ["Ana", "Bruno", "Carla", "Diego"], "hands": varied_records(count, seed)}
    return services.import_table(data, via="api")


def stored(table: Table) -> dict[str, Any]:
    """The state as the stored vacas give it (no cache)."""
    cache.clear()
    return services.table_state(table)


def assert_stored_is_a_fresh_replay(table: Table) -> None:
    table.refresh_from_db()
    fresh = services.replay_stored(table)
    assert stored(table) == fresh
    rows = list(VacaCheckpoint.objects.filter(table=table).order_by("index"))
    vacas = [*fresh["finished"], fresh["current"]]
    assert [r.index for r in rows] == list(range(len(vacas)))
    for row, vaca in zip(rows, vacas, strict=True):
        assert (row.first_hand, row.mano, row.hand_count, row.winner) == (
            vaca["first_hand"],
            vaca["mano"],
            len(vaca["hands"]),
            vaca["winner"],
        )
        assert json.loads(row.result) == vaca
    assert table.replayed_revision == table.revision


class ReplayCounter:
    """Counts the hands muscore.rules scores in replays, to see what a write costs."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.hands = 0
        real = rules.replay_evening

        def counting(table_rules: Any, entries: Any, start: Any = None) -> dict[str, Any]:
            try:
                result = real(table_rules, entries, start)
            except rules.VacaError:
                self.hands += len(entries)  # at most
                raise
            self.hands += sum(len(v["hands"]) for v in [*result["finished"], result["current"]])
            return result

        monkeypatch.setattr(services.replay.rules_engine, "replay_evening", counting)
        monkeypatch.setattr(services.replay.rules_engine, "replay", self.no_vaca_replay)

    @staticmethod
    def no_vaca_replay(vaca: Any) -> dict[str, Any]:
        raise AssertionError("a table is replayed through replay_evening")


def vaca_of(state: dict[str, Any], number: int) -> dict[str, Any]:
    return next(
        v
        for v in [*state["finished"], state["current"]]
        if v["first_hand"] <= number < v["first_hand"] + max(len(v["hands"]), 1)
    )


def test_a_long_table_stores_each_vaca_as_a_replay_from_scratch_gives_it():
    table = long_table(120)
    state = stored(table)
    assert len(state["finished"]) >= 5, "the varied hands end several vacas"
    assert_stored_is_a_fresh_replay(table)


def test_adding_a_hand_replays_the_current_vaca_only(monkeypatch):
    table = long_table(150)
    current = stored(table)["current"]
    counter = ReplayCounter(monkeypatch)
    services.add_hand(table, make_record(), via="api")
    assert counter.hands <= len(current["hands"]) + 1
    assert_stored_is_a_fresh_replay(table)


def test_correcting_hand_3_replays_its_vaca_and_every_later_result_still_follows(monkeypatch):
    table = long_table(150)
    before = stored(table)
    first = vaca_of(before, 3)
    assert first["winner"] is not None
    counter = ReplayCounter(monkeypatch)
    # An ordago won by A at hand 3 ends that juego there: the vaca's end moves, so every
    # later vaca starts elsewhere and is replayed again.
    state = services.replace_hand(table, 3, ORDAGO_A, via="api").state
    # Hand 3's vaca alone first (does it still end at its last hand?), then from that
    # vaca onwards, each hand once.
    assert counter.hands <= len(first["hands"]) + 150
    assert_stored_is_a_fresh_replay(table)
    assert state == {**services.replay_stored(table), "changed": state["changed"]}
    assert 3 in state["changed"] or state["changed"]


def test_a_correction_that_keeps_its_vaca_s_end_replays_that_vaca_only(monkeypatch):
    table = long_table(150)
    before = stored(table)
    # The last hand of the first vaca wins it; a deje of 1 earlier on changes its scores
    # (or not) but the vaca still ends at its last hand or moves: whichever, the stored
    # vacas must be a fresh replay, and when the end stays only that vaca is replayed.
    vaca = before["finished"][1]
    number = vaca["first_hand"]
    counter = ReplayCounter(monkeypatch)
    services.replace_hand(table, number, Hand.objects.get(table=table, number=number).record,
                          via="api")  # fmt: skip
    assert counter.hands <= len(vaca["hands"]) + 1
    assert_stored_is_a_fresh_replay(table)


def test_undoing_the_hand_that_won_a_vaca_opens_that_vaca_again():
    table = make_table(rules={"juegos": 1})
    services.add_hand(table, make_record(), via="api")
    state = services.add_hand(table, ORDAGO_A, via="api").state
    assert len(state["finished"]) == 1 and state["current"]["hands"] == []
    state = services.undo_last(table, via="api").state
    assert state["finished"] == [] and len(state["current"]["hands"]) == 1
    assert_stored_is_a_fresh_replay(table)


def test_any_sequence_of_writes_keeps_the_stored_vacas_equal_to_a_replay_from_scratch():
    rng = random.Random(11)
    table = long_table(40, seed=3)
    kinds = [make_record(), ORDAGO_A, make_deje_record("A"), make_deje_record("B")]
    for _step in range(60):
        count = Hand.objects.filter(table=table).count()
        move = rng.random()
        if move < 0.5 or count == 0:
            services.add_hand(table, rng.choice(kinds), via="api")
        elif move < 0.7:
            services.undo_last(table, via="edit_link")
        else:
            services.replace_hand(table, rng.randint(1, count), rng.choice(kinds), via="api")
        assert_stored_is_a_fresh_replay(table)


def test_a_read_replays_nothing_even_on_a_cold_cache(monkeypatch):
    table = long_table(60)
    expected = services.replay_stored(table)
    cache.clear()

    def no_replay(*args: Any) -> dict[str, Any]:
        raise AssertionError("a read replayed a vaca")

    monkeypatch.setattr(services.replay.rules_engine, "replay", no_replay)
    monkeypatch.setattr(services.replay.rules_engine, "replay_evening", no_replay)
    assert services.table_state(table) == expected
    assert services.hand_entry(table, 30)["score"] == services.iter_hands(expected)[29][1]["score"]
    services.preview_hand(table, make_record())


def test_a_table_from_before_the_stored_vacas_is_replayed_once_at_its_first_read(client):
    table = long_table(30)
    expected = services.replay_stored(table)
    VacaCheckpoint.objects.filter(table=table).delete()
    Table.objects.filter(pk=table.pk).update(replayed_revision=0)
    cache.clear()
    assert services.table_state(table) == expected
    assert_stored_is_a_fresh_replay(table)
    # A write on such a table works as well.
    VacaCheckpoint.objects.filter(table=table).delete()
    Table.objects.filter(pk=table.pk).update(replayed_revision=0)
    services.add_hand(table, make_record(), via="api")
    assert_stored_is_a_fresh_replay(table)


def test_a_table_holds_at_most_max_hands(monkeypatch, client):
    monkeypatch.setattr(services.checks, "MAX_HANDS", 5)
    table = long_table(5)
    with pytest.raises(services.TableError, match="already has 5 hands"):
        services.add_hand(table, make_record(), via="api")
    response = client.post(
        f"/api/v1/tables/{table.id}/hands",
        make_record(),
        content_type="application/json",
        HTTP_X_TABLE_KEY=table.edit_key,
    )
    assert response.status_code == 400
    assert "5 hands" in response.json()["error"]
    # An undo makes room again.
    services.undo_last(table, via="api")
    services.add_hand(table, make_record(), via="api")


def test_an_import_above_the_limit_is_refused_whole(monkeypatch, client):
    monkeypatch.setattr(services.checks, "MAX_HANDS", 5)
    tables = Table.objects.count()
    with pytest.raises(services.TableError, match="6 hands"):
        long_table(6)
    response = client.post(
        "/api/v1/tables/import", {"hands": varied_records(6)}, content_type="application/json"
    )
    assert response.status_code == 400
    assert "at most 5" in response.json()["error"]
    assert Table.objects.count() == tables
