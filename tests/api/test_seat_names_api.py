"""The table API's doors refuse two seats of one name (issue 38.9): POST /api/v1/tables and
POST /api/v1/tables/import answer a problem of code same_names, in the request's language,
and save nothing; as the new table's form compares names (muscore.text.same_people)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from muscore.api import openapi_examples
from muscore.tables.models import Change, Table

from .test_problems import assert_problem

pytestmark = pytest.mark.django_db

HAND = {"hands": dict(openapi_examples.SEED_HANDS)}


def post(client: Client, path: str, body: Any, **headers: str) -> Any:
    return client.post(path, json.dumps(body), content_type="application/json", headers=headers)


@pytest.mark.parametrize("body", [
    {"players": ["Ana", "Bruno", "Carla", "ana."]},
    {"players": ["Ana", "ANA"]},
    {"players": ["Ana", "Bruno", "Carla", "Diego", "Eva", "Ána"], "rules": {"players": 6}},
])
def test_a_new_table_of_two_seats_of_one_name_is_a_problem_and_nothing(
    client: Client, body: dict[str, Any],
) -> None:
    refused = assert_problem(post(client, "/api/v1/tables", body), 400, "table", "same_names")
    last = len(body["players"])
    assert refused["error"].startswith(f"seats 1 and {last} have the same name")
    assert not Table.objects.exists()


def test_the_problem_speaks_the_request_s_language(client: Client) -> None:
    body = {"players": ["Bruno", "Ana", "Carla", "ana"]}
    for language, detail in [
        ("es", "los asientos 2 y 4 se llaman igual («ana»): cada asiento necesita un nombre "
               "distinto (Ana M., Ana P.)"),
        ("en", "seats 2 and 4 have the same name («ana»): each seat needs a name of its own "
               "(Ana M., Ana P.)"),
        ("eu", "2. eta 4. eserlekuek izen bera dute («ana»): eserleku bakoitzak bere izena "
               "behar du (Ana M., Ana P.)"),
        ("fr", "les places 2 et 4 ont le même nom (\u00ab\u00a0ana\u00a0\u00bb)\u00a0: "
               "chaque place a besoin d’un nom à elle (Ana M., Ana P.)"),
    ]:
        response = post(client, "/api/v1/tables", body, **{"Accept-Language": language})
        assert assert_problem(response, 400, "table", "same_names")["detail"] == detail
    assert not Table.objects.exists()


def test_an_import_of_two_seats_of_one_name_is_a_problem_and_nothing(client: Client) -> None:
    exported = {"format": "muscore-table", "version": 1, "mano": 0,
                "players": ["Ana", "Bruno", "Carla", "BRUNO"], "hands": [HAND]}
    response = post(client, "/api/v1/tables/import", exported, **{"Accept-Language": "es"})
    refused = assert_problem(response, 400, "table", "same_names")
    assert refused["detail"].startswith("los asientos 2 y 4 se llaman igual («BRUNO»)")
    assert not Table.objects.exists() and not Change.objects.exists()
    # The same table with names apart is taken.
    exported["players"] = ["Ana", "Bruno", "Carla", "Diego"]
    assert post(client, "/api/v1/tables/import", exported).status_code == 201


def test_blank_seats_take_their_own_default_names(client: Client) -> None:
    response = post(client, "/api/v1/tables", {"players": ["Ana", None, "", "Diego"]})
    assert response.status_code == 201
    assert response.json()["players"] == ["Ana", "B1", "A2", "Diego"]
