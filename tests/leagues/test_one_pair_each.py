"""A person plays a competition for one pair (issue 17, item 2): before, two pairs with
the same two players and a third with one of them were entered and drawn, one player sat
at three tables in round 1 and "Jugar" seated the same people on both sides."""

from __future__ import annotations

import pytest

from muscore.leagues import competitions
from muscore.leagues.competitions import CompetitionError
from muscore.leagues.models import Competition, Entry
from tests.clubs.factory import logged_in, make_club, make_pair, make_user

from .factory import club_with_pairs, liguilla

pytestmark = pytest.mark.django_db


def test_a_competition_with_a_person_in_two_pairs_is_refused_naming_his_pair() -> None:
    club, user, pairs = club_with_pairs(3)
    twice = make_pair(club, "Ana", "Zuriñe")  # Ana already plays with Bea (pairs[0])
    before = Competition.objects.count()
    with pytest.raises(CompetitionError) as refused:
        competitions.create_competition(club, by=user, name="Liga", pairs=[*pairs, twice],
                                        draw=[0, 1, 2, 3])
    text = str(refused.value)
    assert "Ana" in text and pairs[0].name in text and twice.name in text
    assert Competition.objects.count() == before


def test_a_competition_entered_before_the_check_is_not_drawn() -> None:
    club, user, pairs = club_with_pairs(3)
    competition = competitions.create_competition(club, by=user, name="Liga", pairs=pairs)
    # As an older competition could be: a fourth pair with one of the players entered.
    Entry.objects.create(competition=competition, pair=make_pair(club, "Carlos", "Xabi"),
                         index=3)
    with pytest.raises(CompetitionError, match="Carlos"):
        competitions.record_draw(competition, [0, 1, 2, 3], by=user)
    competition.refresh_from_db()
    assert competition.draw is None and not competition.matches.exists()


def test_a_substitute_never_sits_against_his_own_pair() -> None:
    competition, user = liguilla(4)
    match = competition.matches.select_related("first__pair", "second__pair").order_by(
        "number")[0]
    assert match.first is not None and match.second is not None
    own_player = match.second.pair.player_names()[0]
    replaced = match.first.pair.player_names()[1]
    # He does not sit for his pair today (a substitute does)...
    competitions.substitute(match, by=user, side=1, replaced=own_player, substitute="Zigor")
    # ...and still cannot sit against it.
    with pytest.raises(CompetitionError, match=match.second.pair.name):
        competitions.substitute(match, by=user, side=0, replaced=replaced,
                                substitute=own_player)
    match.refresh_from_db()
    assert match.players_first is None


def test_the_new_competition_page_says_who_is_in_two_pairs() -> None:
    user = make_user()
    club = make_club(organiser=user)
    first = make_pair(club, "Ana", "Bea")
    second = make_pair(club, "Carlos", "Dani")
    third = make_pair(club, "Bea", "Eva")
    answer = logged_in(user).post(f"/club/{club.slug}/ligas/nueva", {
        "name": "Liga", "format": "liguilla", "legs": 1, "groups": 2, "ceros": 3,
        "pairs": [first.pk, second.pk, third.pk],
        "reyes": 8, "target": 40, "juegos": 3, "real31": "no",
        "win": 2, "loss": 0, "forfeit": -1,
    })
    page = answer.content.decode()
    assert answer.status_code == 400, page[:500]
    assert "Bea" in page and first.name in page
    assert not Competition.objects.filter(club=club).exists()
