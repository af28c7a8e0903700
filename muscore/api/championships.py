"""The championship's read-only JSON API, beside the league's: GET
/api/v1/championships/<id>[?pagina=N] (its venues 25 a page with their entries and heats,
its quotas and phases, each competition in league.md's form) and /entries.csv."""

from __future__ import annotations

import json
import re

from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers

from muscore.api.tables import api_view, error
from muscore.championships import export, kept
from muscore.championships.models import Championship

MAX_ID = 2**31 - 1
NOT_FOUND = "there is no such championship"


def _find(championship_id: int) -> Championship | None:
    if championship_id > MAX_ID:
        return None
    return Championship.objects.filter(pk=championship_id).first()


@api_view("GET")
def detail(request: HttpRequest, championship_id: int) -> HttpResponse:
    championship = _find(championship_id)
    if championship is None:
        return error(NOT_FOUND, 404, "championship_not_found")
    page = request.GET.get("pagina", "1")
    # ASCII digits ("²".isdigit() too, and int() refuses it), nine at most (the document's
    # maximum).
    if not re.fullmatch("[0-9]{1,9}", page) or int(page) < 1:
        return error("pagina is a page number: 1, 2, 3...", 400, "bad_page")
    # Kept by the championship's stamp and the request's language (the names of its
    # groups and games: muscore.leagues.names): the first request after a change builds
    # it, the next ones read it, a client holding it gets a 304.
    found = kept.key(championship, "api", (int(page), request.path))
    unchanged = kept.not_modified(request, found.etag)
    if unchanged is not None:
        return kept.mark(unchanged, found.etag, public=True)

    def body() -> bytes:
        document = export.championship_document(championship, int(page))
        number, pages = document["page"]["number"], document["page"]["pages"]
        document["page"]["next"] = (f"{request.path}?pagina={number + 1}" if number < pages
                                    else None)
        return json.dumps(document, ensure_ascii=False, cls=DjangoJSONEncoder).encode()

    response = HttpResponse(kept.kept(found, body), content_type="application/json")
    patch_vary_headers(response, ("Accept-Language", "Cookie"))  # its groups' names
    return kept.mark(response, found.etag, public=True)


@api_view("GET")
def entries_csv(request: HttpRequest, championship_id: int) -> HttpResponse:
    championship = _find(championship_id)
    if championship is None:
        return error(NOT_FOUND, 404, "championship_not_found")
    sep = export.SEPARATORS.get(request.GET.get("sep", ";"))
    if sep is None:
        return error("sep is one of ';' (the default), ',' or 'tab'", 400, "bad_sep")
    response = HttpResponse(export.entries_csv(championship, sep),
                            content_type="text/csv; charset=utf-8")
    patch_vary_headers(response, ("Accept-Language", "Cookie"))  # its words
    response["Content-Disposition"] = f'attachment; filename="championship-{championship.pk}.csv"'
    return response


def not_found(request: HttpRequest, rest: str) -> HttpResponse:
    # Any other path under championships/ answers in JSON, not with the site's HTML 404.
    return error(NOT_FOUND, 404, "championship_not_found")
