"""The last phase as a knockout: a seeded bracket, each tie one vaca or the best of 3, an
optional match for third place, and the champion from the final.

A tie's games are liguillas of its two pairs (one match each) in the championship's club,
so every result goes through the league's result functions (tables, paper, links,
no-shows) and is only read here. A tie's next game and the next round's ties are made as
soon as the games before them are decided (:func:`sync`, called by the draw and by the
result's own write through ``muscore.leagues.signals.result_changed``; the pages only
read), so no one has to press a button between rounds.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from muscore.championships.models import Enrolment, Phase, PhaseGroup
from muscore.championships.pairs import acting, phase_pair
from muscore.clubs.permissions import Actor
from muscore.leagues import changes, competitions, names
from muscore.leagues.models import Competition, Match
from muscore.leagues.results import consequences
from muscore.messages import WordedError

log = logging.getLogger(__name__)


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


def rounds_of(places: int) -> int:
    """The rounds of a bracket of ``places`` (a power of 2): 8 places, 3 rounds."""
    return max(places.bit_length() - 1, 1)


def round_name(phase_rounds: int, number: int, third: bool = False) -> str:
    """A round's name for people: the final, semifinals, quarterfinals, else its number."""
    return names.round_name(phase_rounds, number, third=third)


def parts(phase: Phase, round: int, order: int, game: int, total: int | None = None
          ) -> dict[str, Any]:
    """What a phase's group (``round`` 0: its ``order``) or a knockout's game is named of
    (muscore.leagues.names), no language words."""
    if not phase.knockout:
        return names.group_parts(phase.name, order + 1)
    if total is None:
        total = rounds_of(len((phase.draw or {}).get("bracket") or [None, None]))
    return names.game_parts(phase.name, round=round, rounds=total, tie=order + 1,
                            game=game if phase.best_of > 1 else None,
                            third=order == 1 and round == total)


def game_title(phase: Phase, group: PhaseGroup) -> str:
    """A phase's group or a knockout's game named in the reader's language from what it is
    (its round, place and game), whoever's request made it."""
    return names.made_name(parts(phase, group.round, group.order, group.game))


@dataclass
class Tie:
    """One tie: its two pairs (enrolment ids; None not known yet, or a bye), the games'
    wins of each, its winner once decided."""

    round: int
    order: int
    first: int | None
    second: int | None
    bye: bool = False
    wins: list[int] = field(default_factory=lambda: [0, 0])
    games: list[PhaseGroup] = field(default_factory=list)
    winner: int | None = None

    @property
    def loser(self) -> int | None:
        if self.winner is None or self.bye:
            return None
        return self.second if self.winner == self.first else self.first


@dataclass
class Bracket:
    """The knockout as it stands: its rounds of ties, the third-place tie, the champion."""

    phase: Phase
    rounds: list[list[Tie]]
    third: Tie | None
    champion: int | None
    enrolments: dict[int, Enrolment]


def _game_results(games: list[PhaseGroup]) -> dict[int, list[int]]:
    """The winning pair of each game's decided matches by competition id, in one query."""
    out: dict[int, list[int]] = {}
    rows = Match.objects.filter(competition_id__in=[g.competition_id for g in games]
                                ).decided().outcomes(
        "competition_id", "first__pair_id", "second__pair_id")
    for competition_id, first, second, result in rows:
        out.setdefault(competition_id, []).append(second if result.winner else first)
    return out


def _decide(
    tie: Tie,
    games: list[PhaseGroup],
    results: dict[int, list[int]],
    pair_to_enrolment: dict[int | None, int],
    needed: int,
) -> None:
    """A tie's games in order, the games each pair won, and its winner once one pair has
    won ``needed`` of them."""
    tie.games = sorted(games, key=lambda g: g.game)
    for game in tie.games:
        for pair_id in results.get(game.competition_id, []):
            winner = pair_to_enrolment.get(pair_id)
            if winner == tie.first:
                tie.wins[0] += 1
            elif winner == tie.second:
                tie.wins[1] += 1
    if tie.wins[0] >= needed:
        tie.winner = tie.first
    elif tie.wins[1] >= needed:
        tie.winner = tie.second


def bracket(phase: Phase) -> Bracket | None:
    """The phase's bracket as it stands, read in a fixed number of queries (None before
    the draw or for a phase of groups)."""
    if not phase.knockout or not phase.draw or "bracket" not in phase.draw:
        return None
    places: list[int | None] = list(phase.draw["bracket"])
    enrolments = {e.pk: e for e in Enrolment.objects.filter(
        pk__in=[p for p in places if p is not None])}
    pair_to_enrolment = {e.phase_pair_id: e.pk for e in enrolments.values()}
    games = list(phase.groups.all())
    results = _game_results(games)
    by_tie: dict[tuple[int, int], list[PhaseGroup]] = {}
    for game in games:
        by_tie.setdefault((game.round, game.order), []).append(game)
    needed = phase.best_of // 2 + 1
    total = rounds_of(len(places))

    def decide(tie: Tie) -> None:
        _decide(tie, by_tie.get((tie.round, tie.order), []), results, pair_to_enrolment, needed)

    rounds: list[list[Tie]] = []
    previous: list[int | None] = places
    known = [True] * len(places)  # a place known: a pair or a bye
    for number in range(1, total + 1):
        ties, winners, decided = [], [], []
        for order in range(len(previous) // 2):
            first, second = previous[2 * order], previous[2 * order + 1]
            both_known = known[2 * order] and known[2 * order + 1]
            tie = Tie(number, order, first, second)
            if both_known and (first is None or second is None):
                tie.bye, tie.winner = True, first if first is not None else second
            elif both_known:
                decide(tie)
            else:  # games made before a correction left it without its pairs: stale
                tie.games = sorted(by_tie.get((number, order), []), key=lambda g: g.game)
            ties.append(tie)
            winners.append(tie.winner)
            decided.append(both_known and (tie.winner is not None or tie.bye))
        rounds.append(ties)
        previous, known = winners, decided
    third = None
    if phase.third_place and len(places) >= 4:
        semis = rounds[-2]
        first, second = semis[0].loser, semis[1].loser
        third = Tie(total, 1, first, second)
        if first is not None and second is not None:
            decide(third)
        else:
            third.games = sorted(by_tie.get((total, 1), []), key=lambda g: g.game)
    return Bracket(phase, rounds, third, rounds[-1][0].winner, enrolments)


def _new_game(phase: Phase, tie: Tie, total: int, by: Actor | None) -> None:
    enrolments = Enrolment.objects.select_related("championship__club", "sede").in_bulk(
        [tie.first, tie.second])
    first, second = enrolments[tie.first or 0], enrolments[tie.second or 0]
    game = len(tie.games) + 1
    # The pairs swap sides each game (the first in the bracket opens the odd games).
    pairs = [phase_pair(first), phase_pair(second)]
    if game % 2 == 0:
        pairs.reverse()
    club = phase.championship.club
    made = parts(phase, tie.round, tie.order, game, total)
    try:
        competition = competitions.create_competition(
            club, by=acting(by, club), name=names.stored_name(made), pairs=pairs,
            rules=phase.championship.rules, draw=[0, 1], draw_method="phase", made=made)
    except changes.CompetitionError as error:  # the whole change is rolled back
        raise KnockoutError(str(error)) from None
    PhaseGroup.objects.create(phase=phase, order=tie.order, round=tie.round, game=game,
                              competition=competition)


def _stale_games(state: Bracket) -> list[PhaseGroup]:
    """The games made for pairs a tie no longer has: a corrected result changed who goes
    on after the next tie's games were made (or left that tie without both its pairs)."""
    ties = [t for ties in state.rounds for t in ties if not t.bye]
    if state.third is not None:
        ties.append(state.third)
    games = [g for tie in ties for g in tie.games if g.competition_id]
    rows = Match.objects.filter(competition_id__in=[g.competition_id for g in games]
                                ).values_list("competition_id", "first__pair_id",
                                              "second__pair_id")
    pair_to_enrolment = {e.phase_pair_id: e.pk for e in state.enrolments.values()}
    seated: dict[int, set[int | None]] = {}
    for competition_id, first, second in rows:
        seated.setdefault(competition_id, set()).update(
            {pair_to_enrolment.get(first), pair_to_enrolment.get(second)})
    stale = []
    for tie in ties:
        expected = {tie.first, tie.second}
        for game in tie.games:
            if game.competition_id and (None in expected
                                        or seated.get(game.competition_id) != expected):
                stale.append(game)
    return stale


def _clear_stale(phase: Phase, stale: list[PhaseGroup]) -> None:
    """Remove games made for the wrong pairs when none was started; refuse (the whole
    result write is rolled back) when one was played or is being played: who goes on
    cannot change under a played game until the organiser clears its result."""
    ids = [g.competition_id for g in stale]
    # Played, or being played (a hand at its table): the hands entered are never lost.
    played = (consequences.started(Match.objects.filter(competition_id__in=ids))
              .order_by("competition_id").values_list("competition__name", "competition__made")
              .first())
    if played is not None:
        raise KnockoutError(_(
            "Este resultado cambia quién juega «%(game)s» en %(championship)s, que ya se "
            "jugó: borra antes su resultado y vuelve a anotar este.")
            % {"game": names.title_of(*played), "championship": phase.championship.name})
    for competition in Competition.objects.filter(pk__in=ids):
        log.info("knockout game removed: %s (phase %s), its pairs changed by a correction",
                 competition.name, phase.pk)
        # Matches point at the entries with PROTECT: they go first, then the rounds.
        Match.objects.filter(competition=competition).delete()
        competition.rounds.all().delete()
        competition.delete()  # its PhaseGroup goes with it (CASCADE)


@transaction.atomic
def sync(phase: Phase, by: Actor | None = None) -> Bracket | None:
    """Make the games the bracket is waiting for: a tie's first game (and second, for a
    best of 3) once both its pairs are known, its next game while it is undecided and every
    game before is played. Games made for pairs a corrected result took out are removed
    first, or the correction refused if one of them was played. Returns the bracket as it
    then stands."""
    state = bracket(phase)
    if state is None:
        return None
    stale = _stale_games(state)
    if stale:
        _clear_stale(phase, stale)
        state = bracket(phase)
        assert state is not None
    total = len(state.rounds)
    made = False
    ties = [t for ties in state.rounds for t in ties]
    if state.third is not None:
        ties.append(state.third)
    for tie in ties:
        if tie.bye or tie.winner is not None or tie.first is None or tie.second is None:
            continue
        played = sum(tie.wins)
        if not tie.games:
            for _n in range(min(phase.best_of, 2) if phase.best_of > 1 else 1):
                _new_game(phase, tie, total, by)
                tie.games.append(PhaseGroup(game=len(tie.games) + 1))
            made = True
        elif played >= len(tie.games) and len(tie.games) < phase.best_of:
            _new_game(phase, tie, total, by)
            made = True
    return bracket(phase) if made else state


def draw(phase: Phase, pairs: list[tuple[Enrolment, int | None]], seed: str, by: Actor) -> None:
    """Draw the bracket (seeded pairs by rank, the rest at random with the seed), record
    it on the phase and make the first round's games."""
    seeded = sum(1 for _e, rank in pairs if rank is not None)
    places = place_pairs([e.pk for e, _r in pairs], seeded, seed)
    phase.draw = {"seed": seed, "pairs": [{"enrolment": e.pk, "sede": e.sede_id, "seed": rank}
                                          for e, rank in pairs],
                  "bracket": places}
    phase.save(update_fields=["draw"])
    sync(phase, by)


def finished(phase: Phase) -> bool:
    """The knockout is over: its final (and the third place, if played) decided."""
    state = bracket(phase)
    return state is not None and state.champion is not None and (
        state.third is None or state.third.winner is not None)
