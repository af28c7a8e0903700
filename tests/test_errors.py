"""One coded error base (muscore.errors) for every family, one catalogue of page wordings
(muscore.messages): each family is a MuscoreError with its status, an English str() and
its wording in the page's language."""

from __future__ import annotations

import pytest
from django.utils.translation import gettext_lazy, override

from muscore.championships.knockout import KnockoutError
from muscore.championships.services import ChampionshipError
from muscore.clubs.services import ClubError
from muscore.errors import MuscoreError
from muscore.handentry.taps import EntryError
from muscore.leagues.competitions import CompetitionError
from muscore.leagues.compute.ceros import CerosError
from muscore.leagues.compute.draw import DrawError
from muscore.leagues.compute.errors import LeagueError
from muscore.leagues.compute.quotas import QuotaError
from muscore.leagues.confirmations import ClaimError, ClaimForbidden
from muscore.leagues.results import KnockoutConflict
from muscore.messages import CATALOGUES, WordedError, page_message
from muscore.permalink import PermalinkError
from muscore.rules import RecordError, RuleError

# (the error, its status, its English str(), its Spanish and English page wording)
FAMILIES: list[tuple[MuscoreError, int, str, str, str]] = [
    (RecordError("card", seat=0, token="9"), 400,
     "Seat 0: '9' is not a card. Cards are 1-7, 10 (S, sota), 11 (C, caballo), 12 (R, rey).",
     "Asiento 0: «9» no es una carta. Las cartas son 1-7, 10 (S, sota), 11 (C, caballo), "
     "12 (R, rey).",
     "Seat 0: '9' is not a card. Cards are 1-7, 10 (S, sota), 11 (C, caballo), 12 (R, rey)."),
    (LeagueError("too_few_pairs", count=1), 400, "A league needs at least 2 pairs, not 1.",
     "Una liga necesita al menos 2 parejas, no 1.", "A league needs at least 2 pairs, not 1."),
    (QuotaError("no_sedes", got="[]"), 400,
     "'sedes' must be a list of one venue or more, not [].",
     "El campeonato no tiene sedes.", "The championship has no venues."),
    (CerosError("too_few_pairs", count=1), 400,
     "A ceros tournament needs at least 2 pairs, not 1.",
     "Un torneo a ceros necesita al menos 2 parejas.",
     "A ceros tournament needs at least 2 pairs."),
    (DrawError("too_few_pairs", count=1), 400, "A draw needs at least 2 pairs, not 1.",
     "Un sorteo necesita al menos 2 parejas, no 1.", "A draw needs at least 2 pairs, not 1."),
    (PermalinkError("damaged"), 400,
     "The link's code is damaged: it holds no hand that can be read.",
     "Ese enlace está dañado: no lleva una mano que se pueda leer.",
     "That link is damaged: it carries no hand that can be read."),
    (EntryError(gettext_lazy("Una eliminatoria necesita al menos dos parejas.")), 400,
     "A knockout needs at least two pairs.",
     "Una eliminatoria necesita al menos dos parejas.", "A knockout needs at least two pairs."),
    (ClubError(gettext_lazy("El torneo ya tiene ganadora.")), 400,
     "The tournament already has its winner.",
     "El torneo ya tiene ganadora.", "The tournament already has its winner."),
    (CompetitionError(gettext_lazy("El torneo ya tiene ganadora.")), 400,
     "The tournament already has its winner.",
     "El torneo ya tiene ganadora.", "The tournament already has its winner."),
    (ClaimError(gettext_lazy("El torneo ya tiene ganadora.")), 400,
     "The tournament already has its winner.",
     "El torneo ya tiene ganadora.", "The tournament already has its winner."),
    (ClaimForbidden(gettext_lazy("El torneo ya tiene ganadora.")), 403,
     "The tournament already has its winner.",
     "El torneo ya tiene ganadora.", "The tournament already has its winner."),
    (ChampionshipError(gettext_lazy("El campeonato no tiene sedes.")), 400,
     "The championship has no venues.",
     "El campeonato no tiene sedes.", "The championship has no venues."),
    (KnockoutError(gettext_lazy("Una eliminatoria necesita al menos dos parejas.")), 400,
     "A knockout needs at least two pairs.",
     "Una eliminatoria necesita al menos dos parejas.", "A knockout needs at least two pairs."),
]

IDS = [type(f[0]).__name__ for f in FAMILIES]


@pytest.mark.parametrize(("error", "status", "english", "spanish", "page_english"), FAMILIES,
                         ids=IDS)
def test_every_family_is_a_coded_error_with_its_status_and_wording(
    error: MuscoreError, status: int, english: str, spanish: str, page_english: str
) -> None:
    assert isinstance(error, MuscoreError) and isinstance(error, ValueError)
    assert error.code and error.family != "muscore"
    assert error.status == status
    with override("es"):
        assert str(error) == english  # the API's and the logs' language whatever the page's
        assert page_message(error) == spanish
        assert error.page_message() == spanish  # the base's hook asks the same catalogue
    assert page_message(error, "en") == page_english
    # Basque and French are complete too.
    assert page_message(error, "eu") not in (spanish, page_english)
    assert page_message(error, "fr") not in (spanish, page_english)


def test_a_knockout_conflict_is_a_409() -> None:
    conflict = KnockoutConflict([3, 4])
    assert conflict.status == 409 and conflict.code == "knockout_conflict"
    assert "3, 4" in page_message(conflict, "es")


def test_a_coded_family_has_a_page_wording_for_its_codes() -> None:
    # Every code of the engine and of the league contract is worded; the quota document's
    # codes that only the command line meets keep their English.
    assert set(CATALOGUES["rules"]) == set(RuleError.MESSAGES)
    assert set(CATALOGUES["league"]) == set(LeagueError.MESSAGES)
    assert set(CATALOGUES["ceros"]) == set(CerosError.MESSAGES)
    assert set(CATALOGUES["draw"]) == set(DrawError.MESSAGES)
    assert set(CATALOGUES["permalink"]) == set(PermalinkError.MESSAGES)
    assert set(CATALOGUES["quota"]) <= set(QuotaError.MESSAGES)
    unworded = QuotaError("sede_name", sede=1, got="null")
    assert page_message(unworded, "es") == str(unworded)


def test_a_code_without_a_template_still_says_something() -> None:
    class Odd(MuscoreError):
        family = "odd"

    assert str(Odd("strange", n=2)) == "strange: n=2"
    assert str(Odd("bare")) == "bare"
    assert page_message(Odd("bare"), "es") == "bare"


def test_a_worded_error_raised_already_translated_reads_the_same_everywhere() -> None:
    with override("es"):
        error = CompetitionError("Ya traducido: %s")  # a % that is no placeholder stays
    assert str(error) == page_message(error, "en") == "Ya traducido: %s"
    assert isinstance(error, WordedError) and error.code == "competition"
