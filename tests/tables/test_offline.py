"""Installable and offline (issue #4.4) at the view level: the manifest, its icons, the
service worker at the root, and a CSP that lets them in. The offline behaviour itself
(a board opened without signal, a hand queued and synced) is in tests/browser/test_live.py."""

from __future__ import annotations

import html
import json
import re
import struct
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from muscore.tables import offline, services
from muscore.tables.models import Table

pytestmark = pytest.mark.django_db

ROOT = Path(settings.BASE_DIR)


def make_table() -> Table:
    return services.create_table(players=["Ana", "Bruno", "Carla", "Diego"])


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_service_worker_is_served_from_the_root_with_the_whole_site_as_scope(
    client: Client,
) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    body = response.content.decode()
    assert 'addEventListener("fetch"' in body
    # It precaches exactly the files a board needs, each of which is really served.
    precache = json.loads(re.search(r"var PRECACHE = (\[.*?\]);", body).group(1))
    assert precache == json.loads(offline.precache_json())
    for url in precache:
        assert client.get(url).status_code == 200, url


def test_csp_lets_the_worker_and_the_manifest_in_and_nothing_from_outside(client: Client) -> None:
    table = make_table()
    policy = client.get(reverse("tables:board", args=[table.id]))["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["worker-src"] == "'self'"
    assert directives["manifest-src"] == "'self'"
    assert directives["script-src"] == "'self'"
    assert "http" not in policy


def test_pages_have_no_inline_script(client: Client) -> None:
    table = make_table()
    for url in (
        "/",
        reverse("tables:board", args=[table.id]),
        reverse("tables:edit_board", args=[table.id, table.edit_key]),
        reverse("tables:hand", args=[table.id, table.edit_key]),
    ):
        html = client.get(url).content.decode()
        scripts = re.findall(r"<script\b([^>]*)>(.*?)</script>", html, re.S)
        assert scripts and all("src=" in attrs and not body.strip() for attrs, body in scripts), url


def test_the_site_manifest_opens_the_home_page(client: Client) -> None:
    response = client.get("/manifest.webmanifest")
    assert response["Content-Type"] == "application/manifest+json"
    data = json.loads(response.content)
    assert data["start_url"] == "/" and data["scope"] == "/"
    assert data["display"] == "standalone"
    assert 'rel="manifest" href="/manifest.webmanifest"' in client.get("/").content.decode()


@pytest.mark.parametrize("editable", [False, True])
def test_a_board_installs_as_itself(client: Client, editable: bool) -> None:
    table = make_table()
    if editable:
        board = reverse("tables:edit_board", args=[table.id, table.edit_key])
        url = reverse("tables:edit_manifest", args=[table.id, table.edit_key])
    else:
        board = reverse("tables:board", args=[table.id])
        url = reverse("tables:view_manifest", args=[table.id])
    assert f'rel="manifest" href="{url}"' in client.get(board).content.decode()
    data = json.loads(client.get(url).content)
    assert data["start_url"] == board and data["id"] == board
    assert data["name"] == "muscore · Ana y Carla – Bruno y Diego"


def test_a_board_manifest_needs_the_right_key(client: Client) -> None:
    table = make_table()
    assert client.get(reverse("tables:edit_manifest", args=[table.id, "nope"])).status_code == 404
    assert client.get("/t/nosuchtable/manifest.webmanifest").status_code == 404


def test_manifest_icons_are_served_and_have_their_declared_sizes(client: Client) -> None:
    icons = json.loads(client.get("/manifest.webmanifest").content)["icons"]
    sizes = {icon["sizes"] for icon in icons if icon["type"] == "image/png"}
    assert {"192x192", "512x512"} <= sizes
    assert any(icon.get("purpose") == "maskable" for icon in icons)
    for icon in icons:
        response = client.get(icon["src"])
        assert response.status_code == 200, icon["src"]
        data = b"".join(response.streaming_content) if response.streaming else response.content
        if icon["type"] == "image/png":
            width, height = png_size(data)
            assert f"{width}x{height}" == icon["sizes"], icon["src"]
        else:
            assert data.startswith(b"<svg")


def test_the_icons_are_committed_files_not_downloads() -> None:
    for name in ("muscore-192.png", "muscore-512.png", "muscore-512-maskable.png"):
        assert (ROOT / "static" / "icons" / name).stat().st_size > 1000


def test_the_connection_messages_are_on_every_page_in_the_pages_language(client: Client) -> None:
    html = client.get("/").content.decode()
    # Each page says what it is without signal: only the board speaks of "el marcador"
    # (issue 38.8: the calculator and the lector did too).
    assert "Sin conexión: esta página es la última copia que guardó este móvil." in html
    for path in ("/calculadora/", "/lector/"):
        bar = re.search(r"<p class=\"offline\"[^>]*>([^<]*)</p>", client.get(path).content.decode())
        assert bar is not None and "marcador" not in bar.group(1), path
    table = make_table()
    board = client.get(reverse("tables:edit_board", args=[table.id, table.edit_key]))
    said = "Sin conexión: el marcador muestra lo último que vio este móvil."
    assert said in board.content.decode()
    assert 'data-msg-synced="Mano {n} sincronizada."' in html
    client.cookies["django_language"] = "en"
    html = client.get("/").content.decode()
    assert 'data-msg-synced="Hand {n} synced."' in html


def test_only_a_new_hand_is_queued_offline_never_a_correction(client: Client) -> None:
    table = make_table()
    services.add_hand(
        table,
        {"hands": {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"}},
        via="api",
    )
    new = client.get(reverse("tables:hand", args=[table.id, table.edit_key])).content.decode()
    edit = client.get(reverse("tables:edit_hand", args=[table.id, table.edit_key, 1]))
    assert "data-queue-offline" in new
    assert "data-queue-offline" not in edit.content.decode()


# --- the next hand, carried by the edit board for the hand page kept on a phone (38.4) ----


def next_hand_of(client: Client, board: str) -> dict[str, object]:
    live = client.get(board + "?live=1", HTTP_HX_REQUEST="true").content.decode()
    found = re.search(r'<div id="board-live"[^>]*data-next-hand="([^"]*)"', live)
    assert found, "the edit board's live part carries no next hand"
    return dict(json.loads(html.unescape(found.group(1))))


def hand_page_says(client: Client, hand: str) -> dict[str, object]:
    """What the hand page the server draws now says of the hand: what the kept copy of an
    older one must be made to say (static/js/muscore.js, catchUp)."""
    page = client.get(hand).content.decode()
    form = re.search(r'<form id="entry"[^>]*>', page, re.S).group(0)  # type: ignore[union-attr]
    seats = re.findall(r'data-picker-seat="(\d+)"', page)
    labels = dict(re.findall(r'id="id_c(\d+)" name="c\d+"[^>]*?aria-label="([^"]*)"', page, re.S))
    before = re.search(r"<p[^>]*data-entry-before>(.*?)</p>", page, re.S).group(1)  # type: ignore[union-attr]
    return {
        "revision": int(re.search(r'data-drawn-revision="(\d+)"', form).group(1)),  # type: ignore[union-attr]
        "number": int(re.search(r'name="number" value="(\d+)"', page).group(1)),  # type: ignore[union-attr]
        "dealt": int(re.search(r'data-dealt="(\d+)"', form).group(1)),  # type: ignore[union-attr]
        "mano": int(seats[0]),
        "before": " ".join(html.unescape(before).split()),
        "fields": {seat: html.unescape(label) for seat, label in labels.items()},
    }


@pytest.mark.parametrize("language", ["", "/eu"])
def test_the_next_hand_the_edit_board_carries_is_the_hand_page_drawn_now(
    client: Client, language: str
) -> None:
    """After hands, piedras tapped by hand (an entry, not a hand dealt), a vaca won and in
    individual play: what the board's live part says of the next hand is what its hand
    page says, number, mano, seats in order, score before, in the page's language."""
    from tests.tables.factory import make_deje_record, make_record

    pairs = make_table()
    alone = services.create_table(players=["Ana", "Bruno", "Carla"], rules={"individual": True})
    steps = [
        (pairs, lambda: services.add_hand(pairs, make_deje_record("A"), via="api")),
        (pairs, lambda: services.add_piedras(pairs, "B", 7, via="api")),
        (pairs, lambda: services.add_hand(pairs, make_record(), via="api")),
        # B wins a juego, then the second and the vaca (of two): a new vaca starts.
        (pairs, lambda: services.add_piedras(pairs, "B", 40, via="api")),
        (pairs, lambda: services.add_piedras(pairs, "B", 40, via="api")),
        (pairs, lambda: services.add_hand(pairs, make_deje_record("B"), via="api")),
        (alone, lambda: services.add_piedras(alone, "C", 3, via="api")),
    ]
    for table, step in [(pairs, None), (alone, None), *steps]:
        if step is not None:
            step()
        board = f"{language}/t/{table.id}/k/{table.edit_key}/"
        carried = next_hand_of(client, board)
        assert carried == hand_page_says(client, board + "mano")
        assert carried["revision"] == Table.objects.get(pk=table.pk).revision
    assert len(services.board_state(pairs)["finished"]) == 1
    # The view link carries none: nothing is entered from it.
    view = client.get(f"/t/{pairs.id}/?live=1", HTTP_HX_REQUEST="true").content.decode()
    assert "data-next-hand" not in view
