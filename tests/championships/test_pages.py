"""The championship's pages, forms and API over HTTP: what they show, who may change what."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from muscore.championships import services
from muscore.championships.models import Championship, Enrolment
from muscore.leagues.models import Round
from tests.championships.factory import (
    drawn_semifinal,
    play_all,
    played_heats,
    small_championship,
)
from tests.clubs.factory import logged_in, make_club, make_user

pytestmark = pytest.mark.django_db


def url(name: str, *args: object) -> str:
    return reverse(f"championships:{name}", args=args)


def entry(championship: Championship, sede_index: int = 0, **data: str) -> dict[str, object]:
    sede = championship.sedes.order_by("id")[sede_index]
    return {"sede": sede.pk, "name": "Los de siempre", "player_a": "Ane", "player_b": "Jon",
            "contact": "600 111 222", **data}


def test_the_public_entry_form_enters_a_pair() -> None:
    championship, _, _ = small_championship()
    page = Client().get(url("enter", championship.pk))
    assert page.status_code == 200 and "Bar Txoko" in page.text
    response = Client().post(url("enter", championship.pk), entry(championship))
    assert response.status_code == 200 and "pendiente de confirmar" in response.text
    enrolment = Enrolment.objects.get(name="Los de siempre")
    assert enrolment.contact == "600 111 222" and not enrolment.paid
    assert enrolment.status == "pending"  # until the venue's organiser (or its link) confirms


def test_a_person_in_two_pairs_is_refused_by_the_form_naming_his_pair() -> None:
    championship, _, _ = small_championship()
    before = Enrolment.objects.count()
    response = Client().post(url("enter", championship.pk),
                             entry(championship, 1, player_b="Bar Txoko 3b"))
    assert response.status_code == 400
    assert "Bar Txoko 3b ya juega en la pareja Bar Txoko 3 (Bar Txoko)" in response.text
    assert Enrolment.objects.count() == before


def test_an_entry_after_closing_is_a_400_and_saves_nothing() -> None:
    championship, boss, _ = small_championship()
    services.close_entries(championship, by=boss)
    before = Enrolment.objects.count()
    response = Client().post(url("enter", championship.pk), entry(championship))
    assert response.status_code == 400 and "están cerradas" in response.text
    assert Enrolment.objects.count() == before


def test_a_full_venue_says_the_pair_waits() -> None:
    championship, _, barmen = small_championship(capacity=3)
    response = logged_in(barmen[0]).post(url("enter", championship.pk), entry(championship))
    assert response.status_code == 200 and "lista de espera" in response.text
    assert Enrolment.objects.get(name="Los de siempre").status == "waiting"


def test_a_bad_form_is_a_400_naming_the_field() -> None:
    championship, _, _ = small_championship()
    response = Client().post(url("enter", championship.pk), entry(championship, player_a=""))
    assert response.status_code == 400 and "Jugador 1" in response.text


def test_the_contact_is_for_the_venues_organisers_only() -> None:
    championship, boss, barmen = small_championship()
    sede = championship.sedes.order_by("id")[0]
    page = url("sede", championship.pk, sede.pk)
    assert "60000000" not in Client().get(page).text
    assert "60000000" not in logged_in(barmen[1]).get(page).text
    assert "60000000" in logged_in(barmen[0]).get(page).text
    assert "60000000" in logged_in(boss).get(page).text
    exported = Client().get(reverse("api:championship", args=[championship.pk]))
    assert exported.status_code == 200 and "60000000" not in exported.text


def test_an_organiser_of_one_venue_writing_to_another_is_a_403_and_changes_nothing() -> None:
    championship, _, barmen = small_championship()
    other = championship.sedes.order_by("id")[1]
    enrolment = other.enrolments.order_by("id")[0]
    client = logged_in(barmen[0])
    action = url("enrolment_action", championship.pk, other.pk, enrolment.pk)
    assert client.post(action, {"paid": "1"}).status_code == 403
    assert client.post(action, {"action": "withdraw"}).status_code == 403
    enrolment.refresh_from_db()
    assert not enrolment.paid and enrolment.status == "entered"
    assert client.post(url("close", championship.pk)).status_code == 403
    championship.refresh_from_db()
    assert championship.entries_closed_at is None
    assert logged_in(barmen[1]).post(action, {"paid": "1"}).status_code == 302
    enrolment.refresh_from_db()
    assert enrolment.paid


def test_closing_shows_the_quotas_with_their_arithmetic() -> None:
    championship, boss, _ = small_championship()
    client = logged_in(boss)
    assert client.post(url("close", championship.pk)).status_code == 302
    page = client.get(url("detail", championship.pk)).text
    assert "6 plazas: primero 1 por sede" in page and "⌊3 × parejas ÷ 12⌋" in page
    assert "Inscripciones cerradas" in page


def test_a_quota_the_contract_refuses_is_a_400_and_closes_nothing() -> None:
    championship, boss, _ = small_championship(seats=40)
    response = logged_in(boss).post(url("close", championship.pk))
    assert response.status_code == 400 and "40 plazas pero solo 12 parejas" in response.text
    championship.refresh_from_db()
    assert championship.entries_closed_at is None


def test_a_phase_drawn_before_its_heats_end_is_a_400() -> None:
    championship, boss, _ = small_championship()
    services.close_entries(championship, by=boss)
    phase = services.add_phase(championship, by=boss, name="Final")
    response = logged_in(boss).post(url("draw", championship.pk, phase.pk), {"seed": "x"})
    assert response.status_code == 400 and "no han terminado" in response.text
    assert not phase.groups.exists()


def test_the_whole_championship_on_its_page_and_in_the_api() -> None:
    championship, boss, barmen, _sedes = played_heats()
    client = logged_in(boss)
    assert client.post(url("add_phase", championship.pk),
                       {"name": "Final", "level": "1", "advance": "1"}).status_code == 302
    phase = championship.phases.get()
    assert client.post(url("draw", championship.pk, phase.pk),
                       {"seed": "Txapelketa"}).status_code == 302
    page = Client().get(url("detail", championship.pk)).text
    assert "Clasificados y reservas" in page and "Semilla" not in page
    assert "Sorteo con la semilla «Txapelketa»" in page and "Grupo 2" in page
    for group in phase.groups.all():
        play_all(group.competition, boss)
    # Two groups and one advancing: a final phase of the two group winners.
    final = services.add_phase(championship, by=boss, name="Gran final", level=2)
    services.draw_phase(final, by=boss, seed="f")
    play_all(final.groups.get().competition, boss)
    champion = services.champion(championship)
    assert champion is not None
    page = Client().get(url("detail", championship.pk)).text
    assert "Campeones" in page and champion.name in page
    path = Client().get(url("pair", championship.pk, champion.pk)).text
    assert "Gran final" in path and champion.sede.name in path
    player = Client().get(url("player", championship.pk) + f"?nombre={champion.player_a.upper()}")
    assert player.status_code == 200 and champion.name in player.text
    data = json.loads(Client().get(reverse("api:championship", args=[championship.pk])).text)
    assert data["champion"] == champion.pk
    assert [s["quota"] for s in data["sedes"]] == [2, 2, 2]
    assert data["sedes"][0]["heat"]["pairs"][0]["name"] == "Bar Txoko 1"
    assert len(data["phases"]) == 2 and data["phases"][0]["draw"]["seed"] == "Txapelketa"
    assert all("matches" in g for g in data["phases"][0]["groups"])
    csv_text = Client().get(reverse("api:championship_entries_csv",
                                    args=[championship.pk])).text
    assert csv_text.splitlines()[0].startswith("\ufeffSede;Región;Pareja")
    assert len(csv_text.splitlines()) == 13


def test_the_api_answers_404_for_no_championship() -> None:
    response = Client().get(reverse("api:championship", args=[999999]))
    assert response.status_code == 404 and response.json()["error"]


def test_the_tv_counts_down_and_flags_tables_past_the_time() -> None:
    championship, boss, barmen, phase = drawn_semifinal()
    tv = url("tv", championship.pk, phase.pk)
    assert "Reloj sin empezar" in Client().get(tv).text
    assert Client().post(url("start_clock", championship.pk, phase.pk)).status_code == 403
    assert logged_in(boss).post(url("start_clock", championship.pk, phase.pk)).status_code == 302
    page = Client().get(tv).text
    assert "data-deadline" in page and 'class="late"' not in page
    Round.objects.filter(competition__phase_group__phase=phase).update(
        starts_at=timezone.now() - timedelta(hours=2))
    assert "fuera de tiempo" in Client().get(tv).text


def test_a_club_organiser_creates_a_championship_and_its_venues() -> None:
    boss = make_user("jefa")
    club = make_club("Federación", organiser=boss)
    client = logged_in(boss)
    assert Client().get(url("new", club.slug)).status_code in (302, 403)
    response = client.post(url("new", club.slug), {
        "name": "Txapelketa", "seats": "4", "min_per_sede": "1", "juegos": "3",
        "round_minutes": "40"})
    assert response.status_code == 302
    championship = Championship.objects.get()
    assert championship.rules["juegos"] == 3 and championship.round_minutes == 40
    assert client.post(url("add_sede", championship.pk),
                       {"name": "Bar Txoko", "region": "Gipuzkoa", "capacity": "8"}
                       ).status_code == 302
    sede = championship.sedes.get()
    assert sede.region is not None and sede.region.name == "Gipuzkoa" and sede.capacity == 8
    assert sede.club.name == "Bar Txoko"
    other = logged_in(make_user("otro"))
    assert other.post(url("add_sede", championship.pk), {"name": "X"}).status_code == 403
    assert championship.sedes.count() == 1


def test_a_province_final_draws_only_its_regions_venues() -> None:
    championship, boss, barmen, _sedes = played_heats()
    client = logged_in(boss)
    response = client.post(url("add_phase", championship.pk),
                           {"name": "Lapurdi", "level": "1", "advance": "1",
                            "region": "Lapurdi"})
    assert response.status_code == 400 and "ninguna región llamada Lapurdi" in response.text
    assert client.post(url("add_phase", championship.pk),
                       {"name": "Final de Gipuzkoa", "level": "1", "advance": "1",
                        "region": "gipuzkoa"}).status_code == 302
    phase = championship.phases.get()
    phase = services.draw_phase(phase, by=boss, seed="g")
    drawn = {e.sede.name for e in Enrolment.objects.filter(
        pk__in=[k for g in (phase.draw or {})["groups"] for k in g])}
    # The factory puts the first and third bars in Gipuzkoa.
    assert drawn == {"Bar Txoko", "Gure Etxea"}
