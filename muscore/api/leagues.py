"""The leagues JSON API (issue 11 point 6): public and read-only.

GET /api/v1/leagues/<id> is the competition in league.md's form with its standings,
answered 304 from one indexed query while its ETag is unchanged; the body is cached by
revision. /export is the form with each table's hands (importable again), and the CSV
files are the standings and the matches for a spreadsheet.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import cast

from django.core.cache import cache
from django.http import (
    HttpRequest,
    HttpResponse,
    JsonResponse,
    StreamingHttpResponse,
)
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language

from muscore import conditional, ratelimits
from muscore.api.tables import View, api_view, error
from muscore.leagues import documents, prepared
from muscore.leagues.compute.spreadsheet import SEPARATORS
from muscore.leagues.models import Competition

BODY_CACHE_SECONDS = 3600
# Ids past a 32-bit integer are no competition of this app (and PostgreSQL would refuse them).
MAX_ID = 2**31 - 1


def _etag(pk: int, stamp: float, revision: int) -> str:
    return f'"l{pk}-{int(stamp * 1000) % 100000}-{revision}"'


def _find(league_id: int) -> tuple[str, float, int, str, str] | None:
    """The league's ETag, stamp, revision and kind, and the language its name is said in
    ("" for a name as typed: a championship's group or game is named in the request's
    language, muscore.leagues.names, so its document is kept and tagged per language)."""
    if league_id > MAX_ID:
        return None
    row = Competition.objects.filter(pk=league_id).values_list(
        "created_at", "revision", "format", "status", "made").first()
    if row is None:
        return None
    stamp = row[0].timestamp()
    kind = IMPORTING if row[3] == Competition.Status.IMPORTING else row[2]
    language = (get_language() or "") if row[4] else ""
    etag = _etag(league_id, stamp, row[1])
    if language:
        etag = f'{etag[:-1]}-{language}"'
    return etag, stamp, row[1], kind, language


# What _find says of a league the worker is importing (muscore.leagues.imports).
IMPORTING = "importing"
IMPORTING_MESSAGE = ("this league is being imported (the worker writes its results in "
                     "batches); ask again later")


def _importing() -> HttpResponse:
    response = JsonResponse({"preparing": True, "importing": True, "message": IMPORTING_MESSAGE,
                             "retry_after": prepared.RETRY_AFTER}, status=202)
    response["Retry-After"] = str(prepared.RETRY_AFTER)
    return response


NOT_FOUND = "there is no such league"
# A ceros tournament's document (league.md's `format` "ceros") is its export; its table
# (pairs out at N ceros, byes) is not league.md's standings, so the document with the
# standings is refused and the CSVs serve the table.
CEROS = ("this competition is a ceros tournament, whose table is not the league document's "
         "standings (league.md): its table and matches are served as CSV, its document by "
         "the export")


def _ceros_refusal(league_id: int) -> HttpResponse:
    return error(CEROS, 409, "ceros_tournament",
                 standings_csv=reverse("api:league_standings_csv", args=[league_id]),
                 matches_csv=reverse("api:league_matches_csv", args=[league_id]),
                 export=reverse("api:league_export", args=[league_id]))


@api_view("GET")
def detail(request: HttpRequest, league_id: int) -> HttpResponse:
    found = _find(league_id)
    if found is not None and found[3] == IMPORTING:
        return _importing()
    if found is None:
        return error(NOT_FOUND, 404, "league_not_found")
    etag, stamp, revision, kind, language = found
    if kind == Competition.Format.CEROS:
        return _ceros_refusal(league_id)
    unchanged = conditional.not_modified(request, etag)
    if unchanged is not None:
        response: HttpResponse = unchanged
    else:
        key = f"muscore:league-doc:{league_id}:{stamp}:{revision}:{language}"
        body = cache.get(key)
        if body is None:
            competition = Competition.objects.get(pk=league_id)
            if competition.revision != revision:
                return detail(request, league_id)  # a write landed between the reads
            body = documents.api_body(competition, name=competition.title)
            cache.set(key, body, BODY_CACHE_SECONDS)
        response = HttpResponse(body, content_type="application/json")
    if language:
        patch_vary_headers(response, ("Accept-Language", "Cookie"))  # its name's words
    response["ETag"] = etag
    response["Cache-Control"] = "public, no-cache"
    response["Access-Control-Allow-Origin"] = "*"
    return response


def _competition(league_id: int) -> Competition | None:
    if league_id > MAX_ID:
        return None
    return Competition.objects.filter(pk=league_id).first()


def _download(body: str | bytes, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Access-Control-Allow-Origin"] = "*"
    return response


@api_view("GET")
@ratelimits.limit(ratelimits.EXPORT, api=True, methods=("GET", "HEAD"))
def export(request: HttpRequest, league_id: int) -> HttpResponse:
    competition = _competition(league_id)
    if competition is None:
        return error(NOT_FOUND, 404, "league_not_found")
    if competition.status == Competition.Status.IMPORTING:
        return _importing()
    filename = f"liga-{league_id}.json"
    made = prepared.latest(league_id, prepared.EXPORT)
    if made is not None and made.revision == competition.revision:
        return _stream(made, competition.revision, filename)
    if not prepared.small(competition):
        # Every hand of every table: seconds for a large league. The worker makes it after
        # each change; meanwhile the latest one made is served, marked as catching up.
        prepared.enqueue(league_id)
        if made is not None:
            return _stream(made, competition.revision, filename)
        return _preparing(PREPARING)
    # A small league's export takes a moment: made here, kept per revision (Redis in
    # production, shared by every worker).
    stamp = competition.created_at.timestamp()
    key = f"muscore:league-export:{league_id}:{stamp}:{competition.revision}"
    body = _kept(key, lambda: json.dumps(documents.league_document(competition, hands=True),
                                         ensure_ascii=False, indent=1))
    return prepared.stale_headers(_download(body, "application/json", filename),
                                  competition.revision, competition.revision)


PREPARING = ("this league's export is being made (it is made once after each change): "
             "ask again in a few seconds")
PREPARING_CSV = ("this league's matches.csv is being made (it is made once after each "
                 "change): ask again in a few seconds")


def _preparing(message: str) -> HttpResponse:
    """202: a large league's document was never made yet; the worker is making it."""
    response = JsonResponse({"preparing": True, "message": message,
                             "retry_after": prepared.RETRY_AFTER}, status=202)
    response["Retry-After"] = str(prepared.RETRY_AFTER)
    return response


def _stream(made: prepared.Prepared, current: int, filename: str,
            content_type: str = "application/json") -> HttpResponse:
    """A stored document, piece by piece: never the whole of it in a worker's memory.
    (Typed as the HttpResponse the API's decorators name: Django serves both alike.)"""
    response = StreamingHttpResponse(made.pieces(), content_type=content_type)
    response["Content-Length"] = str(made.size)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Access-Control-Allow-Origin"] = "*"
    return cast(HttpResponse, prepared.stale_headers(response, made.revision, current))


BAD_SEP = "sep must be ',' (the default) or ';' (Spanish Excel's columns)"


def _sep(request: HttpRequest) -> str | None:
    """The CSV's separator from ?sep= (',' or ';'); None for anything else."""
    sep = request.GET.get("sep", ",")
    return sep if sep in SEPARATORS else None


CSV = "text/csv; charset=utf-8"
CsvView = Callable[[HttpRequest, Competition, str], HttpResponse]


def _csv_view(view: CsvView) -> View:
    """A CSV file's view (GET, rate-limited as an export) behind what both CSVs check
    first, in this order: the league (404), ``?sep=`` (400: a bad request is one whatever
    the league's state, as the document's) and an import under way (202); ``view`` is
    given the competition and its separator."""

    @api_view("GET")
    @ratelimits.limit(ratelimits.EXPORT, api=True, methods=("GET", "HEAD"))
    @functools.wraps(view)
    def asked(request: HttpRequest, league_id: int) -> HttpResponse:
        competition = _competition(league_id)
        if competition is None:
            return error(NOT_FOUND, 404, "league_not_found")
        sep = _sep(request)
        if sep is None:
            return error(BAD_SEP, 400, "bad_sep")
        if competition.status == Competition.Status.IMPORTING:
            return _importing()
        return view(request, competition, sep)

    return asked


def _kept(key: str, make: Callable[[], str]) -> str:
    """The body kept under ``key`` (a competition's revision is in it: Redis in
    production, shared by every worker), else made by ``make`` and kept."""
    body: str | None = cache.get(key)
    if body is None:
        body = make()
        cache.set(key, body, BODY_CACHE_SECONDS)
    return body


def _kept_csv(competition: Competition, what: str, sep: str,
              download: documents.Download) -> HttpResponse:
    """A CSV made here, kept per revision and separator (issue 28: made on every request
    before), served with the revision it is of. "csv2": the ";" variant speaks Spanish
    since issue 38.9; no older body is served."""
    key = (f"muscore:league-{what}-csv2:{competition.pk}:{competition.created_at.timestamp()}:"
           f"{competition.revision}:{sep}")
    return prepared.stale_headers(
        _download(_kept(key, download.write), CSV, download.filename),
        competition.revision, competition.revision)


@_csv_view
def standings_csv(request: HttpRequest, competition: Competition, sep: str) -> HttpResponse:
    # One line per pair: the cache holds it whole, whatever the league's size.
    return _kept_csv(competition, "standings", sep,
                     documents.standings_file(competition, sep=sep))


@_csv_view
def matches_csv(request: HttpRequest, competition: Competition, sep: str) -> HttpResponse:
    league_id = competition.pk
    filename = f"partidas-{league_id}.csv"
    made = prepared.latest(league_id, prepared.MATCHES_CSV[sep])
    if made is not None and made.revision == competition.revision:
        return _stream(made, competition.revision, filename, CSV)
    if not prepared.small(competition):
        # A large league's is made by the worker after each change (seconds of rows), as
        # its export: meanwhile the latest one made, marked as catching up, or 202.
        prepared.enqueue(league_id)
        if made is not None:
            return _stream(made, competition.revision, filename, CSV)
        return _preparing(PREPARING_CSV)
    return _kept_csv(competition, "matches", sep, documents.Download(
        filename, functools.partial(documents.matches_csv, competition, sep=sep)))


def not_found(request: HttpRequest, rest: str) -> HttpResponse:
    # Any other path under leagues/ answers in JSON too, not with the site's HTML 404 page.
    return error(NOT_FOUND, 404, "league_not_found")
