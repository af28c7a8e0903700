"""A built championship through `backup` and `restore` (issue 28 point 1): venues, their
heats, entries, a group phase and a knockout (ties, games) come back whole and linked,
into an empty database and with --replace, and its pages read as before."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import transaction
from django.test import Client
from django.utils import translation
from pytest_django import DjangoDbBlocker

from muscore.championships import services
from muscore.championships.models import Championship, Enrolment, Phase, PhaseGroup, Sede
from muscore.tables import backups
from tests.championships.factory import play_all, play_heats, small_championship
from tests.clubs.factory import make_club, make_user
from tests.tables.test_backup_season import crawl, first_difference, wipe

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def built() -> Championship:
    """Heats played, a group phase drawn and played, a knockout from it, half played."""
    championship, boss, barmen = small_championship(seats=8, bars=[
        ("Bar Txoko", 5), ("Herriko Taberna", 4), ("Gure Etxea", 4)])
    services.close_entries(championship, by=boss)
    play_heats(championship, barmen)
    groups = services.draw_phase(services.add_phase(
        championship, by=boss, name="Semifinal"), by=boss, seed="s")
    for group in groups.groups.all():
        play_all(group.competition, boss)
    final = services.add_phase(championship, by=boss, name="Final", level=2, knockout=True,
                               best_of=3, third_place=True)
    final = services.draw_phase(final, by=boss, seed="k")
    first_game = final.groups.order_by("id").first()
    assert first_game is not None
    play_all(first_game.competition, boss)
    return championship


def counts() -> Counter[str]:
    return Counter({model._meta.label_lower: model._default_manager.count()
                    for model in backups.backed_up_models()})


def links() -> list[tuple]:
    """Who points at whom: a venue at its club and heat, an entry at its venue and pairs, a
    group at its phase and competition."""
    return (list(Sede.objects.order_by("id").values_list("id", "club_id", "heat_id",
                                                          "region_id", "heat__final_order"))
            + list(Enrolment.objects.order_by("id").values_list(
                "id", "sede_id", "heat_pair_id", "phase_pair_id", "status", "key_a"))
            + list(PhaseGroup.objects.order_by("id").values_list("id", "phase_id",
                                                                "competition_id"))
            + list(Phase.objects.order_by("id").values_list("id", "draw", "knockout")))


def pages(championship: Championship) -> dict[str, tuple[int, bytes]]:
    boss = get_user_model().objects.get(username="federacion")
    client = Client()
    client.force_login(boss)
    start = [f"/campeonatos/{championship.pk}/", f"/api/v1/championships/{championship.pk}",
             f"/api/v1/championships/{championship.pk}/entries.csv"]
    start += [f"/campeonatos/{championship.pk}/fases/{phase.pk}/"
              for phase in championship.phases.all()]
    return crawl(client, start)


@pytest.fixture(scope="module")
def built_and_read(django_db_setup: None, django_db_blocker: DjangoDbBlocker
                   ) -> Iterator[tuple[int, dict[str, tuple[int, bytes]]]]:
    """The championship built() and its pages read, once for the module's tests, each of
    which runs in a savepoint inside this transaction, rolled back after it (as Django's
    TestCase.setUpTestData): a test starts from the rows the pages were read from."""
    with django_db_blocker.unblock(), translation.override(settings.LANGUAGE_CODE), \
            transaction.atomic():
        championship = built()
        yield championship.pk, pages(championship)
        transaction.set_rollback(True)


def test_a_championship_restored_into_an_empty_database_reads_as_before(
        built_and_read, tmp_path, capsys):
    pk, before = built_and_read
    championship = Championship.objects.get(pk=pk)
    assert PhaseGroup.objects.filter(phase__knockout=True).exists()
    saved, linked = counts(), links()
    assert len(before) > 20
    backup = tmp_path / "championship.json"
    call_command("backup", str(backup))
    assert "1 championships (3 venues, 13 entries)" in capsys.readouterr().out

    wipe()
    assert not Championship.objects.exists()
    call_command("restore", str(backup))
    assert "1 championships (3 venues, 13 entries)" in capsys.readouterr().out
    assert counts() == saved
    assert links() == linked
    after = pages(Championship.objects.get(pk=championship.pk))
    assert sorted(after) == sorted(before)
    changed = [url for url in before if after[url] != before[url]]
    assert not changed, {url: first_difference(before[url][1], after[url][1])
                         for url in changed}


def test_replace_over_a_built_championship_gives_it_back(built_and_read, tmp_path):
    championship = Championship.objects.get(pk=built_and_read[0])
    saved, linked = counts(), links()
    backup = tmp_path / "championship.json"
    call_command("backup", str(backup))
    # After the backup: another championship, another venue's entry.
    boss = make_user("otra")
    other = services.create_championship(make_club("Otra", organiser=boss), by=boss,
                                         name="Otra", rules={"juegos": 1})
    sede = services.add_sede(other, by=boss, name="Otro bar",
                             club=make_club("Otro bar", organiser=boss))
    services.enter_pair(sede, name="Nueva", players=["Nuevo a", "Nuevo b"], contact="")
    assert counts() != saved

    call_command("restore", str(backup), replace=True)
    # Accounts are never deleted by a restore: the one made after the backup stays.
    assert counts() == saved + Counter({"auth.user": 1})
    assert not get_user_model().objects.get(username="otra").club_memberships.exists()
    assert links() == linked
    assert not Championship.objects.filter(pk=other.pk).exists()
    restored = Championship.objects.get(pk=championship.pk)
    # A revision above the old one: every page's stamp is stale.
    assert restored.revision > championship.revision
    assert pages(restored)[f"/campeonatos/{championship.pk}/"][0] == 200
    # Every competition is queued for the worker's documents.
    backlog = apps.get_model("leagues", "DocumentBacklog")
    assert backlog.objects.count() == apps.get_model("leagues", "Competition").objects.count()
