"""Piedras by hand (issue 9): +1 / +5 / -1 for a side, stored as entries among the
hands, replayed, undone, redone and audited like hands, through the board and the API."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from muscore.tables import services
from muscore.tables.models import Change, Hand, Table

pytestmark = pytest.mark.django_db

NAMES = ["Ana", "Bruno", "Carla", "Diego"]
SEED = {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"}


def make_table(**rules: Any) -> Table:
    return services.create_table(players=NAMES, rules=rules or None)


def url(table: Table, name: str = "tables:edit_board", *args: Any) -> str:
    return reverse(name, args=[table.id, table.edit_key, *args])


def tap(client: Client, table: Table, side: str, n: int | str, revision: Any = None) -> Any:
    if revision is None:
        revision = Table.objects.get(pk=table.pk).revision
    return client.post(url(table, "tables:piedras"), {"side": side, "n": str(n),
                                                      "revision": str(revision)})


def score(table: Table) -> dict[str, int]:
    return services.table_state(table)["current"]["score"]


def text(response: Any) -> str:
    html = response.content.decode().replace("\u2060", "")  # the word joiners of "30–0"
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_taps_are_entries_among_the_hands_and_do_not_move_the_mano(client: Client) -> None:
    table = make_table()
    services.add_hand(table, {"hands": SEED}, via="api")  # A 2, B 8; mano passes to Bruno
    assert tap(client, table, "A", 5).status_code == 302
    assert tap(client, table, "B", -1).status_code == 302
    assert score(table) == {"A": 7, "B": 7}
    assert [h.record for h in Hand.objects.order_by("number")][1:] == [
        {"piedras": {"side": "A", "n": 5}}, {"piedras": {"side": "B", "n": -1}}]
    page = text(client.get(url(table)))
    assert "Mano: Bruno" in page
    assert "Anotación 3: piedras a mano" in page
    assert "Piedras a mano: Bruno y Diego −1, 7." in page
    # Never below 0.
    table2 = make_table()
    tap(client, table2, "B", -1)
    assert score(table2) == {"A": 0, "B": 0}
    assert "ya estaban a 0" in text(client.get(url(table2)))


def test_taps_reach_the_target_and_end_the_juego_and_the_vaca(client: Client) -> None:
    table = make_table(juegos=1, target=30)
    for _ in range(6):
        assert tap(client, table, "A", 5).status_code == 302
    state = services.table_state(table)
    assert len(state["finished"]) == 1 and state["finished"][0]["winner"] == "A"
    page = text(client.get(url(table)))
    assert "Vaca para Ana y Carla" in page and "Juego 1 para Ana y Carla (30–0)" in page
    assert "Vacas: Ana y Carla 1 – Bruno y Diego 0" in page


def api_state(client: Client, table: Table) -> dict[str, Any]:
    answer = client.get(f"/api/v1/tables/{table.id}")
    assert answer.status_code == 200
    return dict(json.loads(answer.content))


def test_a_juego_won_past_the_target_says_the_counted_score_everywhere(client: Client) -> None:
    """docs/rules.md (issue 38.2): the score past the target is kept as counted, on
    every page as in the API. A tap of 5 at 36 won the juego 41-5: the board, the
    history and the API say 41-5 (issue 30.6 had the pages say 40-5, the API 41-5)."""
    table = make_table(juegos=2, target=40)
    for _ in range(7):
        tap(client, table, "A", 5)
    tap(client, table, "A", 1)
    tap(client, table, "B", 5)
    tap(client, table, "A", 5)
    hands = api_state(client, table)["current"]["hands"]
    assert hands[-1]["score"] == {"A": 41, "B": 5} and hands[-1]["winner"] == "A"
    page = text(client.get(url(table)))
    assert "Juego 1 para Ana y Carla (41–5)" in page, page
    assert "Piedras a mano: Ana y Carla +5, 41: ganan el juego." in page
    assert "Queda 41–5." in page
    assert "40–5" not in page
    history = text(client.get(url(table, "tables:edit_history")))
    assert "para Ana y Carla (41–5)" in history
    assert "40–5" not in history


def test_a_hand_that_ends_past_the_target_is_previewed_as_the_api_scores_it(
    client: Client,
) -> None:
    """At 39, grande's envido querido of 2 won by Ana y Carla: "Queda 41-0" in the
    preview, as POST /api/v1/score answers and the board says once it is saved."""
    table = make_table(juegos=2, target=40)
    for n in (5, 5, 5, 5, 5, 5, 5, 4):
        tap(client, table, "A", n)
    assert score(table) == {"A": 39, "B": 0}
    cards = {"c0": "R R 5 4", "c1": "R C C 5", "c2": "1 1 6 7", "c3": "S S 7 7"}
    form = {**cards, "b_grande": "A2", "e_grande": "quiero", "w_grande": "A"}
    answer = client.post(url(table, "tables:hand"), {**form, "act": "check"},
                         headers={"HX-Request": "true"})
    shown = text(answer)
    assert "Queda 41–0" in shown, shown
    assert "+2 querido, 41: ganan el juego." in shown
    scored = client.post("/api/v1/score", {
        "score": {"A": 39, "B": 0}, "hands": SEED,
        "lances": {"grande": {"bets": [{"side": "A", "n": 2}], "end": "quiero"}},
    }, content_type="application/json")
    assert json.loads(scored.content)["score"] == {"A": 41, "B": 0}


def test_a_tap_is_undone_redone_and_audited_like_a_hand(client: Client) -> None:
    table = make_table()
    tap(client, table, "A", 5)
    asked = text(client.get(url(table, "tables:undo")))
    assert "¿Deshacer la anotación 1 (piedras a mano)?" in asked
    client.post(url(table, "tables:undo"))
    assert score(table) == {"A": 0, "B": 0}
    assert client.post(url(table, "tables:redo")).status_code == 302
    assert score(table) == {"A": 5, "B": 0}
    history = client.get(url(table, "tables:edit_history")).content.decode()
    words = re.findall(r"data-change-words>(.*?)</p>", history, re.S)
    assert [w.strip() for w in words] == ["piedras a mano: Ana y Carla +5"] * 3
    assert "anotación 1 rehecha" in history and "anotación 1 (piedras a mano)" in history
    # Not a hand to correct or recount: no such links, and the hand page refuses it.
    assert url(table, "tables:edit_hand", 1) not in history
    assert client.get(url(table, "tables:edit_hand", 1)).status_code == 404
    assert list(Change.objects.values_list("action", flat=True)) == ["add", "undo", "redo"]


def test_a_double_tap_is_one_entry_and_a_tap_on_a_stale_board_is_refused(client: Client) -> None:
    table = make_table()
    revision = Table.objects.get(pk=table.pk).revision
    assert tap(client, table, "A", 1, revision).status_code == 302
    assert tap(client, table, "A", 1, revision).status_code == 302  # the same tap again
    assert Hand.objects.count() == 1
    refused = tap(client, table, "B", 5, revision)  # aimed at the board before the +1
    assert refused.status_code == 409
    assert "La mesa cambió desde otro móvil" in text(refused)
    assert Hand.objects.count() == 1


@pytest.mark.parametrize(("side", "n"), [("C", 1), ("A", 0), ("A", "x"), ("A", 101), ("", 5)])
def test_a_bad_tap_is_a_clear_refusal_and_stores_nothing(client: Client, side: str,
                                                         n: Any) -> None:
    table = make_table()
    response = tap(client, table, side, n)
    assert response.status_code == 409
    assert "piedras" in text(response).lower()
    assert not Hand.objects.exists()


def test_view_link_cannot_tap(client: Client) -> None:
    table = make_table()
    wrong = reverse("tables:piedras", args=[table.id, "not-the-key"])
    assert client.post(wrong, {"side": "A", "n": "1"}).status_code == 403
    assert client.get(url(table, "tables:piedras")).status_code == 405
    html = client.get(reverse("tables:board", args=[table.id])).content.decode()
    assert "data-piedras-side" not in html
    assert 'data-piedras-side="A"' in client.get(url(table)).content.decode()


def post_api(client: Client, table: Table, body: Any, **headers: str) -> Any:
    return client.post(f"/api/v1/tables/{table.id}/piedras", json.dumps(body),
                       content_type="application/json",
                       headers={"X-Table-Key": table.edit_key, **headers})


def test_the_api_takes_taps_with_retries_and_revisions(client: Client) -> None:
    table = make_table()
    first = post_api(client, table, {"side": "B", "n": 5}, **{"Idempotency-Key": "t1"})
    assert first.status_code == 201 and first.json()["current"]["score"] == {"A": 0, "B": 5}
    again = post_api(client, table, {"side": "B", "n": 5}, **{"Idempotency-Key": "t1"})
    assert again.status_code == 201 and Hand.objects.count() == 1
    stale = post_api(client, table, {"side": "A", "n": 1, "revision": 1})
    assert stale.status_code == 409 and "revision" in stale.json()
    bad = post_api(client, table, {"side": "A", "n": 0})
    assert bad.status_code == 400 and "error" in bad.json()
    unknown = post_api(client, table, {"side": "A", "n": 1, "lances": {}})
    assert unknown.status_code == 400
    mixed = client.post(f"/api/v1/tables/{table.id}/hands", json.dumps({"hands": SEED}),
                        content_type="application/json",
                        headers={"X-Table-Key": table.edit_key})
    assert mixed.status_code == 201
    assert mixed.json()["current"]["score"] == {"A": 2, "B": 13}
    assert client.delete(f"/api/v1/tables/{table.id}/hands/last",
                         headers={"X-Table-Key": table.edit_key}).json()["current"]["score"] == {
        "A": 0, "B": 5}
