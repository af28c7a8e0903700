"""The scoring contract over HTTP: POST /api/v1/score and /api/v1/replay.

One record as the JSON body; 200 with the result, 400 with {"error": ...}.
No table, no key, no database: these are muscore.rules on the wire.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse

from muscore import rules
from muscore.api.tables import api_view, read_json


@api_view("POST")
def score(request: HttpRequest) -> HttpResponse:
    return JsonResponse(rules.score(read_json(request)))


@api_view("POST")
def replay(request: HttpRequest) -> HttpResponse:
    return JsonResponse(rules.replay(read_json(request)))
