"""The organiser's night (issue 17): the page's counts and next steps, the TV showing the
competition put on it, archiving (off every list, kept), deleting one without results;
visitors and another club's organiser get 403 and change nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from muscore.clubs.models import Pair
from muscore.leagues import competitions, confirmations, results
from muscore.leagues import results as league_results
from muscore.leagues.models import Competition, Entry, Match, ResultClaim, Tie
from tests.clubs.factory import logged_in, make_club, make_pair, make_user

from .factory import knockout

pytestmark = pytest.mark.django_db


def make_league(club: Any, pairs: int = 4, *, results: int = 0,
                name: str = "Liga de invierno") -> Competition:
    """A drawn liguilla of new pairs (named after it, so a club can hold several) with its
    first `results` matches played by hand."""
    organiser = club.memberships.first().user
    tag = name.replace(" ", "")
    made = [make_pair(club, f"{tag}{i}a", f"{tag}{i}b") for i in range(pairs)]
    competition = competitions.create_competition(
        club, by=organiser, name=name, pairs=made, format="liguilla", legs=1, groups=2,
        draw=list(range(pairs)))
    for n, match in enumerate(competition.matches.order_by("number")[:results]):
        league_results.record_result(match, by=organiser, juegos=[3, n % 3])
    return competition


def test_the_night_page_counts_what_the_organiser_watches() -> None:
    club = make_club()
    competition = make_league(club, 4, results=0)
    organiser = logged_in(club.memberships.get().user)
    first, second = competition.matches.filter(round__number=1).order_by("number")
    confirmations.claim(first, side=0, juegos=[3, 1], tantos=None)
    confirmations.dispute(first, side=1, note="Fue 3-2")
    page = organiser.get(f"/club/{club.slug}/noche/")
    assert page.status_code == 200
    html = page.content.decode()
    assert '<li data-count="disputed" class="disputed"><strong>1</strong>' in html
    assert '<li data-count="waiting"><strong>0</strong>' in html
    # Match 2 of round 1: nobody at a table, no claim: to be marked.
    assert '<li data-count="to_mark"><strong>1</strong>' in html
    assert "Decidir los resultados en disputa." in html
    results.record_result(second, by=club.memberships.get().user, juegos=[3, 0])
    assert "/noche/" in organiser.get(f"/club/{club.slug}/").content.decode()
    assert "/noche/" not in Client().get(f"/club/{club.slug}/").content.decode()


def test_the_tv_shows_the_competition_the_organiser_puts_on_it() -> None:
    club = make_club()
    chosen = make_league(club, 4, results=2, name="Liga buena")
    newest = make_league(club, 4, results=0, name="Liga de prueba")
    assert newest.pk > chosen.pk
    organiser = logged_in(club.memberships.get().user)
    tv = Client().get(f"/club/{club.slug}/tv/").content.decode()
    assert "Liga de prueba" in tv  # today: whichever is newest en juego
    response = organiser.post(f"/club/{club.slug}/liga/{chosen.pk}/tele", {"on": "1"})
    assert response.status_code == 302
    tv = Client().get(f"/club/{club.slug}/tv/").content.decode()
    assert chosen.name in tv and "Liga de prueba" not in tv


def test_archive_takes_a_competition_off_every_list_and_keeps_it() -> None:
    club = make_club()
    competition = make_league(club, 4, results=2, name="Liga vieja")
    organiser = logged_in(club.memberships.get().user)
    assert "Liga vieja" in Client().get(f"/club/{club.slug}/").content.decode()
    assert organiser.post(f"/club/{club.slug}/liga/{competition.pk}/archivar",
                          {"archived": "1"}).status_code == 302
    assert "Liga vieja" not in Client().get(f"/club/{club.slug}/").content.decode()
    assert "Liga vieja" not in Client().get(f"/club/{club.slug}/tv/").content.decode()
    # Kept for the record: its page still answers, and the night page can bring it back.
    assert Client().get(f"/club/{club.slug}/liga/{competition.pk}/").status_code == 200
    night = organiser.get(f"/club/{club.slug}/noche/").content.decode()
    assert 'id="archivadas"' in night and "Liga vieja" in night
    organiser.post(f"/club/{club.slug}/liga/{competition.pk}/archivar", {"archived": "0"})
    assert "Liga vieja" in Client().get(f"/club/{club.slug}/").content.decode()


def test_delete_only_a_competition_without_results() -> None:
    club = make_club()
    played = make_league(club, 4, results=1, name="Con resultados")
    empty = make_league(club, 4, results=0, name="Sin resultados")
    organiser = logged_in(club.memberships.get().user)
    refused = organiser.post(f"/club/{club.slug}/liga/{played.pk}/borrar")
    assert refused.status_code == 409
    assert "ya tiene resultados: no se borra, se archiva" in refused.content.decode()
    assert Competition.objects.filter(pk=played.pk).exists()
    claimed = make_league(club, 4, results=0, name="Con una reclamación")
    confirmations.claim(claimed.matches.order_by("number").first(), side=0, juegos=[3, 0],
                        tantos=None)
    assert organiser.post(f"/club/{club.slug}/liga/{claimed.pk}/borrar").status_code == 409
    assert ResultClaim.objects.filter(competition=claimed).exists()
    done = organiser.post(f"/club/{club.slug}/liga/{empty.pk}/borrar")
    assert done.status_code == 302 and not Competition.objects.filter(pk=empty.pk).exists()


def test_delete_a_knockout_without_results_with_its_ties() -> None:
    """A knockout's ties point at its entries (a bye's pair is in its tie from the draw):
    one with no result goes whole through the page, ties and games with it, its club's
    pairs kept; one with a result is refused with nothing deleted."""
    empty, organiser = knockout([0, None, 1, 2])
    club = empty.club
    assert Tie.objects.filter(competition=empty, first__isnull=False).exists()
    pairs = Pair.objects.filter(club=club).count()
    client = logged_in(organiser)
    done = client.post(f"/club/{club.slug}/liga/{empty.pk}/borrar")
    assert done.status_code == 302
    assert not Competition.objects.filter(pk=empty.pk).exists()
    for model in (Tie, Match, Entry):
        assert not model.objects.filter(competition_id=empty.pk).exists(), model
    assert Pair.objects.filter(club=club).count() == pairs
    played, _user = knockout([0, None, 1, 2], organiser=organiser)
    game = Match.objects.filter(competition=played, tie__isnull=False).order_by("number")[0]
    results.record_result(game, by=organiser, juegos=[3, 1])
    kept = [model.objects.filter(competition_id=played.pk).count()
            for model in (Tie, Match, Entry)]
    refused = client.post(f"/club/{played.club.slug}/liga/{played.pk}/borrar")
    assert refused.status_code == 409
    assert "ya tiene resultados: no se borra, se archiva" in refused.content.decode()
    assert [model.objects.filter(competition_id=played.pk).count()
            for model in (Tie, Match, Entry)] == kept


def test_visitors_and_other_clubs_organisers_get_403_and_change_nothing() -> None:
    club = make_club()
    competition = make_league(club, 4, results=0)
    other = make_club("Otro club", organiser=make_user("otro"))
    intruder = logged_in(other.memberships.get().user)
    for client in (Client(), intruder):
        assert client.get(f"/club/{club.slug}/noche/").status_code in (302, 403)
        for action, data in (("tele", {"on": "1"}), ("archivar", {"archived": "1"}),
                             ("borrar", {})):
            response = client.post(f"/club/{club.slug}/liga/{competition.pk}/{action}", data)
            assert response.status_code == 403, (action, response.status_code)
    competition.refresh_from_db()
    assert (competition.on_tv, competition.archived) == (False, False)
    assert Competition.objects.filter(pk=competition.pk).exists()


def test_the_nights_live_part_answers_its_poll_and_304_until_a_figure_changes() -> None:
    # Issue 32: the organiser's night is a live screen (polled, or pushed by a stream).
    club = make_club()
    competition = make_league(club, 4, results=0)
    organiser = logged_in(club.memberships.get().user)
    page = organiser.get(f"/club/{club.slug}/noche/").content.decode()
    assert f'hx-get="/club/{club.slug}/noche/?live=1"' in page and 'id="night-live"' in page
    part = organiser.get(f"/club/{club.slug}/noche/?live=1", headers={"HX-Request": "true"})
    assert part.status_code == 200 and part["ETag"]
    html = part.content.decode()
    assert html.lstrip().startswith('<div id="night-live"') and "<html" not in html
    unchanged = organiser.get(f"/club/{club.slug}/noche/?live=1",
                              headers={"HX-Request": "true", "If-None-Match": part["ETag"]})
    assert unchanged.status_code == 304
    first = competition.matches.order_by("number").first()
    confirmations.claim(first, side=0, juegos=[3, 1], tantos=None)
    changed = organiser.get(f"/club/{club.slug}/noche/?live=1",
                            headers={"HX-Request": "true", "If-None-Match": part["ETag"]})
    assert changed.status_code == 200 and changed["ETag"] != part["ETag"]
    assert '<li data-count="waiting"><strong>1</strong>' in changed.content.decode()
    visitor = Client().get(f"/club/{club.slug}/noche/?live=1", headers={"HX-Request": "true"})
    assert visitor.status_code in (302, 403)
