"""Retire a player or a pair, merge two players (issue 17, item 7 of the night).

Retired: off the club's lists and the draw of new competitions (the form does not offer
them, the service refuses them), kept in every past result, standings and rating history,
and brought back with one button. Merged: every pair, result (as a substitute too), rating
and hand stat of the second follows to the first, the ratings equal a fresh
`rate_players`, the club's changes log it; refused when both play in one competition (in
different pairs or the same), with nothing written."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from muscore.clubs.models import Club, ClubChange, Pair, Player
from muscore.leagues import competitions, rating_store, results, roster, stats_store
from muscore.leagues.models import Competition, Match, PlayerHandStats, PlayerRating, RatingPoint
from muscore.leagues.results import standings as results_standings
from muscore.tables import services as tables
from tests.clubs.factory import logged_in, make_pair, make_user

from .factory import club_with_pairs
from .test_stats_store import VACA

pytestmark = pytest.mark.django_db


def play_all(competition: Competition, user: Any, skip: int | None = None) -> None:
    for m in competition.matches.select_related("competition").exclude(pk=skip).order_by(
            "number"):
        results.record_result(m, by=user, juegos=[3, 1] if m.number % 2 else [2, 3])


def league(club: Club, user: Any, pairs: list[Pair], name: str) -> Competition:
    return competitions.create_competition(club, by=user, name=name, pairs=pairs,
                                           draw=list(range(len(pairs))))


def ratings(club: Club) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    return (sorted(PlayerRating.objects.filter(club=club).values_list(
                "player_id", "mu", "sigma", "matches")),
            sorted(RatingPoint.objects.filter(club=club).values_list(
                "player_id", "match_id", "mu", "sigma", "matches")))


def stat_rows(club: Club) -> list[Any]:
    return sorted(PlayerHandStats.objects.filter(club=club).values_list(
        "player_id", "match_id", "side", "hands", "juegos", "ordagos"))


def two_names_one_person() -> tuple[Club, Any, Player, Player, dict[str, Any]]:
    """Ana plays the winter league; 'Anita' (the same person, entered twice) plays the
    spring one in another pair and sat in for Carlos in a cup: each has a rating."""
    club, user, pairs = club_with_pairs(4)
    winter = league(club, user, pairs, "Invierno")
    play_all(winter, user)
    anita_pair = make_pair(club, "Anita", "Irene")
    jon_pair = make_pair(club, "Jon", "Koldo")
    spring = league(club, user, [anita_pair, jon_pair, pairs[2]], "Primavera")
    on_table = spring.matches.order_by("number").first()
    assert on_table is not None
    table = competitions.open_table(on_table, by=user)  # Anita's hands, counted
    for record in VACA:
        tables.add_hand(table, record, via="edit_link")
    play_all(spring, user, skip=on_table.pk)
    cup = league(club, user, [pairs[1], jon_pair], "Copa")
    sat = cup.matches.select_related("competition").get()
    competitions.substitute(sat, by=user, side=0, replaced="Carlos", substitute="Anita")
    results.record_result(cup.matches.select_related("competition").get(), by=user,
                          juegos=[3, 2])
    ana, anita = Player.objects.get(club=club, name="Ana"), Player.objects.get(name="Anita")
    assert PlayerHandStats.objects.filter(player=anita).exists()
    return club, user, ana, anita, {"spring": spring, "cup": cup, "pair": anita_pair}


def test_a_merge_moves_pairs_results_ratings_and_stats_and_equals_a_fresh_rating() -> None:
    club, user, ana, anita, made = two_names_one_person()
    rated_before = (PlayerRating.objects.get(player=ana).matches
                    + PlayerRating.objects.get(player=anita).matches)
    anita_stats = PlayerHandStats.objects.filter(player__in=[ana, anita]).count()
    roster.merge_players(ana, anita, by=user)
    assert not Player.objects.filter(pk=anita.pk).exists()
    assert made["pair"].player_names() == ["Ana", "Irene"]
    cup_match = made["cup"].matches.get()
    assert cup_match.players_first == ["Ana", "Dani"]
    assert '"Ana"' in (cup_match.doc or "")  # the document names who sat
    assert PlayerHandStats.objects.filter(player=ana).count() == anita_stats
    assert PlayerRating.objects.get(player=ana).matches == rated_before
    merged = ratings(club)
    rating_store.rate_club(club)  # what `manage.py rate_players` computes afresh
    assert ratings(club) == merged
    stats = stat_rows(club)
    stats_store.count_club(club)  # what `manage.py count_hand_stats` counts afresh
    assert stat_rows(club) == stats
    change = ClubChange.objects.filter(club=club, what="merge_players").get()
    assert change.before["gone"] == "Anita" and change.after == {"name": "Ana"}
    assert change.by == user


@pytest.mark.parametrize("case", ["same_pair", "same_competition", "itself"])
def test_a_merge_of_two_who_sit_together_is_refused_with_nothing_written(case: str) -> None:
    club, user, ana, anita, _ = two_names_one_person()
    other = {"same_pair": "Bea", "same_competition": "Carlos", "itself": "Ana"}[case]
    second = Player.objects.get(club=club, name=other)
    before = (ratings(club), list(Match.objects.values_list("doc", flat=True)),
              Player.objects.count(), ClubChange.objects.count())
    with pytest.raises(roster.MergeRefused):
        roster.merge_players(ana, second, by=user)
    assert (ratings(club), list(Match.objects.values_list("doc", flat=True)),
            Player.objects.count(), ClubChange.objects.count()) == before


def test_only_an_organiser_merges_or_retires() -> None:
    club, _, ana, anita, _ = two_names_one_person()
    stranger = make_user("intruso")
    with pytest.raises(PermissionDenied):
        roster.merge_players(ana, anita, by=stranger)
    with pytest.raises(PermissionDenied):
        roster.set_retired(ana, True, by=stranger)


def test_a_retired_pair_or_player_is_off_the_draw_and_kept_in_what_was_played() -> None:
    club, user, pairs = club_with_pairs(4)
    winter = league(club, user, pairs, "Invierno")
    play_all(winter, user)
    standings = [r.to_json() for r in results_standings.standings(winter, cached=False)[0].rows]
    rated = ratings(club)
    roster.set_retired(pairs[0], True, by=user)
    with pytest.raises(competitions.CompetitionError, match="Ana y Bea"):
        league(club, user, pairs[:2], "Otra")
    bea = Player.objects.get(club=club, name="Bea")
    roster.set_retired(pairs[0], False, by=user)
    roster.set_retired(bea, True, by=user)
    with pytest.raises(competitions.CompetitionError, match="Bea"):
        league(club, user, pairs[:2], "Otra")
    winter.refresh_from_db()
    rows = results_standings.standings(winter, cached=False)[0].rows
    assert [r.to_json() for r in rows] == standings
    assert ratings(club) == rated
    roster.set_retired(bea, False, by=user)  # back: she plays again
    assert league(club, user, pairs[:2], "Otra").entries.count() == 2
    assert list(ClubChange.objects.filter(club=club, what__contains="_").values_list(
        "what", flat=True).order_by("id"))[-4:] == [
        "retire_pair", "restore_pair", "retire_player", "restore_player"]


# ------------------------------------------------------------------------ the pages


def test_the_club_page_lists_the_retired_apart_and_brings_them_back() -> None:
    club, user, pairs = club_with_pairs(4)
    client = logged_in(user)
    bea = Player.objects.get(club=club, name="Bea")
    assert client.post(reverse("clubs:retire_pair", args=[club.slug, pairs[0].pk]),
                       {"retired": "1"}).status_code == 302
    assert client.post(reverse("clubs:retire_player", args=[club.slug, bea.pk]),
                       {"retired": "1"}).status_code == 302
    page = client.get(reverse("clubs:club", args=[club.slug])).content.decode()
    active, _, retired = page.partition("1 pareja retirada")
    assert "Ana y Bea" not in active.split('id="parejas"')[1] and "Ana y Bea" in retired
    assert "Retirados" in page
    form = client.get(reverse("clubs:new_competition", args=[club.slug])).content.decode()
    assert "Ana y Bea" not in form and "Carlos y Dani" in form
    client.post(reverse("clubs:retire_pair", args=[club.slug, pairs[0].pk]), {"retired": "0"})
    client.post(reverse("clubs:retire_player", args=[club.slug, bea.pk]), {"retired": "0"})
    form = client.get(reverse("clubs:new_competition", args=[club.slug])).content.decode()
    assert "Ana y Bea" in form


def test_the_merge_page_asks_for_the_yes_says_a_refusal_and_merges() -> None:
    club, user, ana, anita, _ = two_names_one_person()
    client = logged_in(user)
    url = reverse("clubs:merge_player", args=[club.slug, anita.pk])
    assert client.get(url).status_code == 200
    unconfirmed = client.post(url, {"keep": ana.pk})
    assert unconfirmed.status_code == 400 and Player.objects.filter(pk=anita.pk).exists()
    carlos = Player.objects.get(club=club, name="Carlos")
    refused = client.post(reverse("clubs:merge_player", args=[club.slug, ana.pk]),
                          {"keep": carlos.pk, "confirm": "on"})
    assert refused.status_code == 400
    assert "juegan los dos en Invierno" in refused.content.decode()
    done = client.post(url, {"keep": ana.pk, "confirm": "on"})
    assert done.status_code == 302 and not Player.objects.filter(pk=anita.pk).exists()
    assert logged_in(make_user("intruso")).get(
        reverse("clubs:merge_player", args=[club.slug, ana.pk])).status_code == 403
