"""Build a large club for the league benchmarks.

    python manage.py build_large_club [--pairs 200] [--legs 2] [--hands-share 0.1]

A club of 200 pairs in a double liguilla: 39,800 matches, every one with its result;
a tenth of them played on muscore tables with their hands (about 100,000 hands), the
rest entered by hand, a few no-shows. Everything is written with bulk_create (the draw's
matches written again with their results, never row by row), so it takes about a minute
on SQLite or PostgreSQL (`--steps` prints each step's time). Prints the competition's id.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Iterator
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser
from django.db import connection, transaction
from django.utils import timezone

from muscore.clubs.models import Club, Membership, Pair, PairMember, Player
from muscore.clubs.services import unique_slug
from muscore.leagues import competitions, results
from muscore.leagues.compute.document import Result, forfeit_result, replay_result
from muscore.leagues.models import Competition, Match
from muscore.leagues.results import standings
from muscore.rules import Rules, replay
from muscore.tables.models import Hand, Table, VacaCheckpoint
from muscore.tables.services import replay_vacas

# The tables' own rows of stored vacas (what a write stores), not written twice here.
from muscore.tables.services.stored import vaca_rows

DECK = [str(i) for i in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12) for _ in range(4)]
RULES = Rules(juegos=3)


def random_vaca(rng: random.Random) -> dict[str, Any]:
    """A vaca of dealt hands, nobody betting, played until it is won."""
    hands: list[dict[str, Any]] = []
    while True:
        cards = rng.sample(DECK, 16)
        lances: dict[str, Any] = {}
        roll = rng.random()
        # Some betting, as at a real table: an envido seen in grande, now and then an órdago.
        if roll < 0.05:
            lances["grande"] = {"bets": [{"side": rng.choice("AB"), "n": "ordago"}],
                                "end": "quiero"}
        elif roll < 0.7:
            lances["grande"] = {"bets": [{"side": rng.choice("AB"), "n": rng.choice([2, 5, 10])}],
                                "end": "quiero"}
        hands.append({"hands": {str(s): " ".join(cards[4 * s:4 * s + 4]) for s in range(4)},
                      "lances": lances})
        done = replay({"rules": RULES.to_json(), "mano": 0, "hands": hands})
        if done["winner"] is not None:
            return {"mano": 0, "hands": hands, "replayed": done}


class Command(BaseCommand):
    help = "Build a club of 200 pairs in a double liguilla with every result (benchmarks)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--pairs", type=int, default=200,
                            help="pairs of the club, all in one liguilla (default 200)")
        parser.add_argument("--legs", type=int, default=2, choices=[1, 2],
                            help="1: each pair meets each other once; 2: twice (default 2)")
        parser.add_argument("--hands-share", type=float, default=0.1,
                            help="share of the matches played on tables with their hands")
        parser.add_argument("--templates", type=int, default=60,
                            help="distinct vacas dealt and reused across the tables")
        parser.add_argument("--seed", type=int, default=7,
                            help="random seed: the same seed builds the same club (default 7)")
        parser.add_argument("--steps", action="store_true",
                            help="print how long each step of the build took")

    def handle(self, *args: Any, pairs: int, legs: int, hands_share: float, templates: int,
               seed: int, steps: bool, **options: Any) -> None:
        started = time.perf_counter()
        self.show_steps = steps
        rng = random.Random(seed)
        with transaction.atomic():
            competition = self.build(rng, pairs, legs, hands_share, templates)
        if connection.vendor == "postgresql":
            # The whole club arrived in one transaction: until autovacuum gets to it the
            # planner takes its tables for empty and the first requests (the probes) plan
            # nested loops over 40,000 matches and 100,000 hands.
            with self.step("ANALYZE"), connection.cursor() as cursor:
                cursor.execute("ANALYZE")
        self.stdout.write(
            f"competition {competition.pk}: {competition.matches.count()} matches, "
            f"{Hand.objects.filter(table__league_match__competition=competition).count()} hands"
            f", in {time.perf_counter() - started:.1f} s"
        )
        # The players' ratings, as the results would have kept them (muscore.leagues).
        with self.step("rate_players"):
            call_command("rate_players", club=competition.club.slug, stdout=self.stdout)
        # What the hands say, as the tables' results would have stored it.
        with self.step("count_hand_stats"):
            call_command("count_hand_stats", club=competition.club.slug, stdout=self.stdout)

    @contextlib.contextmanager
    def step(self, label: str) -> Iterator[None]:
        started = time.perf_counter()
        yield
        if self.show_steps:
            self.stdout.write(f"  {label}: {time.perf_counter() - started:.1f} s")

    def build(self, rng: random.Random, count: int, legs: int, share: float,
              templates: int) -> Competition:
        with self.step("club, pairs and the draw's matches"):
            competition, names = self.club(rng, count, legs)
        vacas = [random_vaca(rng) for _ in range(templates)]
        # Round and entries loaded: each match's document text is written from them.
        matches = list(Match.objects.filter(competition=competition)
                       .select_related("round", "first", "second").order_by("number"))
        now = timezone.now()
        played_on_table = [m for m in matches if rng.random() < share]
        with self.step(f"{len(played_on_table)} tables and their hands"):
            table_results = self.tables(rng, played_on_table, vacas, names)
        on_table = {m.pk for m in played_on_table}
        stored = table_results + [(m, entered_result(rng)) for m in matches
                                       if m.pk not in on_table]
        results.set_results(stored, now)
        for m in matches:
            m.doc = m.document_text()
        with self.step(f"{len(matches)} matches written with their results"):
            # Written again whole rather than bulk_update: its CASE WHEN per column and
            # per row took minutes for 39,800 matches (most in Django building the
            # expressions, the rest in PostgreSQL matching each row against the batch's
            # 1,000 WHENs). Nothing points at the draw's matches yet; their ids are kept.
            Match.objects.filter(competition=competition).delete()
            Match.objects.bulk_create(matches, batch_size=2000)
        with self.step("standings"):
            standings.recount_lines(competition)
        Competition.objects.filter(pk=competition.pk).update(
            status=Competition.Status.FINISHED, revision=competition.revision + 1)
        competition.refresh_from_db()
        return competition

    def club(self, rng: random.Random, count: int, legs: int
             ) -> tuple[Competition, dict[int, list[str]]]:
        """The club, its players and pairs, and the league drawn: its matches unplayed.
        Returns it and each pair's players' names by the pair's id."""
        users = get_user_model()
        user, _ = users.objects.get_or_create(username="bench-organiser")
        name = f"Club de pruebas {timezone.now():%H%M%S}"
        club = Club.objects.create(name=name, slug=unique_slug(name))
        Membership.objects.create(club=club, user=user)
        players = Player.objects.bulk_create(
            (Player(club=club, name=f"Jugador {i + 1}") for i in range(2 * count)),
            batch_size=1000)
        club_pairs = Pair.objects.bulk_create(
            (Pair(club=club, name=f"Pareja {i + 1}") for i in range(count)), batch_size=1000)
        PairMember.objects.bulk_create(
            (PairMember(pair=pair, player=players[2 * i + k], position=k)
             for i, pair in enumerate(club_pairs) for k in range(2)), batch_size=1000)
        draw = list(range(count))
        rng.shuffle(draw)
        competition = competitions.create_competition(
            club, by=user, name="Liga grande", pairs=club_pairs, legs=legs, draw=draw,
            draw_method="random")
        names = {pair.pk: [players[2 * i].name, players[2 * i + 1].name]
                 for i, pair in enumerate(club_pairs)}
        return competition, names

    def tables(self, rng: random.Random, played: list[Match], vacas: list[dict[str, Any]],
               names: dict[int, list[str]]) -> list[tuple[Match, Result]]:
        """A table for each of `played`, with one of `vacas`' hands; returns each match
        with its result, the vaca's."""
        table_rules = RULES.to_json() | {"players": 4}
        made: list[tuple[Match, Result]] = []
        tables: list[Table] = []
        for m in played:
            assert m.first is not None and m.second is not None
            first, second = names[m.first.pair_id], names[m.second.pair_id]
            # Its vacas stored at its revision, as a table played on muscore has them
            # (each write replays and stores its vaca): no read replays it later.
            tables.append(Table(players=[first[0], second[0], first[1], second[1]],
                                rules=table_rules, first_mano=0, replayed_revision=1))
        Table.objects.bulk_create(tables, batch_size=500)
        # The tables' own replay of each vaca dealt, once per vaca rather than per table.
        stored = [replay_vacas(table_rules, 0, vaca["hands"]) for vaca in vacas]
        hands: list[Hand] = []
        checkpoints: list[VacaCheckpoint] = []
        for m, table in zip(played, tables, strict=True):
            which = rng.choice(range(len(vacas)))
            hands.extend(Hand(table=table, number=n, record=record)
                         for n, record in enumerate(vacas[which]["hands"], 1))
            checkpoints.extend(vaca_rows(table, 0, stored[which]))
            m.table = table
            made.append((m, replay_result(vacas[which]["replayed"], RULES)))
            if len(hands) > 20000:
                Hand.objects.bulk_create(hands, batch_size=2000)
                VacaCheckpoint.objects.bulk_create(checkpoints, batch_size=1000)
                hands, checkpoints = [], []
        Hand.objects.bulk_create(hands, batch_size=2000)
        VacaCheckpoint.objects.bulk_create(checkpoints, batch_size=1000)
        return made


def entered_result(rng: random.Random) -> Result:
    """A result entered by hand (now and then a no-show)."""
    roll = rng.random()
    if roll < 0.02:
        no_show = (True, False) if roll < 0.01 else (False, True)
        if roll < 0.002:
            no_show = (True, True)
        return forfeit_result(no_show, RULES)
    loser = rng.randint(0, 2)
    tantos_loser = 40 * loser + rng.randint(0, 39) * (3 - loser)
    if rng.random() < 0.5:
        return Result((3, loser), (120 + rng.randint(0, 39) * loser, tantos_loser))
    return Result((loser, 3), (tantos_loser, 120 + rng.randint(0, 39) * loser))
