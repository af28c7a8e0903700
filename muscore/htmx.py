"""The request of a view that asks `request.htmx` (set by django-htmx's HtmxMiddleware).

Below the apps that use it, like muscore/permalink.py: a type only, no behaviour.
"""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """A request that went through HtmxMiddleware: `htmx` says whether htmx sent it."""

    htmx: HtmxDetails
