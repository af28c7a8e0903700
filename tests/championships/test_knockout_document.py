"""A championship's knockout phase served as what it is (docs/league.md, "A knockout"):
GET /api/v1/leagues/<id> of its competition names each game's tie and gives the bracket
the championship's pages show, while the championship's own document keeps each game as
a liguilla of its two pairs, as before."""

from __future__ import annotations

import pytest
from django.test import Client

from muscore.championships import export, knockout, services
from muscore.championships.models import Enrolment, PhaseGroup
from muscore.leagues import documents
from muscore.leagues.models import Match
from tests.championships.factory import knockout_phase, open_games, play_all

pytestmark = pytest.mark.django_db


def test_the_api_document_of_a_championship_s_knockout_is_its_bracket() -> None:
    championship, boss, phase = knockout_phase(third_place=True, best_of=3)
    competition = PhaseGroup.objects.get(phase=phase).competition
    while games := open_games(phase):
        for game in games:
            play_all(game, boss)
    doc = Client().get(f"/api/v1/leagues/{competition.pk}").json()
    assert doc == {**documents.api_document(competition), "name": competition.title}
    assert doc["format"] == {"kind": "knockout", "best_of": 3, "third": True}
    assert "standings" not in doc
    # The places of the championship's draw, a bye null.
    index = dict(competition.entries.values_list("pair_id", "index"))
    of_enrolment = {e.pk: index[e.phase_pair_id] for e in Enrolment.objects.filter(
        championship=championship, phase_pair_id__in=index)}
    assert doc["draw"] == [of_enrolment[p] if p is not None else None
                           for p in phase.draw["bracket"]]
    # Every game as its tie and number say, its pairs as seated.
    games = list(Match.objects.filter(competition=competition).select_related(
        "tie", "first", "second").order_by("number"))
    assert [(m["round"], m["tie"], m["game"], m["pairs"]) for m in doc["matches"]] == [
        (g.tie.round, g.tie.order + 1, g.game, [g.first.index, g.second.index])
        for g in games if g.tie and g.first and g.second]
    # The bracket is the one the championship's pages read, tie by tie, and its champion.
    state = knockout.bracket(phase)
    assert state is not None and state.third is not None
    ties = [t for r in state.rounds for t in r]
    ties.insert(len(ties), state.third)

    def said(enrolment: int | None) -> int | None:
        return of_enrolment[enrolment] if enrolment is not None else None

    assert doc["bracket"] == [
        {"round": t.round, "tie": t.order + 1, "pairs": [said(t.first), said(t.second)],
         "wins": t.wins, "winner": said(t.winner)} for t in ties]
    final = next(t for t in doc["bracket"] if t["round"] == state.rounds[-1][0].round
                 and t["tie"] == 1)
    champion = services.champion(championship)
    assert champion is not None and final["winner"] == of_enrolment[champion.pk]


def test_the_championship_s_document_keeps_each_game_a_liguilla_of_its_pairs() -> None:
    championship, boss, phase = knockout_phase(best_of=3)
    competition = PhaseGroup.objects.get(phase=phase).competition
    first, second = open_games(phase)[:2]  # a tie's games 1 and 2, the sides swapped
    play_all(first, boss)
    play_all(second, boss)
    groups = export.championship_document(championship, 1)["phases"][-1]["groups"]
    assert groups == documents.game_documents(competition)
    one, two = (g for g in groups if "juegos" in g["matches"][0])
    for written in groups:
        assert list(written) == ["name", "rules", "points", "legs", "draw", "pairs",
                                 "matches"]
        assert written["legs"] == 1 and written["draw"] == [0, 1]
        assert [list(m) for m in written["matches"]] in ([["round", "pairs"]], [
            ["round", "pairs", "juegos"]])
        assert written["matches"][0]["round"] == 1 and written["matches"][0]["pairs"] == [0, 1]
    assert one["name"].endswith("partida 1") and two["name"].endswith("partida 2")
    assert one["matches"] == two["matches"] == [{"round": 1, "pairs": [0, 1],
                                                 "juegos": [1, 0]}]
    assert one["pairs"] == two["pairs"][::-1]
