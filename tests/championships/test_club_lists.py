"""Issue 36: a championship is one entry on its club's pages, its heats, groups and games
inside it (its own pages), not each of them a row among the club's leagues. The
federation's club page, its organiser's night and its leaders' picker show the
championship once, with its state and its link; a venue's bar sees its heat under the
championship's name; the night page groups tonight's tables of the championship under it.
Each part keeps its own page and API document."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from muscore.championships import parts, services
from muscore.championships.models import Championship, Phase, PhaseGroup
from muscore.leagues import competitions, pages
from muscore.leagues.models import Competition
from tests.championships.factory import drawn_semifinal, play_all, play_heats, small_championship
from tests.clubs.factory import logged_in, make_pair

pytestmark = pytest.mark.django_db


def section(html: str, anchor: str) -> str:
    """The text of the page's element opened by ``anchor`` up to its section's end."""
    assert anchor in html, anchor
    return html.split(anchor, 1)[1].split("</section>", 1)[0]


def whole_championship() -> tuple[Championship, Any, list[Any], Phase, Competition]:
    """Three bars' heats played, a group phase played, a knockout final drawn from it
    (its first games made), and a league of the federation's own beside it."""
    championship, boss, barmen, semifinal = drawn_semifinal()
    for group in semifinal.groups.select_related("competition"):
        play_all(group.competition, boss)
    final = services.add_phase(championship, by=boss, name="Final a cuatro", knockout=True)
    final = services.draw_phase(final, by=boss, seed="final")
    club = championship.club
    own = competitions.create_competition(
        club, by=boss, name="Liga de los martes", format="liguilla", legs=1, groups=1,
        pairs=[make_pair(club, f"Martes{i}a", f"Martes{i}b") for i in range(4)],
        draw=list(range(4)))
    return championship, boss, barmen, final, own


def part_ids(championship: Championship) -> set[int]:
    heats = {s.heat_id for s in championship.sedes.all() if s.heat_id}
    groups = set(PhaseGroup.objects.filter(phase__championship=championship)
                 .values_list("competition_id", flat=True))
    return heats | groups


def test_the_championship_owns_its_heats_groups_and_games() -> None:
    championship, _boss, _barmen, final, own = whole_championship()
    ids = part_ids(championship)
    assert final.groups.count() == 1 and len(ids) == 6  # 3 heats, 2 groups, the knockout
    found = parts.championship_ids([*ids, own.pk])
    assert found == dict.fromkeys(ids, championship.pk)  # the club's own league is its own


def test_the_federation_page_lists_the_championship_once_not_its_games() -> None:
    championship, boss, _barmen, _final, own = whole_championship()
    url = reverse("championships:detail", args=[championship.pk])
    for reader in (Client(), logged_in(boss)):
        html = reader.get(reverse("clubs:club", args=[championship.club.slug])).text
        listed = section(html, 'id="competiciones"')
        # Its own league is listed; none of the championship's competitions is.
        assert pages.competition_url(own) in listed and "Liga de los martes" in listed
        for competition in Competition.objects.filter(pk__in=part_ids(championship)):
            assert pages.competition_url(competition) + '"' not in listed, competition.title
        assert "Final a cuatro" not in listed and "Semifinal" not in listed
        # The championship once, with its link and the phase being played.
        entries = section(html, "data-championships")
        assert entries.count(f'href="{url}"') == 1
        assert "en juego: Final a cuatro" in entries


def test_the_state_says_the_phase_in_play_then_the_champion() -> None:
    championship, boss, _barmen, semifinal = drawn_semifinal(
        seats=4, bars=[("Bar Txoko", 2), ("Herriko Taberna", 2)])
    page = reverse("clubs:club", args=[championship.club.slug])

    def stage() -> str:
        entries = section(Client().get(page).text, "data-championships")
        return entries.split("data-stage>", 1)[1].split("<", 1)[0]

    assert stage() == "en juego: Semifinal"
    for group in semifinal.groups.select_related("competition"):
        play_all(group.competition, boss)
    champion = services.champion(championship)
    assert champion is not None
    assert stage() == f"campeones: {champion.name}"


def test_the_state_says_entries_open_then_the_venues_heats() -> None:
    championship, boss, _barmen = small_championship()
    page = reverse("clubs:club", args=[championship.club.slug])
    assert "inscripciones abiertas" in section(Client().get(page).text, "data-championships")
    services.close_entries(championship, by=boss)
    entries = section(Client().get(page).text, "data-championships")
    assert "fase previa en las sedes" in entries and "inscripciones abiertas" not in entries


def test_a_bar_sees_its_heat_under_the_championship_not_among_its_leagues() -> None:
    championship, _boss, _barmen, _final, _own = whole_championship()
    sede = championship.sedes.order_by("id").first()
    assert sede is not None and sede.heat is not None
    html = Client().get(reverse("clubs:club", args=[sede.club.slug])).text
    assert pages.competition_url(sede.heat) + '"' not in section(html, 'id="competiciones"')
    entries = section(html, "data-championships")
    assert entries.count(f'href="{reverse("championships:detail", args=[championship.pk])}"') == 1
    hosted = section(entries, "data-hosted")
    assert f'href="{pages.competition_url(sede.heat)}"' in hosted and "data-heat" in hosted
    assert reverse("championships:sede", args=[championship.pk, sede.pk]) in hosted
    assert "terminada" in hosted  # the heat's state
    # Another bar's heat is not this bar's.
    other = championship.sedes.exclude(pk=sede.pk).first()
    assert other is not None and other.heat is not None
    assert pages.competition_url(other.heat) + '"' not in html


def test_the_night_groups_tonights_tables_under_the_championship() -> None:
    championship, boss, _barmen, final, own = whole_championship()
    organiser = logged_in(boss)
    night = reverse("clubs:night", args=[championship.club.slug])
    game = final.groups.select_related("competition").get()  # the knockout: its ties' games
    match = game.competition.matches.exclude(first=None).exclude(second=None).first()
    assert match is not None
    competitions.open_table(match, by=boss)  # a table of the final in play tonight
    html = organiser.get(night).text
    # The club's own league is a night section of its own; no part of the championship is.
    assert f'<section class="night-competition" data-competition="{own.pk}">' in html
    for pk in part_ids(championship):
        assert f'<section class="night-competition" data-competition="{pk}">' not in html
    # The championship once, with its link and state, tonight's table under it.
    whole = section(html, f'data-whole="championship-{championship.pk}"')
    assert html.count(f'data-whole="championship-{championship.pk}"') == 1
    assert reverse("championships:detail", args=[championship.pk]) in whole
    assert "en juego: Final a cuatro" in whole and "1 en juego" in whole
    # ...and not again in the club's championships below (its organiser still starts one
    # there), where one the night has nothing of is still listed.
    link = f'href="{reverse("championships:detail", args=[championship.pk])}"'
    assert html.count(link) == 1, html.count(link)
    assert "data-new-championship" in section(html, "data-championships")
    other = services.create_championship(championship.club, by=boss, name="Udaberriko txapelketa",
                                         seats=4, rules={"juegos": 1})
    listed = section(organiser.get(night).text, "data-championships")
    assert reverse("championships:detail", args=[other.pk]) in listed
    assert f'{reverse("championships:detail", args=[championship.pk])}"' not in listed
    tonight = section(whole, "data-parts")
    assert f'data-competition="{game.competition_id}"' in tonight
    assert pages.competition_url(game.competition) in tonight
    # The finished heats and groups are not listed one by one, but counted.
    heat = championship.sedes.order_by("id").values_list("heat_id", flat=True).first()
    assert f'data-competition="{heat}"' not in whole
    assert "más sin nada esta noche" in whole
    # The totals count every table, the championship's too.
    assert '<li data-count="in_play"><strong>1</strong>' in html
    with translation.override("en"):
        english = organiser.get(night, headers={"Accept-Language": "en"}).text
    assert "more with nothing tonight" in english and "in play: Final a cuatro" in english


def test_the_leaders_picker_offers_the_clubs_own_leagues_not_the_championships_games() -> None:
    championship, _boss, _barmen, _final, own = whole_championship()
    html = Client().get(reverse("clubs:leaders", args=[championship.club.slug])).text
    picker = html.split('class="leaders-filter"', 1)[1].split("</nav>", 1)[0]
    assert f"?liga={own.pk}" in picker
    for pk in part_ids(championship):
        assert f"?liga={pk}\"" not in picker
    # A game's own leaders still answer at its address, and name it as chosen.
    heat = championship.sedes.first()
    assert heat is not None and heat.heat_id is not None
    chosen = Client().get(reverse("clubs:leaders", args=[heat.club.slug]),
                          {"liga": heat.heat_id})
    assert chosen.status_code == 200


def test_each_part_keeps_its_own_page_and_api_document() -> None:
    championship, _boss, _barmen, _final, _own = whole_championship()
    for competition in Competition.objects.filter(pk__in=part_ids(championship)):
        assert Client().get(pages.competition_url(competition)).status_code == 200
        assert Client().get(f"/api/v1/leagues/{competition.pk}").status_code == 200


def test_the_clubs_tv_shows_its_own_league_or_the_championship_not_a_part() -> None:
    """The bar's screen by itself (no ?liga=): the club's own competition in play, not a
    championship's heat, group or knockout played later; a club whose only competitions
    are a championship's parts shows the championship, once; a part the organiser put on
    the TV, or asked for by its number, is shown as itself."""
    from muscore.leagues import card, night

    championship, boss, barmen = small_championship()
    club = championship.club
    own = competitions.create_competition(
        club, by=boss, name="Liga de los martes", format="liguilla", legs=1, groups=1,
        pairs=[make_pair(club, f"Martes{i}a", f"Martes{i}b") for i in range(4)],
        draw=list(range(4)))
    services.close_entries(championship, by=boss)
    sedes = play_heats(championship, barmen)
    final = services.add_phase(championship, by=boss, name="Final a cuatro", knockout=True)
    knockout = services.draw_phase(final, by=boss, seed="tv").groups.get().competition
    assert knockout.created_at > own.created_at and knockout.status == Competition.Status.PLAYING
    tv = reverse("clubs:tv", args=[club.slug])
    assert card.current_competition(club) == own
    html = Client().get(tv).text
    assert "<h1>Liga de los martes</h1>" in html and "Final a cuatro" not in html
    # A bar whose only competition is its venue's heat: the championship, once.
    sede = championship.sedes.select_related("club", "heat").get(pk=sedes[0].pk)
    assert sede.heat is not None
    shown = card.current_shown(sede.club)
    assert shown == parts.wholes([sede.heat.pk])[sede.heat.pk]
    html = Client().get(reverse("clubs:tv", args=[sede.club.slug])).text
    assert f'data-whole="championship-{championship.pk}"' in html
    assert f"<h2>{championship.name}</h2>" in html and "<h1>" not in html
    assert 'data-panel="tables"' not in html  # not the heat's tables and standings
    # Chosen, or put on the TV by the organiser: the part itself.
    assert card.current_competition(club, knockout.pk) == knockout
    night.set_on_tv(knockout, True, by=boss)
    assert card.current_competition(club) == knockout
    assert f"<h1>{knockout.title}</h1>" in Client().get(tv).text
