"""Names the app makes, in the reader's language (issue 27, point 5, in part): a knockout's
games are named from what they are (round, tie, game) when shown, not by the words of
whoever made them, and a game lost on a pair's path says it was lost, not "place 2"."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from muscore.championships.models import Enrolment
from muscore.leagues import results
from muscore.leagues.models import Match

from .factory import knockout_phase

pytestmark = pytest.mark.django_db


def play_knockout(phase: object, boss: object) -> None:
    """Every game as it comes, made and played under Spanish (a table's tap in Spanish):
    each game won by the pair sitting first (the pairs swap sides each game), so a best of
    3 goes to its third game."""
    with translation.override("es"):
        for _step in range(40):
            match = (Match.objects.filter(competition__phase_group__phase=phase,
                                          first__isnull=False, second__isnull=False).unplayed()
                     .select_related("competition").order_by("pk").first())
            if match is None:
                return
            results.record_result(match, by=boss, juegos=[1, 0])


@pytest.mark.parametrize(("language", "game", "lost", "final"),
                         [("fr", "partie", "perdue", "Finale"),
                          ("es", "partida", "perdida", "Final")])
def test_a_pair_s_path_names_its_games_in_the_reader_s_language(
    language: str, game: str, lost: str, final: str,
) -> None:
    championship, boss, phase = knockout_phase(best_of=3)
    play_knockout(phase, boss)
    games = Match.objects.filter(competition__phase_group__phase=phase)
    assert games.filter(game=3).exists()  # made in Spanish
    # A pair that played the final: it lost a game on its way (each tie went to 3).
    final_game = games.select_related("first").order_by("-tie__round", "tie__order").first()
    assert final_game is not None and final_game.first is not None
    pair_id = final_game.first.pair_id
    enrolment = Enrolment.objects.get(championship=championship, phase_pair_id=pair_id)
    page = Client(HTTP_ACCEPT_LANGUAGE=language).get(
        f"/campeonatos/{championship.pk}/parejas/{enrolment.pk}/")
    assert page.status_code == 200
    path = page.content.decode()
    path = path[path.index("data-path"):]
    path = path[:path.index("</ol>")]
    other = {"partie": "partida", "partida": "partie"}[game]
    assert f"{game} 3" in path and f"{other} " not in path, path
    assert f"Final · {final}" in path or f"· {final}" in path, path
    assert lost in path and "2.º" not in path, path
