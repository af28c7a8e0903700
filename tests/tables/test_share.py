"""Share links: QR codes of the view and edit links, and the view link never writes (issue #4.1)."""

from __future__ import annotations

import re
from typing import Any

import pytest
import segno
from django.test import Client
from django.urls import reverse

from muscore.tables import services
from muscore.tables.models import Change, Hand, Table, new_edit_key, new_table_id
from muscore.tables.share import qr_svg

pytestmark = pytest.mark.django_db

CARDS = {"c0": "R R 5 4", "c1": "R C C 5", "c2": "1 1 6 7", "c3": "S S 7 7"}


def make_table() -> Table:
    return services.create_table(players=["Ana", "Bruno", "Carla", "Diego"])


def make_table_with_a_hand() -> Table:
    table = make_table()
    services.add_hand(
        table,
        {"hands": {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"}},
        via="api",
    )
    return table


def svgs(html: str) -> dict[str, str]:
    """The inline QR of each share figure, by what it shares."""
    found = re.findall(r'data-share="(\w+)">\s*(<svg.*?</svg>)', html, re.S)
    return dict(found)


def qr_modules(svg: str) -> int:
    return int(re.search(r'viewBox="0 0 (\d+) ', svg).group(1))


def snapshot(table: Table) -> Any:
    table.refresh_from_db()
    return (
        table.revision,
        list(Hand.objects.filter(table=table).values_list("record", flat=True)),
        Change.objects.filter(table=table).count(),
    )


# --- QR codes ---------------------------------------------------------------------------------


def test_edit_board_shows_both_links_as_inline_qr_codes(client: Client) -> None:
    table = make_table()
    html = client.get(
        reverse("tables:edit_board", args=[table.id, table.edit_key])
    ).content.decode()
    codes = svgs(html)
    assert set(codes) == {"view", "edit"}
    view_url = f"http://testserver/t/{table.id}/"
    edit_url = f"http://testserver/t/{table.id}/k/{table.edit_key}/"
    # Each QR is exactly segno's drawing of that absolute link, so a scan opens it.
    assert codes["view"] == str(qr_svg(view_url, "Enlace para mirar"))
    assert codes["edit"] == str(qr_svg(edit_url, "Enlace para anotar"))
    assert codes["view"] != codes["edit"]
    # With the quiet zone of 4 modules the QR standard asks for.
    assert qr_modules(codes["edit"]) == segno.make(edit_url, error="m").symbol_size(border=4)[0]
    assert edit_url in html and view_url in html


def test_view_board_shares_only_the_view_link(client: Client) -> None:
    table = make_table()
    html = client.get(reverse("tables:board", args=[table.id])).content.decode()
    assert set(svgs(html)) == {"view"}
    assert table.edit_key not in html


def test_qr_svg_has_no_style_or_script_the_csp_would_block() -> None:
    svg = str(qr_svg("http://localhost/t/abc/k/def/", "<b>Ana & Bruno</b>"))
    assert svg.startswith("<svg") and "viewBox" in svg
    assert "style" not in svg and "<script" not in svg and "xlink:href" not in svg
    assert "<b>" not in svg  # the title is escaped


def test_share_panel_is_open_on_a_new_table_and_folded_once_play_started(client: Client) -> None:
    fresh = make_table()
    html = client.get(reverse("tables:edit_board", args=[fresh.id, fresh.edit_key])).content
    assert b'class="share" open>' in html
    played = make_table_with_a_hand()
    html = client.get(reverse("tables:edit_board", args=[played.id, played.edit_key])).content
    assert b'class="share">' in html


# --- the view link never writes -----------------------------------------------------------------


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_every_write_to_a_view_url_is_403_and_changes_nothing(client: Client, method: str) -> None:
    table = make_table_with_a_hand()
    before = snapshot(table)
    for name in ("tables:board", "tables:history"):
        response = getattr(client, method)(reverse(name, args=[table.id]), {"act": "save", **CARDS})
        assert response.status_code == 403, (name, method)
    assert snapshot(table) == before


def test_writes_under_a_wrong_key_are_403_and_change_nothing(client: Client) -> None:
    table = make_table_with_a_hand()
    before = snapshot(table)
    wrong = ("A" if table.edit_key[0] != "A" else "B") + table.edit_key[1:]
    for name, args in (
        ("tables:hand", []),
        ("tables:edit_hand", [1]),
        ("tables:undo", []),
        ("tables:edit_board", []),
        ("tables:edit_history", []),
    ):
        url = reverse(name, args=[table.id, wrong, *args])
        response = client.post(url, {"act": "save", "revision": str(table.revision), **CARDS})
        assert response.status_code == 403, name
        assert "solo sirve para mirar" in response.content.decode()
    assert snapshot(table) == before


def test_opening_an_edit_link_with_a_wrong_key_says_nothing_about_the_table(client: Client) -> None:
    table = make_table()
    assert client.get(reverse("tables:edit_board", args=[table.id, "nope"])).status_code == 404
    assert client.get(reverse("tables:hand", args=[table.id, "nope"])).status_code == 404


def test_a_forged_post_without_the_csrf_token_is_403_even_with_the_right_key() -> None:
    table = make_table()
    forger = Client(enforce_csrf_checks=True)
    response = forger.post(
        reverse("tables:hand", args=[table.id, table.edit_key]), {"act": "save", **CARDS}
    )
    assert response.status_code == 403
    assert "No se guardó nada" in response.content.decode()
    assert not Hand.objects.exists()


def test_a_post_with_the_right_key_still_needs_a_method_the_page_takes(client: Client) -> None:
    table = make_table()
    url = reverse("tables:edit_board", args=[table.id, table.edit_key])
    assert client.post(url).status_code == 405


# --- nothing to guess, nothing to list ----------------------------------------------------------


def test_ids_and_keys_are_long_random_tokens() -> None:
    ids = {new_table_id() for _ in range(500)}
    keys = {new_edit_key() for _ in range(500)}
    assert len(ids) == 500 and len(keys) == 500
    # token_urlsafe: 6 bits a character; the edit key carries at least 128 bits.
    assert min(len(k) for k in keys) * 6 >= 128
    assert min(len(i) for i in ids) * 6 >= 96
    assert all(re.fullmatch(r"[A-Za-z0-9_-]+", token) for token in ids | keys)


@pytest.mark.parametrize("url", ["/t/", "/t", "/t/k/", "/tables/", "/mesas/", "/api/v1/tables/"])
def test_there_is_no_page_listing_tables(client: Client, url: str) -> None:
    make_table()
    response = client.get(url)
    assert response.status_code in (404, 405)
    assert Table.objects.get().id not in response.content.decode()


def test_the_api_collection_does_not_list_tables(client: Client) -> None:
    table = make_table()
    response = client.get("/api/v1/tables")
    assert response.status_code == 405
    assert table.id not in response.content.decode()


def test_the_403_page_speaks_english_to_an_english_phone(client: Client) -> None:
    table = make_table()
    client.cookies["django_language"] = "en"
    response = client.post(reverse("tables:board", args=[table.id]))
    assert response.status_code == 403
    assert "This link is only for watching: it changes nothing." in response.content.decode()


def test_a_polls_live_part_draws_no_qr_code(client: Client,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    # The live part shows no share figure: its QR codes (milliseconds each, once per
    # table and worker) are drawn only when the page shows them.
    table = make_table_with_a_hand()

    def refuse(*args: Any) -> str:
        raise AssertionError("a poll drew a QR code")

    monkeypatch.setattr("muscore.tables.share.qr_svg", refuse)
    for url in (f"/t/{table.id}/k/{table.edit_key}/?live=1", f"/t/{table.id}/?live=1"):
        assert client.get(url, headers={"HX-Request": "true"}).status_code == 200
    with pytest.raises(AssertionError, match="drew a QR"):
        client.get(f"/t/{table.id}/")
