"""The axe tour beyond the tables (issue 30 point 8): the clubs, a league's pages, the
bar's TV, the rules' sections, the import, and a championship's pages (its page, a
phase, the hall's TV, a venue, a pair), in Spanish, English, Basque and French, light and
dark, with the checks of tests/browser/test_axe.py."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import Browser

from tests.browser.test_axe import assert_tours_pass
from tests.championships.factory import drawn_semifinal
from tests.clubs.factory import make_club, make_league, make_user

pytestmark = pytest.mark.django_db(transaction=True)


def club_pages() -> dict[str, str]:
    club = make_club("Bar Axe")
    league = make_league(club, 4, results=1)
    player = club.players.order_by("id").first()
    base = f"/club/{club.slug}"
    return {
        "clubs": "/clubs/",
        "club": f"{base}/",
        "standings": f"{base}/liga/{league.id}/",
        "rounds": f"{base}/liga/{league.id}/jornadas",
        "club-tv": f"{base}/tv/",
        "levels": f"{base}/niveles/",
        "leaders": f"{base}/lideres/",
        "player": f"{base}/jugador/{player.id}/",
        "rating-method": "/nivel/",
        "rules-section": "/reglas/lances/",
        "import": "/importar",
    }


def championship_pages() -> dict[str, str]:
    championship, _boss, _barmen, phase = drawn_semifinal()
    sede = championship.sedes.order_by("id").first()
    enrolment = sede.enrolments.order_by("id").first()
    pk = championship.pk
    return {
        "championships": reverse("championships:index"),
        "championship": reverse("championships:detail", args=[pk]),
        "phase": reverse("championships:phase", args=[pk, phase.pk]),
        "phase-tv": reverse("championships:tv", args=[pk, phase.pk]),
        "sede": reverse("championships:sede", args=[pk, sede.pk]),
        "pair": reverse("championships:pair", args=[pk, enrolment.pk]),
        "entry-form": reverse("championships:enter", args=[pk]),
    }


def organiser_pages() -> tuple[Any, dict[str, str]]:
    """A club's organiser and the pages only he sees (his club's page with its forms, the
    competitions he runs, the club's settings and people), issue 30."""
    organiser = make_user("maite")
    club = make_club("Bar Axe", organiser)
    league = make_league(club, 4, results=1)
    pair = club.pairs.order_by("id").first()
    player = club.players.order_by("id").first()
    base = f"/club/{club.slug}"
    return organiser, {
        "club-organiser": f"{base}/",
        "club-edit": f"{base}/editar",
        "organisers": f"{base}/organizadores",
        "new-player": f"{base}/jugadores/nuevo",
        "edit-player": f"{base}/jugadores/{player.id}/",
        "new-pair": f"{base}/parejas/nueva",
        "edit-pair": f"{base}/parejas/{pair.id}/editar",
        "new-competition": f"{base}/ligas/nueva",
        "import-competition": f"{base}/ligas/importar",
        "competition-organiser": f"{base}/liga/{league.id}/",
        "rounds-organiser": f"{base}/liga/{league.id}/jornadas",
        "night": f"{base}/noche/",
        "new-championship": reverse("championships:new", args=[club.slug]),
    }


def championship_organiser_pages() -> list[tuple[Any, dict[str, str]]]:
    """The federation's organiser at his championship's pages, and a bar's at its venue's."""
    championship, boss, barmen, phase = drawn_semifinal()
    sede = championship.sedes.order_by("id").first()
    pk = championship.pk
    return [
        (boss, {
            "championship-organiser": reverse("championships:detail", args=[pk]),
            "phase-organiser": reverse("championships:phase", args=[pk, phase.pk]),
        }),
        (barmen[0], {"sede-organiser": reverse("championships:sede", args=[pk, sede.pk])}),
    ]


# One test for each set of pages, its rows built once and toured in each language in turn
# (a context of its own for each language), not a test for each language building the
# same rows again: the tours only read. The long tests are dealt out first (tests/conftest.py),
# so a test of four tours no longer leaves one worker alone at the end.
def test_the_club_league_and_rules_pages_have_no_axe_violation(
    browser: Browser, live_server: Any
) -> None:
    assert_tours_pass(browser, live_server, [(None, club_pages())])


def test_the_championship_pages_have_no_axe_violation(
    browser: Browser, live_server: Any
) -> None:
    assert_tours_pass(browser, live_server, [(None, championship_pages())])


def test_the_organisers_pages_have_no_axe_violation(
    browser: Browser, live_server: Any
) -> None:
    # The club's organiser, the federation's and a bar's, one after the other in the same
    # phone (their session cookies swapped): one tab a language, not three.
    assert_tours_pass(browser, live_server, [organiser_pages(), *championship_organiser_pages()])
