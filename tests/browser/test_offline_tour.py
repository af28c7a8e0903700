"""The offline tour (issue 38.8): every kind of page a phone opens (a table's, the site's,
a club league's, a championship's; some at another language's address, issue 39) is
opened once with the service worker, then the signal goes and each is opened again: the
phone's own copy, not the "Sin conexión" page.
The bar says "el marcador" on the board alone, and shows one note at a time."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from muscore.tables import services
from tests.browser.conftest import WITH_SERVICE_WORKER
from tests.browser.test_axe_pages import championship_pages, club_pages
from tests.browser.test_live import wait_for_service_worker

pytestmark = pytest.mark.django_db(transaction=True)

CARDS = {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"}


def every_page_kind() -> dict[str, str]:
    table = services.create_table(players=["Ana", "Bruno", "Carla", "Diego"])
    services.add_hand(table, {"hands": CARDS}, via="api")
    edit = f"/t/{table.id}/k/{table.edit_key}/"
    pages = {
        "home": "/", "new table": "/nueva", "calculator": "/calculadora/", "lector": "/lector/",
        "rules": "/reglas/",
        "view board": f"/t/{table.id}/", "view history": f"/t/{table.id}/historial",
        "edit board": edit, "edit history": edit + "historial", "hand": edit + "mano",
    }
    clubs = club_pages()
    del clubs["import"]  # a form to send, not a page to read
    standings = clubs["standings"]
    pages.update(clubs)
    pages.update({
        "round": standings + "jornada/1/",
        "pair": standings + "pareja/0/",
        "match": standings + "partida/1/",
    })
    championships = championship_pages()
    del championships["entry-form"]
    pages.update(championships)
    pk = championships["championship"].strip("/").split("/")[-1]
    pages["championship player"] = (
        reverse("championships:player", args=[int(pk)]) + "?nombre=Ana")
    # At another language's address too (muscore.addresses: /en/, /eu/, /fr/), kept apart.
    pages.update({
        "rules (eu)": "/eu/reglas/", "edit board (fr)": f"/fr{edit}",
        "hand (en)": f"/en{edit}mano", "standings (en)": f"/en{standings}",
        "championship (fr)": f"/fr{championships['championship']}",
    })
    return pages


def kept(page: Page, paths: list[str]) -> list[str]:
    """The paths of `paths` the worker has not kept yet."""
    script = """async (paths) => {
        const cache = await caches.open("muscore-pages");
        const hits = await Promise.all(paths.map(p => cache.match(location.origin + p)));
        return paths.filter((p, i) => !hits[i]);
    }"""
    return list(page.evaluate(script, paths))


@WITH_SERVICE_WORKER
def test_every_page_a_phone_opened_reopens_without_signal(phone: Page) -> None:
    pages = every_page_kind()
    page = phone
    page.goto("/")
    wait_for_service_worker(page)
    headings: dict[str, str] = {}
    for name, path in pages.items():
        answer = page.goto(path)
        assert answer is not None and answer.status == 200, (name, path)
        headings[name] = page.locator("h1").first.inner_text() if page.locator("h1").count() else ""
    deadline = time.monotonic() + 15
    while (missing := kept(page, list(pages.values()))) and time.monotonic() < deadline:
        page.wait_for_timeout(200)
    assert not missing, f"never kept for offline use: {missing}"
    page.context.set_offline(True)
    try:
        for name, path in pages.items():
            answer = page.goto(path)
            assert answer is not None and answer.status == 200, (name, path)
            assert page.locator("[data-offline-page]").count() == 0, (name, path)
            if headings[name]:
                expect(page.locator("h1").first).to_have_text(headings[name])
            offline = page.locator("[data-offline]")
            if offline.count():
                expect(offline).to_be_visible()
                said = offline.inner_text()
                # Only the board speaks of "el marcador" (issue 38.8).
                assert ("el marcador" in said) == name.endswith("board"), (name, said)
                # One note at a time.
                shown = page.locator("[data-connection] p:visible, [data-connection] div:visible")
                assert shown.count() == 1, (name, shown.all_inner_texts())
    finally:
        page.context.set_offline(False)


@WITH_SERVICE_WORKER
def test_the_pages_kept_are_pruned_oldest_first(phone: Page, live_server: Any) -> None:
    """The worker keeps at most MAX_PAGES pages (the boards of 90 tables opened, here):
    the ones opened longest ago go first; the start pages kept at install stay."""
    page = phone
    page.goto("/")
    wait_for_service_worker(page)
    tables = [services.create_table(players=["Ana", "Bruno", "Carla", "Diego"])
              for _ in range(90)]
    for table in tables:
        page.goto(f"/t/{table.id}/")
    first, last = f"/t/{tables[0].id}/", f"/t/{tables[-1].id}/"
    deadline = time.monotonic() + 15
    while kept(page, [last]) and time.monotonic() < deadline:
        page.wait_for_timeout(200)
    boards = page.evaluate("""async () => (await (await caches.open("muscore-pages")).keys())
        .map(r => new URL(r.url).pathname).filter(p => p.startsWith("/t/")).length""")
    assert kept(page, [last]) == [] and kept(page, [first]) == [first]
    assert kept(page, ["/"]) == []  # kept at install: never pruned
    assert boards <= 80, boards  # MAX_PAGES: the start pages and the language stay besides
