"""The group-chat card (issue 12 item 5) from a phone: the round page's share button
fetches the card's PNG and text from the server; without a share sheet that takes files
(headless Chromium has none) it downloads the PNG and shows the text to paste."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from muscore.leagues import results
from muscore.leagues.models import Match
from tests.clubs.factory import make_club, make_league

pytestmark = pytest.mark.django_db(transaction=True)

PNG = b"\x89PNG\r\n\x1a\n"


def test_the_share_button_gives_the_rounds_png_and_its_results_text(
    phone: Page, assert_page_ok: Callable[..., None]
) -> None:
    club = make_club()
    competition = make_league(club, 4, results=0)
    organiser = club.memberships.get().user
    one = Match.objects.select_related("first__pair", "second__pair").get(
        competition=competition, number=1)
    results.record_result(one, by=organiser, juegos=[3, 1])
    assert one.first is not None and one.second is not None
    first, second = one.first.pair.name, one.second.pair.name
    url = f"/club/{club.slug}/liga/{competition.pk}/jornada/1/"
    assert_page_ok(phone, url, screenshot="card-round-page")

    button = phone.get_by_role("button", name="Compartir la tarjeta")
    with phone.expect_response(lambda r: r.url.endswith("/tarjeta.png")) as answer, \
            phone.expect_download() as download:
        button.click()
    response = answer.value
    assert response.status == 200
    assert response.headers["content-type"] == "image/png"
    # The same image fetched through the page: a PNG, with its signature.
    png_url = phone.locator("[data-share-card]").get_attribute("data-png")
    kind, head = phone.evaluate(
        """async (url) => {
            const r = await fetch(url);
            const bytes = new Uint8Array(await r.arrayBuffer());
            return [r.headers.get("Content-Type"), Array.from(bytes.slice(0, 8))];
        }""",
        png_url,
    )
    assert kind == "image/png" and bytes(head) == PNG
    saved = Path(download.value.path())
    assert saved.read_bytes().startswith(PNG)
    assert download.value.suggested_filename == "jornada.png"
    # The text to paste in the group: the round's result and the top of the standings.
    text = phone.locator("[data-share-text]")
    expect(text).to_be_visible()
    value = text.input_value()
    assert f"Mesa 1: {first} 3–1 {second}" in value
    assert f"1. {first} (2 puntos)" in value
    assert f"/club/{club.slug}/liga/{competition.pk}/" in value
    assert "/t/" not in value and "/resultado/" not in value
    expect(phone.locator("[data-share-status]")).to_contain_text("Imagen descargada")


def test_the_competition_pages_night_card_downloads_once_per_tap(phone: Page) -> None:
    club = make_club()
    competition = make_league(club, 4, results=1)
    url = f"/club/{club.slug}/liga/{competition.pk}/"
    phone.goto(url)
    # The page has two cards (the next round's and the latest night's): one tap, one card.
    expect(phone.locator("[data-share-card]")).to_have_count(2)
    downloads: list[str] = []
    phone.on("download", lambda d: downloads.append(d.suggested_filename))
    night = phone.locator("#noche [data-share-card]")
    with phone.expect_download() as download:
        night.get_by_role("button", name="Compartir la tarjeta").click()
    assert Path(download.value.path()).read_bytes().startswith(PNG)
    expect(night.locator("[data-share-text]")).to_be_visible()
    assert "La noche del" in night.locator("[data-share-text]").input_value()
    phone.wait_for_timeout(500)
    assert downloads == ["noche.png"]
