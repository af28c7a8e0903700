"""The tables JSON API (issue #3 point 5, issue #4): thin views over muscore.tables.services.

Writes are authenticated by the table's edit key in the X-Table-Key header, not
by a session, so the API is CSRF exempt. Every error is RFC 9457 problem details with
its code and {"error": "..."} (muscore.problems) with a 4xx status; a rejected request
changes nothing (the services run each write
in one transaction).
"""

from __future__ import annotations

import functools
import json
import logging
import re
from collections.abc import Callable, Mapping
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import NoReverseMatch, reverse
from django.utils.translation import get_language_from_request
from django.views.decorators.csrf import csrf_exempt

from muscore import conditional, problems, ratelimits
from muscore import text as unicode_text
from muscore.api import contract
from muscore.errors import MuscoreError
from muscore.messages import Message, WordedError, page_message
from muscore.tables import services
from muscore.tables.models import Change, Table

log = logging.getLogger(__name__)

VIA = Change.Via.API

View = Callable[..., HttpResponse]


class BadRequest(WordedError):
    """The request itself (not the game) is malformed: 400 with this message and `code`
    (what is wrong: "not_json", "unknown_key"...)."""

    family = "request"

    def __init__(self, message: Message, /, code: str = "bad_request", **params: object) -> None:
        super().__init__(message, **params)
        self.code = code


def error(message: str, status: int, code: str, family: str = "api",
          **extra: Any) -> JsonResponse:
    """A refusal of the API's own (no table, no key, a method not allowed...): its
    English message is its detail in every language."""
    return problems.problem(status, family, code, message, **extra)


def error_answer(refused: MuscoreError, request: HttpRequest | None = None) -> JsonResponse:
    """The one place an error becomes the API's answer: RFC 9457 problem details with the
    refusal's code and status, `detail` in the request's language (Accept-Language; the
    contract's English without one), and what the API has always answered: `error`, the
    English message a client matches, `message` when a language other than English was
    asked for, and what its family adds (a conflict's stored hand, the table's revision)."""
    extra = refused.api_fields()
    english = str(refused)
    language = asked_language(request)
    detail = english
    if language:
        detail = extra["message"] = page_message(refused, language)
    return problems.problem(refused.status, refused.family, refused.code, english,
                            detail=detail, **extra)


def asked_language(request: HttpRequest | None) -> str:
    """The site's language (not English) a request's Accept-Language asks for, or ""."""
    if request is None or not request.headers.get("Accept-Language"):
        return ""
    language = get_language_from_request(request)
    return "" if language.startswith("en") else language


def api_view(*methods: str) -> Callable[[View], View]:
    """CSRF exempt, method check, and every known failure turned into its JSON 4xx."""

    allowed = (*methods, "HEAD") if "GET" in methods else methods

    def decorate(view: View) -> View:
        @csrf_exempt
        @functools.wraps(view)
        def wrapper(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
            # HEAD wherever GET is (monitors, `curl -I`): the same answer, its body dropped
            # by the server.
            if request.method not in allowed:
                response = error(f"method {request.method} is not allowed here", 405,
                                 "method_not_allowed")
                response["Allow"] = ", ".join(allowed)
                return response
            try:
                return view(request, *args, **kwargs)
            except RequestDataTooBig:
                return too_big()
            except MuscoreError as exc:  # every family: the engine's, a table's, a league's
                return error_answer(exc, request)

        return wrapper

    return decorate


def too_big() -> JsonResponse:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return error(f"the body is larger than {limit} bytes, the most this API reads", 413,
                 "too_big")


class PermissionDenied(Exception):
    """A write without the table's edit key: 403, nothing changes."""


def json_number(text: str) -> int | float:
    """A JSON number with a fraction or exponent: 2.0 is the whole number 2, as JSON Schema
    (and the OpenAPI document) counts it; any other stays a float (and is refused where a
    whole number is needed)."""
    value = float(text)
    if value.is_integer() and abs(value) <= 2**53:
        return int(value)
    return value


def read_json(request: HttpRequest) -> dict[str, object]:
    if not request.body:
        raise BadRequest("the request needs a JSON object as its body", code="no_body")
    try:
        data = json.loads(request.body.decode("utf-8"), parse_float=json_number)
    except UnicodeDecodeError:
        raise BadRequest("the body must be UTF-8 encoded JSON", code="not_json") from None
    except (ValueError, RecursionError) as exc:
        raise BadRequest(f"the body is not valid JSON: {exc}", code="not_json") from None
    if not isinstance(data, dict):
        raise BadRequest("the body must be a JSON object", code="not_an_object")
    found = unicode_text.json_problem(data)
    if found == unicode_text.SURROGATE:
        raise BadRequest(
            "the body holds text that is not valid Unicode (a lone surrogate such as \\ud800)",
            code="not_unicode")
    if found:
        raise BadRequest("the body holds a control character (such as \\u0000) in a string",
                         code="control_character")
    return data


def authorized_table(request: HttpRequest, table_id: str) -> Table:
    """The table, if the X-Table-Key header holds its edit key; 404 or 403 otherwise."""
    table = services.get_table(table_id)
    if not table.check_edit_key(request.headers.get("X-Table-Key")):
        raise PermissionDenied
    return table


def with_key_check(view: View) -> View:
    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except PermissionDenied:
            return error("this needs the table's edit key in the X-Table-Key header", 403,
                         "no_key")

    return wrapper


def etag_for(revision: int) -> str:
    return f'"r{revision}"'


def revision_from_etag(value: str) -> int:
    tag = value.strip()
    if tag.startswith("W/"):
        tag = tag[2:]
    tag = tag.strip('"')
    # ASCII digits only: "r²" passes str.isdigit() and then int() fails.
    if re.fullmatch(r"r[0-9]{1,10}", tag):
        return int(tag[1:])
    raise BadRequest(f'If-Match must be an ETag of this API, such as "r3", not {value[:40]!r}',
                     code="bad_etag")


def state_response(state: Mapping[str, Any], status: int = 200) -> JsonResponse:
    response = JsonResponse(state, status=status)
    response["ETag"] = etag_for(state["revision"])
    response["Cache-Control"] = "no-cache"
    return response


def state_text_response(answer: services.StateText, status: int = 200) -> HttpResponse:
    """A state the services answered (a read, or a write's WriteResult), its JSON text sent
    as it is (a long table's state is large: parsing it only to serialise it again would
    cost more than the write)."""
    response = HttpResponse(answer.text, status=status, content_type="application/json")
    response["ETag"] = etag_for(answer.revision)
    response["Cache-Control"] = "no-cache"
    return response


def table_links(request: HttpRequest, table: Table) -> dict[str, str]:
    try:
        view = reverse("tables:board", args=[table.id])
        edit = reverse("tables:edit_board", args=[table.id, table.edit_key])
    except NoReverseMatch:
        # The pages' URL names are the page layer's business: fall back to their documented paths.
        view = f"/t/{table.id}/"
        edit = f"/t/{table.id}/k/{table.edit_key}/"
    return {
        "view_url": request.build_absolute_uri(view),
        "edit_url": request.build_absolute_uri(edit),
    }


def created_response(
    request: HttpRequest, table: Table, shape: services.Finished
) -> JsonResponse:
    state = services.read_state(table, shape).state
    body = {"id": table.id, "edit_key": table.edit_key, **table_links(request, table), **state}
    response = state_response(body, 201)
    response["Location"] = request.build_absolute_uri(f"/api/v1/tables/{table.id}")
    return response


def check_request(kind: object, data: Mapping[str, object], *, keys: str = "",
                  whole: tuple[str, ...] = ()) -> None:
    """The API's own refusals of a body read as `kind`, its type in muscore.api.contract:
    a key the type does not know (when `keys` says what it takes instead) and a field of
    `whole` that is no whole number. What the contract refuses in the rest (a side, a
    hand) the services and the engine refuse too, in a player's words: they answer it."""
    refused = contract.refusals(kind, data)
    if keys:
        unknown = sorted(str(e["loc"][0]) for e in refused
                         if e["type"] == "extra_forbidden" and len(e["loc"]) == 1)
        if unknown:
            raise BadRequest(f"unknown key {unknown[0]!r}; {keys}", code="unknown_key")
    for name in whole:
        if any(e["loc"][:1] == (name,) and e["type"] in WHOLE_NUMBER_ERRORS for e in refused):
            raise BadRequest(f"{name} must be a whole number", code="not_whole")


# pydantic's errors of a value that is no whole number (strict: a bool, a float, a string).
WHOLE_NUMBER_ERRORS = {"int_type", "int_from_float", "int_parsing"}


def pop_base_revision(request: HttpRequest, data: dict[str, Any]) -> int | None:
    base: int | None = data.pop("revision", None)
    header = request.headers.get("If-Match")
    if header is not None:
        from_header = revision_from_etag(header)
        if base is not None and base != from_header:
            raise BadRequest("the revision in the body and the If-Match header differ",
                             code="revisions_differ")
        base = from_header
    return base


# --- views ------------------------------------------------------------------------------------


@api_view("POST")
@ratelimits.limit(ratelimits.CREATE, api=True)
def create(request: HttpRequest) -> HttpResponse:
    shape = finished_shape(request)  # before anything is stored
    data = read_json(request) if request.body else {}
    check_request(contract.NewTable, data, keys="a new table takes rules, players and mano")
    table = services.create_table(
        players=data.get("players"), rules=data.get("rules"), mano=data.get("mano")
    )
    return created_response(request, table, shape)


# ?finished=... on a table's GET and on every write: "summary" (the default) gives each
# finished vaca without its hands, so a read or a write answers as much on a full table as
# on a short one; "full" gives every hand of every vaca.
FINISHED_SHAPES: tuple[services.Finished, ...] = ("summary", "full")


def finished_shape(request: HttpRequest) -> services.Finished:
    """The request's ?finished= (default "summary"), or BadRequest."""
    value = request.GET.get("finished", "summary")
    for shape in FINISHED_SHAPES:
        if value == shape:
            return shape
    raise BadRequest(
        'finished must be "summary" (the default: each finished vaca without its hands) '
        'or "full" (every hand of every vaca)', code="bad_finished"
    )


@api_view("GET")
def detail(request: HttpRequest, table_id: str) -> HttpResponse:
    shape = finished_shape(request)
    # The cheap path of an unchanged poll: one indexed query, no replay, no render.
    revision = services.table_revision(table_id)
    if revision is None:
        return error("there is no such table", 404, "table_not_found", family="table")
    etag = etag_for(revision)
    unchanged = conditional.not_modified(request, etag)
    if unchanged is not None:
        unchanged["ETag"] = etag
        unchanged["Cache-Control"] = "no-cache"
        return unchanged
    return state_text_response(services.read_state(services.get_table(table_id), shape))


@api_view("POST")
@ratelimits.limit(ratelimits.WRITE, api=True)
@with_key_check
def add_hand(request: HttpRequest, table_id: str) -> HttpResponse:
    table = authorized_table(request, table_id)
    data = read_json(request)
    check_request(contract.AddHand, data, whole=("number",))
    number = data.pop("number", None)
    client_id = data.pop("client_id", None)
    result = services.add_hand(
        table,
        data,
        number=number,
        client_id=client_id,
        idempotency_key=request.headers.get("Idempotency-Key"),
        via=VIA,
        finished=finished_shape(request),
    )
    return state_text_response(result, result.status)


@api_view("POST")
@ratelimits.limit(ratelimits.WRITE, api=True)
@with_key_check
def add_piedras(request: HttpRequest, table_id: str) -> HttpResponse:
    """Piedras tapped by hand for a side ({"side": "A", "n": 5}): an entry among the hands."""
    return _add_entry(
        request, table_id, contract.PiedrasRequest, "piedras take side, n and client_id",
        lambda table, data, **write: services.add_piedras(
            table, data.get("side"), data.get("n"), **write),
    )


@api_view("POST")
@ratelimits.limit(ratelimits.WRITE, api=True)
@with_key_check
def add_perete(request: HttpRequest, table_id: str) -> HttpResponse:
    """A perete ({"side": "A"}: 4 5 6 7 shown by a player of that side) on a table that
    plays it: one piedra to the side, an entry among the hands like a piedras tap."""
    return _add_entry(
        request, table_id, contract.PereteRequest, "a perete takes side and client_id",
        lambda table, data, **write: services.add_hand(
            table, services.perete_record(data.get("side"), services.letters_of(table.rules)),
            **write),
    )


def _add_entry(
    request: HttpRequest,
    table_id: str,
    kind: object,
    takes: str,
    add: Callable[..., services.WriteResult],
) -> HttpResponse:
    """An entry tapped for a side (piedras, a perete), with its revision and retry keys:
    `kind` is its body's type in the contract, `add(table, data, **write)` the service
    that stores it."""
    table = authorized_table(request, table_id)
    data = read_json(request)
    check_request(kind, data, keys=takes, whole=("revision",))
    base = pop_base_revision(request, data)
    result = add(
        table,
        data,
        client_id=data.get("client_id"),
        idempotency_key=request.headers.get("Idempotency-Key"),
        base_revision=base,
        via=VIA,
        finished=finished_shape(request),
    )
    return state_text_response(result, result.status)


@api_view("DELETE")
@ratelimits.limit(ratelimits.WRITE, api=True, methods=("DELETE",))
@with_key_check
def undo_last(request: HttpRequest, table_id: str) -> HttpResponse:
    table = authorized_table(request, table_id)
    header = request.headers.get("If-Match")
    base = revision_from_etag(header) if header is not None else None
    result = services.undo_last(
        table,
        base_revision=base,
        idempotency_key=request.headers.get("Idempotency-Key"),
        via=VIA,
        finished=finished_shape(request),
    )
    return state_text_response(result, result.status)


@api_view("GET", "PUT")
@ratelimits.limit(ratelimits.WRITE, api=True, methods=("PUT",))
def hand(request: HttpRequest, table_id: str, number: int) -> HttpResponse:
    if request.method in ("GET", "HEAD"):
        return JsonResponse(services.hand_entry(services.get_table(table_id), number))
    return replace_hand(request, table_id, number)


@with_key_check
def replace_hand(request: HttpRequest, table_id: str, number: int) -> HttpResponse:
    table = authorized_table(request, table_id)
    data = read_json(request)
    check_request(contract.ReplaceHand, data, whole=("revision",))
    base = pop_base_revision(request, data)
    result = services.replace_hand(
        table,
        number,
        data,
        base_revision=base,
        idempotency_key=request.headers.get("Idempotency-Key"),
        via=VIA,
        finished=finished_shape(request),
    )
    return state_text_response(result, result.status)


@api_view("GET")
def export(request: HttpRequest, table_id: str) -> HttpResponse:
    table = services.get_table(table_id)
    response = JsonResponse(services.export_table(table))
    response["Content-Disposition"] = f'attachment; filename="muscore-{table.id}.json"'
    return response


@api_view("POST")
@ratelimits.limit(ratelimits.IMPORT, api=True)
def import_(request: HttpRequest) -> HttpResponse:
    shape = finished_shape(request)  # before anything is stored
    table = services.import_table(read_json(request), via=VIA)
    return created_response(request, table, shape)


@api_view("GET", "POST", "PUT", "DELETE", "PATCH")
def not_found(request: HttpRequest, rest: str) -> HttpResponse:
    # Any other path under tables/ answers in JSON too, not with the site's HTML 404 page.
    return error("there is no such resource in the tables API", 404, "not_found")
