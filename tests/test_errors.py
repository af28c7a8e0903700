"""One coded error base (muscore.errors) for every family, one catalogue of page wordings
(muscore.messages): each family is a MuscoreError with its status, an English str() and
its wording in the page's language."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory
from django.utils.translation import gettext_lazy, override

import muscore
from muscore.api.tables import BadRequest, api_view, error_answer
from muscore.championships.compute.draw import DrawError
from muscore.championships.compute.quotas import QuotaError
from muscore.championships.knockout import KnockoutError
from muscore.championships.services import ChampionshipError
from muscore.clubs.permissions import stored_user
from muscore.clubs.services import ClubError
from muscore.errors import MuscoreError
from muscore.handentry.taps import EntryError
from muscore.leagues.competitions import CompetitionError
from muscore.leagues.compute.ceros import CerosError
from muscore.leagues.compute.errors import LeagueError
from muscore.leagues.confirmations import ClaimError, ClaimForbidden
from muscore.leagues.results import KnockoutConflict, ReasonRequired
from muscore.messages import CATALOGUES, WordedError, page_message
from muscore.permalink import PermalinkError
from muscore.rules import RecordError, RuleError
from muscore.tables.services import (
    HandConflict,
    HandNotFound,
    IdempotencyMismatch,
    LaterHandInvalid,
    ResultSettled,
    StaleEdit,
    TableError,
    TableNotFound,
)

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

_NO_TABLE = gettext_lazy("no hay ninguna mesa con ese enlace")
_NO_HAND = gettext_lazy("la mano %(n)s no existe")
_LATER = gettext_lazy("con este cambio la mano %(n)s ya no valdría: %(why)s")
_SAVED = gettext_lazy("otro móvil ya guardó la mano %(n)s: aquí está")
_HAND: dict[str, Any] = {"number": 3, "record": {"hands": {}}}

# A table's refusals, and what the API's JSON answer carries beside "error".
TABLE_FAMILIES: list[tuple[MuscoreError, int, str, str, dict[str, Any]]] = [
    (TableError(_NO_TABLE), 400, "there is no such table", "no hay ninguna mesa con ese enlace",
     {}),
    (TableNotFound(_NO_TABLE), 404, "there is no such table",
     "no hay ninguna mesa con ese enlace", {}),
    (HandNotFound(_NO_HAND, n=7), 404, "hand 7 does not exist", "la mano 7 no existe", {}),
    (HandConflict(_SAVED, _HAND, n=3), 409, "another phone already saved hand 3: here it is",
     "otro móvil ya guardó la mano 3: aquí está", {"hand": _HAND}),
    (StaleEdit(_NO_HAND, 12, n=1), 409, "hand 1 does not exist", "la mano 1 no existe",
     {"revision": 12}),
    (IdempotencyMismatch(_NO_HAND, n=2), 422, "hand 2 does not exist", "la mano 2 no existe", {}),
    (ResultSettled(_NO_HAND, n=2), 409, "hand 2 does not exist", "la mano 2 no existe", {}),
    (LaterHandInvalid(_LATER, 4, n=4, why="x"), 400,
     "with this change hand 4 would no longer be valid: x",
     "con este cambio la mano 4 ya no valdría: x", {"number": 4}),
    (BadRequest("the body must be a JSON object"), 400, "the body must be a JSON object",
     "the body must be a JSON object", {}),
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


def test_a_worded_class_names_its_code_with_a_class_attribute() -> None:
    refused = ReasonRequired()
    assert refused.code == "reason_required" and refused.status == 400
    assert CompetitionError("x").code == "competition"  # the family's when it names none


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


@pytest.mark.parametrize(("error", "status", "english", "spanish", "fields"), TABLE_FAMILIES,
                         ids=[type(f[0]).__name__ for f in TABLE_FAMILIES])
def test_a_tables_refusals_are_coded_errors_with_their_status_and_fields(
    error: MuscoreError, status: int, english: str, spanish: str, fields: dict[str, Any]
) -> None:
    assert isinstance(error, WordedError) and error.code
    assert error.status == status and error.api_fields() == fields
    with override("es"):
        assert str(error) == english
        assert page_message(error) == error.page_message() == spanish
    assert page_message(error, "en") == english


ALL = [(f[0], f[1], f[2]) for f in FAMILIES] + [(f[0], f[1], f[2]) for f in TABLE_FAMILIES]


@pytest.mark.parametrize(("error", "status", "english"), ALL,
                         ids=[type(f[0]).__name__ for f in ALL])
def test_every_family_reaches_the_apis_one_answer(
    error: MuscoreError, status: int, english: str
) -> None:
    # Whatever the page's language, the API answers in English with the error's status.
    @api_view("POST")
    def refuses(request: HttpRequest) -> HttpResponse:
        raise error

    with override("es"):
        answer = refuses(RequestFactory().post("/api/v1/x"))
    assert answer.status_code == status
    assert answer["Content-Type"] == "application/problem+json"
    body = json.loads(answer.content)
    # RFC 9457 problem details with the refusal's code; its English (no Accept-Language)
    # as its detail and as "error", what the API has always answered, and its fields.
    assert body == {"type": f"urn:muscore:problem:{error.family}:{error.code}",
                    "title": error.code.replace("_", " ").capitalize(), "status": status,
                    "detail": english, "code": error.code, "error": english,
                    **error.api_fields()}
    assert answer.content == error_answer(error).content


def test_the_api_body_is_byte_for_byte_what_the_ladder_answered() -> None:
    # The problem's members, then {"error": ..., then the family's fields}, as the eight
    # except clauses wrote it.
    conflict = HandConflict(_SAVED, _HAND, n=3)
    assert error_answer(conflict).content == (
        b'{"type": "urn:muscore:problem:table:hand_conflict", "title": "Hand conflict", '
        b'"status": 409, "detail": "another phone already saved hand 3: here it is", '
        b'"code": "hand_conflict", '
        b'"error": "another phone already saved hand 3: here it is", '
        b'"hand": {"number": 3, "record": {"hands": {}}}}')
    assert error_answer(StaleEdit(_NO_HAND, 5, n=1)).content == (
        b'{"type": "urn:muscore:problem:table:stale_edit", "title": "Stale edit", '
        b'"status": 409, "detail": "hand 1 does not exist", "code": "stale_edit", '
        b'"error": "hand 1 does not exist", "revision": 5}')


def test_the_acting_user_is_typed_everywhere() -> None:
    # `by` (and `user`, `organiser`) is the request's user or nobody: never Any again.
    loose = []
    for path in Path(muscore.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.arg) and node.arg in ("by", "user", "organiser")
                    and node.annotation is not None and ast.unparse(node.annotation) == "Any"):
                loose.append(f"{path.name}:{node.lineno} {node.arg}")
    assert not loose, loose


@pytest.mark.django_db
def test_stored_user_keeps_a_signed_in_user_and_nobody_else() -> None:
    ana = User.objects.create_user(username="ana")
    assert stored_user(ana) is ana
    assert stored_user(AnonymousUser()) is None
    assert stored_user(None) is None
