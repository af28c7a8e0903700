"""An id no database column can hold, posted where a form chooses rows by id, is the
form's "not one of the choices" error, never a 500 (issue 21's repeat probe: the new
competition's pairs with a 30-digit id was SQLite's OverflowError)."""

from __future__ import annotations

import pytest
from django import forms

from muscore.clubs.models import Player
from muscore.idfields import IdChoiceField, IdMultipleChoiceField, fits
from tests.clubs.factory import logged_in, make_club, make_user

pytestmark = pytest.mark.django_db

HUGE = "9" * 30


def test_a_new_competition_with_a_huge_pair_id_is_refused_with_the_form() -> None:
    organiser = make_user("maite")
    club = make_club(organiser=organiser)
    response = logged_in(organiser).post(f"/club/{club.slug}/ligas/nueva", {
        "name": "Liga", "format": "liguilla", "legs": "1", "pairs": [HUGE, str(-(2**70))],
        "juegos": "1", "target": "40", "reyes": "8", "real31": "no",
        "win": "2", "loss": "1", "forfeit": "0",
    })
    assert response.status_code == 400
    assert club.competitions.count() == 0


@pytest.mark.parametrize("value", [HUGE, str(2**63), str(-(2**63) - 1)])
def test_the_id_fields_refuse_an_id_out_of_a_column_s_range(value: str) -> None:
    with pytest.raises(forms.ValidationError):
        IdChoiceField(queryset=Player.objects.all()).clean(value)
    with pytest.raises(forms.ValidationError):
        IdMultipleChoiceField(queryset=Player.objects.all()).clean(["1", value])


def test_ids_in_range_and_text_are_left_to_django() -> None:
    assert fits("12") and fits(str(2**63 - 1)) and fits("abc")
    club = make_club(organiser=make_user("maite"))
    player = Player.objects.create(club=club, name="Ana")
    assert IdChoiceField(queryset=Player.objects.all()).clean(str(player.pk)) == player
    with pytest.raises(forms.ValidationError):
        IdChoiceField(queryset=Player.objects.all()).clean("abc")
