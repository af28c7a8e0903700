"""Build a large championship for the benchmarks (issue 18).

    python manage.py build_large_championship [--pairs 2539] [--venues 250] [--seats 448]

2,539 pairs entered in 250 venues of 2 to 40 pairs in the 7 regions of the 2025 Euskal
Herriko Mus Txapelketa; the entries closed (the quotas, timed); every venue's heat a
liguilla of its club, its results written in bulk (the first entered pair wins, 3-1, so a
heat's order is its order of entry: what is measured is the championship, not the game);
then the 7 province phases drawn (groups of 4, timed). Prints the timings and the
championship's id.
"""

from __future__ import annotations

import random
import time
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from django.utils import timezone

from muscore.championships import services, stages
from muscore.championships.entry_text import fold
from muscore.championships.models import Enrolment, Sede
from muscore.clubs.models import Club, Membership, Pair, PairMember, Player
from muscore.clubs.permissions import Actor
from muscore.clubs.services import create_club, unique_slug
from muscore.leagues import competitions, documents, results
from muscore.leagues.compute.document import Result
from muscore.leagues.models import Competition, Match
from muscore.leagues.results import final, standings

REGIONS = ["Nafarroa Garaia", "Gipuzkoa", "Behe Nafarroa", "Araba", "Lapurdi", "Bizkaia",
           "Zuberoa"]
WEIGHTS = [970, 745, 286, 206, 144, 120, 68]


def venue_sizes(pairs: int, venues: int, rng: random.Random) -> list[int]:
    """``venues`` sizes from 2 to 40 adding up to ``pairs`` (a few big towns, many small)."""
    sizes = [2] * venues
    weights = [rng.paretovariate(1.2) for _ in range(venues)]
    left = pairs - 2 * venues
    while left > 0:
        i = rng.choices(range(venues), weights)[0]
        if sizes[i] < 40:
            sizes[i] += 1
            left -= 1
    return sizes


class Command(BaseCommand):
    help = "Build a championship of 2,539 pairs in 250 venues (the benchmarks')."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--pairs", type=int, default=2539,
                            help="pairs entered in the championship (default 2539)")
        parser.add_argument("--venues", type=int, default=250,
                            help="venues (clubs) whose heats the pairs play (default 250)")
        parser.add_argument("--seats", type=int, default=448,
                            help="seats the first phase takes from the heats (default 448)")
        parser.add_argument("--seed", type=int, default=2025,
                            help="random seed: the same seed, the same championship (default 2025)")

    def handle(self, *args: Any, **options: Any) -> None:
        rng = random.Random(options["seed"])
        user, _ = get_user_model().objects.get_or_create(username="federacion-bench")
        started = time.perf_counter()
        with transaction.atomic():
            championship = services.create_championship(
                create_club("Federación de Mus (bench)", organiser=user), by=user,
                name="Euskal Herriko Mus Txapelketa (bench)", seats=options["seats"])
            regions = [services.add_region(championship, by=user, name=n) for n in REGIONS]
            sizes = venue_sizes(options["pairs"], options["venues"], rng)
            clubs = Club.objects.bulk_create(
                Club(name=f"Bar {i + 1}", slug=unique_slug(f"bench-bar-{i + 1}"))
                for i in range(len(sizes)))
            Membership.objects.bulk_create(Membership(club=c, user=user) for c in clubs)
            sedes = Sede.objects.bulk_create(
                Sede(championship=championship, club=club, name=club.name,
                     region=rng.choices(regions, WEIGHTS)[0]) for club in clubs)
            enrolments = []
            number = 0
            for sede, size in zip(sedes, sizes, strict=True):
                for _i in range(size):
                    number += 1
                    a, b = f"Jokalari {number}a", f"Jokalari {number}b"
                    enrolments.append(Enrolment(
                        championship=championship, sede=sede, name=f"Bikotea {number}",
                        player_a=a, player_b=b, key_a=fold(a), key_b=fold(b),
                        paid=True))
            Enrolment.objects.bulk_create(enrolments, batch_size=1000)
        self.stdout.write(f"entries: {len(enrolments)} pairs in {len(sedes)} venues "
                          f"({time.perf_counter() - started:.1f} s)")
        tick = time.perf_counter()
        services.close_entries(championship, by=user)
        self.stdout.write(f"close the entries (the quotas): {time.perf_counter() - tick:.3f} s")
        tick = time.perf_counter()
        self._play_heats(championship, user)
        self.stdout.write(f"heats played: {time.perf_counter() - tick:.1f} s")
        for region in regions:
            phase = services.add_phase(championship, by=user, name=f"Final de {region.name}",
                                       region=region, advance=2)
            tick = time.perf_counter()
            try:
                services.draw_phase(phase, by=user, seed=f"bench {region.name}")
            except services.ChampionshipError as error:  # a small build: a region too small
                self.stdout.write(f"{phase.name}: {error}")
                continue
            groups = phase.groups.count()
            self.stdout.write(f"draw {phase.name}: {groups} groups, "
                              f"{time.perf_counter() - tick:.3f} s")
        services.add_phase(championship, by=user, name="Final", level=2, advance=2)
        self.stdout.write(f"championship {championship.pk}")

    def _play_heats(self, championship: Any, user: Actor) -> None:
        now = timezone.now()
        for sede in championship.sedes.select_related("club"):
            with transaction.atomic():
                entries = list(sede.enrolments.order_by("id"))
                pairs = Pair.objects.bulk_create(
                    Pair(club=sede.club, name=e.name, placed_by=championship.name)
                    for e in entries)
                players = Player.objects.bulk_create(
                    Player(club=sede.club, name=n) for e in entries for n in e.players)
                PairMember.objects.bulk_create(
                    PairMember(pair=p, player=players[2 * i + seat], position=seat)
                    for i, p in enumerate(pairs) for seat in (0, 1))
                for e, p in zip(entries, pairs, strict=True):
                    e.heat_pair = p
                Enrolment.objects.bulk_update(entries, ["heat_pair"])
                heat = competitions.create_competition(
                    sede.club, by=user, name=f"{championship.name} · {sede.name}",
                    pairs=pairs, rules=championship.rules, draw=list(range(len(pairs))))
                matches = list(Match.objects.filter(competition=heat)
                               .select_related("first", "second"))
                stored = []
                for m in matches:
                    assert m.first is not None and m.second is not None
                    first_wins = m.first.index < m.second.index
                    stored.append((m, Result(juegos=(3, 1) if first_wins else (1, 3))))
                results.set_results(stored, now)
                Match.objects.bulk_update(matches, ["result", "result_at"], batch_size=500)
                standings.recount_lines(heat)
                documents.refresh_docs(heat)
                Competition.objects.filter(pk=heat.pk).update(
                    status=Competition.Status.FINISHED, revision=heat.revision + 1)
                sede.heat = heat
                sede.save(update_fields=["heat"])
                stages.of_heat(sede, heat)  # as start_heat writes it
                heat.refresh_from_db(fields=["status", "revision"])
                final.keep(heat)  # as a result's write keeps it
