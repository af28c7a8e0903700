"""A knockout's tie: its place in the bracket (its round and its order in the round), its
two pairs, how many games it is played to; its games are matches (`Match.tie`, numbered
by `Match.game`), each with its table and its result. Its winner is derived from its
games' results (muscore.leagues.results.bracket), never stored beside them.

A cup (a groups competition's knockout) names its ties as ever ("qf1".."final", "third":
`name`), and says before they are known where each one's pairs come from (`feeds`). A
knockout alone (a championship's knockout phase) has its bracket's places in its draw;
a first-round tie with one pair is a bye (`best_of` 0: no game, its pair goes on).
"""

from __future__ import annotations

from django.db import models

from muscore.leagues import names
from muscore.leagues.models.competition import Competition, Entry


class Tie(models.Model):
    """One tie of a competition's knockout. `round` counts from 1, the first round of the
    bracket; `order` is its place in the round (in the last round 0 is the final, 1 the
    match for third place). Its pairs stay empty until what comes before decides them (a
    group's standings, the ties of the round before)."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE,
                                    related_name="ties")
    round = models.PositiveSmallIntegerField()
    order = models.PositiveSmallIntegerField()
    first = models.ForeignKey(Entry, on_delete=models.PROTECT, null=True, blank=True,
                              related_name="+")
    second = models.ForeignKey(Entry, on_delete=models.PROTECT, null=True, blank=True,
                               related_name="+")
    #: Its games' most: 1, 3...; 0 for a bye (a first-round tie of one pair, no game).
    best_of = models.PositiveSmallIntegerField(default=1)

    class Meta:
        ordering = ["competition", "round", "order"]
        constraints = [
            models.UniqueConstraint(fields=["competition", "round", "order"],
                                    name="tie_place_unique"),
        ]

    def __str__(self) -> str:
        return f"tie {self.round}.{self.order} of {self.competition_id}"


#: A cup's first round, each tie's two group places in bracket order.
SEEDS: dict[int, tuple[tuple[str, str], ...]] = {
    2: (("1A", "2B"), ("1B", "2A")),
    4: (("1A", "2B"), ("1C", "2D"), ("1B", "2A"), ("1D", "2C")),
}
#: A four-group cup's quarterfinals by their place in the bracket: named as they always
#: were ("qf3" meets "qf1"'s winner in the first semifinal).
QUARTERS = (1, 3, 2, 4)


def rounds_of(competition: Competition) -> int:
    """How many rounds a bracket has: a cup's semifinals and final, quarterfinals before
    them with four groups; a knockout's from its places (8 places, 3 rounds)."""
    if competition.format == Competition.Format.KNOCKOUT:
        return max(len(competition.draw or [None, None]).bit_length() - 1, 1)
    return 3 if competition.group_count == 4 else 2


def places(rounds: int) -> list[tuple[int, int]]:
    """Every tie of a cup of `rounds` rounds as (round, place), in the order played."""
    out = [(number, order) for number in range(1, rounds)
           for order in range(2 ** (rounds - number))]
    return [*out, (rounds, 0), (rounds, 1)]


def name(number: int, order: int, rounds: int) -> str:
    """A cup's tie as the league's pages and CSV name it: "qf1".."qf4", "sf1", "sf2",
    "final", "third"; a knockout alone's rounds before its quarterfinals (16 places or
    more) by the pairs they hold and the tie's place from 1, "r16-1".."r16-8"."""
    if number == rounds:
        return "final" if order == 0 else "third"
    if number == rounds - 1:
        return f"sf{order + 1}"
    if number < rounds - 2:
        return f"r{2 ** (rounds - number + 1)}-{order + 1}"
    return f"qf{QUARTERS[order]}"


def feeds(number: int, order: int, rounds: int, groups: int) -> tuple[str, str]:
    """Where a tie's two pairs come from: two group places ("1A", "2B"), or the two ties
    before it by their names, won ("W sf1") or lost ("L sf1") for the third place."""
    if number == 1:
        return SEEDS[groups][order]
    if number == rounds and order == 1:
        return f"L {name(number - 1, 0, rounds)}", f"L {name(number - 1, 1, rounds)}"
    return (f"W {name(number - 1, 2 * order, rounds)}",
            f"W {name(number - 1, 2 * order + 1, rounds)}")


def game_title(competition: Competition, tie: Tie | None, game: int | None) -> str:
    """A knockout alone's game named in the reader's language from its competition's name
    as typed, its tie's round and place and its number in a best of 3 ("Final ·
    Semifinal 1 · partida 2"); any other match by its competition's title."""
    if tie is None or competition.format != Competition.Format.KNOCKOUT:
        return competition.title
    rounds = rounds_of(competition)
    return names.made_name(names.game_parts(
        competition.name, round=tie.round, rounds=rounds, tie=tie.order + 1,
        game=game or 1 if tie.best_of > 1 else None,
        third=tie.order == 1 and tie.round == rounds))
