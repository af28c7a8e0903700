"""The bar's screen (/club/<slug>/tv/) and the group-chat card (muscore.leagues.card):
which competition and round they show, the screen's 304 of an unchanged poll, the card's
PNG and text (the right results, no private link, the same bytes for the same night)."""

from __future__ import annotations

import io
import json
import re

import pytest
from django.test import Client
from PIL import Image

from muscore.leagues import card, competitions, results
from muscore.leagues.models import Competition, Match
from muscore.tables import services as tables
from tests.clubs.factory import make_club, make_league
from tests.leagues.test_league_pages import ordago_record
from tests.tables.factory import make_record

pytestmark = pytest.mark.django_db


def tv_url(competition: Competition) -> str:
    return f"/club/{competition.club.slug}/tv/"


def card_url(competition: Competition, number: int, kind: str) -> str:
    return f"/club/{competition.club.slug}/liga/{competition.pk}/jornada/{number}/tarjeta.{kind}"


def organiser(competition: Competition) -> object:
    return competition.club.memberships.get().user  # type: ignore[union-attr]


def test_the_screen_shows_the_current_round_standings_and_latest_results() -> None:
    club = make_club()
    competition = make_league(club, 6, results=4)  # round 1 (3 matches) done, round 2 begun
    assert card.current_competition(club) == competition
    assert card.current_round(competition) == 2
    response = Client().get(tv_url(competition))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Jornada 2" in page and competition.name in page
    round2 = Match.objects.filter(competition=competition, round__number=2).select_related(
        "first__pair", "second__pair").order_by("number")
    for m in round2:
        assert m.first is not None and m.second is not None
        assert m.first.pair.name in page and m.second.pair.name in page
    assert page.count('class="tv-table is-done"') == 1
    assert 'data-panel="standings"' in page and 'data-panel="results"' in page
    assert page.count("data-result=") == 4
    # No inline script or style: the Content-Security-Policy allows none.
    assert "<script>" not in page and "style=" not in page
    assert "script-src 'self'" in response["Content-Security-Policy"]


def test_an_unchanged_poll_is_answered_304_with_the_security_headers() -> None:
    club = make_club()
    competition = make_league(club, 4, results=1)
    client = Client()
    poll = tv_url(competition) + f"?liga={competition.pk}&live=1"
    first = client.get(poll, HTTP_HX_REQUEST="true")
    assert first.status_code == 200 and 'id="tv-live"' in first.content.decode()
    assert "<html" not in first.content.decode()
    etag = first["ETag"]
    again = client.get(poll, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert again["ETag"] == etag
    assert "Content-Security-Policy" in again and again["X-Content-Type-Options"] == "nosniff"
    match = Match.objects.filter(competition=competition).unplayed().order_by("number").first()
    assert match is not None
    results.record_result(match, by=organiser(competition), juegos=[3, 2])
    changed = client.get(poll, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert "3–2" in changed.content.decode()


def test_the_screen_picks_the_competition_being_played_or_the_one_asked_for() -> None:
    club = make_club()
    older = make_league(club, 4)  # every match played: finished
    newer = competitions.create_competition(
        club, by=organiser(older), name="Liga de primavera", pairs=list(club.pairs.all()),
        draw=[0, 1, 2, 3])
    older.refresh_from_db()
    assert older.status == Competition.Status.FINISHED
    assert card.current_competition(club) == newer
    assert card.current_competition(club, older.pk) == older
    assert card.current_round(older) == 3  # nothing left: the latest round
    page = Client().get(tv_url(older) + f"?liga={older.pk}").content.decode()
    assert "Jornada 3" in page
    assert Client().get(tv_url(older) + "?liga=999999").status_code == 404
    assert Client().get(tv_url(older) + "?liga=abc").status_code == 404


def test_a_club_with_no_competition_shows_an_empty_screen() -> None:
    club = make_club()
    response = Client().get(f"/club/{club.slug}/tv/")
    assert response.status_code == 200
    assert "aún no tiene ninguna competición" in response.content.decode()
    assert Client().get("/club/no-such-club/tv/").status_code == 404


def test_the_card_text_has_the_rounds_results_and_the_standings_top() -> None:
    club = make_club()
    competition = make_league(club, 4, results=0)
    one, two = Match.objects.filter(competition=competition, round__number=1).select_related(
        "first__pair", "second__pair").order_by("number")
    results.record_result(one, by=organiser(competition), juegos=[3, 1])
    text = Client().get(card_url(competition, 1, "txt"))
    assert text.status_code == 200 and text["Content-Type"].startswith("text/plain")
    body = text.content.decode()
    assert one.first is not None and one.second is not None
    assert f"{one.first.pair.name} 3–1 {one.second.pair.name}" in body
    assert "Queda 1 partida por jugar." in body
    assert f"1. {one.first.pair.name} (2 puntos)" in body
    assert f"http://testserver/club/{club.slug}/liga/{competition.pk}/" in body
    data = json.loads(Client().get(card_url(competition, 1, "json")).content)
    assert data["results"][0]["result"] == "3–1" and data["left"] == 1
    assert Client().get(card_url(competition, 9, "txt")).status_code == 404
    assert Client().get(card_url(competition, 1, "gif")).status_code == 404


def test_the_card_png_is_a_png_the_same_for_the_same_night_and_changes_with_a_result() -> None:
    club = make_club()
    competition = make_league(club, 4, results=1)
    client = Client()
    first = client.get(card_url(competition, 1, "png"))
    assert first.status_code == 200 and first["Content-Type"] == "image/png"
    png = first.content
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(png))
    image.verify()
    assert Image.open(io.BytesIO(png)).size[0] == card.WIDTH
    assert client.get(card_url(competition, 1, "png")).content == png  # deterministic
    assert client.get(card_url(competition, 1, "png"),
                      HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    match = Match.objects.filter(competition=competition).unplayed().order_by("number").first()
    assert match is not None
    results.record_result(match, by=organiser(competition), juegos=[0, 3])
    after = client.get(card_url(competition, 1, "png"), HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200 and after.content != png


def test_accents_and_enye_are_drawn_not_boxes() -> None:
    # DejaVu Sans has them (Pillow's bundled font draws a box for ñ, á...).
    font = card._font(40)
    box = font.getmask("\uffff").getbbox()
    for letter in "ñÑáéíóúü¿–":
        assert font.getmask(letter).getbbox() != box, letter


def test_the_card_tells_the_nights_ordago_and_carries_no_private_link() -> None:
    club = make_club()
    competition = make_league(club, 4, results=0)
    match = Match.objects.filter(competition=competition, round__number=1).select_related(
        "first__pair").order_by("number").first()
    assert match is not None and match.first is not None
    assert match.second is not None
    table = competitions.open_table(match, by=organiser(competition))
    # The second pair calls an órdago the first pair's cards win; then three of the first's.
    lost = make_record(grande={"bets": [{"side": "B", "n": "ordago"}], "end": "quiero"})
    tables.add_hand(table, lost, via="edit_link")
    for _ in range(3):
        tables.add_hand(table, ordago_record(), via="edit_link")
    match.refresh_from_db()
    assert match.outcome.source == "table"
    night = card.round_night(competition, 1)
    assert night is not None
    first, second = match.first.pair.name, match.second.pair.name
    assert night.ordagos == [
        f"Órdago a la grande de {second}, aceptado; lo ganó {first} (mesa 1)",
        f"Órdago a la grande de {first}, aceptado y ganado (mesa 1)",
        f"Órdago a la grande de {first}, aceptado y ganado (mesa 1)",
    ]  # the fourth órdago starts a second vaca at the table: not the match's
    text = Client().get(card_url(competition, 1, "txt")).content.decode()
    assert f"El órdago de la noche: Órdago a la grande de {first}, aceptado y ganado" in text
    assert "Órdagos aceptados: 3" in text
    from muscore.leagues import confirmations

    pair_keys = [key for keys in confirmations.keys_for(
        competition.matches.all()).values() for key in keys.values()]
    assert pair_keys
    png = Client().get(card_url(competition, 1, "png")).content
    drawn = " ".join(f"{left} {right}" for left, right, *_rest in card._lines(night))
    screen = Client().get(tv_url(competition)).content.decode()
    for secret in (table.edit_key, table.id, *pair_keys):
        assert secret not in text and secret not in drawn and secret not in screen
        assert secret.encode() not in png
    assert "/t/" not in text and "/k/" not in text
    assert not re.search(r"resultado/[A-Za-z0-9_-]{16,}", text)


def test_a_nights_card_takes_the_matches_of_that_date() -> None:
    club = make_club()
    competition = make_league(club, 4, results=2)
    day = Match.objects.played().filter(competition=competition).first()
    assert day is not None and day.result_at is not None
    from django.utils import timezone

    date = timezone.localdate(day.result_at).isoformat()
    base = f"/club/{club.slug}/liga/{competition.pk}/noche/"
    text = Client().get(base + f"{date}/tarjeta.txt").content.decode()
    assert text.count("Mesa ") == 2
    assert Client().get(base + "2001-01-01/tarjeta.txt").status_code == 404
    assert Client().get(base + "ayer/tarjeta.png").status_code == 404
    assert Client().get(base + f"{date}/tarjeta.png").content.startswith(b"\x89PNG")


def test_a_ceros_tournament_shows_its_tables_and_the_pairs_still_in() -> None:
    from tests.leagues.test_ceros_services import play_round, tournament

    competition, user = tournament(4, ceros=2)
    play_round(competition, user, winner=0)  # round 1: the two second pairs get a cero each
    from muscore.leagues import ceros_rounds

    ceros_rounds.make_round(competition, by=user)
    round2 = ceros_rounds.publish_round(competition, by=user)
    competition.refresh_from_db()
    assert card.current_round(competition) == 2
    page = Client().get(tv_url(competition)).content.decode()
    assert page.count("data-table=") == round2.matches.count()
    assert 'class="tv-standings tv-ceros"' in page and "●○" in page
    state = ceros_rounds.table(competition)
    leader = state.rows[0]
    text = Client().get(card_url(competition, 1, "txt")).content.decode()
    assert f"1. {leader.entry.pair.name} (0 ceros)" in text
    assert "puntos" not in text
    png = Client().get(card_url(competition, 1, "png"))
    assert png.status_code == 200 and png.content.startswith(b"\x89PNG")


def test_the_ceros_page_has_the_rounds_share_button_and_the_screens_link() -> None:
    from tests.leagues.test_ceros_services import play_round, tournament

    competition, user = tournament(4, ceros=2)
    play_round(competition, user)
    page = Client().get(f"/club/{competition.club.slug}/liga/{competition.pk}/ceros/")
    body = page.content.decode()
    assert card_url(competition, 1, "png") in body and card_url(competition, 1, "txt") in body
    assert f"/club/{competition.club.slug}/tv/?liga={competition.pk}" in body


def test_the_latest_nights_card_and_its_button_on_the_competition_page() -> None:
    club = make_club()
    competition = make_league(club, 4, results=0)
    base = f"/club/{club.slug}/liga/{competition.pk}/"
    assert "noche/ultima/tarjeta" not in Client().get(base).content.decode()
    assert Client().get(base + "noche/ultima/tarjeta.txt").status_code == 404
    match = Match.objects.filter(competition=competition).order_by("number").first()
    assert match is not None
    results.record_result(match, by=organiser(competition), juegos=[3, 0])
    page = Client().get(base).content.decode()
    assert base + "noche/ultima/tarjeta.png" in page and "La noche del" in page
    text = Client().get(base + "noche/ultima/tarjeta.txt").content.decode()
    assert "La noche del" in text and "3–0" in text


def test_many_tables_turn_through_pages_of_the_screen() -> None:
    from muscore.leagues.views import screen as views_tv

    club = make_club()
    competition = make_league(club, 16, results=0)  # 8 tables a round
    shown = views_tv.screen(competition)
    assert [len(p["tables"]) for p in shown["table_pages"]] == [8]
    per_panel = views_tv.TABLES_PER_PANEL
    try:
        views_tv.TABLES_PER_PANEL = 3
        pages_ = views_tv.screen(competition)["table_pages"]
    finally:
        views_tv.TABLES_PER_PANEL = per_panel
    assert [p["name"] for p in pages_] == ["tables", "tables-2", "tables-3"]
    assert [(p["first"], p["last"]) for p in pages_] == [(1, 3), (4, 6), (7, 8)]
    page = Client().get(tv_url(competition)).content.decode()
    assert page.count("data-table=") == 8 and 'data-panel="tables"' in page
