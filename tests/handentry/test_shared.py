"""muscore.handentry: the parts every screen entering a hand shares, written once and used
by the table's set-up and hand entry, the calculator and a league's competition form."""

from __future__ import annotations

import pytest
from django.utils import translation

from muscore.clubs.models import Club
from muscore.disputes.calculator import Calculation
from muscore.handentry import cards, options, words
from muscore.leagues.forms import CompetitionForm
from muscore.tables.forms import SetupForm


def test_the_table_options_are_declared_once() -> None:
    for key in options.OPTION_KEYS:
        shared = options.TableOptionsFields.base_fields[key]
        assert SetupForm.base_fields[key] is shared
        assert CompetitionForm.base_fields[key] is shared


@pytest.mark.django_db
def test_a_league_plays_three_juegos_without_changing_the_tables_default() -> None:
    form = CompetitionForm(club=Club.objects.create(name="Peña", slug="pena-handentry"))
    assert form.fields["juegos"].initial == 3
    assert SetupForm().fields["juegos"].initial == 2


def test_the_setup_form_gives_the_options_to_the_table() -> None:
    form = SetupForm({"players": "4", "mano": "1", "reyes": "4", "target": "30", "juegos": "3",
                      "real31": "sota"})
    assert form.is_valid(), form.errors
    assert form.table_kwargs()["rules"] == {"players": 4, "reyes": 4, "target": 30, "juegos": 3,
                                            "real31": "sota"}


def test_the_calculator_reads_the_options_leniently_saying_what_is_wrong() -> None:
    errors: list[str] = []
    with translation.override("es"):
        rules = options.read_options({"players": "6", "reyes": "4", "target": "7",
                                      "juegos": "x", "real31": "nada"}, errors)
    assert rules == {"players": 6, "reyes": 4, "target": 40, "juegos": 2, "real31": "no"}
    assert errors == [
        "Piedras por juego: «7» no vale; debe ser un número del 10 al 100.",
        "Juegos para la vaca: «x» no vale; debe ser un número del 1 al 5.",
    ]
    calc = Calculation.from_data({"target": "25", "sa": "30"})
    assert calc.rules["target"] == 25 and calc.score["A"] == 0
    assert any("Tanteo de A" in e for e in calc.errors)


@pytest.mark.parametrize(("text", "read"), [
    ("r r 5 4", ["R", "R", "5", "4"]), ("RR54", ["R", "R", "5", "4"]),
    ("12,11 10 A", ["R", "C", "S", "1"]), ("", []),
])
def test_cards_are_read_alike_everywhere(text: str, read: list[str]) -> None:
    assert cards.cards_from_text(text) == read


def test_a_token_that_is_no_card_is_named() -> None:
    with pytest.raises(cards.CardTokenError, match="X9"):
        cards.cards_from_text("R X9")
    assert cards.normal_cards("4 5 r r") == "R R 5 4"
    assert cards.normal_cards("12 5") == "R 5"


def test_a_records_seats_become_the_fields_that_read_it_back() -> None:
    # The cards in the order they were entered (issue 38.3), as the fields read them.
    record = {"hands": {"0": "4 5 r 12"}, "jugadas": {"1": {"pares": "par", "juego": 31}},
              "declared": {"0": {"juego": True}}}
    assert cards.seat_fields(record) == {"c0": "4 5 R R", "p1": "par", "j1": "31", "dj0": "si"}


def test_seats_and_sides() -> None:
    assert words.default_names(6) == ["A1", "B1", "A2", "B2", "A3", "B3"]
    assert [words.side_of(s) for s in range(4)] == ["A", "B", "A", "B"]
    assert words.side_seats("B", 6) == [1, 3, 5]
    assert words.other("A") == "B"
    assert words.side_names(["Ana", "Bruno", "Carla", "Diego"], "B") == "Bruno y Diego"


def test_a_tables_names_are_the_shared_ones() -> None:
    """The table's services take NAME_MAX and the default names from here (they were a
    second copy in tables/services)."""
    from muscore.tables import services

    assert services.NAME_MAX is words.NAME_MAX
    assert services.default_names is words.default_names
    assert services.normalize_players(None, 4) == words.default_names(4)
