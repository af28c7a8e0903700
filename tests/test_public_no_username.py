"""No public page names an organiser's account (issue 40.4: usernames were public, the
draw page printed "Sorteado con el botón · bench-organiser", and a username is half of
what locks an account out). A club's season (a league with a table, results, a no-show,
a pair's claim, a second organiser invited, a ceros tournament) and a championship with
its venues' pairs, every account renamed to a word found nowhere else: a visitor's crawl
of every page and export reached from the home page, the sitemap, the club's and the
championship's pages reads none of them."""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.championships.factory import small_championship
from tests.tables.test_backup_season import SKIP, Links, season

pytestmark = pytest.mark.django_db
# Pages that show no account of anyone's: the calculator's and the lector's permalinks, the
# rules (their links are endless variants of the same page).
NO_ACCOUNTS = re.compile(r"^/(calculadora|lector|reglas)/")
# The login page, linked from every page with that page's own address as `next`: the same
# page whatever `next` says (it only echoes it, and the page that linked it holds the same
# address in its link, which the crawl reads), so it is read once in each language and not
# once for every page that links it (663 of the crawl's 1,141 requests).
LOGIN = re.compile(r"^/((en|eu|fr)/)?cuentas/entrar$")
# A card's image (tarjeta.png): its pixels cannot be searched for a name. It is drawn from
# the same night as tarjeta.json, which holds every field of that night (the club, the
# competition, the title, the results, the standings, the órdagos) and the card's text; the
# crawl reads the JSON in its place (a name put on a card fails the test there), and the
# image's drawing and PNG encoding (36 in the crawl) are spared.
CARD_IMAGE = re.compile(r"/tarjeta\.png$")


def crawl(client: Client, start: list[str], depth: int = 3) -> dict[str, bytes]:
    """Every page and export `depth` links or fewer from `start`, with its body."""
    seen: dict[str, bytes] = {}
    logins: set[str] = set()
    level = list(dict.fromkeys(start))
    for _ in range(depth + 1):
        following: list[str] = []
        for url in level:
            if url in seen:
                continue
            response = client.get(url)
            body = b"".join(response.streaming_content) if response.streaming else \
                response.content
            seen[url] = body
            if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
                continue
            parser = Links()
            parser.feed(body.decode())
            for link in parser.found:
                parts = urlsplit(urljoin(url, link))
                if parts.scheme not in ("", "http") or parts.netloc not in ("", "testserver"):
                    continue
                path = parts.path + (f"?{parts.query}" if parts.query else "")
                if CARD_IMAGE.search(parts.path):
                    path = CARD_IMAGE.sub("/tarjeta.json", parts.path)
                if LOGIN.search(parts.path):
                    if parts.path in logins:
                        continue
                    logins.add(parts.path)
                if not SKIP.search(parts.path) and not NO_ACCOUNTS.search(parts.path):
                    following.append(path)
        level = [url for url in dict.fromkeys(following) if url not in seen]
    return seen


def test_no_public_page_names_an_organisers_account() -> None:
    club, _organiser, table = season()
    championship, _boss, _barmen = small_championship()
    users = get_user_model().objects.all()
    for user in users:
        user.username = f"zqcuenta{user.pk}x"
        user.save(update_fields=["username"])
    names = [user.username.encode() for user in users]
    assert len(names) >= 4

    client = Client()
    sitemap = client.get("/sitemap.xml").content.decode()
    draws = [f"/club/{club.slug}/liga/{pk}/sorteo" for pk in
             club.competitions.values_list("pk", flat=True)]
    start = ["/", f"/club/{club.slug}/", f"/campeonatos/{championship.pk}/", f"/t/{table.id}/",
             *draws,
             *re.findall(r"<loc>http://testserver([^<]*)</loc>", sitemap)]
    pages = crawl(client, start)
    assert len(pages) > 40, sorted(pages)
    # The pages that named one: a league's draw, a match's log and claims, a ceros log.
    for page in ("/sorteo", "/partida/", "/liga/", "/campeonatos/"):
        assert any(page in url for url in pages), page
    named = {url: [n.decode() for n in names if n in body]
             for url, body in pages.items() if any(n in body for n in names)}
    print(f"{len(pages)} public pages and exports read, {len(names)} accounts")
    assert not named, named
