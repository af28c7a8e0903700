"""A ceros tournament in the database (muscore.leagues.ceros_rounds): rounds drawn one
at a time, checked and published, results by hand, no-show and from a table, pairs out at
N ceros, the winner, the guard on a result a later round was drawn from, permissions."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import PermissionDenied

from muscore.leagues import ceros_rounds, competitions, results
from muscore.leagues.models import CerosDraft, CerosEvent, Competition, Correction, Match, Round
from muscore.tables import services as tables
from tests.clubs.factory import make_club, make_user

from .factory import club_with_pairs
from .helpers import ORDAGO_A, PLAIN

pytestmark = pytest.mark.django_db


def tournament(count: int = 5, ceros: int = 2, organiser: Any = None) -> tuple[Competition, Any]:
    club, user, pairs = club_with_pairs(count, organiser)
    competition = competitions.create_competition(
        club, by=user, name="Torneo a ceros", pairs=pairs, format="ceros", ceros=ceros,
        draw=[0, 1, 2, 3, 4][:count],  # ignored: a ceros draws round by round
    )
    return competition, user


def play_round(competition: Competition, user: Any, winner: int = 0) -> Round:
    """Draw, publish and play the next round by hand: side `winner` wins every match."""
    ceros_rounds.make_round(competition, by=user)
    round_ = ceros_rounds.publish_round(competition, by=user)
    for match in round_.matches.all():
        juegos = [3, 1] if winner == 0 else [1, 3]
        results.record_result(match, by=user, juegos=juegos, reason="acta")
    return round_


def test_a_round_is_drawn_checked_and_published_with_its_tables_and_bye() -> None:
    competition, user = tournament(5)
    assert competition.status == Competition.Status.DRAFT and competition.draw is None
    assert not competition.rounds.exists()
    draft = ceros_rounds.make_round(competition, by=user)
    assert draft.number == 1 and [t[0] for t in draft.tables] == [1, 2]
    assert not Round.objects.filter(competition=competition).exists(), "a draft is no round"
    # Asking again gives the same draft; a re-draw is a new one, and both are logged.
    assert ceros_rounds.make_round(competition, by=user).pk == draft.pk
    again = ceros_rounds.make_round(competition, by=user, redraw=True)
    assert again.seed != draft.seed
    round_ = ceros_rounds.publish_round(competition, by=user)
    assert not CerosDraft.objects.filter(competition=competition).exists()
    matches = list(round_.matches.order_by("number"))
    assert [m.table_number for m in matches] == [1, 2] and [m.number for m in matches] == [1, 2]
    seated = {m.first_id for m in matches} | {m.second_id for m in matches} | {round_.bye_id}
    assert len(seated) == 5 and round_.bye_id == again.bye_id
    assert list(CerosEvent.objects.filter(competition=competition).values_list(
        "action", flat=True)) == ["draw", "redraw", "publish"]
    competition.refresh_from_db()
    assert competition.status == Competition.Status.PLAYING


def test_no_round_is_drawn_while_a_result_is_missing() -> None:
    competition, user = tournament(4)
    ceros_rounds.make_round(competition, by=user)
    round_ = ceros_rounds.publish_round(competition, by=user)
    first, second = round_.matches.order_by("number")
    results.record_result(first, by=user, juegos=[3, 0], reason="acta")
    with pytest.raises(competitions.CompetitionError, match="Faltan resultados de la ronda 1"):
        ceros_rounds.make_round(competition, by=user)
    with pytest.raises(competitions.CompetitionError):
        ceros_rounds.publish_round(competition, by=user)
    results.record_no_show(second, by=user, who=1, reason="acta")
    assert ceros_rounds.make_round(competition, by=user).number == 2


def test_pairs_go_out_at_n_ceros_and_the_last_one_wins() -> None:
    competition, user = tournament(4, ceros=1)
    play_round(competition, user)
    state = ceros_rounds.table(competition)
    assert [r.ceros_left for r in state.rows] == [1, 1, 0, 0]
    assert {r.out_in_round for r in state.rows if not r.alive} == {1}
    play_round(competition, user)
    state = ceros_rounds.table(competition)
    assert state.winner is not None and state.winner == state.rows[0].entry
    assert [r.position for r in state.rows] == [1, 2, 3, 3]
    competition.refresh_from_db()
    assert competition.status == Competition.Status.FINISHED
    with pytest.raises(competitions.CompetitionError, match="ganadora"):
        ceros_rounds.make_round(competition, by=user)
    rows = ceros_rounds.rows_json(competition)
    assert rows[0]["position"] == 1 and rows[0]["lost"] == 0 and rows[0]["won"] == 2


def test_five_pairs_with_three_ceros_play_to_a_winner_and_byes_rotate() -> None:
    competition, user = tournament(5, ceros=3)
    for number in range(1, 40):
        state = ceros_rounds.table(competition)
        if state.winner is not None:
            break
        round_ = play_round(competition, user, winner=number % 2)
        alive = [r for r in ceros_rounds.table(competition).rows if r.alive]
        assert max(r.byes for r in alive) - min(r.byes for r in alive) <= 1
        assert round_.number == number
    state = ceros_rounds.table(competition)
    assert state.winner is not None
    assert sum(r.losses for r in state.rows) == Match.objects.filter(
        competition=competition).count()
    assert all(r.losses == 3 for r in state.rows if r.entry != state.winner)


def test_a_result_a_later_round_was_drawn_from_cannot_change_its_loser() -> None:
    competition, user = tournament(4, ceros=3)
    first_round = play_round(competition, user)
    match = first_round.matches.order_by("number").first()
    assert match is not None
    # Before round 2 is drawn any correction is fine; a draft made from it is discarded.
    ceros_rounds.make_round(competition, by=user)
    results.record_result(match, by=user, juegos=[1, 3], reason="acta")
    assert not CerosDraft.objects.filter(competition=competition).exists()
    assert CerosEvent.objects.filter(competition=competition, action="discard").exists()
    ceros_rounds.make_round(competition, by=user)
    ceros_rounds.publish_round(competition, by=user)
    match.refresh_from_db()
    corrections = Correction.objects.count()
    for change in (
        lambda: results.record_result(match, by=user, juegos=[3, 0], reason="acta"),
        lambda: results.record_no_show(match, by=user, who=1, reason="acta"),
        lambda: results.clear_result(match, by=user, reason="un error"),
    ):
        with pytest.raises(competitions.CompetitionError, match="ronda 2 ya está sorteada"):
            change()
    assert Correction.objects.count() == corrections
    # The juegos may still be corrected when the same pair lost.
    results.record_result(match, by=user, juegos=[2, 3], reason="acta")
    match.refresh_from_db()
    assert (match.outcome.juegos, match.outcome.winner) == ((2, 3), 1)


def test_a_ceros_match_always_has_a_loser() -> None:
    competition, user = tournament(4)
    ceros_rounds.make_round(competition, by=user)
    match = ceros_rounds.publish_round(competition, by=user).matches.first()
    assert match is not None
    with pytest.raises(competitions.CompetitionError, match="una de las dos parejas pierde"):
        results.record_no_show(match, by=user, who="both", reason="acta")
    match.refresh_from_db()
    assert not match.played


def test_a_match_played_on_its_table_counts_its_cero_by_itself() -> None:
    competition, user = tournament(2, ceros=1)
    ceros_rounds.make_round(competition, by=user)
    match = ceros_rounds.publish_round(competition, by=user).matches.get()
    table = competitions.open_table(match, by=user)
    for record in [ORDAGO_A, ORDAGO_A, ORDAGO_A, PLAIN]:
        tables.add_hand(table, record, via="edit_link")
        match.refresh_from_db()
        if match.played:
            break
    assert match.outcome.source == "table" and match.outcome.winner == 0
    state = ceros_rounds.table(competition)
    assert state.winner is not None and state.winner.pk == match.first_id


def test_the_club_s_organisers_only_and_nothing_written_otherwise() -> None:
    competition, user = tournament(4)
    other_club_organiser = make_user("otro")
    make_club("Otro bar", organiser=other_club_organiser)
    from django.contrib.auth.models import AnonymousUser

    for who in (AnonymousUser(), other_club_organiser):
        with pytest.raises(PermissionDenied):
            ceros_rounds.make_round(competition, by=who)
    assert not CerosDraft.objects.exists() and not CerosEvent.objects.exists()
    ceros_rounds.make_round(competition, by=user)
    for who in (AnonymousUser(), other_club_organiser):
        with pytest.raises(PermissionDenied):
            ceros_rounds.publish_round(competition, by=who)
    assert not Round.objects.exists()


def test_bad_ceros_and_a_draw_of_the_league_kind_are_refused() -> None:
    club, user, pairs = club_with_pairs(3)
    for ceros in (0, 6):
        with pytest.raises(competitions.CompetitionError, match="1 a 5"):
            competitions.create_competition(club, by=user, name="T", pairs=pairs, format="ceros",
                                        ceros=ceros)
    competition = competitions.create_competition(club, by=user, name="T", pairs=pairs,
                                              format="ceros", ceros=5)
    with pytest.raises(competitions.CompetitionError, match="ronda a ronda"):
        competitions.record_draw(competition, [0, 1, 2], by=user)
    liga = competitions.create_competition(club, by=user, name="L", pairs=pairs)
    with pytest.raises(competitions.CompetitionError, match="no es un torneo a ceros"):
        ceros_rounds.make_round(liga, by=user)
