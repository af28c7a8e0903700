"""History that survives (issue #4.5) through the pages: the audit of every change with
its time, link, before and after; export from the page and import back to an identical
table; bad JSON is refused with a clear message and nothing saved."""

from __future__ import annotations

import html
import json
import re
from datetime import datetime
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from muscore.tables import services
from muscore.tables.models import Change, Hand, Table

pytestmark = pytest.mark.django_db

CARDS = {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"}
RECORD = {"hands": CARDS}
EDITED = {**RECORD, "lances": {"grande": {"bets": [{"side": "B", "n": 5}], "end": "quiero"}}}


def make_played_table() -> Table:
    table = services.create_table(players=["Ana", "Bruno", "Carla", "Diego"], rules={"target": 30})
    services.add_hand(table, RECORD, via="edit_link")
    services.add_hand(table, RECORD, via="api")
    services.replace_hand(table, 1, EDITED, via="api")
    services.undo_last(table, via="edit_link")
    return table


def history(client: Client, table: Table, editable: bool = False) -> str:
    if editable:
        url = reverse("tables:edit_history", args=[table.id, table.edit_key])
    else:
        url = reverse("tables:board", args=[table.id]) + "historial"
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def changes_in(page: str) -> list[str]:
    return re.findall(r'<li class="change"[^>]*>.*?</li>', page, re.S)


def pre_json(block: str, which: str) -> Any:
    found = re.search(
        rf'data-record="{which}"><figcaption>[^<]*</figcaption>(?:(?!</figure>).)*?'
        r"<pre[^>]*>(.*?)</pre>",
        block,
        re.S,
    )
    return json.loads(html.unescape(found.group(1))) if found else None


@pytest.mark.parametrize("editable", [False, True])
def test_every_change_shows_time_link_and_the_records_before_and_after(
    client: Client, editable: bool
) -> None:
    table = make_played_table()
    items = changes_in(history(client, table, editable))
    audit = list(Change.objects.filter(table=table).order_by("-at", "-id"))
    assert len(items) == len(audit) == 4
    for item, change in zip(items, audit, strict=True):
        shown_at = re.search(r'<time datetime="([^"]+)"', item).group(1)
        assert datetime.fromisoformat(shown_at) == change.at
        link = "API" if change.via == "api" else "enlace de edición"
        assert link in item
        assert pre_json(item, "before") == change.before
        assert pre_json(item, "after") == change.after
    undo, edit = items[0], items[1]
    assert "mano 2 deshecha" in undo and pre_json(undo, "after") is None
    assert "mano 1 corregida" in edit
    assert pre_json(edit, "before") == RECORD and pre_json(edit, "after") == EDITED


def test_the_history_links_to_the_export(client: Client) -> None:
    table = make_played_table()
    page = history(client, table)
    export = reverse("api:table_export", args=[table.id])
    assert f'href="{export}"' in page


def export_of(client: Client, table: Table) -> bytes:
    response = client.get(reverse("api:table_export", args=[table.id]))
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    return response.content


def same_table(a: Table, b: Table) -> None:
    sa, sb = services.table_state(a), services.table_state(b)
    for key in ("players", "rules", "current", "finished"):
        assert sa[key] == sb[key], key
    assert a.first_mano == b.first_mano
    records = lambda t: list(Hand.objects.filter(table=t).values_list("number", "record"))  # noqa: E731
    assert records(a) == records(b)


def test_an_exported_file_imports_back_to_an_identical_table(client: Client) -> None:
    table = make_played_table()
    upload = SimpleUploadedFile("mesa.json", export_of(client, table), "application/json")
    response = client.post(reverse("tables:import"), {"file": upload})
    assert response.status_code == 302
    copy = Table.objects.exclude(pk=table.pk).get()
    assert response.url == reverse("tables:edit_board", args=[copy.id, copy.edit_key])
    assert copy.edit_key != table.edit_key
    same_table(table, copy)
    assert Change.objects.filter(table=copy, action="import").count() == 1


def test_pasted_json_imports_too(client: Client) -> None:
    table = make_played_table()
    response = client.post(reverse("tables:import"), {"text": export_of(client, table).decode()})
    assert response.status_code == 302
    same_table(table, Table.objects.exclude(pk=table.pk).get())


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"rules": {"target": 40}, "hands": [', "No es JSON válido (línea 1, columna"),
        ("[1, 2, 3]", "es un objeto JSON"),
        ("", "Falta la mesa"),
        (
            '{"format": "muscore-table", "version": 1, "hands": "no"}',
            "Hands debe ser una lista de manos",
        ),
        ('{"hands": [{"hands": {"0": "R R R R R"}}]}', "Mano 1: El asiento 0 tiene 5 cartas"),
        ('{"shoe": 1}', "Campo desconocido 'shoe' en la mesa exportada"),
    ],
)
def test_bad_input_is_refused_clearly_and_nothing_is_saved(
    client: Client, text: str, message: str
) -> None:
    before = (Table.objects.count(), Hand.objects.count(), Change.objects.count())
    response = client.post(reverse("tables:import"), {"text": text})
    assert response.status_code == 400
    page = html.unescape(response.content.decode())
    assert message in page
    assert "No se ha guardado nada." in page
    assert (Table.objects.count(), Hand.objects.count(), Change.objects.count()) == before


def test_a_file_that_is_not_utf8_is_refused(client: Client) -> None:
    upload = SimpleUploadedFile("mesa.json", b"\xff\xfe\x00garbage", "application/json")
    response = client.post(reverse("tables:import"), {"file": upload})
    assert response.status_code == 400
    assert "no es texto UTF-8" in response.content.decode()
    assert not Table.objects.exists()


def test_the_import_page_is_reachable_from_the_setup_page(client: Client) -> None:
    assert (
        f'href="{reverse("tables:import")}"' in client.get(reverse("tables:new")).content.decode()
    )
    page = client.get(reverse("tables:import"))
    assert page.status_code == 200
    assert 'enctype="multipart/form-data"' in page.content.decode()


def test_a_refused_import_speaks_the_pages_language(client: Client) -> None:
    client.cookies["django_language"] = "en"
    response = client.post(reverse("tables:import"), {"text": '{"shoe": 1}'})
    assert response.status_code == 400
    page = html.unescape(response.content.decode())
    assert "Unknown key 'shoe' in the exported table" in page
    assert "Nothing was saved." in page
