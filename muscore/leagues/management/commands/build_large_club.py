"""Build a large club for the league benchmarks.

    python manage.py build_large_club [--pairs 200] [--legs 2] [--hands-share 0.1]

A club of 200 pairs in a double liguilla: 39,800 matches, every one with its result;
a tenth of them played on muscore tables with their hands (about 100,000 hands), the
rest entered by hand, a few no-shows. Everything is written with bulk_create, so it
takes about a minute on SQLite. Prints the competition's id.
"""

from __future__ import annotations

import random
import time
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from django.utils import timezone

from muscore.clubs.models import Club, Membership, Pair, PairMember, Player
from muscore.clubs.services import unique_slug
from muscore.leagues import competitions, documents, results
from muscore.leagues.compute.document import replay_result
from muscore.leagues.models import Competition, Match
from muscore.rules import Rules, replay
from muscore.tables.models import Hand, Table

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
        parser.add_argument("--pairs", type=int, default=200)
        parser.add_argument("--legs", type=int, default=2, choices=[1, 2])
        parser.add_argument("--hands-share", type=float, default=0.1,
                            help="share of the matches played on tables with their hands")
        parser.add_argument("--templates", type=int, default=60,
                            help="distinct vacas dealt and reused across the tables")
        parser.add_argument("--seed", type=int, default=7)

    def handle(self, *args: Any, pairs: int, legs: int, hands_share: float, templates: int,
               seed: int, **options: Any) -> None:
        started = time.perf_counter()
        rng = random.Random(seed)
        with transaction.atomic():
            competition = self.build(rng, pairs, legs, hands_share, templates)
        self.stdout.write(
            f"competition {competition.pk}: {competition.matches.count()} matches, "
            f"{Hand.objects.filter(table__league_match__competition=competition).count()} hands"
            f", in {time.perf_counter() - started:.1f} s"
        )
        # The players' ratings, as the results would have kept them (muscore.leagues).
        call_command("rate_players", club=competition.club.slug, stdout=self.stdout)
        # What the hands say, as the tables' results would have stored it.
        call_command("count_hand_stats", club=competition.club.slug, stdout=self.stdout)

    def build(self, rng: random.Random, count: int, legs: int, share: float,
              templates: int) -> Competition:
        users = get_user_model()
        user, _ = users.objects.get_or_create(username="bench-organiser")
        name = f"Club de pruebas {timezone.now():%H%M%S}"
        club = Club.objects.create(name=name, slug=unique_slug(name))
        Membership.objects.create(club=club, user=user)
        players = Player.objects.bulk_create(
            Player(club=club, name=f"Jugador {i + 1}") for i in range(2 * count))
        club_pairs = Pair.objects.bulk_create(
            Pair(club=club, name=f"Pareja {i + 1}") for i in range(count))
        PairMember.objects.bulk_create(
            PairMember(pair=pair, player=players[2 * i + k], position=k)
            for i, pair in enumerate(club_pairs) for k in range(2))
        draw = list(range(count))
        rng.shuffle(draw)
        competition = competitions.create_competition(
            club, by=user, name="Liga grande", pairs=club_pairs, legs=legs, draw=draw,
            draw_method="random")
        vacas = [random_vaca(rng) for _ in range(templates)]
        names = {pair.pk: [players[2 * i].name, players[2 * i + 1].name]
                 for i, pair in enumerate(club_pairs)}
        entries = {e.pk: e.pair_id for e in competition.entries.all()}
        matches = list(Match.objects.filter(competition=competition).order_by("number"))
        now = timezone.now()
        played_on_table = [m for m in matches if rng.random() < share]
        tables: list[Table] = []
        for m in played_on_table:
            first = names[entries[m.first_id]]  # type: ignore[index]
            second = names[entries[m.second_id]]  # type: ignore[index]
            tables.append(Table(players=[first[0], second[0], first[1], second[1]],
                                rules=RULES.to_json() | {"players": 4}, first_mano=0))
        Table.objects.bulk_create(tables, batch_size=500)
        hands: list[Hand] = []
        on_table = set()
        for m, table in zip(played_on_table, tables, strict=True):
            vaca = rng.choice(vacas)
            result = replay_result(vaca["replayed"], RULES)
            hands.extend(Hand(table=table, number=n, record=record)
                         for n, record in enumerate(vaca["hands"], 1))
            m.table = table
            results.store_figures(m, result, Match.Source.TABLE, now)
            on_table.add(m.pk)
            if len(hands) > 20000:
                Hand.objects.bulk_create(hands, batch_size=2000)
                hands = []
        Hand.objects.bulk_create(hands, batch_size=2000)
        from muscore.leagues.compute.document import Result

        for m in matches:
            if m.pk in on_table:
                continue
            roll = rng.random()
            if roll < 0.02:
                no_show = (True, False) if roll < 0.01 else (False, True)
                if roll < 0.002:
                    no_show = (True, True)
                result = competitions.forfeit_figures(no_show, RULES)
                results.store_figures(m, result, Match.Source.NO_SHOW, now)
                continue
            loser = rng.randint(0, 2)
            tantos_loser = 40 * loser + rng.randint(0, 39) * (3 - loser)
            if rng.random() < 0.5:
                result = Result((3, loser), (120 + rng.randint(0, 39) * loser, tantos_loser))
            else:
                result = Result((loser, 3), (tantos_loser, 120 + rng.randint(0, 39) * loser))
            results.store_figures(m, result, Match.Source.MANUAL, now)
        Match.objects.bulk_update(
            matches, ["table", "source", "juegos_first", "juegos_second", "tantos_first",
                      "tantos_second", "no_show_first", "no_show_second", "winner", "result_at"],
            batch_size=1000)
        results.recount_lines(competition)
        documents.refresh_docs(competition)  # bulk_update skipped save(), which writes them
        Competition.objects.filter(pk=competition.pk).update(
            status=Competition.Status.FINISHED, revision=competition.revision + 1)
        competition.refresh_from_db()
        return competition
