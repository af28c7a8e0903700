"""The pairs' links to a match, on the pages: a pair enters the result from its link, the
other confirms or disputes it from its own, the organiser sees both links (and a round's
sheet of them) and decides; wrong keys, bad figures and strangers change nothing."""

from __future__ import annotations

from datetime import UTC, datetime
from urllib.parse import parse_qs, urlsplit

import pytest
from django.conf import settings
from django.test import Client

from muscore.leagues import confirmations
from muscore.leagues.models import Competition, Match, ResultClaim
from tests.clubs.factory import logged_in, make_club, make_league, make_user
from tests.test_languages_pages import LANGUAGES, foreign_runs, found_in, visible_text
from tests.test_rate_limits import address, limits  # noqa: F401  (a fixture)

pytestmark = pytest.mark.django_db


def setup() -> tuple[Competition, Match, dict[int, str], Client]:
    club = make_club()
    competition = make_league(club, 4, results=0)
    match = competition.matches.order_by("number").first()
    assert match is not None
    keys = confirmations.keys_for([match])[match.pk]
    links = {
        side: f"/club/{club.slug}/liga/{competition.pk}/partida/{match.number}/resultado/{key}/"
        for side, key in keys.items()
    }
    return competition, match, links, logged_in(club.memberships.get().user)


def test_a_pair_claims_and_the_other_confirms_through_their_links() -> None:
    competition, match, links, _organiser = setup()
    a, b = Client(), Client()
    page = a.get(links[0])
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-claim="none"' in html and "Anotar el resultado" in html
    assert page["Referrer-Policy"] == "strict-origin" and "no-store" in page["Cache-Control"]
    response = a.post(links[0] + "anotar", {"juegos_first": "3", "juegos_second": "1"})
    assert response.status_code == 302 and response["Location"] == links[0]
    assert "Falta que" in a.get(links[0]).content.decode()
    match.refresh_from_db()
    assert match.outcome is None and ResultClaim.objects.get().status == "pending"
    # Pending: shown on the round and the next matches, counted nowhere.
    base = f"/club/{competition.club.slug}/liga/{competition.pk}/"
    for url in (base, base + "jornada/1/", base + "jornadas"):
        html = Client().get(url).content.decode()
        assert "3–1 por confirmar" in html, url
    assert competition.entries.filter(played__gt=0).count() == 0
    public = Client().get(f"/club/{competition.club.slug}/liga/{competition.pk}/partida/1/")
    assert "Resultado pendiente: 3–1" in public.content.decode()

    # Pair A cannot confirm its own result: 403, nothing stored.
    own = a.post(links[0] + "confirmar")
    assert own.status_code == 403 and "la otra pareja" in own.content.decode()
    assert ResultClaim.objects.get().status == "pending"
    html = b.get(links[1]).content.decode()
    assert "Confirmar el resultado" in html and "/calculadora/?" in html
    assert b.post(links[1] + "confirmar").status_code == 302
    match.refresh_from_db()
    assert (match.outcome.source, match.outcome.juegos) == ("manual", (3, 1))
    assert competition.entries.filter(played=1).count() == 2
    assert "por confirmar" not in Client().get(base + "jornada/1/").content.decode()
    settled = b.get(links[1]).content.decode()
    assert 'data-claim="settled"' in settled and "ya no cambia nada" in settled
    # A used link: its writes are refused.
    late = a.post(links[0] + "anotar", {"juegos_first": "3", "juegos_second": "0"})
    assert late.status_code == 403
    assert ResultClaim.objects.count() == 1


def test_wrong_keys_bad_figures_and_unknown_actions_change_nothing() -> None:
    _competition, match, links, _organiser = setup()
    client = Client()
    wrong = links[0].replace("/resultado/", "/resultado/x")
    assert client.get(wrong).status_code == 404
    assert client.post(wrong + "anotar", {"juegos_first": 3, "juegos_second": 0}).status_code == 404
    assert client.post(links[0] + "borrar").status_code == 404
    assert client.get(links[0] + "anotar").status_code == 405
    bad = client.post(links[0] + "anotar", {"juegos_first": "2", "juegos_second": "1"})
    assert bad.status_code == 400 and "una pareja gana 3" in bad.content.decode()
    half = client.post(links[0] + "anotar", {"juegos_first": "3", "juegos_second": "1",
                                             "tantos_first": "100"})
    assert half.status_code == 400
    assert client.post(links[0] + "confirmar").status_code == 400
    assert not ResultClaim.objects.exists()
    match.refresh_from_db()
    assert match.outcome is None


def test_a_dispute_opens_the_calculator_and_waits_for_the_organiser() -> None:
    competition, match, links, organiser = setup()
    a, b = Client(), Client()
    a.post(links[0] + "anotar", {"juegos_first": "3", "juegos_second": "0"})
    response = b.post(links[1] + "discutir", {"note": "Fue 3-2"})
    assert response.status_code == 302
    html = b.get(links[1]).content.decode()
    assert 'data-claim="disputed"' in html and "«Fue 3-2»" in html
    calculator = html.split('href="/calculadora/?', 1)[1].split('"', 1)[0].replace("&amp;", "&")
    query = parse_qs(calculator)
    assert query["juegos"] == ["3"] and query["players"] == ["4"]
    assert match.first is not None and match.second is not None
    first, second = match.first.pair.player_names(), match.second.pair.player_names()
    assert [query[f"n{seat}"][0] for seat in range(4)] == [first[0], second[0], first[1], second[1]]
    opened = Client().get("/calculadora/?" + calculator)
    assert opened.status_code == 200 and f'value="{second[1]}"' in opened.content.decode()

    page = organiser.get(f"/club/{competition.club.slug}/liga/{competition.pk}/partida/1/")
    html = page.content.decode()
    assert "discutido por" in html and "Aceptar el resultado" in html
    decide = f"/club/{competition.club.slug}/liga/{competition.pk}/partida/1/parejas/"
    assert Client().post(decide + "aceptar").status_code == 403
    assert logged_in(make_user("otra")).post(decide + "aceptar").status_code == 403
    assert organiser.post(decide + "cancelar").status_code == 404
    too_long = organiser.post(decide + "aceptar", {"decision-note": "x" * 600})
    assert too_long.status_code == 400
    assert ResultClaim.objects.get().status == "disputed"
    done = organiser.post(decide + "rechazar", {"decision-note": "Era 3-2: lo anoto yo"})
    assert done.status_code == 302
    claim = ResultClaim.objects.get()
    assert claim.status == "rejected" and claim.note == "Era 3-2: lo anoto yo"
    match.refresh_from_db()
    assert match.outcome is None
    log = organiser.get(f"/club/{competition.club.slug}/liga/{competition.pk}/partida/1/")
    assert "Era 3-2: lo anoto yo" in log.content.decode()
    assert organiser.post(decide + "aceptar").status_code == 400


def test_the_organiser_sees_both_links_and_the_rounds_sheet_visitors_do_not() -> None:
    competition, _match, links, organiser = setup()
    url = f"/club/{competition.club.slug}/liga/{competition.pk}/partida/1/"
    html = organiser.get(url).content.decode()
    assert html.count("data-pair-link=") == 2 and html.count('class="qr"') >= 2
    for link in links.values():
        assert link in html
    visitor = Client().get(url).content.decode()
    assert "/resultado/" not in visitor
    sheet = f"/club/{competition.club.slug}/liga/{competition.pk}/jornada/1/enlaces"
    assert Client().get(sheet).status_code == 403
    response = organiser.get(sheet)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count('class="pair-slip"') == 4 and links[0] in html
    round_page = organiser.get(f"/club/{competition.club.slug}/liga/{competition.pk}/jornada/1/")
    assert "/jornada/1/enlaces" in round_page.content.decode()
    assert organiser.get(sheet.replace("/1/", "/99/")).status_code == 404


def test_a_claim_left_24_hours_counts_when_the_league_is_read() -> None:
    competition, match, _links, _organiser = setup()
    confirmations.claim(match, side=1, juegos=[1, 3], now=datetime(2025, 1, 1, tzinfo=UTC))
    match.refresh_from_db()
    assert match.outcome is None
    assert Client().get(f"/club/{competition.club.slug}/liga/{competition.pk}/").status_code == 200
    match.refresh_from_db()
    assert match.outcome.source == "manual" and match.outcome.winner == 1
    assert match.result_at == datetime(2025, 1, 2, tzinfo=UTC)


def test_the_club_page_counts_a_claim_left_24_hours() -> None:
    competition, match, _links, _organiser = setup()
    confirmations.claim(match, side=0, juegos=[3, 2], now=datetime(2025, 1, 1, tzinfo=UTC))
    assert Client().get(f"/club/{competition.club.slug}/").status_code == 200
    match.refresh_from_db()
    assert match.outcome.source == "manual"


def test_pair_writes_are_rate_limited(limits: dict[str, list[str]]) -> None:  # noqa: F811
    _competition, _match, links, _organiser = setup()
    client = Client()
    ip = address(60, 20)
    statuses = [client.post(links[1] + "confirmar", REMOTE_ADDR=ip).status_code
                for _ in range(6)]
    assert statuses[:4] == [400] * 4 and statuses[4:] == [429, 429]


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_pairs_pages_speak_only_their_language(code: str) -> None:
    competition, match, links, organiser = setup()
    foreign = foreign_runs(code)
    a = Client()
    a.post(links[0] + "anotar", {"juegos_first": "3", "juegos_second": "1"})
    Client().post(links[1] + "discutir", {"note": ""})
    base = f"/club/{competition.club.slug}/liga/{competition.pk}/"
    pages = [(Client(), links[0]), (Client(), links[1]), (organiser, base + "partida/1/"),
             (organiser, base + "jornada/1/enlaces"), (Client(), base + "partida/1/")]
    other = competition.matches.order_by("number")[1]
    other_links = confirmations.keys_for([other])[other.pk]
    pages.append((Client(), base + f"partida/{other.number}/resultado/{other_links[0]}/"))
    wrong = {}
    for client, url in pages:
        client.cookies["django_language"] = code
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert f'<html lang="{code}"' in html
        found = found_in(visible_text(html), foreign)
        if found:
            wrong[url] = found
    assert not wrong, wrong
    assert urlsplit(links[0]).path == links[0]


def test_the_logs_never_show_a_pairs_key() -> None:
    from muscore import logs

    line = "GET /club/bar/liga/3/partida/12/resultado/AbC-_9xyz/confirmar HTTP/1.1"
    assert logs.mask_keys(line) == line.replace("AbC-_9xyz", "***")
    assert logs.mask_keys("/club/bar/liga/3/partida/12/resultado") == (
        "/club/bar/liga/3/partida/12/resultado"
    )


def test_a_dispute_on_a_match_played_on_a_table_links_each_hand() -> None:
    from muscore.leagues import competitions
    from muscore.tables import services as tables
    from tests.tables.factory import make_record

    competition, match, links, organiser = setup()
    table = competitions.open_table(match, by=competition.club.memberships.get().user)
    for _ in range(2):
        tables.add_hand(table, make_record(), via="edit_link")
    Client().post(links[0] + "anotar", {"juegos_first": "3", "juegos_second": "0"})
    Client().post(links[1] + "discutir", {"note": "La mesa no se acabó"})
    html = organiser.get(
        f"/club/{competition.club.slug}/liga/{competition.pk}/partida/1/"
    ).content.decode()
    section = html.split('id="resultado-parejas"', 1)[1].split("</section>", 1)[0]
    assert section.count('href="/calculadora/?h=') == 2 and "Mano 2" in section
    pair_page = Client().get(links[0]).content.decode()
    assert pair_page.count('href="/calculadora/?h=') == 2


def test_a_disputed_claim_is_flagged_in_red_with_words_wherever_a_claim_shows() -> None:
    """Issue 17.5: a dispute no longer looks like any pending claim ('3–1 por confirmar')
    on the round list, the competition and the club pages."""
    competition, _match, links, _organiser = setup()
    a, b = Client(), Client()
    a.post(links[0] + "anotar", {"juegos_first": "3", "juegos_second": "1"})
    base = f"/club/{competition.club.slug}/liga/{competition.pk}/"
    club_page = f"/club/{competition.club.slug}/"
    pages = (base, base + "jornada/1/", base + "jornadas")
    for url in pages:
        html = Client().get(url).content.decode()
        assert "3–1 por confirmar" in html and "data-disputed" not in html, url
    assert "en disputa" not in Client().get(club_page).content.decode()
    assert b.post(links[1] + "discutir", {"note": "Fue 3-2"}).status_code == 302
    for url in pages:
        html = Client().get(url).content.decode()
        assert '<span class="disputed" data-disputed>3–1 en disputa</span>' in html, url
        assert "por confirmar" not in html, url
    club_html = Client().get(club_page).content.decode()
    assert '<span class="disputed" data-disputed>1 resultado en disputa</span>' in club_html
    css = (settings.BASE_DIR / "static" / "css" / "muscore.css").read_text()
    assert ".disputed { color: var(--error)" in css
