"""Issue 29 as it is checked: a volunteer whose phone speaks French finds the championship
from the home page by its links, an organiser (in French too) starts the round clock by its
button and saves the results, the hall's TV at 1920x1080 holds on one screen, shows the
clock running and a saved result within 2 s, and the championship goes to its champion.
No page visited shows a Spanish Mus word or another language's sentence."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, Response, ViewportSize, expect

from muscore.championships import services
from muscore.championships.models import Championship, Phase
from tests.championships.factory import open_games, play_all, play_heats, small_championship
from tests.clubs.factory import PASSWORD
from tests.test_french import SPANISH_LEFT
from tests.test_languages_pages import foreign_runs, found_in, visible_text

# Every phone of the test (and the hall's TV) asks for French (Accept-Language).
pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.browser_context_args(locale="fr-FR")]

TV_SIZE: ViewportSize = {"width": 1920, "height": 1080}
LIVE_MS = 2_000
BARS = [("Bar Txoko", 4), ("Herriko Taberna", 4), ("Gure Etxea", 3)]
# The test's own names (a championship, a federation, bars), not sentences of a language.
NAMES = {"Txapelketa", "Federación de Mus"}


def speaks_french(page: Page) -> str:
    """The page's visible text, after checking it is French and nothing else: no other
    language's sentence (the catalogues' runs) and no Spanish Mus word left."""
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    text = visible_text(page.content())
    wrong = found_in(text, foreign_runs("fr") - NAMES)
    assert not wrong, f"{page.url} in French shows other languages' text: {wrong}"
    spanish = sorted({m.group(0) for m in SPANISH_LEFT.finditer(text)})
    assert not spanish, f"{page.url} in French shows Spanish Mus words: {spanish}"
    return text


def log_in(page: Page, username: str) -> None:
    # By the fields' ids: the French labels are the catalogue's to change.
    page.goto("/cuentas/entrar")
    speaks_french(page)
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    expect(page.locator(".club-nav .account")).to_contain_text(username)


def no_scrollbar(tv: Page) -> None:
    size = tv.evaluate("[document.scrollingElement.scrollHeight, innerHeight,"
                       " document.scrollingElement.scrollWidth, innerWidth]")
    assert size[0] <= size[1] and size[2] <= size[3], size


def groups_phase(championship: Championship, boss: Any, barmen: list[Any],
                 name: str = "Poules") -> Phase:
    """Entries closed, the heats played, two groups of 4 drawn (the best 2 go on); the
    phase named by its organiser (in French: "Poules")."""
    services.close_entries(championship, by=boss)
    play_heats(championship, barmen)
    phase = services.add_phase(championship, by=boss, name=name)
    return services.draw_phase(phase, by=boss, seed="Baiona")


def save_result(organiser: Page, *, on_match: bool = False) -> None:
    """From a group's (a league competition's) page, the organiser opens its first game
    (or from a knockout game's own page, `on_match`) and saves its result by hand (the
    first pair wins 1-0)."""
    if not on_match:
        expect(organiser).to_have_url(re.compile(r"/liga/\d+/$"))
        speaks_french(organiser)
        organiser.locator(".match-row a").first.click()
    expect(organiser).to_have_url(re.compile(r"/liga/\d+/partida/\d+/$"))
    expect(organiser.locator("#a-mano summary")).to_be_visible()
    speaks_french(organiser)
    organiser.locator("#a-mano summary").click()
    organiser.locator("#a-mano input[name=juegos_first]").fill("1")
    organiser.locator("#a-mano input[name=juegos_second]").fill("0")

    def saved(response: Response) -> bool:
        return response.request.method == "POST" and "/resultado" in response.url

    with organiser.expect_response(saved) as answer:
        organiser.locator("#a-mano button[type=submit]").click()
    assert answer.value.status in (302, 303), answer.value.status


def test_a_french_volunteer_from_the_home_page_to_the_champion_with_the_halls_tv(
        new_phone: Callable[..., Page]) -> None:
    championship, boss, barmen = small_championship(seats=8, bars=BARS)
    phase = groups_phase(championship, boss, barmen)

    # A volunteer's phone in French, by links only: the home page, the club's page (its
    # championships listed), then again the home page, the championships, this one.
    volunteer = new_phone()
    volunteer.goto("/")
    speaks_french(volunteer)
    volunteer.locator("main a[href='/fr/clubs/']").first.click()
    expect(volunteer).to_have_url(re.compile(r"/clubs/$"))
    speaks_french(volunteer)
    volunteer.locator("main a", has_text="Federación de Mus").click()
    expect(volunteer).to_have_url(re.compile(r"/club/federacion-de-mus/$"))
    speaks_french(volunteer)
    listed = volunteer.locator("[data-championships] a", has_text="Txapelketa 2026")
    expect(listed).to_have_attribute("href", f"/fr/campeonatos/{championship.pk}/")
    volunteer.locator(".brand").click()  # the home page again
    volunteer.locator("[data-championships-link]").click()
    expect(volunteer).to_have_url(re.compile(r"/campeonatos/$"))
    assert "Championnat" in speaks_french(volunteer)
    volunteer.locator("[data-current-championships] a", has_text="Txapelketa 2026").click()
    expect(volunteer).to_have_url(re.compile(rf"/campeonatos/{championship.pk}/$"))
    expect(volunteer.locator("[data-group]")).to_have_count(2)
    speaks_french(volunteer)
    tv_link = volunteer.locator(f"#fase-{phase.pk} a[href$='/tv/']").first.get_attribute("href")
    assert tv_link

    # The hall's TV, opened from that link: one screen, the clock not started yet.
    tv = new_phone()
    tv.set_viewport_size(TV_SIZE)
    tv.goto(tv_link)
    speaks_french(tv)
    expect(tv.locator(".tv-panel.is-shown .tv-group")).to_have_count(2)
    expect(tv.locator("[data-deadline]")).to_have_count(0)
    no_scrollbar(tv)

    # The organiser, logged in in French, starts the round clock by its button.
    organiser = new_phone()
    log_in(organiser, "federacion")
    organiser.goto(f"/campeonatos/{championship.pk}/")
    speaks_french(organiser)
    organiser.locator(f"#fase-{phase.pk} [data-clock=start]").click()
    clock = tv.locator(".tv-panel.is-shown [data-deadline]")
    expect(clock).to_have_count(2)  # the TV's poll brought it
    expect(clock.first).to_have_text(re.compile(r"^\d+:\d\d$"))
    running = clock.first.inner_text()
    expect(clock.first).not_to_have_text(running)  # it counts down
    no_scrollbar(tv)

    # A result saved by the organiser, from the group's page to the game's: on the TV in 2 s.
    organiser.locator(f"#fase-{phase.pk} :is(h3, h4) a").first.click()  # the first group
    save_result(organiser)
    group = tv.locator('.tv-panel.is-shown [data-group="1"]')
    expect(group.locator(".tv-matches .is-done")).to_have_count(1, timeout=LIVE_MS)
    expect(group.locator(".tv-rows .tv-points").first).to_have_text(re.compile(r"^[1-9]"))
    no_scrollbar(tv)
    speaks_french(tv)

    # The other games of the groups, then the final (a knockout of the 4 going on): its
    # semifinals played, the final's result saved by the organiser from the bracket's link.
    for g in phase.groups.all():
        play_all(g.competition, boss)
    final = services.draw_phase(services.add_phase(
        championship, by=boss, name="Finale", level=2, knockout=True), by=boss, seed="Donibane")
    for game in open_games(final):  # the semifinals
        play_all(game, boss)
    organiser.goto(f"/campeonatos/{championship.pk}/")
    speaks_french(organiser)
    organiser.locator(f"#fase-{final.pk} [data-round]").last.locator("[data-tie] a").click()
    save_result(organiser, on_match=True)

    # The volunteer's page names the champion, and a tap shows its path through the phases.
    volunteer.reload()
    champion = volunteer.locator("[data-champion]")
    expect(champion).to_contain_text("Champions")
    speaks_french(volunteer)
    champion.locator("a").click()
    expect(volunteer.locator("[data-path] li")).to_have_count(4)  # heat, group, semi, final
    speaks_french(volunteer)

    # The final's hall TV shows the champions, on one screen.
    tv.goto(f"/campeonatos/{championship.pk}/fases/{final.pk}/tv/")
    expect(tv.locator("[data-bracket-champion]")).to_contain_text("Champions")
    no_scrollbar(tv)
    speaks_french(tv)
