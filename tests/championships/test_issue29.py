"""Issue 29 points 4 and 5 on the championship: the player search by any part of a name,
a closing time in the past refused, and entries.csv made for a Spanish Excel."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from muscore.championships import services
from tests.championships.factory import small_championship
from tests.clubs.factory import make_club, make_user

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("query", ["Irigoyen", "irigoyén", "IRIGO", "mikel irig", "  Mikel  "])
def test_a_player_is_found_by_any_part_of_his_name(query: str) -> None:
    championship, boss, _barmen = small_championship()
    sede = championship.sedes.order_by("id").first()
    assert sede is not None
    services.enter_pair(sede, name="Los de Leitza", players=["Mikel Irigoyen", "Patxi Otano"],
                        contact="", by=boss)
    page = Client().get(reverse("championships:player", args=[championship.pk]),
                        {"nombre": query}).text
    assert "Los de Leitza" in page


def test_a_search_for_nobody_says_so() -> None:
    championship, _boss, _barmen = small_championship()
    page = Client().get(reverse("championships:player", args=[championship.pk]),
                        {"nombre": "Zubizarreta"}).text
    assert "Nadie llamado «Zubizarreta» se ha inscrito." in page


def test_a_closing_time_in_the_past_is_refused_with_a_message() -> None:
    boss = make_user("federacion")
    club = make_club("Federación de Mus", organiser=boss)
    client = Client()
    client.force_login(boss)
    url = reverse("championships:new", args=[club.slug])
    data = {"name": "Txapelketa", "seats": 8, "min_per_sede": 1, "juegos": 3,
            "round_minutes": 45}
    past = (timezone.localtime() - timedelta(days=1)).strftime("%d/%m/%Y %H:%M")
    refused = client.post(url, {**data, "entries_close_at": past})
    assert refused.status_code == 400
    assert "Esa hora de cierre ya ha pasado" in refused.text
    assert not club.championships.exists()
    future = (timezone.localtime() + timedelta(days=7)).strftime("%d/%m/%Y %H:%M")
    assert client.post(url, {**data, "entries_close_at": future}).status_code == 302
    assert club.championships.count() == 1


def test_entries_csv_is_for_a_spanish_excel_in_the_pages_language() -> None:
    championship, boss, _barmen = small_championship()
    sede = championship.sedes.order_by("id").first()
    assert sede is not None
    services.enter_pair(sede, name="Pérez eta Iñaki", players=["Ane Pérez", "Iñaki Zubia"],
                        contact="", by=boss)
    url = reverse("api:championship_entries_csv", args=[championship.pk])
    answer = Client().get(url)
    raw = answer.content
    assert raw.startswith("\ufeff".encode()) and "Pérez".encode() in raw
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig")), delimiter=";"))
    assert rows[0] == ["Sede", "Región", "Pareja", "Jugador 1", "Jugador 2", "Estado", "Pagada"]
    mine = next(r for r in rows if r[2] == "Pérez eta Iñaki")
    assert mine[5:] == ["inscrita", "no"]
    french = Client().get(url, headers={"Accept-Language": "fr"}).content.decode("utf-8-sig")
    head = next(csv.reader(io.StringIO(french), delimiter=";"))
    assert head[0] != "Sede" and len(head) == 7
    commas = Client().get(url, {"sep": ","}).content.decode("utf-8-sig")
    assert next(csv.reader(io.StringIO(commas)))[:2] == ["Sede", "Región"]
    assert Client().get(url, {"sep": "|"}).status_code == 400
