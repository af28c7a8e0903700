"""Entries that cannot be flooded or squatted (issue 28 point 3: 1,000 entries posted from
one address in 24 s; at the close, the false entries' two venues took 7 of 8 seats).

The public form is limited per address and per championship (muscore.ratelimits: a 429
page in the reader's language, nothing stored past the limit), and an entry from it holds
no seat until its venue's organiser confirms it (or the pair, with the link he sends it):
the quotas, the heats and the draw count confirmed entries only."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from pytest_django import Settings

from muscore.championships import confirm, services
from muscore.championships.models import Championship, Enrolment
from tests.championships.factory import small_championship
from tests.clubs.factory import logged_in
from tests.clubs.test_login_lockout import RateClock
from tests.test_rate_limits import address

pytestmark = pytest.mark.django_db


@pytest.fixture
def limits(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, list[str]]]:
    # The limits' clock stands still: a minute's window ending mid-burst (a slow request on
    # a loaded machine) would let one request too many through (CI saw it at load 10).
    RateClock(monkeypatch)
    settings.RATELIMIT_ENABLE = True
    settings.MUSCORE_RATE_LIMITS = {"entry": ["5/m"], "entry_championship": ["1000/m"]}
    cache.clear()
    yield settings.MUSCORE_RATE_LIMITS
    cache.clear()


def post(championship: Championship, sede: int, n: int, ip: str, client: Client | None = None,
         **headers: str) -> object:
    form = {"sede": sede, "name": f"Falsa {n}", "player_a": f"Nadie {n}a",
            "player_b": f"Nadie {n}b", "contact": ""}
    return (client or Client()).post(reverse("championships:enter", args=[championship.pk]),
                                     form, REMOTE_ADDR=ip, headers=headers)


def test_a_flood_from_one_address_is_a_429_and_stores_nothing_past_the_limit(
        limits: dict[str, list[str]]) -> None:
    championship, _, _ = small_championship(bars=[("Bar Txoko", 0)])
    sede = championship.sedes.get().pk
    ip = address(60, 20)
    answers = [post(championship, sede, n, ip).status_code for n in range(40)]  # type: ignore[attr-defined]
    assert answers == [200] * 5 + [429] * 35
    assert Enrolment.objects.count() == 5
    page = post(championship, sede, 99, ip)
    assert page.status_code == 429 and 1 <= int(page["Retry-After"]) <= 61  # type: ignore[attr-defined,index]
    assert "Han llegado demasiadas peticiones desde esta conexión" in page.content.decode()  # type: ignore[attr-defined]
    english = post(championship, sede, 98, ip, **{"Accept-Language": "en"})
    assert "Too many requests have come from this connection" in english.content.decode()  # type: ignore[attr-defined]
    # Another address enters; the form itself still opens for the flooded one.
    assert post(championship, sede, 97, address(60, 20, start=_last(ip))).status_code == 200  # type: ignore[attr-defined]
    assert Client().get(reverse("championships:enter", args=[championship.pk]),
                        REMOTE_ADDR=ip).status_code == 200


def _last(ip: str) -> int:
    return int(ip.rsplit(".", 1)[1])


def test_a_championship_has_a_ceiling_whatever_the_addresses(
        limits: dict[str, list[str]]) -> None:
    limits["entry_championship"] = ["6/m"]
    championship, boss, barmen = small_championship(bars=[("Bar Txoko", 0)])
    sede = championship.sedes.get().pk
    ips, start = [], 0
    for _ in range(4):  # four addresses, each under its own limit of 5
        ips.append(address(60, 20, start=start))
        start = _last(ips[-1])
    answers = [post(championship, sede, n, ips[n % 4]).status_code for n in range(12)]  # type: ignore[attr-defined]
    assert answers == [200] * 6 + [429] * 6
    assert Enrolment.objects.count() == 6
    refused = post(championship, sede, 50, ips[0])
    assert "está recibiendo muchas inscripciones a la vez" in refused.content.decode()  # type: ignore[attr-defined]
    # The venue's organiser is counted by neither limit: he enters his bar's pairs.
    bar = logged_in(barmen[0])
    for n in range(8):
        assert post(championship, sede, 100 + n, ips[0], client=bar).status_code == 200  # type: ignore[attr-defined]
    assert Enrolment.objects.filter(status="entered").count() == 8
    # Another championship has its own ceiling.
    other = services.create_championship(championship.club, by=boss, name="Otra", seats=2)
    other_sede = services.add_sede(other, by=boss, name="Bar", club=championship.sedes.get().club)
    assert post(other, other_sede.pk, 200, ips[1]).status_code == 200  # type: ignore[attr-defined]


def test_one_addresss_flood_does_not_use_up_the_championships_ceiling(
        limits: dict[str, list[str]]) -> None:
    limits["entry"], limits["entry_championship"] = ["3/m"], ["8/m"]
    championship, _, _ = small_championship(bars=[("Bar Txoko", 0)])
    sede = championship.sedes.get().pk
    flood = address(60, 20)
    assert [post(championship, sede, n, flood).status_code for n in range(30)].count(200) == 3  # type: ignore[attr-defined]
    honest = address(60, 20, start=_last(flood))
    assert [post(championship, sede, 100 + n, honest).status_code for n in range(3)] == [200] * 3  # type: ignore[attr-defined]


def test_unconfirmed_entries_hold_no_seat_at_the_close() -> None:
    """The probe's close: two venues of false entries took 7 of 8 seats. Now they take
    what their confirmed pairs are owed, and their pending entries stay out."""
    championship, boss, barmen = small_championship(
        seats=8, bars=[("Bar Txoko", 4), ("Herriko Taberna", 4), ("Gure Etxea", 0),
                       ("Etxe Zaharra", 0)])
    sedes = list(championship.sedes.order_by("id"))
    for sede in sedes[2:]:
        for n in range(30):  # false entries from the public form
            services.enter_pair(sede, name=f"Falsa {n}", players=[f"X{sede.pk} {n}a",
                                                                   f"X{sede.pk} {n}b"])
    assert Enrolment.objects.filter(status="pending").count() == 60
    real = Enrolment.objects.filter(sede=sedes[2]).first()
    assert real is not None
    confirm.confirm(real, by=barmen[2])  # one of Gure Etxea's is a real pair
    quotas = services.close_entries(championship, by=boss)
    assert [row.pairs for row in quotas.rows] == [4, 4, 1, 0]
    assert sum(row.seats for row in quotas.rows[2:]) <= 1
    assert Enrolment.objects.filter(status="pending").count() == 59
    # After the close a pending entry no longer comes in, by the organiser or by its link.
    pending = Enrolment.objects.filter(status="pending").first()
    assert pending is not None
    with pytest.raises(services.ChampionshipError, match="cerradas"):
        confirm.confirm(pending, by=barmen[2])
    with pytest.raises(services.ChampionshipError, match="cerradas"):
        confirm.confirm(pending, key=confirm.link_key(pending))
    # The heat plays the confirmed pairs only.
    with pytest.raises(services.ChampionshipError, match="parejas suficientes"):
        services.start_heat(sedes[3], by=barmen[3])


def test_a_pending_entry_holds_no_player_and_its_confirmation_checks_again() -> None:
    """A false entry naming a real player does not keep him out (squatting); the first of
    two entries naming one person to be confirmed holds him, the other is refused."""
    championship, _, barmen = small_championship(bars=[("Bar Txoko", 0), ("Gure Etxea", 0)])
    first, second = championship.sedes.order_by("id")
    squat = services.enter_pair(first, name="Falsa", players=["Iñaki Etxeberria", "Nadie"])
    real = services.enter_pair(second, name="Los de Leitza",
                               players=["Etxeberria, Iñaki", "Patxi"])
    assert squat.status == real.status == "pending"
    confirm.confirm(real, key=confirm.link_key(real))
    with pytest.raises(services.ChampionshipError,
                       match="Iñaki ya juega en la pareja Los de Leitza"):
        confirm.confirm(squat, by=barmen[0])
    squat.refresh_from_db()
    assert squat.status == "pending"
    confirm.reject(squat, by=barmen[0])
    squat.refresh_from_db()
    assert squat.status == "rejected"


def test_a_confirmation_past_the_venues_capacity_goes_to_its_waiting_list() -> None:
    championship, _, barmen = small_championship(bars=[("Bar Txoko", 2)], capacity=2)
    sede = championship.sedes.get()
    late = services.enter_pair(sede, name="Tarde", players=["Ane", "Jon"])
    assert confirm.confirm(late, by=barmen[0]).status == "waiting"


def test_the_venues_organiser_confirms_and_rejects_on_its_page() -> None:
    championship, boss, barmen = small_championship(bars=[("Bar Txoko", 1), ("Gure Etxea", 0)])
    sede = championship.sedes.order_by("id")[0]
    a = services.enter_pair(sede, name="Los de siempre", players=["Ane", "Jon"],
                            contact="600 111 222")
    b = services.enter_pair(sede, name="Falsa", players=["Nadie", "Nunca"])
    page = reverse("championships:sede", args=[championship.pk, sede.pk])
    public = Client().get(page).text
    assert "Los de siempre" not in public and "Falsa" not in public  # not before it is confirmed
    bar = logged_in(barmen[0])
    shown = bar.get(page).text
    assert "2 inscripciones por confirmar" in shown and "600 111 222" in shown
    assert confirm.link_key(a) in shown  # the pair's link, to send or show it
    action = reverse("championships:enrolment_action", args=[championship.pk, sede.pk, a.pk])
    # Another venue's organiser cannot confirm: 403, nothing changed.
    assert logged_in(barmen[1]).post(action, {"action": "confirm"}).status_code == 403
    assert Client().post(action, {"action": "confirm"}).status_code in (302, 403)
    a.refresh_from_db()
    assert a.status == "pending"
    assert bar.post(action, {"action": "confirm"}).status_code == 302
    refuse = reverse("championships:enrolment_action", args=[championship.pk, sede.pk, b.pk])
    assert bar.post(refuse, {"action": "reject"}).status_code == 302
    a.refresh_from_db()
    b.refresh_from_db()
    assert (a.status, b.status) == ("entered", "rejected")
    assert a.confirmed_at is not None
    again = bar.post(refuse, {"action": "confirm"})
    assert again.status_code == 409 and "fue rechazada" in again.text
    public = Client().get(page).text
    assert "Los de siempre" in public and "Falsa" not in public
    exported = Client().get(reverse("api:championship_entries_csv", args=[championship.pk])).text
    assert "Los de siempre" in exported and "Falsa" not in exported


def test_the_pairs_link_confirms_once_and_a_wrong_link_nothing() -> None:
    championship, _, _ = small_championship(bars=[("Bar Txoko", 0)])
    sede = championship.sedes.get()
    entry = services.enter_pair(sede, name="Los de Leitza", players=["Iñaki", "Patxi"])
    other = services.enter_pair(sede, name="Otra", players=["Miren", "Ane"])

    def link(enrolment: Enrolment, key: str) -> str:
        return reverse("championships:confirm", args=[championship.pk, enrolment.pk, key])

    client = Client()
    good = link(entry, confirm.link_key(entry))
    shown = client.get(good)  # a chat app's preview of the link: it confirms nothing
    assert shown.status_code == 200 and "Sí, somos nosotros: confirmar" in shown.text
    entry.refresh_from_db()
    assert entry.status == "pending"
    for wrong in [link(entry, confirm.link_key(entry)[:-1] + "x"), link(entry, "x"),
                  link(entry, confirm.link_key(other)), link(other, confirm.link_key(entry))]:
        for method in (client.get, client.post):
            answer = method(wrong)
            assert answer.status_code == 404 and "no es válido" in answer.text
    done = client.post(good)
    assert done.status_code == 200 and "confirmada: tiene su plaza en Bar Txoko" in done.text
    entry.refresh_from_db()
    other.refresh_from_db()
    assert (entry.status, other.status) == ("entered", "pending")
    reused = client.post(good)
    assert reused.status_code == 409 and "ya está confirmada" in reused.text
    assert client.get(good).status_code == 409
    assert Enrolment.objects.filter(status="entered").count() == 1
