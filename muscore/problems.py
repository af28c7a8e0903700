"""An API refusal as RFC 9457 problem details (``application/problem+json``).

Every 4xx of the JSON API is one object: the RFC's members (``type``, ``title``,
``status``, ``detail``), the refusal's ``code`` (a MuscoreError's own: ``first_bet``,
``stale_edit``...), and what the API has always answered, kept as extension members so
that no client breaks: ``error`` (the English sentence), ``message`` (the same in the
language Accept-Language asks for, when it is not English) and each family's own
(``hand``, ``revision``, ``retry_after``...). docs/api.md, "Errors".

Below every app (tables, the rate limits and the API answer with it): no gettext here,
the caller words ``detail``.
"""

from __future__ import annotations

from typing import Any

from django.http import JsonResponse

CONTENT_TYPE = "application/problem+json"


def problem_type(family: str, code: str) -> str:
    """The problem's type: a URI naming the family and the code (a URN: nothing to fetch,
    the code is documented in the OpenAPI description and docs/api.md)."""
    return f"urn:muscore:problem:{family}:{code}"


def title(code: str) -> str:
    """A short summary of the problem's type, the same for every occurrence: its code in
    words ("stale_edit" -> "Stale edit")."""
    return code.replace("_", " ").capitalize()


def problem(status: int, family: str, code: str, error: str, *, detail: str = "",
            **extra: Any) -> JsonResponse:
    """The answer: ``error`` in English, ``detail`` in the request's language (``error``
    when the caller has no other words)."""
    body = {"type": problem_type(family, code), "title": title(code), "status": status,
            "detail": detail or error, "code": code, "error": error, **extra}
    return JsonResponse(body, status=status, content_type=CONTENT_TYPE)
