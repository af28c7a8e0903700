"""GET /api/v1/leagues/<id>: the contract's form with its standings, public, read-only,
ETag and 304; the export (importable again) and the CSV files."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from django.test import Client

from muscore.clubs.services import save_pair
from muscore.leagues import competitions, documents, imports, read_league, results, standings_json
from muscore.leagues.models import Competition, Correction, Match
from muscore.tables import services as tables
from tests.clubs.factory import logged_in, make_club, make_user

from .factory import liguilla
from .helpers import ORDAGO_A, PLAIN

pytestmark = pytest.mark.django_db


def played(competition: Competition, user: Any) -> Competition:
    matches = list(competition.matches.select_related("first__pair"))
    table = competitions.open_table(matches[0], by=user)
    for record in (PLAIN, ORDAGO_A, ORDAGO_A, ORDAGO_A):
        tables.add_hand(table, record, via="edit_link")
    results.record_result(matches[1], by=user, juegos=[2, 3], tantos=[111, 150])
    results.record_no_show(matches[2], by=user, who="both")
    competitions.substitute(matches[3], by=user, side=1,
                        replaced=matches[3].second.pair.player_names()[0] if matches[3].second
                        else "", substitute="Iñaki")
    results.record_result(matches[3], by=user, juegos=[3, 0])
    competition.refresh_from_db()
    return competition


def test_the_league_document_with_its_standings(client: Client) -> None:
    competition, user = liguilla(4)
    played(competition, user)
    response = client.get(f"/api/v1/leagues/{competition.pk}")
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    body = response.json()
    standings = body.pop("standings")
    # The standings drawn from the stored figures are the contract's on the same document.
    assert standings == standings_json(read_league(body))["standings"]
    assert body["matches"][0]["juegos"] == [3, 0] and body["matches"][0]["tantos"] == [120, 8]
    assert body["matches"][2]["forfeit"] == "both"
    assert body["matches"][3]["players"][1][0] == "Iñaki"
    assert body["rules"]["juegos"] == 3 and body["points"] == {"win": 2, "loss": 0,
                                                               "forfeit": 0}


def test_etag_and_304(client: Client) -> None:
    competition, user = liguilla(4)
    url = f"/api/v1/leagues/{competition.pk}"
    first = client.get(url)
    etag = first["ETag"]
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again["ETag"] == etag and not again.content
    match = competition.matches.first()
    assert match is not None
    results.record_result(match, by=user, juegos=[3, 1])
    changed = client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert changed.json()["matches"][0]["juegos"] == [3, 1]
    # A pair renamed on the club's page changes the document too.
    pair = competition.entries.get(index=0).pair
    etag = changed["ETag"]
    save_pair(competition.club, "Las de siempre", pair.player_names(), pair)
    renamed = client.get(url, headers={"If-None-Match": etag})
    assert renamed.status_code == 200 and renamed.json()["pairs"][0]["name"] == "Las de siempre"


def test_constant_queries(client: Client, django_assert_max_num_queries: Any) -> None:
    for count in (4, 12):
        competition, user = liguilla(count, legs=2, organiser=make_user(f"org{count}"))
        for match in competition.matches.all()[: count * 2]:
            results.record_result(match, by=user, juegos=[3, 2])
        with django_assert_max_num_queries(12):
            assert client.get(f"/api/v1/leagues/{competition.pk}").status_code == 200


def test_not_found_and_read_only(client: Client) -> None:
    competition, user = liguilla(2)
    assert client.get("/api/v1/leagues/999999").status_code == 404
    refused = client.get(f"/api/v1/leagues/{2**40}").json()
    assert (refused["error"], refused["code"]) == ("there is no such league", "league_not_found")
    assert client.get("/api/v1/leagues/abc").status_code == 404
    before = (list(Match.objects.values()), list(Competition.objects.values()),
              Correction.objects.count())
    for who in (client, logged_in(user)):
        for suffix in ("", "/export", "/standings.csv", "/matches.csv"):
            url = f"/api/v1/leagues/{competition.pk}{suffix}"
            for method in ("post", "put", "patch", "delete"):
                response = getattr(who, method)(url, json.dumps({"juegos": [3, 0]}),
                                                content_type="application/json")
                assert response.status_code == 405, (method, url)
                assert "error" in response.json()
    after = (list(Match.objects.values()), list(Competition.objects.values()),
             Correction.objects.count())
    assert after == before


def test_export_imports_again_and_csv(client: Client) -> None:
    competition, user = liguilla(4, legs=2)
    played(competition, user)
    response = client.get(f"/api/v1/leagues/{competition.pk}/export")
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    exported = json.loads(response.content)
    assert exported["matches"][0]["vaca"]["hands"] == [PLAIN, ORDAGO_A, ORDAGO_A, ORDAGO_A]
    copy = imports.import_competition(make_club("Otro club", organiser=user), exported, by=user)
    again = client.get(f"/api/v1/leagues/{copy.pk}/export")
    assert json.loads(again.content) == exported
    standings = client.get(f"/api/v1/leagues/{competition.pk}/standings.csv")
    assert standings["Content-Type"].startswith("text/csv")
    lines = list(csv.DictReader(io.StringIO(standings.content.decode("utf-8-sig"))))
    api = client.get(f"/api/v1/leagues/{competition.pk}").json()["standings"]
    assert [(int(r["position"]), r["name"], int(r["points"])) for r in lines] == [
        (r["position"], r["name"], r["points"]) for r in api]
    matches = list(csv.DictReader(io.StringIO(
        client.get(f"/api/v1/leagues/{competition.pk}/matches.csv").content.decode("utf-8-sig"))))
    assert len(matches) == 12
    assert [m["result"] for m in matches[:4]] == ["table", "manual", "no_show", "manual"]
    assert matches[0]["table"] and matches[2]["no_show"] == "both"
    assert matches[3]["players_second"].startswith("Iñaki")


def test_the_body_written_as_text_is_the_document(client: Client) -> None:
    competition, user = liguilla(4, legs=2)
    played(competition, user)
    body = json.loads(documents.api_body(competition))
    assert body == documents.api_document(competition)
    assert list(body) == list(documents.api_document(competition))
    assert client.get(f"/api/v1/leagues/{competition.pk}").json() == body


def stored_texts_are_fresh(competition: Competition) -> None:
    """Every match's kept document text (Match.doc) is what its row gives now."""
    kept = dict(competition.matches.values_list("pk", "doc"))
    assert None not in kept.values()
    documents.refresh_docs(competition)
    assert dict(competition.matches.values_list("pk", "doc")) == kept


def test_the_kept_match_texts_follow_every_write(client: Client) -> None:
    competition, user = liguilla(4, legs=2)
    played(competition, user)
    matches = list(competition.matches.all())
    results.clear_result(matches[1], by=user, reason="un error")
    competitions.set_players(matches[3], by=user, side=1, players=None)
    stored_texts_are_fresh(competition)
    exported = documents.league_document(competition, hands=True)
    copy = imports.import_competition(make_club("Otro club", organiser=user), exported, by=user)
    stored_texts_are_fresh(copy)
    assert json.loads(documents.api_body(copy))["matches"] == \
        documents.league_document(competition)["matches"]


def test_the_kept_texts_of_a_knockout(client: Client) -> None:
    from .factory import club_with_pairs

    club, user, pairs = club_with_pairs(8)
    competition = competitions.create_competition(
        club, by=user, name="Torneo", pairs=pairs, format="groups", groups=2,
        draw=list(range(8)))
    assert "sf1" not in documents.api_body(competition).decode()
    for match in competition.matches.filter(tie__isnull=True):
        results.record_result(match, by=user, juegos=[3, 1])
    stored_texts_are_fresh(competition)
    body = json.loads(documents.api_body(competition))
    assert body == documents.api_document(competition)
    assert len(body["matches"]) == 12 + 2  # the semifinals are known, the final not yet


def test_a_text_not_kept_yet_is_worked_out_from_its_row(client: Client) -> None:
    competition, user = liguilla(4, legs=2)
    played(competition, user)
    whole = documents.api_body(competition)
    competition.matches.filter(number__in=[1, 2, 4, 9]).update(doc=None)
    assert documents.api_body(competition) == whole
    assert documents.refresh_docs(competition, missing_only=True) == 4
    assert documents.api_body(competition) == whole
