"""A large competition's export and night card are made by the worker after each change
(issue 21: every request bounded): a write queues them; a read before the worker runs gets
the previous one at once, marked as being brought up to date (or 202 when none was ever
made); after the worker, the new one. A small competition's are still made in the request."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from hypothesis import given, settings
from hypothesis import strategies as st

from muscore.leagues import documents, prepared, results
from muscore.leagues.models import Competition, DocumentBacklog, Match, PreparedPart

from .factory import liguilla

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_cache() -> None:
    cache.clear()


@pytest.fixture
def large(monkeypatch: pytest.MonkeyPatch) -> None:
    # A small league stands for a large one: no request makes its documents.
    monkeypatch.setattr(prepared, "INLINE_MATCHES", 0)
    # The export in pieces of 100 bytes: the stream joins many.
    monkeypatch.setattr(prepared, "PART_BYTES", 100)


def season() -> tuple[Competition, Any, list[Match]]:
    competition, user = liguilla(4)
    matches = list(Match.objects.filter(competition=competition).order_by("number"))
    results.record_result(matches[0], by=user, juegos=[3, 1])
    competition.refresh_from_db()
    return competition, user, matches


def export(competition: Competition) -> Any:
    return Client().get(f"/api/v1/leagues/{competition.pk}/export")


def body(response: Any) -> Any:
    content = (b"".join(response.streaming_content) if response.streaming
               else response.content)
    return json.loads(content)


def night(competition: Competition, kind: str = "txt") -> Any:
    return Client().get(f"/club/{competition.club.slug}/liga/{competition.pk}/noche/ultima/"
                        f"tarjeta.{kind}", HTTP_ACCEPT_LANGUAGE="es")


def test_a_result_queues_the_documents_and_the_worker_takes_them_off() -> None:
    competition, user, matches = season()
    assert DocumentBacklog.objects.filter(competition=competition).exists()
    assert prepared.catch_up() == 1
    assert not DocumentBacklog.objects.exists()
    assert prepared.latest(competition.pk, prepared.EXPORT) is not None
    assert prepared.latest(competition.pk, prepared.night_kind("eu")) is not None
    results.record_result(matches[1], by=user, juegos=[0, 3])
    assert DocumentBacklog.objects.filter(competition=competition).exists()


@pytest.mark.usefixtures("large")
def test_a_large_export_is_served_as_made_by_the_worker_old_then_new() -> None:
    competition, user, matches = season()
    started = time.perf_counter()
    first = export(competition)
    assert first.status_code == 202  # never made yet
    assert first["Retry-After"] == str(prepared.RETRY_AFTER)
    assert first.json()["preparing"] is True and first.json()["retry_after"] > 0

    call_command("rating_worker", once=True)
    ready = export(competition)
    assert ready.status_code == 200 and ready.streaming
    assert "Retry-After" not in ready
    assert ready["X-Muscore-Revision"] == str(competition.revision)
    old = body(ready)
    assert old == documents.league_document(competition, hands=True)
    assert PreparedPart.objects.filter(kind=prepared.EXPORT).count() > 3  # in pieces

    results.record_result(matches[1], by=user, juegos=[0, 3])
    competition.refresh_from_db()
    stale = export(competition)
    assert stale.status_code == 200
    assert stale["Retry-After"] == str(prepared.RETRY_AFTER)
    assert int(stale["X-Muscore-Revision"]) < competition.revision
    assert stale["X-Muscore-Current-Revision"] == str(competition.revision)
    assert body(stale) == old, "the previous export, whole, while the new one is made"
    assert time.perf_counter() - started < 5

    call_command("rating_worker", once=True, only="documents")
    new = export(competition)
    assert "Retry-After" not in new
    assert new["X-Muscore-Revision"] == str(competition.revision)
    assert body(new) == documents.league_document(competition, hands=True) != old
    # Only the revision served and the one before it are kept.
    assert set(PreparedPart.objects.filter(kind=prepared.EXPORT).values_list(
        "revision", flat=True)) == {int(stale["X-Muscore-Revision"]), competition.revision}


@pytest.mark.usefixtures("large")
def test_a_large_night_card_is_served_as_made_by_the_worker_old_then_new() -> None:
    competition, user, matches = season()
    first = night(competition, "png")
    assert first.status_code == 202 and first["Retry-After"]
    assert first["Content-Type"] == "image/png" and first.content.startswith(b"\x89PNG")
    assert "preparando" in night(competition).content.decode()

    prepared.catch_up()
    ready = night(competition)
    assert ready.status_code == 200 and "Retry-After" not in ready
    text = ready.content.decode()
    assert "3–1" in text and "0–3" not in text

    results.record_result(matches[1], by=user, juegos=[0, 3])
    competition.refresh_from_db()
    stale = night(competition)
    assert stale.status_code == 200 and stale["Retry-After"]
    assert "0–3" not in stale.content.decode(), "the previous night's card meanwhile"
    png = night(competition, "png")
    assert png.status_code == 200 and png.content.startswith(b"\x89PNG")

    prepared.catch_up()
    new = night(competition)
    assert "Retry-After" not in new and "0–3" in new.content.decode()
    # Each language has its own card.
    basque = Client().get(f"/club/{competition.club.slug}/liga/{competition.pk}/noche/ultima/"
                          "tarjeta.txt", HTTP_ACCEPT_LANGUAGE="eu")
    assert basque.status_code == 200 and basque.content.decode() != new.content.decode()


def test_a_small_competition_is_still_made_in_the_request() -> None:
    competition, _user, _matches = season()
    assert not PreparedPart.objects.exists()
    response = export(competition)
    assert response.status_code == 200 and "Retry-After" not in response
    assert body(response) == documents.league_document(competition, hands=True)
    card = night(competition)
    assert card.status_code == 200 and "3–1" in card.content.decode()
    assert "Retry-After" not in card


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
    | st.dictionaries(st.text(max_size=5), inner, max_size=4)
    | st.dictionaries(st.integers() | st.booleans(), inner, max_size=3),
    max_leaves=30)


@given(json_values)
@settings(max_examples=150, deadline=None)
def test_the_exports_encoder_writes_the_same_text_as_json_dumps(value: Any) -> None:
    assert prepared.indented_json(value) == json.dumps(value, ensure_ascii=False, indent=1)


def test_the_worker_writes_the_export_as_json_dumps_does_and_makes_a_revision_once(
        large: None) -> None:
    competition, _user, _matches = season()
    prepared.make(competition.pk)
    export = prepared.latest(competition.pk, prepared.EXPORT)
    assert export is not None
    assert export.read() == json.dumps(documents.league_document(competition, hands=True),
                                       ensure_ascii=False, indent=1).encode()
    kept = sorted(PreparedPart.objects.values_list("pk", flat=True))
    # The same revision again (a second queueing with nothing changed): nothing remade.
    prepared.make(competition.pk)
    assert sorted(PreparedPart.objects.values_list("pk", flat=True)) == kept


def queries_to_make(count: int, organiser: Any = None) -> tuple[int, Any]:
    competition, user = liguilla(count, organiser=organiser)
    for match in Match.objects.filter(competition=competition):
        results.record_result(match, by=user, juegos=[3, 1])
    with CaptureQueriesContext(connection) as queries:
        prepared.make(competition.pk)
    return len(queries), user


def test_the_worker_reads_as_many_rows_whatever_the_number_of_matches() -> None:
    # The night's matches with their rounds and pairs read once for the four languages,
    # the export in a fixed number of queries: no query per match.
    few, user = queries_to_make(4)
    assert queries_to_make(8, user)[0] == few


def test_a_night_card_is_stored_in_pieces_and_the_older_revisions_dropped(large: None) -> None:
    competition, user, matches = season()
    prepared.make(competition.pk)
    first = prepared.latest(competition.pk, prepared.night_kind("es"))
    assert first is not None and first.parts > 1  # pieces of PART_BYTES (100 here)
    for match, juegos in zip(matches[1:3], ([3, 0], [0, 3]), strict=True):
        results.record_result(match, by=user, juegos=juegos)
        prepared.make(competition.pk)
    latest = prepared.latest(competition.pk, prepared.night_kind("es"))
    assert latest is not None and latest.json()["night"]["results"]
    # The two latest revisions kept (a stream may still read the one before), no older.
    kept = set(PreparedPart.objects.filter(kind=prepared.night_kind("es"))
               .values_list("revision", flat=True))
    assert kept == {latest.revision, latest.revision - 1} and first.revision not in kept


def matches_csv(competition: Competition, sep: str = ",") -> Any:
    return Client().get(f"/api/v1/leagues/{competition.pk}/matches.csv", {"sep": sep})


def csv_text(response: Any) -> str:
    content = (b"".join(response.streaming_content) if response.streaming
               else response.content)
    return content.decode("utf-8-sig")


@pytest.mark.usefixtures("large")
@pytest.mark.parametrize("sep", [",", ";"])
def test_a_large_leagues_matches_csv_is_made_by_the_worker_old_then_new(
    monkeypatch: pytest.MonkeyPatch, sep: str,
) -> None:
    # 39,800 lines took 0.9-2.2 s a request, four at once held the site (issue 28): a large
    # league's is made once per revision by the worker and streamed, as its export.
    competition, user, matches = season()
    first = matches_csv(competition, sep)
    assert first.status_code == 202 and first["Retry-After"] == str(prepared.RETRY_AFTER)
    assert first.json()["preparing"] is True
    call_command("rating_worker", once=True, only="documents")
    made: list[int] = []
    real = documents.matches_csv
    monkeypatch.setattr(documents, "matches_csv",
                        lambda *a, **k: made.append(1) or real(*a, **k))
    ready = matches_csv(competition, sep)
    assert ready.status_code == 200 and ready.streaming and "Retry-After" not in ready
    assert ready["Content-Type"] == "text/csv; charset=utf-8"
    assert 'filename="partidas-' in ready["Content-Disposition"]
    old = csv_text(ready)
    assert old == real(competition, sep=sep).removeprefix("\ufeff")
    assert made == [], "served as stored, not made in the request"
    results.record_result(matches[1], by=user, juegos=[0, 3])
    competition.refresh_from_db()
    stale = matches_csv(competition, sep)
    assert stale.status_code == 200 and stale["Retry-After"] == str(prepared.RETRY_AFTER)
    assert int(stale["X-Muscore-Revision"]) < competition.revision
    assert csv_text(stale) == old and made == []
    call_command("rating_worker", once=True, only="documents")
    new = csv_text(matches_csv(competition, sep))
    assert new == real(competition, sep=sep).removeprefix("\ufeff") != old


def test_a_small_leagues_matches_csv_is_made_once_per_revision(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    competition, user, matches = season()
    made: list[int] = []
    real = documents.matches_csv
    monkeypatch.setattr(documents, "matches_csv",
                        lambda *a, **k: made.append(1) or real(*a, **k))
    first, again = matches_csv(competition), matches_csv(competition)
    assert first.status_code == again.status_code == 200
    assert first.content == again.content and made == [1]
    assert matches_csv(competition, ";").content != first.content and made == [1, 1]
    results.record_result(matches[1], by=user, juegos=[0, 3])
    after = matches_csv(competition)
    assert made == [1, 1, 1] and after.content != first.content


def standings_csv(competition: Competition, sep: str = ",") -> Any:
    return Client().get(f"/api/v1/leagues/{competition.pk}/standings.csv", {"sep": sep})


def test_a_leagues_standings_csv_is_made_once_per_revision(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Issue 28: the CSVs kept like the export, not made again on every request.
    competition, user, matches = season()
    made: list[str] = []
    real = documents.standings_csv
    monkeypatch.setattr(documents, "standings_csv",
                        lambda c, sep=",": made.append(sep) or real(c, sep=sep))
    first, again = standings_csv(competition), standings_csv(competition)
    assert first.status_code == again.status_code == 200
    assert first["Content-Type"] == "text/csv; charset=utf-8"
    assert first["X-Muscore-Revision"] == str(competition.revision)
    assert first.content == again.content and made == [","]
    semicolons = standings_csv(competition, ";")
    assert semicolons.content != first.content and made == [",", ";"]
    results.record_result(matches[1], by=user, juegos=[0, 3])
    competition.refresh_from_db()
    after = standings_csv(competition)
    assert made == [",", ";", ","] and after.content != first.content
    assert after.content.decode("utf-8-sig") == real(competition).removeprefix("\ufeff")
