"""The last phase as a knockout: the seeded bracket, ties to one vaca or the best of 3,
the third place, the champion; its results only through the league's result functions."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from muscore.championships import knockout, services
from muscore.championships.models import Phase
from muscore.championships.services import ChampionshipError
from muscore.leagues import results
from muscore.leagues.models import Match
from tests.championships.factory import knockout_phase, open_games, play_all, small_championship
from tests.clubs.factory import logged_in

pytestmark = pytest.mark.django_db


def test_the_bracket_keeps_the_best_seeds_apart_and_gives_them_the_byes() -> None:
    assert knockout.bracket_order(8) == [0, 7, 3, 4, 1, 6, 2, 5]
    places = knockout.place_pairs([10, 11, 12, 13, 14, 15], seeded=2, seed="s")
    assert len(places) == 8 and places.count(None) == 2
    # Seeds 1 and 2 are in opposite halves and each has a bye.
    assert places[0] == 10 and places[1] is None
    assert places[4] == 11 and places[5] is None
    assert knockout.place_pairs([1, 2, 3, 4, 5], 1, "x") == knockout.place_pairs(
        [1, 2, 3, 4, 5], 1, "x")
    with pytest.raises(knockout.KnockoutError):
        knockout.place_pairs([1], 1, "x")


def test_a_knockout_to_one_vaca_with_third_place_ends_with_its_champion() -> None:
    championship, boss, phase = knockout_phase(third_place=True)
    state = knockout.bracket(phase)
    assert state is not None
    # 6 pairs: 8 places, the 2 best seeds (two of the three heat winners) get a bye.
    assert [len(r) for r in state.rounds] == [4, 2, 1]
    assert sum(t.bye for t in state.rounds[0]) == 2
    assert len(open_games(phase)) == 2  # the two first-round ties that are played
    assert services.champion(championship) is None
    played = 0
    while games := open_games(phase):
        for competition in games:
            play_all(competition, boss)  # league.record_result: the first entered wins
            played += 1
    # 2 first-round ties, 2 semifinals, the final and the third place: one vaca each.
    assert played == 6
    state = knockout.bracket(phase)
    assert state is not None and state.third is not None and state.third.winner is not None
    assert knockout.finished(phase)
    champion = services.champion(championship)
    assert champion is not None and champion.pk == state.champion
    assert {state.third.first, state.third.second} == {
        t.loser for t in state.rounds[1]}


def test_a_best_of_3_tie_plays_a_third_game_only_at_one_all() -> None:
    championship, boss, phase = knockout_phase(best_of=3)
    state = knockout.bracket(phase)
    assert state is not None
    tie = next(t for t in state.rounds[0] if not t.bye)
    assert len(tie.games) == 2  # both games of a best of 3 at once
    first_game, second_game = tie.games
    play_all(first_game, boss)
    # The second game swaps the sides: its first entry is the tie's second pair, who wins.
    play_all(second_game, boss)
    state = knockout.bracket(phase)
    assert state is not None
    tie = state.rounds[0][tie.order]
    assert tie.wins == [1, 1] and tie.winner is None and len(tie.games) == 3
    match = tie.games[2]
    results.record_result(match, by=boss, juegos=[1, 0])
    state = knockout.bracket(phase)
    assert state is not None and state.rounds[0][tie.order].winner == tie.first
    # Another tie won 2-0 needs no third game.
    other = next(t for t in state.rounds[0] if not t.bye and t.order != tie.order)
    for game in other.games:
        match = game
        assert match.first is not None
        first_is_tie_first = match.first.pair_id == state.enrolments[other.first or 0].phase_pair_id
        results.record_result(match, by=boss, juegos=[1, 0] if first_is_tie_first else [0, 1])
    state = knockout.bracket(phase)
    assert state is not None
    decided = state.rounds[0][other.order]
    assert decided.wins == [2, 0] and decided.winner == other.first and len(decided.games) == 2


def test_a_knockout_is_the_last_phase_and_one_vaca_or_best_of_3() -> None:
    championship, boss, _ = small_championship()
    with pytest.raises(ChampionshipError, match="mejor de 3"):
        services.add_phase(championship, by=boss, name="Final", knockout=True, best_of=2)
    services.add_phase(championship, by=boss, name="Final", knockout=True)
    with pytest.raises(ChampionshipError, match="última fase"):
        services.add_phase(championship, by=boss, name="Después", level=2)


def test_the_page_and_the_hall_screen_show_the_bracket_and_the_champion() -> None:
    championship, boss, phase = knockout_phase(third_place=True)
    client = logged_in(boss)
    page = client.get(reverse("championships:detail", args=[championship.pk]))
    assert page.status_code == 200
    assert "data-bracket" in page.text and "Semifinales" in page.text
    assert "Tercer puesto" in page.text
    while games := open_games(phase):
        for competition in games:
            play_all(competition, boss)
    champion = services.champion(championship)
    assert champion is not None
    page = Client().get(reverse("championships:detail", args=[championship.pk]))
    assert f"Campeones: {champion.name}" in page.text
    tv = Client().get(reverse("championships:tv", args=[championship.pk, phase.pk]))
    assert tv.status_code == 200 and "data-bracket" in tv.text and champion.name in tv.text


def test_the_phase_form_adds_a_knockout_and_refuses_a_bad_one() -> None:
    championship, boss, _ = small_championship()
    client = logged_in(boss)
    add = reverse("championships:add_phase", args=[championship.pk])
    bad = client.post(add, {"name": "Final", "level": 1, "advance": 1, "knockout": "on",
                            "best_of": 2})
    assert bad.status_code == 400 and not championship.phases.exists()
    good = client.post(add, {"name": "Final", "level": 1, "advance": 1, "knockout": "on",
                             "best_of": 3, "third_place": "on"})
    assert good.status_code == 302
    phase = championship.phases.get()
    assert phase.knockout and phase.best_of == 3 and phase.third_place


def writes_of(path: str) -> list[str]:
    """The INSERT, UPDATE and DELETE statements of one anonymous GET of ``path``."""
    with CaptureQueriesContext(connection) as queries:
        assert Client().get(path).status_code == 200
    return [q["sql"] for q in queries.captured_queries
            if q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))]


def test_the_result_makes_the_final_and_reading_the_pages_writes_nothing() -> None:
    championship, boss, phase = knockout_phase()
    state = knockout.bracket(phase)
    assert state is not None
    for tie in state.rounds[0]:
        for game in tie.games:
            play_all(game, boss)
    # The semifinals were made by the first round's results, with no page read.
    state = knockout.bracket(phase)
    assert state is not None
    semis = state.rounds[1]
    assert all(len(t.games) == 1 for t in semis) and not state.rounds[2][0].games
    play_all(semis[0].games[0], boss)
    pages = [reverse("championships:detail", args=[championship.pk]),
             reverse("championships:tv", args=[championship.pk, phase.pk])]
    pages += [reverse("championships:pair", args=[championship.pk, semis[0].first or 0]),
              reverse("championships:sede", args=[championship.pk,
                                                  championship.sedes.first().pk])]
    # A finished semifinal: every page reads it and writes nothing, twice.
    for path in pages * 2:
        assert writes_of(path) == []
    state = knockout.bracket(phase)
    assert state is not None and not state.rounds[2][0].games
    play_all(semis[1].games[0], boss)
    # The final exists right after the second semifinal's result is stored.
    state = knockout.bracket(phase)
    assert state is not None
    final = state.rounds[2][0]
    assert len(final.games) == 1
    assert {final.first, final.second} == {t.winner for t in state.rounds[1]}
    for path in pages:
        assert writes_of(path) == []


def test_one_all_in_a_best_of_3_makes_the_third_game_at_once() -> None:
    _championship, boss, phase = knockout_phase(best_of=3)
    state = knockout.bracket(phase)
    assert state is not None
    tie = next(t for t in state.rounds[0] if not t.bye)
    first, second = tie.games
    results.record_result(first, by=boss, juegos=[1, 0])
    results.record_result(second, by=boss, juegos=[1, 0])  # sides swapped: one all
    state = knockout.bracket(phase)
    assert state is not None and len(state.rounds[0][tie.order].games) == 3


def semifinal_and_final(phase: Phase) -> tuple[Match, Match]:
    state = knockout.bracket(phase)
    assert state is not None
    semi = state.rounds[-2][0].games[0]
    final = state.rounds[-1][0].games[0]
    return semi, final


def test_a_corrected_semifinal_remakes_an_unplayed_final_and_is_refused_after_it() -> None:
    """Issue 17 item 1 in a championship: a correction that changes who goes on never
    leaves the final with the old pairs. Unplayed, the final is made again for the new
    winner; played, the correction is refused with the reason and nothing changes."""
    championship, boss, phase = knockout_phase(third_place=False)
    while True:
        state = knockout.bracket(phase)
        assert state is not None
        if state.rounds[-1][0].games:
            break
        for competition in open_games(phase):
            play_all(competition, boss)
    semi, final = semifinal_and_final(phase)
    match = semi
    assert match.first is not None and match.second is not None
    before = knockout.bracket(phase)
    assert before is not None
    old_winner = before.rounds[-2][0].winner
    results.record_result(match, by=boss, juegos=[0, 1] if match.outcome.winner == 0 else [1, 0],
                          reason="Se anotó al revés")
    after = knockout.bracket(phase)
    assert after is not None
    new_winner = after.rounds[-2][0].winner
    assert new_winner != old_winner
    assert not Match.objects.filter(pk=final.pk).exists()  # the stale final is gone
    remade = after.rounds[-1][0]
    assert len(remade.games) == 1 and new_winner in (remade.first, remade.second)
    play_all(remade.games[0], boss)
    # The final is played: flipping the semifinal again is refused whole.
    match.refresh_from_db()
    with pytest.raises(results.CompetitionError, match="depende"):
        results.record_result(match, by=boss,
                              juegos=[0, 1] if match.outcome.winner == 0 else [1, 0],
                              reason="Otra vez")
    match.refresh_from_db()
    state = knockout.bracket(phase)
    assert state is not None and state.rounds[-2][0].winner == new_winner
    assert services.champion(championship) is not None
