"""Every page at an address of its own in each language (issue 39, muscore.addresses):
Spanish without a prefix (every address from before), English, Basque and French under
/en/, /eu/ and /fr/; the sitemap with each page's hreflang alternates; the language switch
going to the same page at the chosen language's address; an ETag or a Last-Modified on
every page kind, and a 304 for the pages whose HTML is the same for every visitor.

Every page kind of the project is walked (every URL pattern, filled as
tests/test_head_everywhere.py fills them): a new page is covered the day it is added."""

from __future__ import annotations

import re
from xml.etree import ElementTree

import pytest
from django.conf import settings
from django.test import Client
from django.urls import get_resolver
from django.utils import translation

from tests.test_head_everywhere import ANY_METHOD, fill, patterns, world

pytestmark = pytest.mark.django_db

PREFIXED = ["en", "eu", "fr"]
# One address whatever the language: the site's files, the API, the admin, the operator's.
ONE_ADDRESS = ("/sw.js", "/manifest.webmanifest", "/robots.txt", "/favicon.ico",
               "/sitemap.xml", "/api/v1/", "/admin/", "/healthz", "/metrics", "/i18n/")


@pytest.fixture(autouse=True)
def spanish_after() -> object:
    yield
    translation.activate(settings.LANGUAGE_CODE)


def page_paths() -> list[str]:
    values = world()
    return sorted({fill(route, values) for route, _pattern in patterns(
        get_resolver().url_patterns) if route not in ANY_METHOD
        and not route.startswith("admin/")})


def test_every_page_answers_at_each_languages_address() -> None:
    client = Client()
    wrong, pages = [], 0
    for path in page_paths():
        spanish = client.get(path)
        if spanish.status_code == 405:
            continue
        one_address = path.startswith(ONE_ADDRESS)
        for code in PREFIXED:
            got = client.get(f"/{code}{path}")
            if one_address:
                if got.status_code != 404:
                    wrong.append((code, path, got.status_code, "should be at one address"))
                continue
            if got.status_code != spanish.status_code:
                wrong.append((code, path, got.status_code, spanish.status_code))
            elif got.status_code == 200 and got["Content-Type"].startswith("text/html"):
                pages += 1
                if (got["Content-Language"] != code
                        or f'<html lang="{code}"' not in got.content.decode()):
                    wrong.append((code, path, "not in its language"))
    assert not wrong, wrong
    assert pages > 100


def test_an_address_without_prefix_still_answers_in_the_visitors_language(
        client: Client) -> None:
    assert client.get("/reglas/")["Content-Language"] == "es"
    english = client.get("/reglas/", HTTP_ACCEPT_LANGUAGE="en")
    assert english["Content-Language"] == "en" and "Accept-Language" in english["Vary"]
    # A prefixed address is its language's whatever the visitor asks.
    french = client.get("/fr/reglas/", HTTP_ACCEPT_LANGUAGE="en")
    assert french["Content-Language"] == "fr" and "Accept-Language" not in french["Vary"]


def test_a_languages_pages_link_to_that_languages_addresses(client: Client) -> None:
    page = client.get("/eu/reglas/").content.decode()
    links = set(re.findall(r'href="(/[^"]*)"', page))
    rules = [link for link in links if "/reglas/" in link]
    assert rules and all(link.startswith("/eu/") for link in rules), rules
    assert "/sw.js" not in links  # (its meta names it at the root, below)
    assert 'content="/sw.js"' in page and 'href="/manifest.webmanifest"' in page


@pytest.mark.parametrize(("start", "language", "lands"), [
    ("/reglas/", "eu", "/eu/reglas/"),
    ("/eu/reglas/", "fr", "/fr/reglas/"),
    ("/fr/reglas/", "es", "/reglas/"),
    ("/calculadora/?x=1", "en", "/en/calculadora/?x=1"),
])
def test_the_language_switch_keeps_the_page(client: Client, start: str, language: str,
                                             lands: str) -> None:
    # No CSRF token needed: the switch only changes a language (and the page's HTML stays
    # the same for every visitor, so its ETag holds).
    strict = Client(enforce_csrf_checks=True)
    response = strict.post("/i18n/setlang/", {"language": language, "next": start})
    assert response.status_code == 302 and response["Location"] == lands
    assert response.cookies["django_language"].value == language
    landed = strict.get(lands)
    assert landed.status_code == 200 and landed["Content-Language"] == language


def test_a_tables_edit_link_at_a_languages_address() -> None:
    values = world()
    client = Client()
    edit = f"/t/{values['table_id']}/k/{values['key']}/"
    page = client.get(f"/fr{edit}")
    assert page.status_code == 200 and page["Content-Language"] == "fr"
    # Its poll answers 304 from the revision alone (tables.middleware), in French.
    poll = client.get(f"/fr{edit}", HTTP_IF_NONE_MATCH=page["ETag"])
    assert poll.status_code == 304 and poll["ETag"] == page["ETag"]
    assert client.get(edit, HTTP_IF_NONE_MATCH=page["ETag"]).status_code == 200  # Spanish's


def test_the_sitemap_gives_each_page_in_every_language_with_its_alternates(
        client: Client) -> None:
    world()
    xml = ElementTree.fromstring(client.get("/sitemap.xml").content)
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9",
          "x": "http://www.w3.org/1999/xhtml"}
    urls = xml.findall("s:url", ns)
    locations = {url.find("s:loc", ns).text for url in urls}  # type: ignore[union-attr]
    assert "http://testserver/eu/reglas/" in locations
    assert "http://testserver/reglas/" in locations
    for url in urls:
        alternates = {link.get("hreflang"): link.get("href")
                      for link in url.findall("x:link", ns)}
        assert set(alternates) == {"es", "en", "eu", "fr", "x-default"}, alternates
        assert alternates["x-default"] == alternates["es"]
        for code in PREFIXED:
            assert alternates[code] == alternates["es"].replace(
                "http://testserver/", f"http://testserver/{code}/", 1)
    rules = next(url for url in urls
                 if url.find("s:loc", ns).text == "http://testserver/fr/reglas/")  # type: ignore[union-attr]
    for link in rules.findall("x:link", ns):
        answer = client.get(link.get("href", "").removeprefix("http://testserver"))
        code = link.get("hreflang")
        assert answer.status_code == 200
        assert answer["Content-Language"] == ("es" if code == "x-default" else code)


def test_every_page_kind_has_a_validator_and_a_shared_page_a_304() -> None:
    """Every HTML page's 200 has an ETag or a Last-Modified; a page without a form of its
    own (its HTML the same for every visitor) answers 304 to a client holding its tag."""
    client = Client()
    missing, no_store, unchanged = [], [], 0
    for path in page_paths():
        got = client.get(path)
        if got.status_code != 200 or got.streaming or not got["Content-Type"].startswith(
                "text/html"):
            continue  # the API's JSON and CSV keep the tags they give themselves
        if "no-store" in got.get("Cache-Control", ""):
            # Kept by nobody (/metrics, a pair's link to its result): nothing to validate.
            no_store.append(path)
            continue
        if not (got.has_header("ETag") or got.has_header("Last-Modified")):
            missing.append(path)
            continue
        if got.has_header("ETag") and "csrfmiddlewaretoken" not in got.content.decode(
                errors="replace"):
            again = client.get(path, HTTP_IF_NONE_MATCH=got["ETag"])
            if again.status_code != 304:
                missing.append(f"{path} (no 304)")
            unchanged += 1
    assert not missing, missing
    assert unchanged > 20  # 27 page kinds when written
    assert len(no_store) < 5, no_store


def test_a_head_gets_the_gets_validator_and_its_304(client: Client) -> None:
    # HeadMiddleware drops the body after ConditionalGetMiddleware tagged it: the same tag.
    got = client.get("/eu/reglas/")
    head = client.head("/eu/reglas/")
    assert head.status_code == 200 and head["ETag"] == got["ETag"] and head.content == b""
    again = client.head("/eu/reglas/", HTTP_IF_NONE_MATCH=got["ETag"])
    assert again.status_code == 304
