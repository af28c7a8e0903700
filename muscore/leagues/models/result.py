"""A match's result, stored once: the row a Match, a pair's ResultClaim and the audit's
Correction share, read as the frozen value `muscore.leagues.compute.document.Result`
(its juegos, tantos, who did not show up, where it came from; the winner derived, never
stored beside it).

A row is never changed: a new result is a new row. The match points at its result's row;
a claim confirmed is the very row the match then holds; a correction's before and after
are the rows themselves. Only the owner of results (`muscore.leagues.results`) makes rows
and points a match at one; every other module reads the value (`Match.outcome`, or
`MatchQuerySet.outcomes` for many matches in one query) and asks the queryset which
matches are played (`Match.objects.played()`, `unplayed()`, `decided()`): no module but
this one and the owner names a row's columns (tests/leagues/test_result_owner.py).
"""

from __future__ import annotations

from typing import Any, cast

from django.db import models
from django.db.models import Q

from muscore.leagues.compute.document import Result, Source
from muscore.leagues.models.competition import Competition


class ResultRow(models.Model):
    """One result as stored: `source` says where it came from ("table": its vaca played
    on a muscore table; "manual": juegos entered on paper, by an organiser or both pairs;
    "no_show": a pair, or both, did not show up)."""

    class Source(models.TextChoices):
        TABLE = "table", "muscore table"
        MANUAL = "manual", "entered by hand"
        NO_SHOW = "no_show", "no-show"

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="+")
    source = models.CharField(max_length=8, choices=Source.choices)
    first_juegos = models.PositiveSmallIntegerField()
    second_juegos = models.PositiveSmallIntegerField()
    first_tantos = models.PositiveIntegerField(null=True, blank=True)
    second_tantos = models.PositiveIntegerField(null=True, blank=True)
    first_absent = models.BooleanField(default=False)
    second_absent = models.BooleanField(default=False)

    def __str__(self) -> str:
        result = self.value()
        if result.source == "no_show":
            return "no-show " + "-".join("x" if absent else "o" for absent in result.no_show)
        return f"{result.source} {result.juegos[0]}-{result.juegos[1]}"

    def value(self) -> Result:
        """The result this row stores."""
        tantos = None
        if self.first_tantos is not None and self.second_tantos is not None:
            tantos = (self.first_tantos, self.second_tantos)
        return Result((self.first_juegos, self.second_juegos), tantos,
                      (self.first_absent, self.second_absent), cast(Source, self.source))

    @classmethod
    def of(cls, competition_id: int, result: Result) -> ResultRow:
        """An unsaved row storing `result` for a match of `competition_id`."""
        tantos = result.tantos or (None, None)
        return cls(competition_id=competition_id, source=result.source,
                   first_juegos=result.juegos[0], second_juegos=result.juegos[1],
                   first_tantos=tantos[0], second_tantos=tantos[1],
                   first_absent=result.no_show[0], second_absent=result.no_show[1])


#: The row's columns, as a query reads them through a match (`result__...`).
COLUMNS = ("source", "first_juegos", "second_juegos", "first_tantos", "second_tantos",
           "first_absent", "second_absent")


def from_columns(values: tuple[Any, ...]) -> Result | None:
    """The value of a row read as `COLUMNS` (None for no row)."""
    source, first, second, first_tantos, second_tantos, first_absent, second_absent = values
    if source is None:
        return None
    tantos = (first_tantos, second_tantos) if first_tantos is not None and (
        second_tantos is not None) else None
    return Result((first, second), tantos, (first_absent, second_absent), source)


def outcomes(rows: models.QuerySet[Any], *fields: str, through: str = "") -> list[tuple[Any, ...]]:
    """`rows.values_list(*fields)`, each with the result of its match (reached through
    `through`, "match__" from a row that points at one) last: one query."""
    width = len(fields)
    return [(*row[:width], from_columns(row[width:]))
            for row in rows.values_list(*fields, *(f"{through}result__{c}" for c in COLUMNS))]


def unplayed_q(prefix: str = "") -> Q:
    """The condition "no result" on matches reached through `prefix` ("matches__")."""
    return Q(**{f"{prefix}result__isnull": True})


def no_winner_q(prefix: str = "") -> Q:
    """The condition "neither pair showed up" (a result without a winner)."""
    return Q(**{f"{prefix}result__first_absent": True, f"{prefix}result__second_absent": True})


def from_q(source: str, prefix: str = "") -> Q:
    """The condition "its result came from `source`" ("table", "manual", "no_show") on
    matches reached through `prefix` ("match__")."""
    return Q(**{f"{prefix}result__source": source})
