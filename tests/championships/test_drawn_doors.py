"""Nothing a championship's draw placed is moved by another door (issue 27): a pair its
heat or phase made keeps its name and players (the club's pair form), stays on the club's
lists (retiring it, or one of its players), keeps its players (merging one into another,
renaming one into another person);
a group it drew keeps its name in the admin, and a club that hosts one of its venues is not
deleted there. Each refused with a 4xx naming the championship, nothing changed; a pair
that withdraws goes through the phase's own reserves (tests/championships/test_reserves.py).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from muscore.championships.models import Enrolment
from muscore.clubs.models import Club, Pair, Player

from .factory import drawn_semifinal

pytestmark = pytest.mark.django_db


def organiser(user: Any, language: str = "es") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def placed() -> tuple[Any, Any, list[Any], Enrolment]:
    championship, boss, barmen, _phase = drawn_semifinal()
    enrolment = (Enrolment.objects.filter(championship=championship, phase_pair__isnull=False)
                 .select_related("phase_pair__club", "heat_pair__club").order_by("id").first())
    assert enrolment is not None and enrolment.heat_pair is not None
    return championship, boss, barmen, enrolment


def players_of(pair: Pair) -> list[str]:
    return list(pair.members.order_by("position").values_list("player__name", flat=True))


def test_a_placed_pair_s_name_and_players_are_not_changed_by_the_club_s_form() -> None:
    championship, boss, barmen, enrolment = placed()
    barman = barmen[list(championship.sedes.order_by("id")).index(enrolment.sede)]
    for pair, user in [(enrolment.phase_pair, boss), (enrolment.heat_pair, barman)]:
        assert pair is not None
        before = (pair.name, players_of(pair))
        for language, words in (("es", "juega en"), ("fr", "joue dans")):
            response = organiser(user, language).post(
                f"/club/{pair.club.slug}/parejas/{pair.pk}/editar",
                {"name": "Otra pareja", "player1": "Nadie Uno", "player2": "Nadie Dos"})
            assert response.status_code == 400, language
            text = response.content.decode()
            assert championship.name in text, language
            assert words in text, language
        pair.refresh_from_db()
        assert (pair.name, players_of(pair)) == before


def test_a_placed_pair_or_its_player_is_not_retired_from_the_club() -> None:
    championship, boss, _barmen, enrolment = placed()
    pair = enrolment.phase_pair
    assert pair is not None
    client = organiser(boss)
    response = client.post(f"/club/{pair.club.slug}/parejas/{pair.pk}/retirar",
                           {"retired": "1"})
    assert response.status_code == 409
    assert championship.name in response.content.decode()
    player = pair.members.order_by("position").first().player
    response = client.post(f"/club/{pair.club.slug}/jugador/{player.pk}/retirar",
                           {"retired": "1"})
    assert response.status_code == 409
    assert championship.name in response.content.decode()
    pair.refresh_from_db()
    player.refresh_from_db()
    assert not pair.retired and not player.retired
    # A pair of the club's own is still retired there.
    own = Pair.objects.create(club=pair.club, name="De la casa")
    assert client.post(f"/club/{pair.club.slug}/parejas/{own.pk}/retirar",
                       {"retired": "1"}).status_code == 302
    own.refresh_from_db()
    assert own.retired


def test_a_placed_pair_s_player_is_not_merged_into_another() -> None:
    championship, boss, _barmen, enrolment = placed()
    pair = enrolment.phase_pair
    assert pair is not None
    gone = pair.members.order_by("position").first().player
    keep = Player.objects.create(club=pair.club, name="Otro Jugador")
    before = players_of(pair)
    response = organiser(boss).post(f"/club/{pair.club.slug}/jugador/{gone.pk}/fusionar",
                                    {"keep": keep.pk, "confirm": "on"})
    assert response.status_code == 400
    assert championship.name in response.content.decode()
    assert Player.objects.filter(pk=gone.pk).exists() and players_of(pair) == before


def test_a_placed_pair_s_player_is_not_renamed_into_another_person() -> None:
    championship, boss, _barmen, enrolment = placed()
    pair = enrolment.phase_pair
    assert pair is not None
    player = pair.members.order_by("position").first().player
    url = f"/club/{pair.club.slug}/jugadores/{player.pk}/"
    response = organiser(boss, "fr").post(url, {"name": "Nadie Nuevo"})
    assert response.status_code == 400
    text = response.content.decode()
    assert championship.name in text and "joue dans" in text
    player.refresh_from_db()
    assert player.name != "Nadie Nuevo"
    # Its spelling is still corrected (the same person by the Spanish key).
    assert organiser(boss).post(url, {"name": player.name.upper()}).status_code == 302
    player.refresh_from_db()
    assert player.name == player.name.upper()


def superuser() -> Client:
    boss = get_user_model().objects.create_superuser("jefa", password="x-mus-2026-y")
    client = Client()
    client.force_login(boss)
    return client


def test_the_admin_neither_renames_a_drawn_group_nor_deletes_a_venue_s_club() -> None:
    championship, _boss, _barmen, enrolment = placed()
    group = championship.phases.get().groups.select_related("competition").first()
    assert group is not None
    competition = group.competition
    client = superuser()
    change = f"/admin/leagues/competition/{competition.pk}/change/"
    page = client.get(change)
    assert page.status_code == 200 and b'name="name"' not in page.content
    client.post(change, {"name": "Renombrada", "archived": "", "on_tv": "",
                         "entry_set-TOTAL_FORMS": "0", "entry_set-INITIAL_FORMS": "0"})
    competition.refresh_from_db()
    assert competition.name != "Renombrada"
    # The club of a venue: its heat, entries and the groups drawn from them would go.
    club = enrolment.sede.club
    response = client.post(f"/admin/clubs/club/{club.pk}/delete/", {"post": "yes"})
    assert response.status_code == 409
    assert championship.name in response.content.decode()
    assert Club.objects.filter(pk=club.pk).exists()
    # ...nor through the list's "delete selected" action.
    client.post("/admin/clubs/club/", {"action": "delete_selected",
                                       "_selected_action": [club.pk], "post": "yes"})
    assert Club.objects.filter(pk=club.pk).exists()
    # A club nothing holds is still deleted there.
    free = Club.objects.create(name="Bar Vacío", slug="bar-vacio")
    assert client.post(f"/admin/clubs/club/{free.pk}/delete/",
                       {"post": "yes"}).status_code == 302
    assert not Club.objects.filter(pk=free.pk).exists()
