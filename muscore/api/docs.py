"""The two views of the OpenAPI description (muscore.api.openapi): GET /api/v1/openapi.json
gives it as JSON, in English; GET /api/ draws it as a page in the reader's language."""

from __future__ import annotations

import json
import re
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from muscore.api import openapi


@require_safe
def openapi_json(request: HttpRequest) -> HttpResponse:
    """The description as JSON, in English, readable from any origin."""
    response = JsonResponse(openapi.spec(), json_dumps_params={"ensure_ascii": False})
    response["Access-Control-Allow-Origin"] = "*"
    return response


def _example(response: dict[str, Any]) -> str:
    """A response's example, JSON (an answer) or problem details (an error), as text."""
    for content in response.get("content", {}).values():
        if "example" in content:
            return json.dumps(content["example"], indent=2, ensure_ascii=False)
    return ""


def _operations() -> list[dict[str, object]]:
    out = []
    for path, methods in openapi.resolved(openapi.PATHS).items():
        for method, op in methods.items():
            body = (op.get("requestBody") or {}).get("content", {}).get("application/json", {})
            out.append({
                "id": op["operationId"], "method": method.upper(), "path": path,
                # The page may wrap a path after a slash, never inside a word.
                "path_parts": re.findall(r"[^/]*/|[^/]+$", path),
                "summary": op["summary"], "description": op.get("description", ""),
                "parameters": op.get("parameters", []),
                "request_example": json.dumps(body["example"], indent=2, ensure_ascii=False)
                if "example" in body else "",
                "responses": [
                    {"status": status, "description": r["description"],
                     "example": _example(r)} for status, r in op["responses"].items()
                ],
            })
    return out


@require_safe
def page(request: HttpRequest) -> HttpResponse:
    """The description as a page, drawn from the same dict as openapi.json."""
    return render(request, "api/docs.html", {
        "info": openapi.resolved(openapi.SPEC["info"]), "operations": _operations(),
    })
