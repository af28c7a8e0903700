"""The web's conventions (issue 19.10): HEAD wherever GET is, HTML compressed, robots.txt,
/favicon.ico, no edit link in a search engine, a description and Open Graph tags."""

from __future__ import annotations

import gzip
import json
import re

import pytest
from django.test import Client

from muscore.clubs import services as clubs
from muscore.leagues import confirmations
from muscore.tables import services
from tests.leagues.factory import liguilla

pytestmark = pytest.mark.django_db


def pages() -> list[str]:
    table = services.create_table(players=["Ana", "Bruno", "Carla", "Diego"])
    services.add_hand(table, {"hands": {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7",
                                        "3": "S S 7 7"}}, via="api")
    competition, _ = liguilla()
    club = competition.club.slug
    edit = f"/t/{table.id}/k/{table.edit_key}/"
    return [
        "/", "/nueva", "/importar", f"/t/{table.id}/", f"/t/{table.id}/historial", edit,
        edit + "historial", edit + "mano", edit + "mano/1", edit + "deshacer",
        "/calculadora/", "/lector/", "/reglas/", "/api/", "/nivel/", "/clubs/",
        f"/club/{club}/", f"/club/{club}/liga/{competition.pk}/",
        f"/club/{club}/liga/{competition.pk}/jornada/1/", f"/club/{club}/lideres/",
        f"/club/{club}/niveles/", f"/club/{club}/tv/", "/robots.txt", "/favicon.ico",
        "/manifest.webmanifest", "/sw.js",
    ]


def test_head_answers_wherever_get_does(client: Client) -> None:
    """Monitors and `curl -I` ask HEAD: every page answers it as it answers GET, without a body."""
    for url in pages():
        get = client.get(url)
        assert get.status_code == 200, (url, get.status_code)
        head = client.head(url)
        assert head.status_code == 200, (url, head.status_code)
        assert head.content == b"", url


def test_html_is_compressed_and_the_rest_left_alone(client: Client) -> None:
    # 8 pairs: GZipMiddleware pads with up to 100 random bytes and leaves an answer plain
    # when that is no smaller, which the 4 pairs' standings.csv (255 bytes) sometimes was.
    competition, _ = liguilla(8)
    url = f"/club/{competition.club.slug}/liga/{competition.pk}/"
    plain = client.get(url)
    zipped = client.get(url, headers={"accept-encoding": "gzip"})
    assert zipped["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in zipped["Vary"]
    assert gzip.decompress(zipped.content).startswith(b"<!doctype html>")
    assert len(zipped.content) < len(plain.content) / 2
    # An htmx fragment too.
    table = services.create_table(players=["Ana", "Bruno", "Carla", "Diego"])
    fragment = client.get(
        f"/t/{table.id}/", headers={"accept-encoding": "gzip", "hx-request": "true"}
    )
    assert fragment.status_code == 200 and fragment["Content-Encoding"] == "gzip"
    # The API's JSON and CSV reads too (issue 30 point 8), streamed or not.
    api = client.get(f"/api/v1/tables/{table.id}", headers={"accept-encoding": "gzip"})
    assert api.status_code == 200 and api["Content-Encoding"] == "gzip"
    assert json.loads(gzip.decompress(api.content))["id"] == table.id
    for path in ("/api/v1/openapi.json", f"/api/v1/leagues/{competition.pk}",
                 f"/api/v1/leagues/{competition.pk}/export",
                 f"/api/v1/leagues/{competition.pk}/standings.csv"):
        read = client.get(path, headers={"accept-encoding": "gzip"})
        assert read.status_code == 200 and read["Content-Encoding"] == "gzip", path
        body = b"".join(read.streaming_content) if read.streaming else read.content
        assert gzip.decompress(body), path
    # A POST's answer is not: a new table's carries its edit key (BREACH), nor is a PNG.
    made = client.post("/api/v1/tables", {"players": ["Ana", "Bruno", "Carla", "Diego"]},
                       content_type="application/json", headers={"accept-encoding": "gzip"})
    assert made.status_code == 201 and "Content-Encoding" not in made
    card = client.get(url + "jornada/1/tarjeta.png", headers={"accept-encoding": "gzip"})
    assert card.status_code == 200 and "Content-Encoding" not in card


def test_robots_and_favicon(client: Client) -> None:
    robots = client.get("/robots.txt")
    assert robots["Content-Type"].startswith("text/plain")
    text = robots.content.decode()
    assert text.startswith("User-agent: *\n") and "Disallow: /admin/" in text
    icon = client.get("/favicon.ico")
    assert icon["Content-Type"] == "image/x-icon"
    assert icon.content[:4] == b"\x00\x00\x01\x00"  # the ICO header


def test_edit_links_are_never_indexed(client: Client) -> None:
    table = services.create_table(players=["Ana", "Bruno", "Carla", "Diego"])
    edit = f"/t/{table.id}/k/{table.edit_key}/"
    for url in (edit, edit + "historial", edit + "mano", edit + "manifest.webmanifest"):
        answer = client.get(url)
        assert answer["X-Robots-Tag"] == "noindex, nofollow", url
        # Its styles, scripts and stream name only the site as their Referer (issue 40.9).
        assert answer["Referrer-Policy"] == "strict-origin", url
    for url in (f"/t/{table.id}/", "/"):
        answer = client.get(url)
        assert "X-Robots-Tag" not in answer, url
        assert answer["Referrer-Policy"] == "same-origin", url


def test_every_link_that_carries_a_key_is_never_indexed(client: Client) -> None:
    """A pair's link to its match's result and an organiser's new-password link act for
    whoever holds them, as an edit link does (issue 30 point 8)."""
    competition, organiser = liguilla()
    match = competition.matches.order_by("number").first()
    assert match is not None
    key = confirmations.keys_for([match])[match.pk][0]
    base = f"/club/{competition.club.slug}/liga/{competition.pk}/partida/{match.number}/"
    pair = client.get(f"{base}resultado/{key}/")
    assert pair.status_code == 200 and pair["X-Robots-Tag"] == "noindex, nofollow"
    password = client.get(clubs.password_link(organiser))
    assert password["X-Robots-Tag"] == "noindex, nofollow", password.status_code
    # The organiser's own page of the match carries no key: nothing said.
    assert "X-Robots-Tag" not in client.get(base)
    # A championship entry's confirmation link (a made-up key: still never indexed).
    entry = client.get("/campeonatos/1/confirmar/1/not-the-key/")
    assert entry["X-Robots-Tag"] == "noindex, nofollow", entry.status_code
    for answer in (pair, password, entry):
        assert answer["Referrer-Policy"] == "strict-origin", answer.status_code


def meta(page: str, attribute: str, name: str) -> str:
    match = re.search(rf'<meta {attribute}="{re.escape(name)}" content="([^"]*)"', page)
    assert match, name
    return match.group(1)


def test_description_and_open_graph(client: Client) -> None:
    home = client.get("/", headers={"accept-language": "es"}).content.decode()
    assert meta(home, "name", "description").startswith("Marcador de mus")
    assert meta(home, "property", "og:image") == "http://testserver/static/icons/muscore-512.png"
    english = client.get("/", headers={"accept-language": "en"}).content.decode()
    assert meta(english, "name", "description").startswith("Mus scoreboard")
    # A round of a league: its share card is the preview's image, its title the card's.
    competition, _ = liguilla()
    base = f"/club/{competition.club.slug}/liga/{competition.pk}/"
    page = client.get(base + "jornada/1/").content.decode()
    assert meta(page, "property", "og:image") == f"http://testserver{base}jornada/1/tarjeta.png"
    assert client.get(base + "jornada/1/tarjeta.png")["Content-Type"] == "image/png"
    assert "Liga de los jueves" in meta(page, "property", "og:title")
    # A board: the sides and the score.
    table = services.create_table(players=["Ana", "Bruno", "Carla", "Diego"])
    board = client.get(f"/t/{table.id}/").content.decode()
    assert meta(board, "property", "og:title") == "Ana y Carla 0–0 Bruno y Diego"


def test_the_worker_carries_its_offline_page_in_every_language(client: Client) -> None:
    worker = client.get("/sw.js").content.decode()
    for words in ("Sin conexión", "No connection", "Konexiorik gabe", "Ir al inicio",
                  "Go to the start", "Hasierara joan"):
        assert words in worker, words
    assert '"/calculadora/", "/lector/", "/reglas/"' in worker


def test_a_sitemap_of_the_public_pages(client: Client) -> None:
    """/sitemap.xml (named in /robots.txt) lists the site's pages, the rules' sections, the
    clubs, their competitions and the championships, each answering 200, and no link that
    carries a key nor a table's board."""
    from tests.championships.factory import small_championship

    competition, _ = liguilla()
    championship, _, _ = small_championship()
    table = services.create_table(players=["Ana", "Bruno", "Carla", "Diego"])
    assert "Sitemap: http://testserver/sitemap.xml" in client.get("/robots.txt").content.decode()
    answer = client.get("/sitemap.xml")
    assert answer.status_code == 200 and answer["Content-Type"].startswith("application/xml")
    urls = re.findall(r"<loc>http://testserver([^<]*)</loc>", answer.content.decode())
    club = competition.club.slug
    for expected in ("/", "/calculadora/", "/reglas/", "/reglas/lances/", "/clubs/",
                     f"/club/{club}/", f"/club/{club}/lideres/",
                     f"/club/{club}/liga/{competition.pk}/", f"/campeonatos/{championship.pk}/"):
        assert expected in urls, expected
    assert not [url for url in urls if "/k/" in url or "/resultado/" in url
                or "/clave/" in url or url.startswith(f"/t/{table.id}")]
    for url in urls:
        assert client.get(url).status_code == 200, url
    # Read, never written to (issue 40.10: a POST answered 200).
    for method in (client.post, client.put, client.delete):
        refused = method("/sitemap.xml")
        assert refused.status_code == 405 and refused["Allow"] == "GET, HEAD", method
    assert client.head("/sitemap.xml").status_code == 200
