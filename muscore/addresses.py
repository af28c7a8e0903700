"""Every page at an address of its own in each language (issue 39): Spanish, the site's own
language, without a prefix (every address from before stays as it was), English, Basque and
French under /en/, /eu/ and /fr/. Django's i18n_patterns, with two differences:

- An address without a prefix answers, as it always did, in the language the visitor chose
  (the language switch's cookie) or the browser asks for, Spanish otherwise; Django's own
  LocaleMiddleware would answer it in Spanish whatever the visitor asked. So a table's edit
  link shared from a Spanish phone opens in English on an English phone, as before, and a
  search engine (which asks for no language) finds the Spanish page there.
- A prefixed address is that language's whatever the visitor asks; its links are that
  language's addresses (reverse() prefixes them, as Django's i18n_patterns do).

The API (its JSON), the admin, /sitemap.xml, /healthz, /metrics and the site's own files
(/sw.js, /manifest.webmanifest, /robots.txt, /favicon.ico) have one address each.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.middleware import locale
from django.urls import URLResolver
from django.urls.resolvers import LocalePrefixPattern
from django.utils import translation


def prefixed() -> list[str]:
    """The languages whose addresses have a prefix: all but the site's own."""
    return [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]


class LanguageAddress(LocalePrefixPattern):
    """The language prefix of an address: /en/ for English (reverse() writes the active
    language's), none for Spanish; a path is matched with any language's prefix or none,
    whatever language is active (the language is the middleware's to choose)."""

    def __init__(self) -> None:
        super().__init__(prefix_default_language=False)

    def match(self, path: str) -> tuple[str, tuple[Any, ...], dict[str, Any]]:
        for code in prefixed():
            if path.startswith(f"{code}/"):
                return path.removeprefix(f"{code}/"), (), {}
        return path, (), {}


def language_patterns(*urls: Any) -> list[URLResolver]:
    """i18n_patterns for these URLs, with the addresses above."""
    return [URLResolver(LanguageAddress(), list(urls))]


def language_of(path: str) -> str:
    """The language whose address `path` is: its prefix's, else the site's own."""
    for code in prefixed():
        if path.startswith(f"/{code}/"):
            return code
    return str(settings.LANGUAGE_CODE)


class LocaleMiddleware(locale.LocaleMiddleware):
    """The language of an address's prefix, else (no prefix) the visitor's: the cookie,
    then Accept-Language, then Spanish, as before the prefixes.

    The language is given back once the answer is made (Django's leaves it active in the
    thread): reverse() writes the active language's prefix, and a thread that answered
    an English page must not prefix the next link it writes outside a request (a stream
    server's drawing threads, the tests' own reverse()). A streamed answer's body is read
    in its language."""

    def process_request(self, request: HttpRequest) -> None:
        language = translation.get_language_from_request(request, check_path=True)
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()

    def process_response(self, request: HttpRequest,
                         response: HttpResponseBase) -> HttpResponseBase:
        response = super().process_response(request, response)
        if response.streaming:
            response.streaming_content = _in_language(  # type: ignore[attr-defined]
                response.streaming_content, translation.get_language())  # type: ignore[attr-defined]
        translation.deactivate()
        return response


def _in_language(content: Iterable[bytes], language: str) -> Iterator[bytes]:
    with translation.override(language):
        yield from content
