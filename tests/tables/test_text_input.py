"""Every text that enters is one both databases can store and a page can show (issue 10):
a lone surrogate, a control character or a name of invisible characters gets a clear
400 (the API's JSON error, the form with its message), never a 500, on SQLite and on
PostgreSQL (run with DATABASE_URL); oversize bodies likewise; the 304 of a poll carries
the security headers of a 200."""

from __future__ import annotations

import base64
import importlib
import json
import zlib
from typing import Any

import pytest
from django.apps import apps
from django.test import Client, override_settings
from django.utils import translation

from muscore import permalink, rules
from muscore.messages import rule_message
from muscore.tables import services
from muscore.tables.models import Change, Table
from tests.tables.factory import make_hands, make_record, make_table

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

SURROGATE = "\\ud800"  # as it travels in JSON text: the escape of a lone surrogate
NAMES = ["Ana", "Bruno", "Carla", "Diego"]
SECURITY_HEADERS = (
    "Content-Security-Policy",
    "X-Content-Type-Options",
    "Referrer-Policy",
    "Cross-Origin-Opener-Policy",
    "X-Frame-Options",
)


def post_json(client: Client, url: str, text: str, **headers: str) -> Any:
    return client.post(url, text, content_type="application/json", headers=headers)


def names_json(bad: str) -> str:
    """A create body whose first name is `bad` (JSON text, escapes kept as written)."""
    return '{"players": ["' + bad + '", "Bruno", "Carla", "Diego"]}'


def assert_json_400(response: Any, words: str) -> None:
    assert response.status_code == 400, response.content[:300]
    assert response["Content-Type"] == "application/problem+json"
    assert words in response.json()["error"]


# --- names ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bad", "words"),
    [
        (SURROGATE, "not valid Unicode"),
        ("Ana" + SURROGATE, "not valid Unicode"),
        ("\\udfff", "not valid Unicode"),
        ("\\u0000", "control character"),
        ("An\\na", "control character"),
    ],
)
def test_a_name_with_a_surrogate_or_a_control_character_is_refused_by_the_api(client, bad, words):
    tables = Table.objects.count()
    assert_json_400(post_json(client, "/api/v1/tables", names_json(bad)), words)
    assert Table.objects.count() == tables


@pytest.mark.parametrize(
    ("bad", "words"),
    [
        ("\\u200b", "only invisible characters"),  # zero-width space
        ("\\u200b\\u200c\\u200d\\u2060", "only invisible characters"),
        ("\\u202e", "only invisible characters"),  # right-to-left override
        ("\\u2066\\u2069", "only invisible characters"),  # isolates
        ("\\u3164\\u3164", "only invisible characters"),  # hangul filler draws blank
        ("\\u00a0\\u200b", "only invisible characters"),
        # The rest of the board's line would read backwards:
        ("Ana\\u202e", "reverses the direction"),
    ],
)
def test_a_name_that_shows_nothing_or_turns_the_text_around_is_refused(client, bad, words):
    tables = Table.objects.count()
    assert_json_400(post_json(client, "/api/v1/tables", names_json(bad)), words)
    assert Table.objects.count() == tables


def test_names_in_any_script_and_with_emoji_are_kept():
    names = ["Iñaki", "مريم", "Zoë 👨\u200d👩\u200d👧", "שרה"]
    assert make_table(players=names).players == names


def test_the_set_up_page_answers_an_invisible_name_with_its_form(client):
    response = client.post(
        "/nueva",
        {
            "players": "4",
            "mano": "0",
            "reyes": "8",
            "target": "40",
            "juegos": "2",
            "name_0": "\u200b\u200b",
        },
    )
    assert response.status_code in (200, 400)
    assert not Table.objects.exists()


# --- cards, records, imports --------------------------------------------------------------------


def record_text(card: str) -> str:
    return '{"hands": {"0": "R R 5 ' + card + '", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"}}'


@pytest.mark.parametrize(
    ("card", "words"),
    [(SURROGATE, "not valid Unicode"), ("\\u0000", "control character")],
)
def test_a_card_with_a_surrogate_or_a_nul_is_refused_everywhere_in_the_api(client, card, words):
    table = make_table(players=NAMES)
    url = f"/api/v1/tables/{table.id}/hands"
    assert_json_400(post_json(client, url, record_text(card), X_Table_Key=table.edit_key), words)
    make_hands(table, [make_record()])
    put = client.put(
        f"{url}/1",
        record_text(card),
        content_type="application/json",
        headers={"X-Table-Key": table.edit_key},
    )
    assert_json_400(put, words)
    body = '{"players": ["A", "B", "C", "D"], "hands": [' + record_text(card) + "]}"
    assert_json_400(post_json(client, "/api/v1/tables/import", body), words)
    assert_json_400(post_json(client, "/api/v1/score", record_text(card)), words)
    # A surrogate in a key, not a value, is caught too.
    assert_json_400(
        post_json(client, url, '{"' + card + '": 1}', X_Table_Key=table.edit_key), words
    )
    assert Change.objects.filter(table=table).count() == 1


def test_the_services_refuse_a_surrogate_whatever_calls_them():
    table = make_table()
    with pytest.raises(services.TableError, match="not valid Unicode"):
        services.add_hand(table, {"hands": {"0": "R R 5 \ud800"}}, via="api")
    with pytest.raises(services.TableError, match="not valid Unicode"):
        services.create_table(players=["\ud800", "B", "C", "D"])
    with pytest.raises(services.TableError, match="not valid Unicode"):
        services.create_table(rules={"reyes": "\ud800"})
    with pytest.raises(services.TableError, match="not valid Unicode"):
        services.import_table({"players": ["A", "B", "C", "\ud800"]}, via="api")


def test_the_import_page_answers_a_surrogate_with_its_form_and_saves_nothing(client):
    text = '{"hands": [' + record_text(SURROGATE) + "]}"
    response = client.post("/importar", {"text": text})
    assert response.status_code == 400
    page = response.content.decode()
    assert "Unicode" in page and 'role="alert"' in page
    assert not Table.objects.exists()


def test_a_calculator_permalink_with_a_surrogate_is_a_damaged_link_not_a_500(client):
    def pack(text: str) -> str:
        # What permalink.encode does, with the JSON escape of the surrogate kept as text.
        packed = zlib.compress(text.encode(), 9)
        return base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")

    for card in (SURROGATE, "\\u0000"):
        code = pack(record_text(card))
        with pytest.raises(permalink.PermalinkError):
            permalink.decode(code)
        response = client.get("/calculadora/", {"h": code})
        assert response.status_code == 400
        assert "dañado" in response.content.decode()


# --- headers ------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["caf\u00e9", "a\x01b", "a\x7fb", ""])
def test_an_idempotency_key_that_is_not_printable_ascii_is_a_400(client, key):
    table = make_table()
    url = f"/api/v1/tables/{table.id}/hands"
    response = post_json(
        client,
        url,
        json.dumps(make_record()),
        X_Table_Key=table.edit_key,
        Idempotency_Key=key,
    )
    assert_json_400(response, "Idempotency-Key")


@pytest.mark.parametrize("tag", ['"r1\u00ff"', "\x01\x02", "W/", '"' + "x" * 5000 + '"'])
def test_odd_if_none_match_and_if_match_headers_never_give_a_500(client, tag):
    table = make_table()
    for url in (
        f"/t/{table.id}/",
        f"/t/{table.id}/k/{table.edit_key}/",
        f"/api/v1/tables/{table.id}",
    ):
        assert client.get(url, headers={"If-None-Match": tag}).status_code == 200
    response = client.delete(
        f"/api/v1/tables/{table.id}/hands/last",
        headers={"X-Table-Key": table.edit_key, "If-Match": tag},
    )
    assert response.status_code == 400
    assert "If-Match" in response.json()["error"]


# --- existing tables ----------------------------------------------------------------------------


def every_page(table: Table) -> list[str]:
    key = table.edit_key
    urls = [
        f"/t/{table.id}/",
        f"/t/{table.id}/?live=1",
        f"/t/{table.id}/historial",
        f"/t/{table.id}/k/{key}/",
        f"/t/{table.id}/k/{key}/historial",
        f"/t/{table.id}/k/{key}/mano",
        f"/t/{table.id}/manifest.webmanifest",
        f"/t/{table.id}/k/{key}/manifest.webmanifest",
        f"/api/v1/tables/{table.id}",
        f"/api/v1/tables/{table.id}/export",
    ]
    count = table.hands.count()
    urls += [f"/t/{table.id}/k/{key}/mano/{n}" for n in range(1, count + 1)]
    urls += [f"/api/v1/tables/{table.id}/hands/{n}" for n in range(1, count + 1)]
    return urls


def test_every_page_of_every_existing_table_still_renders(client, settings):
    # Tables as they were before this change: names stored without any check, and no
    # stored vacas (the migration adds them empty; the first read replays the table).
    plain = make_table(players=NAMES)
    make_hands(plain, [make_record()] * 7)
    odd = make_table(players=NAMES)
    make_hands(odd, [make_record()] * 3)
    broken = ["\u200b", "Ana\x07", "\u202eBruno", "Carla"]
    if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        # Only SQLite could store a lone surrogate (PostgreSQL's json refused it).
        broken[3] = "Carla\ud800"
    Table.objects.filter(pk=odd.pk).update(players=broken, replayed_revision=0)
    odd.vacas.all().delete()
    Table.objects.filter(pk=plain.pk).update(replayed_revision=0)
    plain.vacas.all().delete()

    migration = importlib.import_module("muscore.tables.migrations.0004_clean_player_names")
    migration.clean_players(apps, None)

    odd.refresh_from_db()
    assert odd.players[0] == "A1" and odd.players[1] == "Ana\ufffd"
    assert odd.players[2] == "Bruno"
    for table in (plain, odd, make_table()):
        table.refresh_from_db()
        for url in every_page(table):
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)
            if url.startswith("/t/"):
                assert b"\xef\xbf\xbd" not in response.content or table is odd


# --- the rest of issue 10's small points ----------------------------------------------------------


def test_oversize_bodies_get_the_api_error_object_or_the_form_with_its_message(client):
    with override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=10_000):
        big = json.dumps({"players": ["x" * 20_000]})
        response = post_json(client, "/api/v1/tables", big)
        assert response.status_code == 413
        assert "10000 bytes" in response.json()["error"]
        table = make_table()
        response = post_json(
            client, f"/api/v1/tables/{table.id}/hands", big, X_Table_Key=table.edit_key
        )
        assert response.status_code == 413 and "error" in response.json()
        response = client.post("/importar", {"text": "x" * 20_000})
        assert response.status_code == 413
        page = response.content.decode()
        assert 'role="alert"' in page and "<form" in page and "10 kB" in page
    assert Table.objects.count() == 1


def test_a_3_mb_paste_into_the_import_page_gets_the_form_with_its_message(client):
    # Django's own limit (DATA_UPLOAD_MAX_MEMORY_SIZE, 2.5 MB) as production has it.
    response = client.post("/importar", {"text": "[" + "1," * 1_500_000 + "1]"})
    assert response.status_code == 413
    assert 'role="alert"' in response.content.decode()


def test_the_304_of_a_poll_carries_the_security_headers_of_a_200(client):
    table = make_table()
    for url in (f"/t/{table.id}/", f"/t/{table.id}/?live=1", f"/api/v1/tables/{table.id}"):
        full = client.get(url)
        assert full.status_code == 200
        again = client.get(url, headers={"If-None-Match": full["ETag"]})
        assert again.status_code == 304
        for header in SECURITY_HEADERS:
            assert again.get(header) == full.get(header), (url, header)
            assert full.get(header), header


def test_the_spanish_message_of_a_rule_option_is_all_spanish():
    with pytest.raises(rules.RuleError) as caught:
        rules.Rules.from_json({"target": 5})
    with translation.override("es"):
        spanish = rule_message(caught.value)
    assert "un número entero del 10 al 100" in spanish
    assert "whole number" not in spanish


def test_a_repeated_idempotent_request_answers_the_same_bytes(client):
    table = make_table(players=NAMES)
    url = f"/api/v1/tables/{table.id}/hands"
    body = json.dumps(make_record())
    first = post_json(client, url, body, X_Table_Key=table.edit_key, Idempotency_Key="k-1")
    make_hands(table, [make_record()])
    again = post_json(client, url, body, X_Table_Key=table.edit_key, Idempotency_Key="k-1")
    assert first.status_code == 201
    assert again.content == first.content
    assert list(json.loads(again.content)) == [
        "id",
        "players",
        "rules",
        "current",
        "finished",
        "revision",
    ]
