"""One person at one table per round, and a pair's claim against its table's result
(issue 27 item 3): a substitute taken from another pair of the same competition while that
pair plays the same round sat one person at two tables; a pair's claim (3-0) sent while
its table was being played (3-1) was closed silently."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from muscore.clubs.models import Player
from muscore.leagues import competitions, confirmations, results
from muscore.leagues.competitions import CompetitionError
from muscore.leagues.models import ClaimEvent, Match, ResultClaim
from muscore.tables import services as tables
from tests.clubs.factory import logged_in

from .factory import liguilla
from .helpers import ORDAGO_A, ORDAGO_B, PLAIN

pytestmark = pytest.mark.django_db


def round_matches(competition: object, number: int = 1) -> list[Match]:
    return list(Match.objects.filter(competition=competition, round__number=number)
                .exclude(first=None).exclude(second=None)
                .select_related("first__pair", "second__pair").order_by("number"))


def test_a_substitute_who_plays_another_table_of_the_round_is_refused() -> None:
    competition, user = liguilla(5)  # 5 pairs: each round two matches and a pair resting
    first, second = round_matches(competition)
    playing = competitions.match_players(second)[0][0]  # sits at the other table
    own = competitions.match_players(first)[0][0]
    before = (first.outcome, first.players), first.players_first
    for language, words in (("es", "ya se sienta en la partida"),
                            ("en", "already sits at match")):
        with translation.override(language), pytest.raises(CompetitionError) as refused:
            competitions.substitute(first, by=user, side=0, replaced=own, substitute=playing)
        assert words in str(refused.value) and playing in str(refused.value)
        assert str(second.number) in str(refused.value)
    first.refresh_from_db()
    assert ((first.outcome, first.players), first.players_first) == before
    # A substitute already seated at the other table (for another pair) is refused too.
    outsider = "Koldo Zubiri"
    competitions.substitute(second, by=user, side=1,
                            replaced=competitions.match_players(second)[1][0],
                            substitute=outsider)
    with pytest.raises(CompetitionError, match="ya se sienta"):
        competitions.substitute(first, by=user, side=0, replaced=own, substitute=outsider)
    # The pair resting this round may lend a player.
    seated = {n for m in round_matches(competition) for side in competitions.match_players(m)
              for n in side}
    resting = next(e for e in competition.entries.select_related("pair")
                   if not set(e.pair.player_names()) & seated)
    lent = resting.pair.player_names()[0]
    competitions.substitute(first, by=user, side=0, replaced=own, substitute=lent)
    first.refresh_from_db()
    assert first.players_first is not None and lent in first.players_first
    # Through the match page's form as well: 400 with the reason, nothing changed.
    client = logged_in(user)
    url = reverse("clubs:substitute", args=[competition.club.slug, competition.pk,
                                            first.number])
    assert first.second is not None
    replaced = Player.objects.filter(memberships__pair=first.second.pair).first()
    assert replaced is not None
    response = client.post(url, {"side": "1", "s1-replaced": str(replaced.pk),
                                 "s1-substitute": playing}, HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code in (400, 409) and "ya se sienta" in response.content.decode()
    first.refresh_from_db()
    assert first.players_second is None


def test_a_claim_sent_while_its_table_plays_to_another_result_is_a_dispute() -> None:
    competition, user = liguilla(2)
    match = competition.matches.select_related("competition").get()
    table = competitions.open_table(match, by=user)
    tables.add_hand(table, PLAIN, via="edit_link")  # the table is being played
    claim = confirmations.claim(match, side=0, juegos=[3, 0])  # 3-0, says the first pair
    for record in (ORDAGO_A, ORDAGO_B, PLAIN, ORDAGO_A, ORDAGO_A):
        tables.add_hand(table, record, via="edit_link")
    match.refresh_from_db()
    assert (match.outcome.source, match.outcome.juegos) == ("table", (3, 1))
    client = logged_in(user)
    night = client.get(reverse("clubs:night", args=[competition.club.slug]),
                       HTTP_ACCEPT_LANGUAGE="es").content.decode()
    claim.refresh_from_db()
    assert claim.status == ResultClaim.Status.DISPUTED  # flagged, not closed
    assert ClaimEvent.objects.filter(claim=claim, action="differs").count() == 1
    assert "data-disputed" in night
    page = client.get(reverse("clubs:match", args=[competition.club.slug, competition.pk,
                                                   match.number]),
                      HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "no coincide con el resultado de su mesa" in page
    confirmations.accept_due(competition=competition)  # settled once: no second flag
    assert ClaimEvent.objects.filter(claim=claim, action="differs").count() == 1
    # The organiser decides: the claim over the table's result is a correction, with why.
    with pytest.raises(results.ReasonRequired):
        confirmations.accept(match, by=user)
    confirmations.accept(match, by=user, note="el acta firmada dice 3-0")
    match.refresh_from_db()
    assert (match.outcome.source, match.outcome.juegos) == ("manual", (3, 0))


def test_a_claim_the_table_agrees_with_is_closed_as_before() -> None:
    competition, user = liguilla(2)
    match = competition.matches.select_related("competition").get()
    table = competitions.open_table(match, by=user)
    claim = confirmations.claim(match, side=1, juegos=[3, 1])
    for record in (PLAIN, ORDAGO_A, ORDAGO_B, PLAIN, ORDAGO_A, ORDAGO_A):
        tables.add_hand(table, record, via="edit_link")
    confirmations.accept_due(competition=competition)
    claim.refresh_from_db()
    assert claim.status == ResultClaim.Status.SUPERSEDED
