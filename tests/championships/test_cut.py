"""A heat played a ceros (issue 27, point 6): its N chosen by the venue's organiser (1 to 5,
refused otherwise with the reason), and the rule at the quota's cut when pairs out in the
same round share the place there (docs/championship.md: more matches won, then the pair
entered first), applied and shown on the championship's page."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from muscore.championships import services
from muscore.championships.models import Championship, Sede
from muscore.leagues import ceros_rounds, results
from muscore.leagues.models import Competition, Match
from tests.clubs.factory import logged_in

from .factory import small_championship

pytestmark = pytest.mark.django_db

# Bar Txoko 5 pairs, Herriko Taberna 3: 6 seats, one each first, then Txoko 4, Herriko 2.
BARS = [("Bar Txoko", 5), ("Herriko Taberna", 3)]


def closed() -> tuple[Championship, Any, list[Any], Sede]:
    championship, boss, barmen = small_championship(seats=6, bars=BARS)
    services.close_entries(championship, by=boss)
    sede = championship.sedes.order_by("id").first()
    assert sede is not None
    sede.refresh_from_db()
    assert sede.quota == 4
    return championship, boss, barmen, sede


def heat_url(championship: Championship, sede: Sede) -> str:
    return f"/campeonatos/{championship.pk}/sedes/{sede.pk}/fase-previa/"


def test_the_venue_s_organiser_chooses_the_ceros_and_a_wrong_number_is_refused() -> None:
    championship, _boss, barmen, sede = closed()
    client = logged_in(barmen[0])
    for wrong in ("0", "6", "tres"):
        refused = client.post(heat_url(championship, sede), {"format": "ceros", "ceros": wrong})
        assert refused.status_code == 400
        assert "Los ceros para quedar fuera van de 1 a 5." in refused.content.decode()
        sede.refresh_from_db()
        assert sede.heat_id is None
    started = client.post(heat_url(championship, sede), {"format": "ceros", "ceros": "2"})
    assert started.status_code == 302
    sede.refresh_from_db()
    assert sede.heat is not None and sede.heat.format == "ceros" and sede.heat.ceros == 2
    # Not said: 3, as before.
    other = championship.sedes.order_by("id").last()
    assert other is not None
    logged_in(barmen[1]).post(heat_url(championship, other), {"format": "ceros"})
    other.refresh_from_db()
    assert other.heat is not None and other.heat.ceros == 3


def play_ceros(heat: Competition, by: Any) -> None:
    """Round after round, the first pair of each table wins, to the winner."""
    for _round in range(20):
        if ceros_rounds.table(heat).winner is not None:
            return
        ceros_rounds.make_round(heat, by=by)
        ceros_rounds.publish_round(heat, by=by)
        for match in Match.objects.filter(competition=heat).unplayed().select_related(
                "competition").order_by("number"):
            results.record_result(match, by=by, juegos=[1, 0])


def test_at_the_cut_the_pair_entered_first_of_those_out_together_goes_on() -> None:
    championship, _boss, barmen, sede = closed()
    heat = services.start_heat(sede, by=barmen[0], format="ceros", ceros=1)
    play_ceros(heat, barmen[0])
    heat.refresh_from_db()
    assert heat.status == Competition.Status.FINISHED
    table = ceros_rounds.table(heat)
    fourth, fifth = table.rows[3], table.rows[4]
    # Five pairs at one cero: two go out in round 1 and share the 4th place, where the
    # quota of 4 cuts; neither won a match.
    assert fourth.position == fifth.position == 4
    assert fourth.out_in_round == fifth.out_in_round == 1
    assert fourth.wins == fifth.wins == 0
    assert fourth.entry.index < fifth.entry.index  # the one entered first
    heat_of = services.qualified(championship)[sede.pk]
    assert [e.name for e in heat_of.qualified][-1] == fourth.entry.pair.name
    assert [e.name for e in heat_of.reserves] == [fifth.entry.pair.name]
    page = Client().get(f"/campeonatos/{championship.pk}/").content.decode()
    assert "data-cut-rule" in page
    assert "pasa la que ganó más partidas" in page


def test_the_rule_orders_more_wins_first_among_pairs_out_together() -> None:
    """The table's order of pairs out in the same round: more matches won first (the rule
    the page states), whatever their entry order."""
    championship, _boss, barmen, sede = closed()
    heat = services.start_heat(sede, by=barmen[0], format="ceros", ceros=2)
    play_ceros(heat, barmen[0])
    rows = ceros_rounds.table(heat).rows
    for better, worse in zip(rows, rows[1:], strict=False):
        if better.out_in_round == worse.out_in_round and better.out_in_round is not None:
            assert (better.wins, -better.entry.index) >= (worse.wins, -worse.entry.index)
