"""An entry of the public form holds no name and shows nobody its players until it is
confirmed (issue 40).

A pending public entry "Los Txapeldunes" made the venue's organiser's own entry of that
name a 400 ("Ya hay una pareja llamada…"), even after he had rejected it; and pending and
rejected entries were public at /campeonatos/N/parejas/E/ (sequential ids) with both
players and "rechazada". Now a name is held by a confirmed (or withdrawn) pair only, the
database's unique index too, and an unconfirmed or rejected entry's page is its venue's
and championship's organisers' alone.
"""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from muscore.championships import confirm, services
from muscore.championships.models import Championship, Enrolment
from tests.championships.factory import small_championship
from tests.clubs.factory import logged_in, make_club, make_user

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

NAME = "Los Txapeldunes"


def public_entry(championship: Championship, sede: int, name: str = NAME,
                 players: tuple[str, str] = ("Ane Etxeberria", "Jon Arrieta")) -> Enrolment:
    response = Client().post(reverse("championships:enter", args=[championship.pk]), {
        "sede": sede, "name": name, "player_a": players[0], "player_b": players[1],
        "contact": ""})
    assert response.status_code == 200, response.content.decode()[-400:]
    entry = Enrolment.objects.latest("id")
    # The page after the form says it waits for its confirmation, and links to no page of it.
    assert "data-entry-pending" in response.content.decode()
    assert reverse("championships:pair", args=[championship.pk, entry.pk]) not in (
        response.content.decode())
    return entry


def test_a_pending_entry_holds_no_name_against_the_venues_organiser() -> None:
    championship, _boss, barmen = small_championship(bars=[("Bar Txoko", 0)])
    sede = championship.sedes.get()
    squatter = public_entry(championship, sede.pk)
    assert squatter.status == Enrolment.Status.PENDING
    bar = logged_in(barmen[0])
    own = bar.post(reverse("championships:enter", args=[championship.pk]), {
        "sede": sede.pk, "name": "los txapeldunes", "player_a": "Mikel Irigoyen",
        "player_b": "Koldo Arana", "contact": "", "paid": "1"})
    assert own.status_code == 200, own.content.decode()[-400:]
    mine = Enrolment.objects.get(player_a="Mikel Irigoyen")
    assert mine.status == Enrolment.Status.ENTERED
    # Confirming the squatter now: its name is a confirmed pair's.
    with pytest.raises(services.ChampionshipError, match="Ya hay una pareja llamada"):
        confirm.confirm(squatter, by=barmen[0])
    squatter.refresh_from_db()
    assert squatter.status == Enrolment.Status.PENDING
    confirm.reject(squatter, by=barmen[0])


def test_a_rejected_entry_holds_no_name_and_of_two_pending_the_first_confirmed_takes_it(
) -> None:
    championship, boss, barmen = small_championship(bars=[("Bar Txoko", 0)])
    sede = championship.sedes.get()
    rejected = public_entry(championship, sede.pk)
    confirm.reject(rejected, by=barmen[0])
    first = public_entry(championship, sede.pk, players=("Ane Uria", "Jon Uria"))
    second = public_entry(championship, sede.pk, NAME.upper(), ("Peio Lasa", "Iker Lasa"))
    confirm.confirm(second, by=barmen[0])
    with pytest.raises(services.ChampionshipError, match="Ya hay una pareja llamada"):
        confirm.confirm(first, key=confirm.link_key(first))  # the pair's own link too
    # The database holds it too: two pairs holding one name at a venue cannot be stored.
    with pytest.raises(IntegrityError), transaction.atomic():
        Enrolment.objects.filter(pk=first.pk).update(status=Enrolment.Status.ENTERED)
    # Another venue has its names of its own.
    other = services.add_sede(championship, by=boss, name="Gure Etxea", club=make_club("Gure"))
    assert public_entry(championship, other.pk, players=("Unai Goñi", "Aitor Goñi"))


def test_pending_and_rejected_entries_are_their_organisers_to_see() -> None:
    championship, boss, barmen = small_championship(bars=[("Bar Txoko", 0)])
    sede = championship.sedes.get()
    pending = public_entry(championship, sede.pk)
    rejected = public_entry(championship, sede.pk, "Los Otros", ("Ana Lasa", "Bea Lasa"))
    confirm.reject(rejected, by=barmen[0])
    other_bar = make_user("otro-bar")  # another club's organiser
    make_club("Otro bar", organiser=other_bar)
    stranger = logged_in(other_bar)
    for entry, words in ((pending, "pendiente de confirmar"), (rejected, "rechazada")):
        url = reverse("championships:pair", args=[championship.pk, entry.pk])
        for client in (Client(), stranger):
            page = client.get(url)
            assert page.status_code == 404, url
            assert entry.player_a not in page.content.decode()
        for organiser in (barmen[0], boss):  # the venue's, the championship's
            page = logged_in(organiser).get(url)
            assert page.status_code == 200 and words in page.content.decode()
    # Confirmed, it is public, with its path through the championship.
    confirm.confirm(pending, by=barmen[0])
    url = reverse("championships:pair", args=[championship.pk, pending.pk])
    assert Client().get(url).status_code == 200
