"""Nothing entered about a club is lost: every change of its name, players, pairs and
organisers leaves a ClubChange (before, after, who, when), shown to its organisers; a pair
that has played keeps its players (its results say who sat)."""

from __future__ import annotations

import pytest

from muscore.clubs.models import ClubChange, Pair
from tests.clubs.factory import logged_in, make_club, make_league

pytestmark = pytest.mark.django_db


def test_every_change_to_a_club_is_audited_with_who_and_before() -> None:
    club = make_club()
    maite = club.memberships.get().user
    client = logged_in(maite)
    client.post(f"/club/{club.slug}/editar", {"name": "Bar Txoko Berria"})
    client.post(f"/club/{club.slug}/jugadores/nuevo", {"name": "Ana"})
    ana = club.players.get()
    client.post(f"/club/{club.slug}/jugadores/{ana.pk}/", {"name": "Ane"})
    client.post(f"/club/{club.slug}/parejas/nueva", {"player1": "Ane", "player2": "Bea"})
    pair = Pair.objects.get()
    client.post(
        f"/club/{club.slug}/parejas/{pair.pk}/editar",
        {"player1": "Ane", "player2": "Carla", "name": "Las de siempre"},
    )
    client.post(f"/club/{club.slug}/organizadores", {"username": "iker"})
    changes = list(ClubChange.objects.filter(club=club).order_by("id"))
    assert [c.what for c in changes] == [
        "club",
        "club",
        "player",
        "player",
        "pair",
        "pair",
        "organiser",
    ]
    assert all(c.by == maite for c in changes)
    assert changes[1].before == {"name": "Bar Txoko"}
    assert changes[3].before == {"id": ana.pk, "name": "Ana"}
    assert changes[5].before["players"] == ["Ane", "Bea"]
    assert changes[5].after["players"] == ["Ane", "Carla"]
    page = client.get(f"/club/{club.slug}/organizadores").content.decode()
    assert "Las de siempre" in page and "Ane, Bea" in page


def test_a_pair_that_has_played_keeps_its_players_but_may_be_renamed() -> None:
    club = make_club()
    competition = make_league(club, 4, results=1)
    played = competition.matches.played().get()
    assert played.first is not None
    pair = played.first.pair
    players = pair.player_names()
    client = logged_in(club.memberships.get().user)
    url = f"/club/{club.slug}/parejas/{pair.pk}/editar"
    refused = client.post(url, {"player1": players[0], "player2": "Otra", "name": pair.name})
    assert refused.status_code == 400
    assert "ya ha jugado: sus jugadores no cambian" in refused.content.decode()
    pair.refresh_from_db()
    assert pair.player_names() == players
    renamed = client.post(
        url, {"player1": players[0], "player2": players[1], "name": "Txapeldunak"}
    )
    assert renamed.status_code == 302
    pair.refresh_from_db()
    assert pair.name == "Txapeldunak" and pair.player_names() == players


def test_only_a_played_match_on_either_side_keeps_a_pairs_players() -> None:
    # The check asks the club's competitions (clubs does not import leagues): a pair that
    # sat second is held as one that sat first; an entered but unplayed pair is not.
    club = make_club()
    competition = make_league(club, 4, results=1)
    played = competition.matches.played().get()
    assert played.first is not None and played.second is not None
    waiting = {played.first.pair_id, played.second.pair_id}
    client = logged_in(club.memberships.get().user)

    def swap_second_player(pair: Pair) -> int:
        first = pair.player_names()[0]
        url = f"/club/{club.slug}/parejas/{pair.pk}/editar"
        data = {"player1": first, "player2": "Nueva", "name": pair.name}
        return client.post(url, data).status_code

    assert swap_second_player(played.second.pair) == 400
    unplayed = Pair.objects.filter(club=club).exclude(pk__in=waiting).first()
    assert unplayed is not None and unplayed.entries.exists()
    assert swap_second_player(unplayed) == 302
    assert unplayed.player_names()[1] == "Nueva"
