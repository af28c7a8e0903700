"""Every consequence known to the owner of a result (issue 27 item 1): whatever was drawn
or played from a result (a championship tie's deciding game, the next round's tie, a phase
drawn from a group or from a heat, a ceros round, a league's knockout match) makes it final
for its table, whichever app drew it; and every door on that result (the table's undo, a
corrected hand, a hand or piedras on the won vaca, a pair's link, an organiser's
correction without reset) is refused, changes nothing, and names what depends on it.

The results here are all the table's own and fresh (inside the table's minutes), so the
only thing that makes them final is what was drawn from them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from muscore.championships import knockout, services
from muscore.leagues import ceros_rounds, competitions, confirmations, results
from muscore.leagues.models import Competition, Match
from muscore.leagues.models.knockout import game_title
from muscore.leagues.results import consequences
from muscore.messages import WordedError
from muscore.tables import services as tables
from muscore.tables.models import Table
from tests.championships.factory import open_games, small_championship
from tests.leagues.factory import club_with_pairs
from tests.leagues.helpers import ORDAGO_A, ORDAGO_B, PLAIN, game

pytestmark = pytest.mark.django_db

# A vaca of 3 juegos the first pair wins 3-1 (the league's own kinds play to 3 juegos).
VACA_3_1 = [PLAIN, ORDAGO_A, ORDAGO_B, PLAIN, ORDAGO_A, ORDAGO_A]


def on_table(match: Match, by: Any) -> Table:
    """The match played on its table, its first pair winning (one órdago for a championship's
    vaca of 1 juego, 3-1 for a league's of 3)."""
    table = competitions.open_table(match, by=by)
    records = [ORDAGO_A] if match.competition.rules.get("juegos") == 1 else VACA_3_1
    for record in records:
        tables.add_hand(table, record, via="edit_link")
    match.refresh_from_db()
    assert match.outcome.source == "table" and match.outcome.winner == 0, match.outcome
    return table


def play_on_tables(competition: Competition, by: Any) -> None:
    """Every match of `competition` (a knockout's as its pairs become known) on a table."""
    while True:
        match = (competition.matches.filter(first__isnull=False,
                                            second__isnull=False).unplayed()
                 .select_related("competition").order_by("number").first())
        if match is None:
            return
        on_table(match, by)


@dataclass
class Case:
    """A result (played on `table`) and the names that must appear in every refusal."""

    match: Match
    table: Table
    by: Any
    names: list[str]


def _championship_with_heats_on_tables() -> tuple[Any, Any]:
    championship, boss, barmen = small_championship()
    services.close_entries(championship, by=boss)
    for sede, barman in zip(championship.sedes.order_by("id"), barmen, strict=True):
        heat = services.start_heat(sede, by=barman, draw=list(range(
            sede.enrolments.filter(status="entered").count())))
        play_on_tables(heat, barman)
    championship.barman = barmen[0]
    return championship, boss


def knockout_final_played() -> Case:
    """A best-of-3 knockout played on tables to its champion: a semifinal's first game is
    what the final was drawn from."""
    championship, boss = _championship_with_heats_on_tables()
    phase = services.add_phase(championship, by=boss, name="Eliminatoria", knockout=True,
                               best_of=3)
    phase = services.draw_phase(phase, by=boss, seed="Txapelketa")
    while games := open_games(phase):
        for played in games:
            on_table(played, boss)
    state = knockout.bracket(phase)
    assert state is not None and state.champion is not None
    match = Match.objects.select_related("competition", "table").get(
        pk=state.rounds[-2][0].games[0].pk)
    assert match.table is not None
    final = [game_title(g.competition, g.tie, g.game) for g in state.rounds[-1][0].games]
    return Case(match, match.table, boss, final[:1])


def tie_deciding_game_played() -> Case:
    """A first-round tie at one all, its third game played: games 1 and 2 are what it was
    drawn from (the next round's tie not played yet)."""
    championship, boss = _championship_with_heats_on_tables()
    phase = services.add_phase(championship, by=boss, name="Eliminatoria", knockout=True,
                               best_of=3)
    phase = services.draw_phase(phase, by=boss, seed="Txapelketa")
    state = knockout.bracket(phase)
    assert state is not None
    tie = next(t for t in state.rounds[0] if not t.bye)
    for played in tie.games:
        on_table(played, boss)
    state = knockout.bracket(phase)
    assert state is not None
    tie = state.rounds[0][tie.order]
    assert tie.wins == [1, 1] and len(tie.games) == 3
    on_table(tie.games[2], boss)
    match = Match.objects.select_related("competition", "table").get(pk=tie.games[1].pk)
    assert match.table is not None
    return Case(match, match.table, boss, [game_title(match.competition, tie.games[2].tie, 3)])


def phase_drawn_from_a_group() -> Case:
    championship, boss = _championship_with_heats_on_tables()
    semifinal = services.draw_phase(
        services.add_phase(championship, by=boss, name="Semifinal"), by=boss, seed="s")
    for group in semifinal.groups.select_related("competition"):
        play_on_tables(group.competition, boss)
    final = services.add_phase(championship, by=boss, name="Gran final", level=2)
    services.draw_phase(final, by=boss, seed="f")
    group = semifinal.groups.select_related("competition").first()
    assert group is not None
    match = group.competition.matches.select_related("competition", "table").first()
    assert match is not None and match.table is not None
    return Case(match, match.table, boss, ["Gran final"])


def phase_drawn_from_a_heat() -> Case:
    championship, boss = _championship_with_heats_on_tables()
    services.draw_phase(services.add_phase(championship, by=boss, name="Semifinal"), by=boss,
                        seed="s")
    sede = championship.sedes.order_by("id").first()
    assert sede is not None and sede.heat is not None
    match = sede.heat.matches.select_related("competition", "table").first()
    assert match is not None and match.table is not None
    return Case(match, match.table, championship.barman, ["Semifinal"])


def ceros_round_drawn() -> Case:
    club, user, pairs = club_with_pairs(3)
    competition = competitions.create_competition(
        club, by=user, name="Ceros de diciembre", pairs=pairs, format="ceros", ceros=2,
        draw=[0, 1, 2])
    ceros_rounds.make_round(competition, by=user)
    first = ceros_rounds.publish_round(competition, by=user).matches.select_related(
        "competition").get()
    table = on_table(first, user)
    ceros_rounds.make_round(competition, by=user)
    ceros_rounds.publish_round(competition, by=user)
    return Case(first, table, user, ["Ceros de diciembre · ronda 2"])


def league_knockout_started() -> Case:
    """A cup (2 groups, then semifinals): a semifinal played on its table, the final then
    being played at its own (one hand entered)."""
    club, user, pairs = club_with_pairs(8)
    competition = competitions.create_competition(
        club, by=user, name="Copa", pairs=pairs, format="groups", groups=2,
        draw=list(range(8)))
    for match in competition.matches.filter(tie__isnull=True).select_related("competition"):
        results.record_result(match, by=user, juegos=[3, 1])
    sf1 = game(competition, "sf1")
    table = on_table(sf1, user)
    for slot in ("sf2",):
        results.record_result(game(competition, slot), by=user, juegos=[3, 0])
    final = game(competition, "final")
    tables.add_hand(competitions.open_table(final, by=user), PLAIN, via="edit_link")
    return Case(sf1, table, user, [f"Copa · partida {final.number}"])


KINDS: dict[str, Callable[[], Case]] = {
    "championship final": knockout_final_played,
    "championship tie's game 3": tie_deciding_game_played,
    "phase from a group": phase_drawn_from_a_group,
    "phase from a heat": phase_drawn_from_a_heat,
    "ceros round": ceros_round_drawn,
    "league knockout": league_knockout_started,
}


def said(error: WordedError) -> tuple[str, str]:
    """The refusal in Spanish (a page) and English (the API)."""
    with translation.override("es"):
        spanish = error.page_message()
    return spanish, str(error)


def snapshot(case: Case) -> tuple[Any, ...]:
    match = Match.objects.get(pk=case.match.pk)
    table = Table.objects.get(pk=case.table.pk)
    return ((match.outcome, match.players), match.outcome.source, match.result_at, table.revision,
            list(table.hands.order_by("number").values_list("record", flat=True)))


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_door_on_a_result_something_was_drawn_from_is_refused(kind: str) -> None:
    case = KINDS[kind]()
    match = Match.objects.select_related("competition").get(pk=case.match.pk)
    assert results.is_final(match)
    depending = consequences.dependents(match)
    assert all(any(name in d for d in depending) for name in case.names), depending
    before = snapshot(case)
    last = case.table.hands.count()
    table_doors: list[Callable[[], object]] = [
        lambda: tables.undo_last(case.table, via="edit_link"),
        lambda: tables.replace_hand(case.table, last, ORDAGO_B, via="edit_link"),
    ]
    for door in table_doors:
        with pytest.raises(tables.ResultSettled) as refused:
            door()
        spanish, english = said(refused.value)
        assert "definitivo" in spanish and "depende" in spanish
        assert "final" in english and "on it" in english
        for name in case.names:
            assert name in spanish and name in english
        assert snapshot(case) == before
    # The API's undo with the table's edit key: 409, the same words, nothing undone.
    response = Client().delete(f"/api/v1/tables/{case.table.pk}/hands/last",
                               headers={"X-Table-Key": case.table.edit_key})
    assert response.status_code == 409
    assert all(name in response.json()["error"] for name in case.names)
    assert snapshot(case) == before
    # A pair's link: the result is there, and what depends on it is named.
    with pytest.raises(confirmations.ClaimForbidden) as refused:
        confirmations.claim(match, side=1, juegos=_flipped(match))
    for name in case.names:
        assert name in str(refused.value)
    # The organiser's correction that changes who won, without resetting what follows.
    for correct in (
        lambda: results.record_result(match, by=case.by, juegos=_flipped(match),
                                      reason="acta"),
        lambda: results.clear_result(match, by=case.by, reason="un error"),
    ):
        with pytest.raises(results.CompetitionError) as refused:
            correct()
        message = str(refused.value)
        assert any(name in message or name.split(" · ")[-1] in message
                   for name in case.names), message
        assert snapshot(case) == before


def _flipped(match: Match) -> list[int]:
    rules = match.competition.rules
    juegos = int(rules.get("juegos", 3))
    return [0, juegos]


def test_a_later_vaca_stays_the_table_s_own() -> None:
    """What the players play after the result's vaca is theirs: no refusal."""
    case = phase_drawn_from_a_heat()
    before = snapshot(case)
    tables.add_hand(case.table, PLAIN, via="edit_link")  # the next vaca
    tables.add_piedras(case.table, "A", 2, via="edit_link")
    tables.undo_last(case.table, via="edit_link")
    assert snapshot(case)[:3] == before[:3]


def test_the_undo_of_a_semifinal_game_after_the_final_keeps_the_champion() -> None:
    """Issue 27 item 1 as it was found: the edit key of a semifinal game's table, after
    the final, undid its last hand and wiped the champion."""
    case = knockout_final_played()
    phase = Competition.objects.get(pk=case.match.competition_id).phase_group.phase
    championship_id = phase.championship_id
    api = f"/api/v1/championships/{championship_id}"
    champion = Client().get(api).json()["champion"]
    assert champion is not None
    response = Client().delete(f"/api/v1/tables/{case.table.pk}/hands/last",
                               headers={"X-Table-Key": case.table.edit_key})
    assert response.status_code == 409
    assert "Final · partida 1" in response.json()["error"]
    assert Client().get(api).json()["champion"] == champion
    state = knockout.bracket(phase)
    assert state is not None and state.champion is not None
    name = state.enrolments[state.champion].name
    for page in ("detail", "tv"):
        args = [championship_id] if page == "detail" else [championship_id, phase.pk]
        text = Client().get(reverse(f"championships:{page}", args=args)).text
        assert f"Campeones: {name}" in text, page


def test_an_unplayed_group_of_a_drawn_phase_is_not_deleted_by_the_club_s_door() -> None:
    """Issue 27 item 7: `POST /club/<slug>/liga/<id>/borrar` deleted an unplayed group of a
    drawn championship phase (the draw listed a group the page no longer had)."""
    championship, boss = _championship_with_heats_on_tables()
    phase = services.draw_phase(
        services.add_phase(championship, by=boss, name="Semifinal"), by=boss, seed="s")
    groups = phase.groups.count()
    group = phase.groups.select_related("competition__club").first()
    assert group is not None and not group.competition.matches.played().exists()
    competition = group.competition
    client = Client()
    client.force_login(boss)
    url = reverse("leagues:delete_competition", args=[competition.club.slug, competition.pk])
    for language, words in (("es", "es parte de"), ("en", "is part of")):
        response = client.post(url, HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 409
        assert words in response.text and "Semifinal" in response.text
    assert phase.groups.count() == groups and Competition.objects.filter(
        pk=competition.pk).exists()
    # A venue's heat too: its championship's draw reads it.
    sede = championship.sedes.order_by("id").first()
    assert sede is not None and sede.heat is not None
    client.force_login(championship.barman)
    response = client.post(reverse("leagues:delete_competition",
                                   args=[sede.heat.club.slug, sede.heat.pk]))
    assert response.status_code == 409 and Competition.objects.filter(pk=sede.heat_id).exists()
