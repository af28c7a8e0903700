"""A league import has the table import's limits and checks (issue #21 point 5): depth,
numbers, text through muscore.text, names no longer than the columns, the count of matches
and pairs; each refused whole with a message in the page's language, never a 500; and
imports are rate-limited."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from pytest_django import Settings

from muscore.clubs.models import NAME_MAX, Pair, Player
from muscore.leagues import LeagueError, read_league
from muscore.leagues.compute.document import PERSON_NAME_LIMIT, loads_league
from muscore.leagues.models import Competition
from tests.clubs.factory import logged_in, make_club
from tests.test_rate_limits import address

pytestmark = pytest.mark.django_db


def league(**changes: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "name": "Liga",
        "pairs": [
            {"name": "Ana y Bea", "players": ["Ana", "Bea"]},
            {"name": "Carla y Dani", "players": ["Carla", "Dani"]},
        ],
        "matches": [{"round": 1, "pairs": [0, 1], "juegos": [3, 1], "tantos": [120, 90]}],
    }
    doc.update(changes)
    return doc


def nested(depth: int) -> str:
    return '{"name": "Liga", "pairs": ' + "[" * depth + "]" * depth + "}"


def with_pair_name(name: str) -> dict[str, Any]:
    return league(pairs=[{"name": name, "players": ["Ana", "Bea"]},
                         {"name": "Carla y Dani", "players": ["Carla", "Dani"]}])


def with_player(name: str) -> dict[str, Any]:
    return league(pairs=[{"name": "Ana y Bea", "players": [name, "Bea"]},
                         {"name": "Carla y Dani", "players": ["Carla", "Dani"]}])


def many_pairs(n: int) -> dict[str, Any]:
    pairs = [{"name": f"P{i}", "players": [f"a{i}", f"b{i}"]} for i in range(n)]
    return league(pairs=pairs, matches=[])


# (the uploaded body, words of the Spanish message)
BAD: dict[str, tuple[Any, str]] = {
    "deep": (nested(60), "más de 50 niveles"),
    "deeper_than_python": (nested(100_000), "demasiada profundidad"),
    "round": (league(matches=[{"round": 10**20, "pairs": [0, 1]}]), "del 1 al 9999"),
    "points": (league(points={"win": 10**40}), "del -1000 al 1000"),
    "tantos": (
        league(matches=[{"pairs": [0, 1], "juegos": [3, 1], "tantos": [10**12, 0]}]),
        "del 0 al 99999",
    ),
    "surrogate": (
        json.dumps(league()).replace("Ana y Bea", "Ana \\ud800"),
        "no es Unicode válido",
    ),
    "nul": (json.dumps(with_player("Ana\x00")), "carácter de control"),
    "esc": (json.dumps(with_pair_name("Ana\x1b[2J")), "carácter de control"),
    "nul_in_a_key": (json.dumps(league(**{"x\x00": 1})), "carácter de control"),
    "pair_name_long": (with_pair_name("x" * (NAME_MAX + 1)), f"{NAME_MAX} caracteres"),
    "player_name_long": (with_player("x" * (NAME_MAX + 1)), f"{NAME_MAX} caracteres"),
    "bidi": (with_pair_name("\u202eAna"), "cambia el sentido del texto"),
    "invisible": (with_player("\u200b\u200b"), "solo tiene caracteres invisibles"),
    "too_many_pairs_to_import": (many_pairs(201), "como mucho 200 parejas, no 201"),
    # Refused by the lists' lengths before the document is walked (a request bounded):
    # before its depth, its text or its matches are read.
    "too_many_pairs_first": ({**many_pairs(201), "x": json.loads(nested(60))},
                             "como mucho 200 parejas, no 201"),
    "too_many_matches_to_import": (
        league(matches=[{"pairs": [0, 1], "juegos": [3, 1]}] * 39_801 + [json.loads(nested(60))]),
        "como mucho 39800 partidas (200 parejas a ida y vuelta), no 39802"),
    "huge_number": ('{"name": "Liga", "legs": 1' + "1" * 5000 + "}", "no es un JSON"),
}


def upload(body: Any) -> SimpleUploadedFile:
    raw = body.encode() if isinstance(body, str) else json.dumps(body).encode()
    return SimpleUploadedFile("liga.json", raw, content_type="application/json")


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_league_is_refused_whole_with_a_message(case: str) -> None:
    body, words = BAD[case]
    club = make_club()
    client = logged_in(club.memberships.get().user)
    players_before = Player.objects.count()
    response = client.post(
        f"/club/{club.slug}/ligas/importar", {"file": upload(body), "format": "liguilla"}
    )
    assert response.status_code == 400
    assert words in response.content.decode(), response.content.decode()[-3000:]
    assert not Competition.objects.exists()
    assert not Pair.objects.exists() and Player.objects.count() == players_before


def test_the_message_is_in_the_page_s_language() -> None:
    club = make_club()
    client = logged_in(club.memberships.get().user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = client.post(
        f"/club/{club.slug}/ligas/importar",
        {"file": upload(BAD["round"][0]), "format": "liguilla"},
    )
    assert response.status_code == 400
    assert "from 1 to 9999" in response.content.decode()


def test_the_pure_reader_refuses_the_same_and_says_it_in_the_contract_s_english() -> None:
    assert PERSON_NAME_LIMIT == NAME_MAX  # the columns the names are stored in
    with pytest.raises(LeagueError) as error:
        read_league(BAD["points"][0])
    assert error.value.code == "number_range"
    assert "'win' in points must be a whole number from -1000 to 1000" in str(error.value)
    with pytest.raises(LeagueError) as error:
        loads_league(nested(100_000))
    assert error.value.code == "too_deep"
    with pytest.raises(LeagueError) as error:
        loads_league(BAD["surrogate"][0])
    assert error.value.code == "text_surrogate"
    # A league at the limits is read.
    read_league(league(points={"win": 1000, "loss": -1000},
                       matches=[{"round": 9999, "pairs": [0, 1]}]))


@pytest.fixture
def import_limit(settings: Settings) -> Iterator[None]:
    settings.RATELIMIT_ENABLE = True
    settings.MUSCORE_RATE_LIMITS = {**settings.MUSCORE_RATE_LIMITS, "import": ["2/m"]}
    cache.clear()
    yield
    cache.clear()


def test_league_imports_are_rate_limited_per_address_and_per_organiser(
    import_limit: None,
) -> None:
    club = make_club()
    client = logged_in(club.memberships.get().user)
    url = f"/club/{club.slug}/ligas/importar"
    for n in range(2):
        ip = address(60, 20, start=10 * n)
        # Each a different league (the same one twice would be refused as a copy).
        matches = [{"round": 1, "pairs": [0, 1], "juegos": [3, n], "tantos": [120, 90 + n]}]
        body = {"file": upload(league(name=f"Liga {n}", matches=matches)), "format": "liguilla",
                "rated": "0"}
        assert client.post(url, body, REMOTE_ADDR=ip).status_code == 302
    body = {"file": upload(league(name="Liga 3")), "format": "liguilla"}
    refused = client.post(url, body, REMOTE_ADDR=address(60, 20, start=100))
    assert refused.status_code == 429
    assert not Competition.objects.filter(name="Liga 3").exists()
    # Reading the page is not limited.
    assert Client().get(url).status_code in (200, 403)
