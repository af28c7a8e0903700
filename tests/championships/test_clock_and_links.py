"""Issue 29 points 1 and 2 on the server: a championship found from the home page, the
club's page and the organiser's night (current and past), the round clock's buttons
(start, pause, go on, reset; organisers only), and the hall's screen polled as the club's
TV is (its live part, an ETag that moves with a result or the clock, 304 otherwise)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from muscore.championships import clock, services
from muscore.championships.models import Phase
from muscore.leagues import results
from muscore.leagues.models import Match, Round
from tests.championships.factory import drawn_semifinal, play_all, small_championship
from tests.clubs.factory import make_user

pytestmark = pytest.mark.django_db


def logged(user: object) -> Client:
    client = Client()
    client.force_login(user)  # type: ignore[arg-type]
    return client


def test_the_home_page_the_club_and_the_night_lead_to_the_championship() -> None:
    championship, boss, barmen = small_championship()
    url = reverse("championships:detail", args=[championship.pk])
    home = Client().get("/").text
    assert reverse("championships:index") in home
    index = Client().get(reverse("championships:index")).text
    assert url in index and championship.name in index
    club = championship.club
    page = logged(boss).get(reverse("clubs:club", args=[club.slug])).text
    assert url in page and reverse("championships:new", args=[club.slug]) in page
    assert url in logged(boss).get(reverse("clubs:night", args=[club.slug])).text
    # A venue's bar lists the championship it hosts a heat of, naming its organiser.
    bar = championship.sedes.order_by("id").first()
    assert bar is not None
    bar_page = Client().get(reverse("clubs:club", args=[bar.club.slug])).text
    assert url in bar_page and "organiza Federación de Mus" in bar_page
    # Only the club's organisers are offered a new one.
    assert reverse("championships:new", args=[club.slug]) not in Client().get(
        reverse("clubs:club", args=[club.slug])).text


def test_a_finished_championship_is_listed_as_past_with_its_champion() -> None:
    championship, boss, _barmen, phase = drawn_semifinal(
        seats=4, bars=[("Bar Txoko", 2), ("Herriko Taberna", 2)])
    index = reverse("championships:index")
    assert 'data-past-championships' not in Client().get(index).text
    for group in phase.groups.all():
        play_all(group.competition, boss)
    champion = services.champion(championship)
    assert champion is not None
    text = Client().get(index).text
    past = text[text.index("data-past-championships"):]
    assert championship.name in past and champion.name in past
    assert "data-current-championships" not in text


def hall(championship_pk: int, phase: Phase) -> str:
    return reverse("championships:tv", args=[championship_pk, phase.pk])


def test_the_clock_starts_pauses_goes_on_and_resets_by_its_buttons() -> None:
    championship, boss, _barmen, phase = drawn_semifinal()
    organiser = logged(boss)
    post = reverse("championships:start_clock", args=[championship.pk, phase.pk])
    page = organiser.get(reverse("championships:detail", args=[championship.pk])).text
    assert 'data-clock="start"' in page and 'data-clock="pause"' in page
    assert 'data-clock="start"' in organiser.get(hall(championship.pk, phase)).text
    assert 'data-clock="start"' not in Client().get(hall(championship.pk, phase)).text
    # Someone else's button press changes nothing.
    assert logged(make_user("otro")).post(post, {"action": "start"}).status_code == 403
    assert not Round.objects.filter(competition__phase_group__phase=phase,
                                    starts_at__isnull=False).exists()

    back = reverse("championships:detail", args=[championship.pk])
    answer = organiser.post(post, {"action": "start", "next": back})
    assert answer.status_code == 302 and answer["Location"] == back
    assert "data-deadline" in Client().get(hall(championship.pk, phase)).text
    starts = set(Round.objects.filter(competition__phase_group__phase=phase,
                                      starts_at__isnull=False).values_list("starts_at", flat=True))
    assert len(starts) == 1

    assert organiser.post(post, {"action": "pause"}).status_code == 302
    phase.refresh_from_db()
    assert phase.clock_paused_at is not None
    text = Client().get(hall(championship.pk, phase)).text
    assert "data-paused" in text and "en pausa" in text and "data-deadline" not in text
    # Going on ten minutes later: every start moved by the pause, the time left the same.
    Phase.objects.filter(pk=phase.pk).update(
        clock_paused_at=phase.clock_paused_at - timedelta(minutes=10))
    phase.refresh_from_db()
    clock.start(phase, by=boss)
    moved = set(Round.objects.filter(competition__phase_group__phase=phase,
                                     starts_at__isnull=False).values_list("starts_at", flat=True))
    assert len(moved) == 1
    assert abs((moved.pop() - starts.pop()) - timedelta(minutes=10)) < timedelta(seconds=5)
    assert "data-deadline" in Client().get(hall(championship.pk, phase)).text

    assert organiser.post(post, {"action": "reset"}).status_code == 302
    assert "Reloj sin empezar" in Client().get(hall(championship.pk, phase)).text
    assert organiser.post(post, {"action": "melt"}).status_code == 400
    # A link elsewhere is not followed.
    answer = organiser.post(post, {"action": "start", "next": "https://example.com/"})
    assert answer["Location"] == hall(championship.pk, phase)


def test_the_halls_poll_is_a_304_until_a_result_or_the_clock_moves() -> None:
    championship, boss, _barmen, phase = drawn_semifinal()
    live = hall(championship.pk, phase) + "?live=1"
    client = Client()
    first = client.get(live)
    assert first.status_code == 200 and "<html" not in first.text and "data-tv-live" in first.text
    assert f'data-etag="{escape(first["ETag"])}"' in first.text  # what an unchanged poll answers
    full = client.get(hall(championship.pk, phase))
    assert '<meta http-equiv="refresh"' not in full.text and "<main>" in full.text
    assert 'name="description"' in full.text and f'data-etag="{escape(first["ETag"])}"' in full.text
    assert client.get(live, headers={"If-None-Match": first["ETag"]}).status_code == 304

    services.start_round_clock(phase, by=boss)
    started = client.get(live, headers={"If-None-Match": first["ETag"]})
    assert started.status_code == 200 and "data-deadline" in started.text
    match = Match.objects.filter(competition__phase_group__phase=phase).unplayed().first()
    assert match is not None
    results.record_result(match, by=boss, juegos=[1, 0])
    after = client.get(live, headers={"If-None-Match": started["ETag"]})
    assert after.status_code == 200 and after["ETag"] != started["ETag"]
    assert client.get(live, headers={"If-None-Match": after["ETag"]}).status_code == 304
    # A table past the time per match is flagged.
    Round.objects.filter(competition__phase_group__phase=phase).update(
        starts_at=timezone.now() - timedelta(hours=3))
    assert "fuera de tiempo" in client.get(live).text


def test_the_halls_live_part_is_drawn_once_for_every_screen_and_moves_when_a_table_is_late(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """After a result every hall screen and phone polling gets the new live part: drawn
    once for all of them (issue 28: 40 ms each, 66 screens at once after every result);
    a table going past its time is a new answer even with no result or clock change."""
    from muscore.championships import views

    championship, boss, _barmen, phase = drawn_semifinal()
    live = hall(championship.pk, phase) + "?live=1"
    drawn: list[str] = []
    real = views.render_to_string
    monkeypatch.setattr(views, "render_to_string",
                        lambda name, *a, **k: drawn.append(name) or real(name, *a, **k))
    services.start_round_clock(phase, by=boss)
    answers = [Client().get(live) for _screen in range(5)]
    assert len({a.content for a in answers}) == 1 and len({a["ETag"] for a in answers}) == 1
    assert drawn == ["championships/_tv_live.html"]
    assert "fuera de tiempo" not in answers[0].text
    # An hour later (the clock never moved): the tables still playing are past their time.
    later = timezone.now() + timedelta(hours=1)
    monkeypatch.setattr(timezone, "now", lambda: later)
    late = Client().get(live, headers={"If-None-Match": answers[0]["ETag"]})
    assert late.status_code == 200 and "fuera de tiempo" in late.text
    assert late["ETag"] != answers[0]["ETag"] and len(drawn) == 2
