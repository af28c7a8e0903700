"""The public entry form's names are checked as the clubs' are (muscore.text), and the
entries' CSV is made safe for a spreadsheet (OWASP's formula injection): issue 21 points 8
and 9, found again on the championships' surface by the repeat probe."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse

from muscore.championships import confirm
from muscore.championships.models import Enrolment
from tests.championships.factory import small_championship

pytestmark = pytest.mark.django_db


def enter(championship_id: int, sede: int, **data: str) -> object:
    form = {"sede": sede, "name": "Los de siempre", "player_a": "Ane", "player_b": "Jon",
            "contact": "", **data}
    return Client().post(reverse("championships:enter", args=[championship_id]), form)


@pytest.mark.parametrize("field", ["name", "player_a", "player_b"])
@pytest.mark.parametrize("value", ["Ana\u202eBea", "\u200b\u200b", "Ana\x1b", "Ana\x07", "Ana\x7f"])
def test_a_name_with_a_control_override_or_nothing_visible_is_refused(
    field: str, value: str
) -> None:
    championship, _, _ = small_championship()
    sede = championship.sedes.order_by("id")[0]
    before = Enrolment.objects.count()
    response = enter(championship.pk, sede.pk, **{field: value})
    assert response.status_code == 400  # type: ignore[attr-defined]
    assert "carácter" in response.text or "invisibles" in response.text  # type: ignore[attr-defined]
    assert Enrolment.objects.count() == before


def test_the_entries_csv_neutralises_formulas() -> None:
    championship, _, barmen = small_championship()
    sede = championship.sedes.order_by("id")[0]
    for n, name in enumerate(["=HYPERLINK(\"http://x\")", "+1", "-2", "@SUM(A1)"]):
        response = enter(championship.pk, sede.pk, name=name, player_a=f"=A{n}", player_b=f"B{n}")
        assert response.status_code == 200  # type: ignore[attr-defined]
    for pending in Enrolment.objects.filter(status="pending"):  # the bar confirms them
        confirm.confirm(pending, by=barmen[0])
    text = Client().get(reverse("api:championship_entries_csv", args=[championship.pk])).text
    cells = [cell for row in list(csv.reader(io.StringIO(text), delimiter=";"))[1:]
             for cell in row]
    assert "'=HYPERLINK(\"http://x\")" in cells and "'=A0" in cells and "'@SUM(A1)" in cells
    assert not [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")]


@pytest.mark.parametrize("contact", ["600\x1b[2J", "600\x07", "600\x7f", "600\u202e111",
                                     "\u200b\u200b"])
def test_a_contact_with_a_control_character_or_an_override_is_refused(contact: str) -> None:
    championship, _, _ = small_championship(bars=[("Bar Txoko", 0)])
    sede = championship.sedes.get()
    response = enter(championship.pk, sede.pk, contact=contact)
    assert response.status_code == 400  # type: ignore[attr-defined]
    assert "El contacto" in response.text  # type: ignore[attr-defined]
    assert not Enrolment.objects.exists()


@pytest.mark.parametrize("contact", ["\u0301\u0301\u0308", " \u0301 \u20dd", "\u0301\u200b"])
def test_a_contact_of_combining_accents_only_is_refused(contact: str) -> None:
    """Issue 40.10: accents with nothing to sit on draw over the organisers' list."""
    championship, _, _ = small_championship(bars=[("Bar Txoko", 0)])
    sede = championship.sedes.get()
    response = enter(championship.pk, sede.pk, contact=contact)
    assert response.status_code == 400  # type: ignore[attr-defined]
    assert "El contacto solo tiene acentos sueltos" in response.text  # type: ignore[attr-defined]
    assert not Enrolment.objects.exists()
    # An accent on a letter or a digit is a contact.
    assert enter(championship.pk, sede.pk, contact="Jose\u0301 600 111 222").status_code == 200  # type: ignore[attr-defined]
    assert Enrolment.objects.get().contact == "Jose\u0301 600 111 222"


@pytest.mark.parametrize("field", ["name", "player_a", "player_b"])
def test_a_name_of_combining_accents_only_is_refused(field: str) -> None:
    championship, _, _ = small_championship(bars=[("Bar Txoko", 0)])
    sede = championship.sedes.get()
    response = enter(championship.pk, sede.pk, **{field: "\u0301\u0301\u0308"})
    assert response.status_code == 400  # type: ignore[attr-defined]
    assert "acentos sueltos" in response.text  # type: ignore[attr-defined]
    assert not Enrolment.objects.exists()


def test_the_spellings_of_one_person_are_one_person_at_the_entry() -> None:
    """Issue 28 point 4: beside "Iñaki Etxeberria", the probe's variants (one of each kind
    the key test makes from Unicode's data) are refused as the same person, or as mixed
    scripts; nothing is stored for them."""
    from tests.test_person_key import invisibles, look_alikes, other_forms, punctuation

    championship, _, barmen = small_championship(bars=[("Bar Txoko", 0), ("Gure Etxea", 0)])
    first, second = championship.sedes.order_by("id")
    assert enter(championship.pk, first.pk, player_a="Iñaki Etxeberria").status_code == 200  # type: ignore[attr-defined]
    confirm.confirm(Enrolment.objects.get(), by=barmen[0])  # a confirmed entry holds him
    kinds = dict(look_alikes() + invisibles() + punctuation() + other_forms())
    wanted = ["U+200D inside", "U+00AD inside", "i->U+0406", "i->U+0131", "trailing U+002E",
              "swapped", "swapped with a comma", "e->U+0435", "i->U+03B9", "fullwidth",
              "U+FEFF at the end", "a->U+0251"]
    for number, what in enumerate(wanted):
        response = enter(championship.pk, second.pk, name=f"Pareja {number}",
                         player_a=kinds[what], player_b=f"Otro {number}")
        assert response.status_code == 400, what  # type: ignore[attr-defined]
        assert ("ya juega en la pareja Los de siempre" in response.text  # type: ignore[attr-defined]
                or "alfabetos distintos" in response.text), what  # type: ignore[attr-defined]
    assert Enrolment.objects.count() == 1
    # Issue 40: a mathematical capital I (the confusables read it "l") is an I.
    for number, variant in enumerate(["\U0001d408ñaki Etxeberria", "𝕚ñaki 𝐄txeberria"]):
        response = enter(championship.pk, second.pk, name=f"Mates {number}",
                         player_a=variant, player_b=f"Otro mates {number}")
        assert response.status_code == 400, variant  # type: ignore[attr-defined]
        assert "ya juega en la pareja Los de siempre" in response.text  # type: ignore[attr-defined]
    assert Enrolment.objects.count() == 1
    # A different person is a different person.
    assert enter(championship.pk, second.pk, name="Otra", player_a="Inaki Etxeberria",
                 player_b="Koldo").status_code == 200  # type: ignore[attr-defined]


def test_the_stored_keys_are_made_again_by_the_migration() -> None:
    """0009: keys stored by the fold that read the confusables before NFKC are made again."""
    import importlib

    from django.apps import apps

    championship, _, _ = small_championship(bars=[("Bar Txoko", 0)])
    sede = championship.sedes.get()
    assert enter(championship.pk, sede.pk, player_a="\U0001d408ñaki Etxeberria").status_code == 200  # type: ignore[attr-defined]
    Enrolment.objects.update(key_a="etxeberria lñaki")  # as the old fold stored it
    migration = importlib.import_module(
        "muscore.championships.migrations.0009_person_keys_nfkc_first")
    migration.rekey(apps, None)
    assert Enrolment.objects.get().key_a == "etxeberria iñaki"
