"""A match between two entries, and the audit of its result.

A match's result is stored once, as a `ResultRow` (muscore.leagues.models.result), the
moment it arrives (from its muscore table, by hand, as a no-show, from both pairs' links),
so standings are drawn from stored figures and never by replaying hands. The hands
themselves stay on the match's table (muscore.tables), which is the evidence.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.db import models

from muscore.leagues.compute.document import Result
from muscore.leagues.models.competition import Competition, Entry, Round
from muscore.leagues.models.knockout import Tie
from muscore.leagues.models.result import ResultRow, no_winner_q, outcomes


class MatchQuerySet(models.QuerySet["Match"]):
    """Matches asked about their results without naming a row's columns."""

    def played(self) -> MatchQuerySet:
        """The matches with a result."""
        return self.filter(result__isnull=False)

    def unplayed(self) -> MatchQuerySet:
        """The matches still to be played (no result)."""
        return self.filter(result__isnull=True)

    def decided(self) -> MatchQuerySet:
        """The matches with a winner: a result, and not neither pair showing up."""
        return self.played().exclude(no_winner_q())

    def with_outcome(self) -> MatchQuerySet:
        """The matches with their result's row read along (`Match.outcome` at no query)."""
        return self.select_related("result")

    def outcomes(self, *fields: str) -> list[tuple[Any, ...]]:
        """`values_list(*fields)` of each match, with its result (a Result, or None)
        last: one query, whatever the number of matches."""
        return outcomes(self, *fields)


class Match(models.Model):
    """One vaca between two entries, and its result once it arrives (`result`, a row of
    `ResultRow`, read as the value `outcome`; `result_at` the time it arrived).

    `number` is the match's place in the league document's `matches` (from 1). A
    knockout's game belongs to its `tie` (muscore.leagues.models.knockout), numbered
    `game` from 1; its entries stay empty until the tie's pairs are known. `players_first` /
    `players_second` list who sat when it was not the pair's own players (substitutes).

    `doc` is the match as the league document (league.md) writes it, compact JSON, kept
    by `save()` so that the API's document of a 40,000-match league is the stored texts
    joined rather than 40,000 rows formatted on the first request after each result.
    "" means the match is left out of the document (a knockout match whose pairs are not
    known yet); NULL means not worked out yet: the reader works it out from the row. A
    write that bypasses `save()` (`update()`, `bulk_create`, `bulk_update`) must set it
    to None or write it (`document_text`; documents.refresh_docs does a whole league).
    """

    #: Where a result came from (the vocabulary of `Result.source` and of its row).
    Source = ResultRow.Source

    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="matches"
    )
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    number = models.PositiveIntegerField()
    # A knockout's game: its tie and its number in it (None: a league or group match).
    # Without an index of its own or a database constraint (a key added to a table with
    # rows: docs/operations.md, "Upgrading"); the index below serves its reads.
    tie = models.ForeignKey(Tie, on_delete=models.CASCADE, null=True, blank=True,
                            related_name="games", db_index=False, db_constraint=False)
    game = models.PositiveSmallIntegerField(null=True, blank=True)
    first = models.ForeignKey(
        Entry, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    second = models.ForeignKey(
        Entry, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    table = models.OneToOneField(
        "tables.Table", on_delete=models.SET_NULL, null=True, blank=True,
        related_name="league_match",
    )
    table_number = models.PositiveSmallIntegerField(null=True, blank=True)
    # Its result (None: not played), written by the owner of results alone.
    # Without an index of its own or a database constraint: it was added to a table with
    # rows (docs/operations.md, "Upgrading"); the index below serves its reads.
    result = models.ForeignKey(ResultRow, on_delete=models.RESTRICT, null=True, blank=True,
                               related_name="+", db_index=False, db_constraint=False)
    players_first = models.JSONField(null=True, blank=True)
    players_second = models.JSONField(null=True, blank=True)
    result_at = models.DateTimeField(null=True, blank=True)
    # Null: the document text is not written yet (bulk writes bypass save(); api_body and
    # refresh_docs look for it), "" the text of a match without its two pairs.
    doc = models.TextField(null=True, blank=True, editable=False)  # noqa: DJ001

    objects = MatchQuerySet.as_manager()

    class Meta:
        ordering = ["competition", "number"]
        verbose_name_plural = "matches"
        constraints = [
            models.UniqueConstraint(fields=["competition", "number"], name="match_number_unique"),
        ]
        indexes = [
            # The matches left, in order (a standings page's next round: the first of them is
            # found at once in a league of 39,800 matches), and the results by time (its
            # latest night). (competition, source) alone made SQLite walk every match.
            models.Index(fields=["competition", "result", "number"], name="match_left_in_order"),
            models.Index(fields=["competition", "result_at"], name="match_latest_result"),
            models.Index(fields=["tie", "game"], name="match_game_of_tie"),
        ]

    def __str__(self) -> str:
        return f"match {self.number} of {self.competition}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Save, with `doc` worked out afresh from the row being saved."""
        self.doc = self.document_text()
        update_fields = kwargs.get("update_fields")
        if update_fields is not None:
            kwargs["update_fields"] = {*update_fields, "doc"}
        super().save(*args, **kwargs)

    @property
    def played(self) -> bool:
        return self.result_id is not None

    @property
    def outcome(self) -> Result | None:
        """Its result as a value (None: not played); its row is read unless loaded along
        (`Match.objects.with_outcome()`)."""
        return self.result.value() if self.result is not None else None

    def document_text(self) -> str:
        """`doc` for this match: its round's number and its entries' indices are read from
        the related objects when they are loaded, else in one query each."""
        if self.first_id is None or self.second_id is None:
            return ""
        if Match.round.is_cached(self):
            round_number = self.round.number
        else:
            round_number = Round.objects.values_list("number", flat=True).get(pk=self.round_id)
        if Match.first.is_cached(self) and Match.second.is_cached(self):
            assert self.first is not None and self.second is not None
            first, second = self.first.index, self.second.index
        else:
            index = dict(Entry.objects.filter(pk__in=[self.first_id, self.second_id])
                         .values_list("pk", "index"))
            first, second = index[self.first_id], index[self.second_id]
        return document_text(round_number, first, second, self.outcome,
                             self.players_first, self.players_second)

    @property
    def players(self) -> list[Any]:
        """Who sat for each side when not the pair's own (the audit keeps it)."""
        return [self.players_first, self.players_second]


_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def document_text(
    round_number: int | None, first: int, second: int, result: Result | None,
    players_first: Any, players_second: Any,
) -> str:
    """A match as league.md writes it in a league's `matches`, compact JSON, from its
    stored figures (`first` and `second` are the entries' indices). Round 0 (an imported
    match with no round) is left out; a table's result is written as its juegos and
    tantos (the export with the hands is documents.league_document(hands=True))."""
    text = (f'{{"round":{round_number},"pairs":[{first},{second}]' if round_number
            else f'{{"pairs":[{first},{second}]')
    if result is not None and result.source == "no_show":
        who = '"both"' if all(result.no_show) else (first if result.no_show[0] else second)
        text += f',"forfeit":{who}'
    elif result is not None:
        text += f',"juegos":[{result.juegos[0]},{result.juegos[1]}]'
        if result.tantos is not None:
            text += f',"tantos":[{result.tantos[0]},{result.tantos[1]}]'
    if players_first or players_second:
        text += ',"players":' + _dumps([players_first or None, players_second or None])
    return text + "}"


# The longest reason a correction keeps (the forms' limit too).
REASON_MAX = 200


class Correction(models.Model):
    """The audit: every result written or changed, with the result before and after
    (their rows; null: none), who sat before and after (`players_before`,
    `players_after`: the match's `players`), who did it (null: the match's table, by
    itself), when and why."""

    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="corrections"
    )
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="corrections")
    at = models.DateTimeField(auto_now_add=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )
    action = models.CharField(max_length=12)
    # Keys added to a table with rows: no index, no database constraint (as Match.result).
    before_result = models.ForeignKey(ResultRow, on_delete=models.RESTRICT, null=True,
                                      blank=True, related_name="+", db_index=False,
                                      db_constraint=False)
    after_result = models.ForeignKey(ResultRow, on_delete=models.RESTRICT, null=True,
                                     blank=True, related_name="+", db_index=False,
                                     db_constraint=False)
    players_before = models.JSONField(default=list)
    players_after = models.JSONField(default=list)
    # Why an organiser changed a result (the correction form asks for it).
    reason = models.CharField(max_length=REASON_MAX, blank=True, default="")

    class Meta:
        ordering = ["competition", "at", "id"]

    def __str__(self) -> str:
        return f"{self.action} on {self.match}"
