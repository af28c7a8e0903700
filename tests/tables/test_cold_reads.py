"""A cold read of the board or of the API's default state reads what it shows: the current
vaca and the finished vacas' summaries, never the hands of the finished vacas (issue 10:
a cold read on the table at the limit costs at most twice the one on a 10-hand table).

The hands of a finished vaca are its stored replay (`VacaCheckpoint.result`); these tests
spoil that text on every finished vaca the read must not need: a read that loaded one
would fail, whatever the machine's speed."""

from __future__ import annotations

import importlib
import json
from typing import Any

import pytest
from django.apps import apps
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from muscore.tables import board, services
from muscore.tables.models import Table, VacaCheckpoint
from muscore.tables.state import BoardState, VacaSummary
from tests.tables.factory import make_record
from tests.tables.test_checkpoints import ORDAGO_A, long_table
from tests.tables.test_state_types import assert_shape

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

NOT_JSON = "spoilt: a read that loads the hands of this finished vaca fails"


def spoil_finished_vacas(table: Table, *, keep_last: bool = False) -> int:
    """Spoil the stored replay of every finished vaca (but the last with `keep_last`);
    how many rows were spoilt."""
    rows = VacaCheckpoint.objects.filter(table=table, winner__isnull=False)
    if keep_last:
        last = rows.order_by("-index").values_list("index", flat=True).first()
        rows = rows.exclude(index=last)
    return rows.update(result=NOT_JSON)


def ending_a_vaca(table: Table) -> None:
    """Órdagos until the last hand has won a vaca: the board then shows that vaca's end."""
    for _ in range(10):
        state = services.add_hand(table, ORDAGO_A, via="api").state
        if not state["current"]["hands"]:
            return
    raise AssertionError("ten órdagos should win a vaca")


def whole_board(table: Table) -> dict[str, Any]:
    """The board drawn from a fresh replay of every hand (the reference)."""
    return board.board(services.summarize(services.replay_stored(table)))


def test_the_board_s_cold_read_never_loads_a_finished_vaca_s_hands(client):
    table = long_table(150)
    state = services.add_hand(table, make_record(), via="api").state
    assert len(state["finished"]) >= 10 and state["current"]["hands"]
    expected = whole_board(table)
    assert spoil_finished_vacas(table) == len(state["finished"])
    cache.clear()
    response = client.get(f"/t/{table.id}/")
    assert response.status_code == 200
    # The tally of vacas won by each pair is right, from the summaries alone.
    won = {side: sum(v["winner"] == side for v in state["finished"]) for side in "AB"}
    content = response.content.decode()
    for side in "AB":
        assert f'data-vacas-won="{side}">{won[side]}<' in content
    cache.clear()
    shown = board.board(services.board_state(table))
    for key in ("finished", "tally", "sides", "last_hand", "vaca_end", "juegos_results"):
        assert shown[key] == expected[key], key


def test_the_board_of_a_long_table_shows_the_end_of_the_vaca_just_won(client):
    table = long_table(150)
    ending_a_vaca(table)
    expected = whole_board(table)
    assert expected["vaca_end"] is not None
    # Only the vaca the board shows the end of is read whole.
    spoil_finished_vacas(table, keep_last=True)
    cache.clear()
    state = services.board_state(table)
    assert state["last_finished"] is not None and state["last_finished"]["hands"]
    shown = board.board(state)
    for key in ("finished", "tally", "last_hand", "vaca_end"):
        assert shown[key] == expected[key], key
    # Each finished vaca keeps its juegos and winner, and the end shows that vaca's juegos.
    full = services.replay_stored(table)["finished"]
    assert [(v["juegos"], v["winner"]) for v in state["finished"]] == [
        (v["juegos"], v["winner"]) for v in full
    ]
    assert shown["vaca_end"]["juegos_won"] == full[-1]["juegos"]
    assert shown["vaca_end"]["number"] == len(full)
    cache.clear()
    response = client.get(f"/t/{table.id}/")
    assert response.status_code == 200
    assert "data-tally" in response.content.decode()


def cold_board_queries(client: Any, table: Table) -> list[str]:
    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        assert client.get(f"/t/{table.id}/").status_code == 200
    return [q["sql"] for q in queries.captured_queries]


def test_a_cold_board_costs_as_many_queries_on_a_long_table_as_on_a_short_one(client):
    short, long = long_table(3, seed=3), long_table(300)
    assert len(services.table_state(long)["finished"]) >= 20
    on_short, on_long = cold_board_queries(client, short), cold_board_queries(client, long)
    assert len(on_long) == len(on_short)
    # The stored replays it reads: the current vaca's only.
    reads = [sql for sql in on_long if '"result"' in sql and "vacacheckpoint" in sql]
    assert len(reads) == 1 and " IN (" in reads[0]


def test_the_api_s_default_read_gives_the_finished_vacas_summed_up(client):
    table = long_table(120)
    full = services.replay_stored(table)
    spoil_finished_vacas(table)
    cache.clear()
    response = client.get(f"/api/v1/tables/{table.id}")
    assert response.status_code == 200
    assert response["ETag"] == f'"r{full["revision"]}"'
    body = response.json()
    assert body["current"] == full["current"]
    assert body["finished"] == [services.summary_of(v) for v in full["finished"]]
    for summary in body["finished"]:
        assert_shape(summary, VacaSummary)
    assert {k: body[k] for k in ("id", "players", "rules", "revision")} == {
        k: full[k] for k in ("id", "players", "rules", "revision")
    }
    # An unchanged poll is still a 304, whichever shape it asked for.
    for url in (f"/api/v1/tables/{table.id}", f"/api/v1/tables/{table.id}?finished=full"):
        again = client.get(url, headers={"If-None-Match": response["ETag"]})
        assert again.status_code == 304


def test_the_api_gives_every_hand_when_asked_and_refuses_another_shape(client):
    table = long_table(40)
    cache.clear()
    response = client.get(f"/api/v1/tables/{table.id}?finished=full")
    assert response.status_code == 200
    assert response.json() == services.replay_stored(table)
    wrong = client.get(f"/api/v1/tables/{table.id}?finished=everything")
    assert wrong.status_code == 400
    assert "finished must be" in wrong.json()["error"]


def test_a_write_keeps_the_board_s_summaries_equal_to_a_fresh_replay():
    table = long_table(60)
    services.replace_hand(table, 2, ORDAGO_A, via="api")
    services.add_hand(table, make_record(), via="api")
    services.undo_last(table, via="api")
    cache.clear()
    state = services.board_state(table)
    assert_shape(state, BoardState)
    assert state == services.summarize(services.replay_stored(table))


def test_rows_stored_before_the_summaries_are_filled_by_the_migration_or_read_from_the_vaca():
    table = long_table(80)
    ending_a_vaca(table)
    expected = services.summarize(services.replay_stored(table))
    VacaCheckpoint.objects.filter(table=table).update(summary="")
    cache.clear()
    # Read before the migration has run: each summary is taken from its stored vaca.
    assert services.board_state(table) == expected
    summary = json.loads(services.read_state(table, "summary").text)
    assert summary["finished"] == expected["finished"]
    migration = importlib.import_module("muscore.tables.migrations.0005_vaca_summary")
    migration.fill_summaries(apps, None)
    rows = VacaCheckpoint.objects.filter(table=table).order_by("index")
    state = services.replay_stored(table)
    vacas = [*state["finished"], state["current"]]
    assert [json.loads(row.summary) for row in rows] == [services.summary_of(v) for v in vacas]
    cache.clear()
    assert services.board_state(table) == expected


def test_every_api_write_answers_in_the_shape_its_finished_parameter_asks(client):
    table = long_table(60)
    headers = {"X-Table-Key": table.edit_key}
    base = f"/api/v1/tables/{table.id}"

    def send(method: str, path: str, body: Any = None) -> dict[str, Any]:
        data = json.dumps(body) if body is not None else ""
        call = getattr(client, method)
        response = call(path, data, content_type="application/json", headers=headers)
        assert response.status_code in (200, 201), response.content[:300]
        answer: dict[str, Any] = response.json()
        return answer

    def summed_up(answer: dict[str, Any]) -> bool:
        assert answer["finished"]
        return all("hand_count" in v and "hands" not in v for v in answer["finished"])

    assert summed_up(send("post", f"{base}/hands", make_record()))
    assert not summed_up(send("post", f"{base}/hands?finished=full", make_record()))
    edited = send("put", f"{base}/hands/1", ORDAGO_A)
    assert summed_up(edited) and "changed" in edited
    assert not summed_up(send("delete", f"{base}/hands/last?finished=full"))
    assert summed_up(send("post", f"{base}/piedras", {"side": "B", "n": 1}))
    assert summed_up(send("delete", f"{base}/hands/last"))
    # The answer of a write is what the next GET says, in the same shape.
    assert send("delete", f"{base}/hands/last") == send("get", base)
    count = table.hands.count()
    wrong = client.post(
        f"{base}/hands?finished=all", json.dumps(make_record()),
        content_type="application/json", headers=headers,
    )  # fmt: skip
    assert wrong.status_code == 400 and table.hands.count() == count


def test_a_summed_up_write_still_gives_its_listeners_the_whole_state():
    from muscore.tables.signals import table_changed

    table = long_table(30)
    seen: list[Any] = []

    def listener(sender: Any, table: Table, state: Any, **kwargs: Any) -> None:
        seen.append(state["finished"])

    table_changed.connect(listener, weak=False, dispatch_uid="test-cold-reads")
    try:
        services.add_hand(table, make_record(), via="api", finished="summary")
    finally:
        table_changed.disconnect(dispatch_uid="test-cold-reads")
    assert seen == [services.replay_stored(table)["finished"]]
    assert seen[0] and all(vaca["hands"] for vaca in seen[0])


def test_a_new_table_or_an_import_with_a_wrong_finished_stores_nothing(client):
    for path, body in (("/api/v1/tables", {}), ("/api/v1/tables/import", {"hands": []})):
        response = client.post(
            f"{path}?finished=some", json.dumps(body), content_type="application/json"
        )
        assert response.status_code == 400, path
    assert not Table.objects.exists()
    created = client.post("/api/v1/tables?finished=full", "{}", content_type="application/json")
    assert created.status_code == 201 and created.json()["finished"] == []


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's own query plan")
def test_on_sqlite_the_summaries_come_from_an_index_not_past_the_stored_replays():
    # A column stored after the long `result` text is reached through its overflow pages.
    table = long_table(60)
    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        services.board_state(table)
    (sql,) = [q["sql"] for q in queries.captured_queries if '"summary"' in q["sql"]]
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN QUERY PLAN {sql}")
        plan = " ".join(str(row[-1]) for row in cursor.fetchall())
    assert "COVERING INDEX" in plan, plan


def test_a_link_with_a_nul_or_a_surrogate_is_a_table_that_does_not_exist(client):
    # PostgreSQL refuses to compare such text: it must never reach the database (no 500).
    for bad in ("%00", "a%00b", "%ED%A0%80"):
        assert client.get(f"/api/v1/tables/{bad}").status_code == 404, bad
        assert client.get(f"/api/v1/tables/{bad}?finished=full").status_code == 404, bad
        assert client.get(f"/t/{bad}/").status_code == 404, bad
    with pytest.raises(services.TableNotFound):
        services.get_table("x\x00")
    assert services.table_revision("x\x00") is None


def test_the_board_s_and_the_api_s_summed_up_reads_replay_nothing(monkeypatch, client):
    table = long_table(60)
    expected = services.summarize(services.replay_stored(table))
    cache.clear()

    def no_replay(*args: Any) -> dict[str, Any]:
        raise AssertionError("a read replayed a vaca")

    monkeypatch.setattr(services.replay.rules_engine, "replay", no_replay)
    monkeypatch.setattr(services.replay.rules_engine, "replay_evening", no_replay)
    assert services.board_state(table) == expected
    summary = json.loads(services.read_state(table, "summary").text)
    assert summary["finished"] == expected["finished"]
    assert client.get(f"/t/{table.id}/").status_code == 200


def edit_poll_queries(client: Any, table: Table) -> int:
    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"/t/{table.id}/k/{table.edit_key}/?live=1",
                              headers={"HX-Request": "true"})
        assert response.status_code == 200
    return len(queries)


def test_the_edit_boards_poll_reads_as_much_after_many_changes_as_after_few(client):
    # The redo offer reads the latest changes as value rows: model rows of the table's
    # related manager read their deferred table_id back one query each.
    tables = [services.create_table(players=["Ana", "Bruno", "Carla", "Diego"]) for _ in range(2)]
    for table, hands in zip(tables, (2, 12), strict=True):
        for _ in range(hands):
            services.add_hand(table, make_record(), via="api")
    assert edit_poll_queries(client, tables[0]) == edit_poll_queries(client, tables[1])
    for table in tables:  # and with a hand undone (the redo offered): two reads of changes
        services.undo_last(table, via="api")
        assert services.redo_candidate(table) is not None
    assert edit_poll_queries(client, tables[0]) == edit_poll_queries(client, tables[1])


def test_the_first_board_read_after_a_write_takes_its_cached_answer_and_no_stored_vaca():
    # A live board is drawn at once after each save: the write's answer (the API's default
    # read, cached for its revision) is the board's state but "last_finished".
    table = long_table(40)
    services.add_hand(table, make_record(), via="api")
    written = services.add_piedras(table, "A", 1, via="api", finished="summary")
    table.refresh_from_db()
    assert table.revision == written.revision and written.state["current"]["hands"]
    with CaptureQueriesContext(connection) as queries:
        state = services.board_state(table, fresh=True)
    assert not [q for q in queries.captured_queries if "vacacheckpoint" in q["sql"]]
    assert_shape(state, BoardState)
    cache.clear()
    assert state == services.board_state(table) == services.summarize(
        services.replay_stored(table))
    # At a vaca's end the board needs that vaca whole: read from the stored vacas.
    for _ in range(10):
        if not services.add_hand(table, ORDAGO_A, via="api",
                                 finished="summary").state["current"]["hands"]:
            break
    table.refresh_from_db()
    ended = services.board_state(table, fresh=True)
    assert ended["last_finished"] is not None and ended["last_finished"]["hands"]
    cache.clear()
    assert ended == services.board_state(table)
