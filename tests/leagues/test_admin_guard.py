"""The Django admin is no door to a result (issue 17: one owner for a league result): what
`results.write` writes, and what is computed from it, is shown there and never changed;
of a competition, only its name, archive and TV flags change, and its kept pages follow."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from muscore.leagues import results
from muscore.leagues.models import Competition, Correction, DocumentBacklog, Match
from tests.leagues.factory import liguilla

pytestmark = pytest.mark.django_db


def superuser() -> Client:
    boss = get_user_model().objects.create_superuser("jefa", password="x-mus-2026-y")
    client = Client()
    client.force_login(boss)
    return client


def test_a_match_s_result_cannot_be_changed_added_or_deleted_in_the_admin() -> None:
    competition, user = liguilla(4)
    match = Match.objects.filter(competition=competition).order_by("number").first()
    assert match is not None
    results.record_result(match, by=user, juegos=[3, 1])
    match.refresh_from_db()
    competition.refresh_from_db()
    before = (match.outcome, competition.revision)
    corrections = Correction.objects.count()
    client = superuser()
    change = reverse("admin:leagues_match_change", args=[match.pk])
    page = client.get(change)
    assert page.status_code == 200  # shown: a superuser reads it
    assert b'name="result"' not in page.content  # as text, not as a field
    data = {"competition": competition.pk, "round": match.round_id, "number": match.number,
            "first": match.first_id, "second": match.second_id, "result": ""}
    assert client.post(change, data).status_code == 403
    assert client.post(reverse("admin:leagues_match_delete", args=[match.pk]),
                       {"post": "yes"}).status_code == 403
    assert client.get(reverse("admin:leagues_match_add")).status_code == 403
    for model in ("correction", "ratingpoint", "playerrating", "resultclaim", "resultrow",
                  "entry"):
        assert client.get(reverse(f"admin:leagues_{model}_add")).status_code == 403, model
    match.refresh_from_db()
    competition.refresh_from_db()
    assert (match.outcome, competition.revision) == before
    assert Correction.objects.count() == corrections


def test_a_competition_renamed_in_the_admin_is_bumped_and_nothing_else_changes() -> None:
    competition, _user = liguilla(4)
    competition.refresh_from_db()
    revision, status, rules = competition.revision, competition.status, competition.rules
    DocumentBacklog.objects.all().delete()
    client = superuser()
    change = reverse("admin:leagues_competition_change", args=[competition.pk])
    form = client.get(change).content.decode()
    assert 'name="name"' in form and 'name="status"' not in form
    answer = client.post(change, {
        "name": "Liga de primavera", "archived": "", "on_tv": "on", "status": "finished",
        "rated": "", "entries-TOTAL_FORMS": "0", "entries-INITIAL_FORMS": "0"})
    assert answer.status_code == 302, answer.content.decode()[:2000]
    competition.refresh_from_db()
    assert competition.name == "Liga de primavera" and competition.on_tv
    assert (competition.status, competition.rules, competition.rated) == (status, rules, True)
    assert competition.revision == revision + 1  # its kept pages and export made again
    assert DocumentBacklog.objects.filter(competition=competition).exists()
    assert client.post(reverse("admin:leagues_competition_delete", args=[competition.pk]),
                       {"post": "yes"}).status_code == 403
    assert Competition.objects.filter(pk=competition.pk).exists()
