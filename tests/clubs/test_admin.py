"""The Django admin covers every model of the clubs and the leagues, and its pages open."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.clubs.factory import make_club, make_pair

ADMINISTERED_APPS = ("clubs", "leagues")


def league_models() -> list[type]:
    return [
        model
        for config in apps.get_app_configs()
        if config.label in ADMINISTERED_APPS
        for model in config.get_models()
    ]


def test_every_club_and_league_model_is_in_the_admin() -> None:
    models = league_models()
    assert models, "no club models found"
    missing = [m.__name__ for m in models if m not in admin.site._registry]
    assert not missing, f"not in the admin: {missing}"


@pytest.mark.django_db
def test_the_admin_lists_and_opens_each_model() -> None:
    club = make_club()
    make_pair(club, "Ana", "Bea")
    boss = get_user_model().objects.create_superuser("jefa", password="x-mus-2026-y")
    client = Client()
    client.force_login(boss)
    for model in league_models():
        meta = model._meta
        listing = client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist"))
        assert listing.status_code == 200, meta.label
        first = model._default_manager.first()
        if first is not None:
            url = reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[first.pk])
            assert client.get(url).status_code == 200, meta.label


@pytest.mark.django_db
def test_players_pairs_and_the_club_s_audit_are_shown_never_changed_in_the_admin() -> None:
    """Their names go through muscore.text and a played pair keeps its players (the clubs'
    services); the audit is a trace. The admin still changes who organises a club."""
    club = make_club()
    pair = make_pair(club, "Ana", "Bea")
    boss = get_user_model().objects.create_superuser("jefa", password="x-mus-2026-y")
    client = Client()
    client.force_login(boss)
    change = reverse("admin:clubs_pair_change", args=[pair.pk])
    assert client.get(change).status_code == 200
    assert client.post(change, {"club": club.pk, "name": "\u202eAna y Bea"}).status_code == 403
    for model in ("pair", "pairmember", "player", "clubchange"):
        assert client.get(reverse(f"admin:clubs_{model}_add")).status_code == 403, model
    pair.refresh_from_db()
    assert pair.name == "Ana y Bea"
    assert client.get(reverse("admin:clubs_membership_add")).status_code == 200


@pytest.mark.django_db
def test_a_large_imports_document_is_listed_by_its_length_never_shown() -> None:
    """Megabytes of JSON: the admin names the import and the length only."""
    from muscore.leagues.models import LeagueImport, LeagueImportDocument

    club = make_club()
    job = LeagueImport.objects.create(club=club, name="Liga", fingerprint="f", total=1)
    LeagueImportDocument.objects.create(league_import=job, text='{"name": "Liga"}' * 20)
    boss = get_user_model().objects.create_superuser("jefa", password="x-mus-2026-y")
    client = Client()
    client.force_login(boss)
    for url in (reverse("admin:leagues_leagueimportdocument_changelist"),
                reverse("admin:leagues_leagueimportdocument_change", args=[job.pk])):
        page = client.get(url)
        assert page.status_code == 200 and ">320<" in page.text.replace(" ", "")
        assert "&quot;name&quot;" not in page.text and '"name": "Liga"' not in page.text
