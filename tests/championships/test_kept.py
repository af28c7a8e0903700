"""The championship's public pages and API document are kept by its stamp: the next read
after any change (a result, an entry, a pair renamed, a round's clock set on the league's
page) is fresh, an unchanged one is a 304 for If-None-Match, an organiser's page is never
a visitor's and a language never another's."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from muscore.championships import export, kept, services
from muscore.championships.models import Championship, Phase
from muscore.clubs.models import Pair
from muscore.leagues import competitions, results
from muscore.leagues.models import Match
from tests.championships.factory import drawn_semifinal, small_championship
from tests.clubs.factory import logged_in

pytestmark = pytest.mark.django_db


def page_url(championship: Championship) -> str:
    return reverse("championships:detail", args=[championship.pk])


def points(text: str) -> list[str]:
    """The groups' standings as the page shows them: "name points" in order."""
    return re.findall(r"<li[^>]*>([^<]+) <span class=\"muted\">(\d+) ", text)


def main(text: str) -> str:
    """What a page shows (its <main>: the header's form carries a new CSRF token each time)."""
    return text.split("<main>")[-1]


def first_group_match(phase: Phase) -> Match:
    match = (Match.objects.filter(competition__phase_group__phase=phase).unplayed()
             .select_related("first", "second", "competition").order_by("competition_id",
                                                                          "number").first())
    assert match is not None
    return match


def record(phase: Phase, by: Any) -> Match:
    match = first_group_match(phase)
    results.record_result(match, by=by, juegos=[1, 0])
    return match


def test_a_result_makes_the_next_read_of_every_kept_page_fresh() -> None:
    championship, boss, _barmen, phase = drawn_semifinal()
    client = Client()
    page = page_url(championship)
    phase_page = reverse("championships:phase", args=[championship.pk, phase.pk])
    tv = reverse("championships:tv", args=[championship.pk, phase.pk])
    api = reverse("api:championship", args=[championship.pk])
    before = {path: main(client.get(path).text) for path in (page, phase_page, tv, api)}
    assert {path: main(client.get(path).text) for path in before} == before  # now kept
    assert all(p == "0" for _name, p in points(before[page]))
    match = record(phase, boss)
    after = {path: main(client.get(path).text) for path in before}
    assert any(p != "0" for _name, p in points(after[page]))
    assert points(after[phase_page]) == points(after[page])
    # A row of the hall's standings with points.
    hall = re.compile(r'<li><span>[^<]+</span> <span class="tv-points">([1-9]\d*)</span></li>')
    assert hall.search(after[tv]) and not hall.search(before[tv])
    group = next(g for g in json.loads(after[api])["phases"][0]["groups"]
                 if any(m.get("juegos") == [1, 0] for m in g["matches"]))
    assert group["name"] == match.competition.name


def test_an_entry_and_a_withdrawal_make_the_next_read_fresh() -> None:
    championship, boss, barmen = small_championship()
    client = Client()
    assert "9 parejas" in client.get(page_url(championship)).text  # Gipuzkoa: 5 + 4
    sede = championship.sedes.order_by("id").first()
    assert sede is not None
    enrolment = services.enter_pair(sede, name="Berria", players=["Ane Berria", "Jon Berria"],
                                    by=barmen[0])
    assert "10 parejas" in client.get(page_url(championship)).text
    services.withdraw(enrolment, by=barmen[0])
    assert "9 parejas" in client.get(page_url(championship)).text
    services.close_entries(championship, by=boss)
    assert "data-quotas" in client.get(page_url(championship)).text


def test_a_pair_renamed_in_its_club_shows_at_once() -> None:
    championship, _boss, _barmen, phase = drawn_semifinal()
    client = Client()
    assert "Izen Berria" not in client.get(page_url(championship)).text
    pair = Pair.objects.get(pk=first_group_match(phase).first.pair_id)  # type: ignore[union-attr]
    pair.name = "Izen Berria"
    pair.save()  # the clubs' own write: the pair's competitions' revisions go up
    assert "Izen Berria" in client.get(page_url(championship)).text
    tv = reverse("championships:tv", args=[championship.pk, phase.pk])
    assert "Izen Berria" in client.get(tv).text


def test_an_unchanged_page_and_document_are_a_304_until_a_change() -> None:
    championship, boss, _barmen, phase = drawn_semifinal()
    client = Client()
    for path in (page_url(championship), reverse("api:championship", args=[championship.pk]),
                 reverse("championships:phase", args=[championship.pk, phase.pk])):
        client.get(path)  # a first visit: the page's CSRF cookie is set (part of its tag)
        first = client.get(path)
        etag = first["ETag"]
        assert first.status_code == 200 and "no-cache" in first["Cache-Control"]
        again = client.get(path, headers={"If-None-Match": etag})
        assert again.status_code == 304 and again["ETag"] == etag and not again.content
        services.withdraw(championship.enrolments.filter(  # type: ignore[arg-type]
            phase_pair=None, status="entered").first(), by=boss)
        changed = client.get(path, headers={"If-None-Match": etag})
        assert changed.status_code == 200 and changed["ETag"] != etag


def test_the_api_document_kept_is_the_document_of_now() -> None:
    championship, boss, _barmen, phase = drawn_semifinal()
    path = reverse("api:championship", args=[championship.pk])
    Client().get(path)
    record(phase, boss)
    body = json.loads(Client().get(path).content)
    championship.refresh_from_db()
    document = export.championship_document(championship, 1)
    document["page"]["next"] = None
    assert body == json.loads(json.dumps(document, default=str))


def test_an_organisers_page_is_never_a_visitors_nor_one_language_another() -> None:
    championship, boss, _barmen = small_championship()
    boss_client, visitor = logged_in(boss), Client()
    assert "data-close" in boss_client.get(page_url(championship)).text
    assert "data-close" not in visitor.get(page_url(championship)).text
    assert "data-close" in boss_client.get(page_url(championship)).text
    spanish = visitor.get(page_url(championship), headers={"Accept-Language": "es"})
    english = Client().get(page_url(championship), headers={"Accept-Language": "en"})
    assert ">Fases<" in spanish.text and ">Phases<" in english.text
    assert spanish["ETag"] != english["ETag"]


def test_the_hall_reads_its_clock_each_time() -> None:
    championship, boss, _barmen, phase = drawn_semifinal()
    tv = reverse("championships:tv", args=[championship.pk, phase.pk])
    assert "Reloj sin empezar" in Client().get(tv).text
    group = phase.groups.select_related("competition").first()
    assert group is not None
    # Set on the league's round page (not the championship's): no championship write.
    competitions.schedule_round(group.competition, 1, timezone.now(), by=boss)
    assert "data-deadline" in Client().get(tv).text
    competitions.schedule_round(group.competition, 1, timezone.now()
                                - timezone.timedelta(hours=3), by=boss)
    assert "fuera de tiempo" in Client().get(tv).text


def test_the_stamp_moves_with_each_kind_of_change() -> None:
    championship, boss, _barmen, phase = drawn_semifinal()
    seen = {kept.stamp(championship)}
    record(phase, boss)
    seen.add(kept.stamp(championship))
    kept.touch(championship.pk)
    championship.refresh_from_db()
    seen.add(kept.stamp(championship))
    assert len(seen) == 3


def test_a_result_in_one_phase_leaves_the_others_pages_kept() -> None:
    # Two phases of one level (as the seven province finals): a result in one changes its
    # own page, hall and the document, not the other's, nor the championship's page when
    # the phase is too large to be drawn there (it is a link to its own page).
    championship, boss, _barmen, phase = drawn_semifinal()
    other = services.add_phase(championship, by=boss, name="Otra")
    championship.refresh_from_db()  # add_phase moved the revision
    stamps = {"page": kept.stamp(championship, inline=1), "other": kept.stamp(
        championship, phase=other.pk), "phase": kept.stamp(championship, phase=phase.pk),
        "all": kept.stamp(championship)}
    record(phase, boss)
    assert kept.stamp(championship, inline=1) == stamps["page"]  # 2 groups: a link
    assert kept.stamp(championship, phase=other.pk) == stamps["other"]
    assert kept.stamp(championship, phase=phase.pk) != stamps["phase"]
    assert kept.stamp(championship) != stamps["all"]
    assert kept.stamp(championship, inline=2) != kept.stamp(championship, inline=1)


def test_a_body_has_one_place_in_the_cache_whatever_the_changes() -> None:
    # The final's day changes the stamp every few seconds: each new body takes the old
    # one's place instead of leaving it behind for an hour.
    championship, boss, _barmen, phase = drawn_semifinal()
    Client().get(page_url(championship))
    championship.refresh_from_db()  # the draw moved its revision
    before = kept.key(championship, "page", ("", "", False), inline=4)
    record(phase, boss)
    after = kept.key(championship, "page", ("", "", False), inline=4)
    assert after.key == before.key and after.digest != before.digest
    Client().get(page_url(championship))
    entry = cache.get(after.key)
    assert entry[0] == after.digest and points(entry[1])


def test_the_pages_figures_are_read_once_for_all_readers_and_dropped_by_a_change(
        django_capture_on_commit_callbacks: Any) -> None:
    """200 visitors polling every 2 s read the venues' and phases' figures (two aggregate
    queries) 100 times a second (issue 28): they are kept for kept.FIGURES_SECONDS, and a
    result or a pair renamed drops them at once (the championship's own change moves its
    revision, which they are kept for)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    championship, boss, _barmen, phase = drawn_semifinal()
    live = page_url(championship) + "?live=1"
    client = Client()
    figures = kept._figures_key(championship.pk)

    def poll(etag: str) -> tuple[int, int]:
        with CaptureQueriesContext(connection) as queries:
            status = client.get(live, headers={"If-None-Match": etag}).status_code
        return status, sum("COUNT(" in q["sql"] for q in queries.captured_queries)

    etag = client.get(live)["ETag"]
    assert poll(etag) == (304, 0)  # the championship's row only: its figures are kept
    assert cache.get(figures) is not None
    with django_capture_on_commit_callbacks(execute=True) as done:
        record(phase, boss)
    assert cache.get(figures) is None and done  # dropped, and again at the commit
    status, aggregates = poll(etag)
    assert status == 200 and aggregates > 0
    etag = client.get(live)["ETag"]
    assert poll(etag) == (304, 0)
    pair = Pair.objects.filter(entries__competition__phase_group__phase=phase).first()
    assert pair is not None
    pair.name = "Izen Berria"
    pair.save()  # a pair renamed in its club: its competitions' revisions move
    assert cache.get(figures) is None
    assert poll(etag)[0] == 200
    etag = client.get(live)["ETag"]
    kept.touch(championship.pk)
    championship.refresh_from_db()
    assert poll(etag)[0] == 200  # its own revision moved: the kept figures are not its
