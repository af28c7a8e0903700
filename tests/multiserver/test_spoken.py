"""The count read aloud across servers (issue 38.1): a hand saved on one server is heard
on a phone of another as the server that saved it would say it, word for word, in the
same order, with the same totals, and as its screen shows it.

The spoken count is drawn into the board (each line a [data-cantar-line]) by whichever
server draws the phone's fragment: here the save goes through gunicorn A and the phones
hold their streams on uvicorn A and uvicorn B, whose fragment is drawn by B from the
shared PostgreSQL (and Redis cache) after the event. tests/browser/test_cantar.py holds
the same lines in every language on one server.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.test_cantar import CARDS, GRANDE_DEJE, STUB, shown, spoken
from tests.multiserver.conftest import Cluster
from tests.multiserver.test_push import open_phone
from tests.multiserver.test_two_servers import call

pytestmark = [pytest.mark.multiserver, pytest.mark.browser, pytest.mark.xdist_group("multiserver")]

# The table: Bruno y Diego at 30; a deje at grande, a chica envido querido, and
# the juego won in the count.
HAND = {"hands": CARDS, "lances": {
    "grande": GRANDE_DEJE, "chica": {"bets": [{"side": "B", "n": 2}], "end": "quiero"}}}
SAID_ES = [
    "Grande: deje, Bruno y Diego +2, 32.",
    "Chica: Ana y Carla +2 querido, 2.",
    "Pares: Bruno y Diego +4, 36.",
    "Juego: Bruno y Diego +4 (solo ellos tienen), 40: ganan el juego.",
    "Queda 2–40.",
]


def heard(page: Page) -> list[list[str]]:
    button = page.locator(".last-hand [data-cantar]")
    expect(button).to_be_visible()
    button.click()
    return [list(line) for line in spoken(page)]


@pytest.mark.parametrize("language", ["es", "eu"])
def test_a_save_on_one_server_is_heard_the_same_on_a_phone_of_another(
    cluster: Cluster, streams: Cluster, browser: Browser, language: str,
) -> None:
    client = {"X-Forwarded-For": f"198.51.100.{211 + len(language)}"}
    status, _, table = call(cluster.a, "POST", "/api/v1/tables",
                            {"players": ["Ana", "Bruno", "Carla", "Diego"]}, **client)
    assert status == 201, table
    table_id, headers = table["id"], {**client, "X-Table-Key": table["edit_key"]}
    status, _, tap = call(cluster.a, "POST", f"/api/v1/tables/{table_id}/piedras",
                          {"side": "B", "n": 30, "client_id": f"spoken-{language}"}, **headers)
    assert status == 201, tap
    prefix = "" if language == "es" else f"/{language}"
    key = headers["X-Table-Key"]
    phones = {
        "a": open_phone(browser, f"{streams.a.url}{prefix}/t/{table_id}/k/{key}/"),
        "b": open_phone(browser, f"{streams.b.url}{prefix}/t/{table_id}/"),
    }
    for page in phones.values():
        expect(page.locator("html")).to_have_attribute("lang", language)
        page.wait_for_selector("html[data-stream='open']", state="attached")
        # Installed after the page opened: the stub records what is said from now on.
        page.evaluate(STUB)

    status, _, saved = call(cluster.a, "POST", f"/api/v1/tables/{table_id}/hands", HAND, **headers)
    assert status == 201, saved
    for page in phones.values():
        # By the event: the fragment that server drew, not a page loaded again.
        page.wait_for_selector("#board-live[data-revision='3'][data-pushed]", state="attached",
                               timeout=10_000)

    on_a, on_b = heard(phones["a"]), heard(phones["b"])
    assert on_b == on_a
    assert [lang for _text, lang in on_b] == [language] * len(on_b)
    said = [text for text, _lang in on_b]
    assert said == shown(phones["b"]) == shown(phones["a"])
    if language == "es":
        assert said == SAID_ES
    else:
        assert said != SAID_ES and said[-1].endswith("2–40.")
