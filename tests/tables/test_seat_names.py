"""Two seats of one table named alike are refused at every door (issue 38.9): the new
table's form, the services (pairs, two, six), the import page, and a league document's
vaca; compared as the form compares them (muscore.text.same_people: case, accents,
punctuation and the order of the words aside), nothing saved. The API's doors are in
tests/api/test_seat_names_api.py."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from muscore.tables import services
from muscore.tables.models import Change, Table
from muscore.text import same_people

pytestmark = pytest.mark.django_db

CARDS = {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"}


def text_of(response) -> str:
    return re.sub(r"\s+", " ", html.unescape(response.content.decode()))


def test_same_people_finds_each_repeated_place_and_its_first() -> None:
    assert same_people(["Ana", "Bruno", "ana.", "Diego"]) == [(0, 2)]
    assert same_people(["Álvaro Pérez", "Pérez, Alvaro", "ÁLVARO", "alvaro"]) == [(0, 1), (2, 3)]
    assert same_people(["Iñaki", "Inaki"]) == []  # the ñ is a letter of its own
    assert same_people(["?", "?", "Ana", "Bea"]) == []  # no letter: nobody's name
    assert same_people(["A1", "B1", "A2", "B2"]) == []


@pytest.mark.parametrize(("players", "first", "second", "name"), [
    (["Ana", "Bruno", "Carla", "ANA"], 1, 4, "ANA"),
    (["Ana", "ána"], 1, 2, "ána"),
    (["Ana", "Bruno", "Carla", "Diego", "Eva", "Bruno."], 2, 6, "Bruno."),
    # A blank seat takes its default name (seat 3's is A2): that clashes too.
    (["A2", "Bruno", None, "Diego"], 1, 3, "A2"),
])
def test_the_services_refuse_two_seats_of_one_name_and_save_nothing(
    players, first, second, name,
) -> None:
    with pytest.raises(services.SameNames) as refused:
        services.create_table(players=players)
    assert refused.value.code == "same_names" and refused.value.status == 400
    assert str(refused.value) == (
        f"seats {first} and {second} have the same name («{name}»): each seat needs a name "
        f"of its own (Ana M., Ana P.)")
    assert not Table.objects.exists()


def test_an_import_of_two_seats_of_one_name_saves_nothing() -> None:
    data = {"format": "muscore-table", "version": 1, "mano": 0,
            "players": ["Ana", "Bruno", "Carla", "Bruno"], "hands": [{"hands": CARDS}]}
    with pytest.raises(services.SameNames, match="seats 2 and 4"):
        services.import_table(data, via="api")
    assert not Table.objects.exists() and not Change.objects.exists()


def test_the_import_page_refuses_two_seats_of_one_name_in_the_page_s_language(
    client: Client,
) -> None:
    exported = {"format": "muscore-table", "version": 1, "mano": 0,
                "players": ["Ana", "Bruno", "ana", "Diego"], "hands": [{"hands": CARDS}]}
    for language, words in [
        ("es", "Los asientos 1 y 3 se llaman igual («ana»): cada asiento necesita un nombre "
               "distinto"),
        ("en", "Seats 1 and 3 have the same name («ana»): each seat needs a name of its own"),
        ("eu", "1. eta 3. eserlekuek izen bera dute («ana»)"),
        ("fr", "Les places 1 et 3 ont le même nom (« ana ») : chaque place"),  # spaces folded
    ]:
        client.cookies["django_language"] = language
        response = client.post(reverse("tables:import"), {"text": json.dumps(exported)})
        assert response.status_code == 400
        assert words in text_of(response), language
    assert not Table.objects.exists()


def test_the_new_table_form_and_the_services_compare_names_alike(client: Client) -> None:
    """The form refuses what the services would (one comparison, muscore.text.same_people):
    Ana María and "maría, ana" are one person at seats 2 and 4."""
    response = client.post(reverse("tables:new"), {
        "players": "4", "name_0": "Bruno", "name_1": "Ana María", "name_2": "Carla",
        "name_3": "maría, ana", "mano": "0", "reyes": "8", "target": "40", "juegos": "2",
        "real31": "no"})
    assert response.status_code == 400
    assert "Los asientos 2 y 4 se llaman igual («maría, ana»)" in text_of(response)
    with pytest.raises(services.SameNames, match="seats 2 and 4"):
        services.create_table(players=["Bruno", "Ana María", "Carla", "maría, ana"])
    assert not Table.objects.exists()
