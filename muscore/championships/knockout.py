"""The last phase as a knockout: a seeded bracket, each tie one vaca or the best of 3, an
optional match for third place, and the champion from the final.

What is the championship's own is here: the seeded places and their draw. The phase is
one knockout competition of the championship's club (its ties and their games, matches:
muscore.leagues.models.knockout), so every result goes through the league's owner of
results (tables, paper, links, no-shows), which writes a tie's next game and the next
round's ties in the result's own write (muscore.leagues.results.bracket); the pages only
read the bracket (:func:`bracket`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from muscore.championships.models import Enrolment, Phase, PhaseGroup
from muscore.championships.pairs import acting, phase_pair
from muscore.clubs.permissions import Actor
from muscore.leagues import changes, competitions
from muscore.leagues.models import Competition, Match
from muscore.leagues.results import bracket as league_bracket
from muscore.messages import WordedError


class KnockoutError(WordedError):
    """A knockout the phase cannot draw; str() says why."""

    family = "knockout"


def bracket_order(size: int) -> list[int]:
    """The seed ranks (from 0) in bracket order for ``size`` places (a power of 2): seed 1
    and 2 can meet only in the final, 1 to 4 only from the semifinals, and so on."""
    order = [0]
    while len(order) < size:
        n = len(order) * 2
        order = [x for seed in order for x in (seed, n - 1 - seed)]
    return order


def place_pairs(keys: list[int], seeded: int, seed: str) -> list[int | None]:
    """The bracket's places (None a bye): the first ``seeded`` keys keep their rank, the
    others are drawn at random (``random.Random("muscore-knockout:" + seed)``, so the same
    pairs and seed give the same bracket); the byes go to the best seeds."""
    if len(keys) < 2:
        raise KnockoutError(_("Una eliminatoria necesita al menos dos parejas."))
    rest = keys[seeded:]
    random.Random("muscore-knockout:" + seed).shuffle(rest)
    ranked = keys[:seeded] + rest
    size = 1
    while size < len(ranked):
        size *= 2
    return [ranked[rank] if rank < len(ranked) else None for rank in bracket_order(size)]


@dataclass
class Tie:
    """One tie as the pages read it: its two pairs (enrolment ids; None not known yet, or
    a bye), the games' wins of each, its games (matches) in order, its winner once decided."""

    round: int
    order: int
    first: int | None
    second: int | None
    bye: bool = False
    wins: list[int] = field(default_factory=lambda: [0, 0])
    games: list[Match] = field(default_factory=list)
    winner: int | None = None

    @property
    def loser(self) -> int | None:
        if self.winner is None or self.bye:
            return None
        return self.second if self.winner == self.first else self.first


@dataclass
class Bracket:
    """The knockout as it stands: its rounds of ties, the third-place tie, the champion."""

    rounds: list[list[Tie]]
    third: Tie | None
    champion: int | None
    enrolments: dict[int, Enrolment]


def bracket(phase: Phase) -> Bracket | None:
    """The phase's bracket as it stands, read in a fixed number of queries (None before
    the draw or for a phase of groups)."""
    group = phase.groups.select_related("competition__club").first() if phase.knockout else None
    if group is None:
        return None
    competition = group.competition
    rows = list(competition.ties.all())
    entries = dict(competition.entries.values_list("pk", "pair_id"))
    enrolments = {e.pk: e for e in Enrolment.objects.filter(
        championship_id=phase.championship_id, phase_pair_id__in=entries.values())}
    of_pair = {e.phase_pair_id: e.pk for e in enrolments.values()}
    enrolment = {pk: of_pair.get(pair) for pk, pair in entries.items()}
    games: dict[int, list[Match]] = {}
    for match in (Match.objects.filter(competition=competition, tie__isnull=False)
                  .with_outcome().select_related("competition__club").order_by("game")):
        games.setdefault(match.tie_id or 0, []).append(match)
    total = max((t.round for t in rows), default=1)
    rounds: list[list[Tie]] = [[] for _n in range(total)]
    third = None
    for row in rows:
        played = games.get(row.pk, [])
        tie = Tie(row.round, row.order, enrolment.get(row.first_id or 0),
                  enrolment.get(row.second_id or 0), bye=row.best_of == 0, games=played)
        won = league_bracket.winner(row, played)
        tie.winner = enrolment.get(won) if won is not None else None
        for match in played:
            result = match.outcome
            if result is not None and result.winner is not None:
                side = match.first_id if result.winner == 0 else match.second_id
                tie.wins[0 if side == row.first_id else 1] += 1
        if row.round == total and row.order == 1:
            third = tie
        else:
            rounds[row.round - 1].append(tie)
    for ties in rounds:
        ties.sort(key=lambda t: t.order)
    return Bracket(rounds, third, rounds[-1][0].winner, enrolments)


def draw(phase: Phase, pairs: list[tuple[Enrolment, int | None]], seed: str, by: Actor) -> None:
    """Draw the bracket (seeded pairs by rank, the rest at random with the seed), record
    it on the phase and make its knockout competition: its ties and first games."""
    seeded = sum(1 for _e, rank in pairs if rank is not None)
    places = place_pairs([e.pk for e, _r in pairs], seeded, seed)
    phase.draw = {"seed": seed, "pairs": [{"enrolment": e.pk, "sede": e.sede_id, "seed": rank}
                                          for e, rank in pairs],
                  "bracket": places}
    phase.save(update_fields=["draw"])
    club = phase.championship.club
    index = {e.pk: i for i, (e, _r) in enumerate(pairs)}
    try:
        competition = competitions.create_competition(
            club, by=acting(by, club), name=phase.name, pairs=[phase_pair(e) for e, _r in pairs],
            rules=phase.championship.rules, format=Competition.Format.KNOCKOUT)
        PhaseGroup.objects.create(phase=phase, order=0, competition=competition)
        league_bracket.draw(competition, [index[p] if p is not None else None for p in places],
                            best_of=phase.best_of, third=phase.third_place)
    except changes.CompetitionError as error:  # the whole draw is rolled back
        raise KnockoutError(str(error)) from None


def finished(phase: Phase) -> bool:
    """The knockout is over: its final (and the third place, if played) decided."""
    state = bracket(phase)
    return state is not None and state.champion is not None and (
        state.third is None or state.third.winner is not None)
