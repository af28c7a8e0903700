"""Storage for a club's competitions: entries, groups, rounds, matches and their audit.

Each match STORES its juegos and tantos the moment its result arrives (from its muscore
table, by hand, or as a no-show), so standings are drawn from stored figures and never
by replaying hands. The hands themselves stay on the match's table (muscore.tables),
which is the evidence. Business logic lives in competitions.py, results.py and the
other service modules; the pure computations (standings, fixtures, ratings) in the
Django-free package muscore.leagues.compute.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone

from muscore import bus
from muscore.clubs.models import Club, Pair
from muscore.leagues import names


class Competition(models.Model):
    """A liguilla (one or two legs) or groups + knockout, with its options and its draw.

    `revision` goes up with every change to its matches: the ETag of the league's
    document and the key of its cached standings.
    """

    class Format(models.TextChoices):
        LIGUILLA = "liguilla", "liguilla"
        GROUPS = "groups", "groups + knockout"
        CEROS = "ceros", "a N ceros (one-day tournament)"

    class Status(models.TextChoices):
        DRAFT = "draft", "waiting for the draw"
        PLAYING = "playing", "playing"
        FINISHED = "finished", "finished"
        # A large import the worker is writing (muscore.leagues.imports): on no list, no
        # page, no result written to it by any other door until it is done.
        IMPORTING = "importing", "being imported"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="competitions")
    name = models.CharField(max_length=200)
    format = models.CharField(max_length=10, choices=Format.choices, default=Format.LIGUILLA)
    legs = models.PositiveSmallIntegerField(default=1)
    group_count = models.PositiveSmallIntegerField(default=0)
    # A ceros tournament's N: a pair is out after N lost matches (muscore.leagues.compute.ceros).
    ceros = models.PositiveSmallIntegerField(default=3)
    # Every match's table options, spelled out (muscore.rules.Rules.to_json()).
    rules = models.JSONField()
    points_win = models.IntegerField(default=2)
    points_loss = models.IntegerField(default=0)
    points_forfeit = models.IntegerField(default=0)
    # The public draw: entry indices in the order drawn; null until it is made.
    draw = models.JSONField(null=True, blank=True)
    draw_method = models.CharField(max_length=10, blank=True, default="")
    drawn_at = models.DateTimeField(null=True, blank=True)
    drawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    revision = models.PositiveIntegerField(default=1)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # The organiser's night (issue 17): an archived competition is off every list but kept
    # for the record; the TV shows the competitions put on it (else the one being played).
    archived = models.BooleanField(default=False)
    on_tv = models.BooleanField(default=False)
    # An imported competition's document's fingerprint (its pairs and matches): the same
    # export imported again into the club it came from is refused as a copy.
    fingerprint = models.CharField(max_length=64, blank=True, default="", db_index=True)
    # Whether its matches count in the club's ratings and leaders: another club's
    # competition imported for the record does not, unless the organiser says so.
    rated = models.BooleanField(default=True)
    # What the app made its name of (a championship's group or knockout game: the phase's
    # name, the group, round, tie and game, no language words), named in the reader's
    # language when shown (muscore.leagues.names); {} for a name as typed.
    made = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["club", "-created_at", "id"]

    def __str__(self) -> str:
        return self.title

    @property
    def title(self) -> str:
        """Its name for the reader: a name the app made, in the active language; a typed
        name as typed."""
        return names.title(self)

    @property
    def points(self) -> dict[str, int]:
        return {"win": self.points_win, "loss": self.points_loss, "forfeit": self.points_forfeit}


class Group(models.Model):
    """A group of a groups + knockout competition: A, B, C, D."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="groups")
    name = models.CharField(max_length=2)
    order = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["competition", "order"]
        constraints = [
            models.UniqueConstraint(fields=["competition", "order"], name="group_order_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.competition} {self.name}"


class Entry(models.Model):
    """A pair in a competition. `index` is its place in the league document's `pairs`."""

    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="entries"
    )
    pair = models.ForeignKey(Pair, on_delete=models.PROTECT, related_name="entries")
    index = models.PositiveSmallIntegerField()
    group = models.ForeignKey(
        Group, on_delete=models.SET_NULL, null=True, blank=True, related_name="entries"
    )
    # Its standings line over the league (or group) matches with a result, kept in step
    # with each match's stored figures in the same transaction (results.store), so the
    # standings read one row per pair whatever the number of matches.
    played = models.IntegerField(default=0)
    won = models.IntegerField(default=0)
    lost = models.IntegerField(default=0)
    forfeits = models.IntegerField(default=0)
    points = models.IntegerField(default=0)
    juegos_for = models.IntegerField(default=0)
    juegos_against = models.IntegerField(default=0)
    tantos_for = models.IntegerField(default=0)
    tantos_against = models.IntegerField(default=0)

    class Meta:
        ordering = ["competition", "index"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["competition", "index"], name="entry_index_unique"),
            models.UniqueConstraint(fields=["competition", "pair"], name="entry_pair_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.pair} in {self.competition}"


class Round(models.Model):
    """A round (jornada) of a liguilla or of a group, or a knockout stage.

    `stage` is "league" for a liguilla's or a group's round, else "quarterfinal",
    "semifinal" or "final" (the final's round also holds the third-place match).
    """

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    stage = models.CharField(max_length=12, default="league")
    group = models.ForeignKey(
        Group, on_delete=models.CASCADE, null=True, blank=True, related_name="rounds"
    )
    # The pair resting (exenta) this round, when the count is odd.
    bye = models.ForeignKey(
        Entry, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    starts_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["competition", "number", "group__order"]

    def __str__(self) -> str:
        return f"{self.competition} round {self.number}"


class Match(models.Model):
    """One vaca between two entries, with its result's figures stored when it arrives.

    `number` is the match's place in the league document's `matches` (from 1).
    `slot` names a knockout match ("qf1".."qf4", "sf1", "sf2", "final", "third"); its
    entries stay empty until the matches before it are decided. `players_first` /
    `players_second` list who sat when it was not the pair's own players (substitutes).

    `doc` is the match as the league document (league.md) writes it, compact JSON, kept
    by `save()` so that the API's document of a 40,000-match league is the stored texts
    joined rather than 40,000 rows formatted on the first request after each result.
    "" means the match is left out of the document (a knockout match whose pairs are not
    known yet); NULL means not worked out yet: the reader works it out from the row. A
    write that bypasses `save()` (`update()`, `bulk_create`, `bulk_update`) must set it
    to None or write it (`document_text`; documents.refresh_docs does a whole league).
    """

    class Source(models.TextChoices):
        NONE = "", "not played"
        TABLE = "table", "muscore table"
        MANUAL = "manual", "entered by hand"
        NO_SHOW = "no_show", "no-show"

    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="matches"
    )
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    number = models.PositiveIntegerField()
    slot = models.CharField(max_length=8, blank=True, default="")
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
    source = models.CharField(max_length=8, choices=Source.choices, blank=True, default="")
    juegos_first = models.PositiveSmallIntegerField(null=True, blank=True)
    juegos_second = models.PositiveSmallIntegerField(null=True, blank=True)
    tantos_first = models.PositiveIntegerField(null=True, blank=True)
    tantos_second = models.PositiveIntegerField(null=True, blank=True)
    no_show_first = models.BooleanField(default=False)
    no_show_second = models.BooleanField(default=False)
    # 0 (first) or 1 (second); null when not played or neither pair showed up.
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    players_first = models.JSONField(null=True, blank=True)
    players_second = models.JSONField(null=True, blank=True)
    result_at = models.DateTimeField(null=True, blank=True)
    # Null: the document text is not written yet (bulk writes bypass save(); api_body and
    # refresh_docs look for it), "" the text of a match without its two pairs.
    doc = models.TextField(null=True, blank=True, editable=False)  # noqa: DJ001

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
            models.Index(fields=["competition", "source", "number"], name="match_left_in_order"),
            models.Index(fields=["competition", "result_at"], name="match_latest_result"),
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
        return bool(self.source)

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
        return document_text(
            round_number, first, second, self.source, self.juegos_first, self.juegos_second,
            self.tantos_first, self.tantos_second, self.no_show_first, self.no_show_second,
            self.players_first, self.players_second)

    def figures(self) -> dict[str, Any]:
        """The stored result as the audit keeps it."""
        return {
            "source": self.source,
            "juegos": [self.juegos_first, self.juegos_second],
            "tantos": [self.tantos_first, self.tantos_second],
            "no_show": [self.no_show_first, self.no_show_second],
            "players": [self.players_first, self.players_second],
        }


_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def document_text(
    round_number: int | None, first: int, second: int, source: str,
    juegos_first: int | None, juegos_second: int | None,
    tantos_first: int | None, tantos_second: int | None,
    no_show_first: bool, no_show_second: bool, players_first: Any, players_second: Any,
) -> str:
    """A match as league.md writes it in a league's `matches`, compact JSON, from its
    stored figures (`first` and `second` are the entries' indices). Round 0 (an imported
    match with no round) is left out; a table's result is written as its juegos and
    tantos (the export with the hands is documents.league_document(hands=True))."""
    text = (f'{{"round":{round_number},"pairs":[{first},{second}]' if round_number
            else f'{{"pairs":[{first},{second}]')
    if source == Match.Source.NO_SHOW:
        who = '"both"' if no_show_first and no_show_second else (
            first if no_show_first else second)
        text += f',"forfeit":{who}'
    elif source:
        text += f',"juegos":[{juegos_first},{juegos_second}]'
        if tantos_first is not None and tantos_second is not None:
            text += f',"tantos":[{tantos_first},{tantos_second}]'
    if players_first or players_second:
        text += ',"players":' + _dumps([players_first or None, players_second or None])
    return text + "}"


# The longest reason a correction keeps (the forms' limit too).
REASON_MAX = 200


class Correction(models.Model):
    """The audit: every result written or changed, with the figures before and after,
    who did it (null: the match's table, by itself) and when."""

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
    before = models.JSONField()
    after = models.JSONField()
    # Why an organiser changed a result (the correction form asks for it).
    reason = models.CharField(max_length=REASON_MAX, blank=True, default="")

    class Meta:
        ordering = ["competition", "at", "id"]

    def __str__(self) -> str:
        return f"{self.action} on {self.match}"


# --- results both pairs agree on (muscore.leagues.confirmations) -------------------------


def new_side_key() -> str:
    # 16 random bytes = 128 bits, as the table's edit link (muscore.tables.models).
    return secrets.token_urlsafe(16)


class SideKey(models.Model):
    """The secret of one pair's link to a match (side 0: `first`, 1: `second`).

    From it the pair enters the match's result, or confirms or disputes the other
    pair's; it is made the first time an organiser is shown the match's links.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="side_keys")
    side = models.PositiveSmallIntegerField()
    # The pair it was made for: a knockout slot's pairs can change before it is played,
    # and a link handed to a pair no longer in the match opens nothing.
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=64, default=new_side_key, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "side"]
        constraints = [
            models.UniqueConstraint(fields=["match", "side"], name="side_key_unique"),
        ]

    def __str__(self) -> str:
        return f"side {self.side} of {self.match}"


class ResultClaim(models.Model):
    """A result entered by one pair from its link: pending until the other pair confirms
    it, an organiser accepts it, or 24 hours pass without a dispute.

    Open claims (pending, disputed) never count in the standings: the match's figures are
    written only when the claim is confirmed or accepted (results.store).
    """

    class Status(models.TextChoices):
        PENDING = "pending", "waiting for the other pair"
        CONFIRMED = "confirmed", "confirmed by the other pair"
        ACCEPTED = "accepted", "accepted by an organiser"
        AUTO_ACCEPTED = "auto", "accepted after 24 hours"
        DISPUTED = "disputed", "disputed"
        REJECTED = "rejected", "rejected by an organiser"
        WITHDRAWN = "withdrawn", "withdrawn by its pair"
        SUPERSEDED = "superseded", "the match got its result another way"

    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="claims"
    )
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="claims")
    side = models.PositiveSmallIntegerField()
    # The match's two entries when it was claimed (a knockout slot can change pairs).
    first = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    juegos_first = models.PositiveSmallIntegerField()
    juegos_second = models.PositiveSmallIntegerField()
    tantos_first = models.PositiveIntegerField(null=True, blank=True)
    tantos_second = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    claimed_at = models.DateTimeField()
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )
    note = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["competition", "claimed_at", "id"]
        constraints = [
            # One open claim per match at a time, whatever two phones do at once.
            models.UniqueConstraint(
                fields=["match"], condition=models.Q(status__in=["pending", "disputed"]),
                name="claim_open_unique",
            ),
        ]
        indexes = [models.Index(fields=["competition", "status", "claimed_at"])]

    def __str__(self) -> str:
        return f"claim {self.juegos_first}-{self.juegos_second} on {self.match}"

    @property
    def open(self) -> bool:
        return self.status in (self.Status.PENDING, self.Status.DISPUTED)


class ClaimEvent(models.Model):
    """The log of a claim: who entered it, confirmed, disputed, withdrew it, and the
    organiser's decision with its note. `side` names a pair acting from its link, `by`
    an organiser; neither for the acceptance after 24 hours."""

    claim = models.ForeignKey(ResultClaim, on_delete=models.CASCADE, related_name="events")
    at = models.DateTimeField()
    action = models.CharField(max_length=12)
    side = models.PositiveSmallIntegerField(null=True, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )
    note = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["claim", "at", "id"]

    def __str__(self) -> str:
        return f"{self.action} of {self.claim}"


# --- player ratings (muscore.leagues.rating_store) ----------------------------------------


class RatingMatch(models.Model):
    """A match's place in its club's rating order: `arrived_at`, the time its result first
    arrived (kept when the result is corrected or cleared), then the match's id.

    Every competition of the club is rated as one history, in that order (see
    rating_store for why). A no-show keeps its place here but rates nobody.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="rating_place")
    arrived_at = models.DateTimeField()

    class Meta:
        ordering = ["club", "arrived_at", "match"]
        indexes = [models.Index(fields=["club", "arrived_at", "match"])]

    def __str__(self) -> str:
        return f"{self.match} rated at {self.arrived_at}"


class RatingPoint(models.Model):
    """A player's rating after one match they sat in: openskill's mu and sigma, the nivel
    (mu - 3 sigma) and how many matches they had been rated for by then. The place
    (`arrived_at`, `match`) is the match's RatingMatch's, copied so that a player's
    history and the club's tail read in order from one index."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(
        "clubs.Player", on_delete=models.CASCADE, related_name="rating_points")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rating_points")
    arrived_at = models.DateTimeField()
    side = models.PositiveSmallIntegerField()
    won = models.BooleanField()
    mu = models.FloatField()
    sigma = models.FloatField()
    nivel = models.FloatField()
    matches = models.PositiveIntegerField()

    class Meta:
        ordering = ["player", "arrived_at", "match"]
        constraints = [
            models.UniqueConstraint(fields=["player", "match"], name="rating_point_unique"),
        ]
        indexes = [
            models.Index(fields=["club", "arrived_at", "match"]),
            models.Index(fields=["player", "arrived_at", "match"]),
        ]

    def __str__(self) -> str:
        return f"{self.player} after {self.match}: {self.nivel:.1f}"


class PlayerRating(models.Model):
    """A player's rating after their last rated match (the last RatingPoint), so that the
    club's ranking and the win probabilities read one row per player."""

    player = models.OneToOneField(
        "clubs.Player", on_delete=models.CASCADE, primary_key=True, related_name="rating")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    mu = models.FloatField()
    sigma = models.FloatField()
    nivel = models.FloatField()
    matches = models.PositiveIntegerField()

    class Meta:
        ordering = ["club", "-nivel", "player"]
        indexes = [models.Index(fields=["club", "-nivel"])]

    def __str__(self) -> str:
        return f"{self.player}: {self.nivel:.1f}"


class RatingBacklog(models.Model):
    """A club whose ratings wait to be brought up to date outside the request: a
    correction of an early match re-rates the whole history after it (seconds on a large
    club), so the write only records from where (the earliest place still to re-rate)
    and `manage.py rating_worker` catches up (muscore.leagues.rating_store). `version`
    goes up with every write that joins the backlog, so the worker knows whether what it
    re-rated is still all there is to do."""

    club = models.OneToOneField(Club, on_delete=models.CASCADE, primary_key=True,
                                related_name="+")
    since_at = models.DateTimeField()
    since_match = models.PositiveIntegerField()
    version = models.PositiveIntegerField(default=1)
    queued_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"ratings of {self.club_id} from match {self.since_match}"


class DocumentBacklog(models.Model):
    """A competition whose export and cards wait to be made again outside the request
    (muscore.leagues.prepared): every change of its revision adds it (once), and the
    worker (`manage.py rating_worker`) takes it off before it makes them, so a change that
    arrives meanwhile adds it again."""

    competition = models.OneToOneField(Competition, on_delete=models.CASCADE,
                                       primary_key=True, related_name="+")
    queued_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"documents of {self.competition_id}"

    @staticmethod
    def add(competition_ids: list[int]) -> None:
        """Queue these competitions (those already queued stay as they are): one statement.
        Every change of a competition's revision comes here, so here its live screens (the
        club's TV) are told of it too, once the change commits."""
        DocumentBacklog.objects.bulk_create(
            [DocumentBacklog(competition_id=pk) for pk in competition_ids],
            ignore_conflicts=True)
        bus.publish_many(f"competition:{pk}" for pk in competition_ids)


class PreparedPart(models.Model):
    """One piece of a document the worker made for one revision of a competition: the
    export (in pieces of about a megabyte, streamed one query per piece) or a card's night
    in one language. Piece 0 is written last and says how many there are: a revision
    without it is not finished and is never served."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=40)
    revision = models.PositiveIntegerField()
    part = models.PositiveIntegerField()
    body = models.BinaryField()
    made_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["competition", "kind", "revision", "part"],
                                    name="prepared_part_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} of {self.competition_id} at {self.revision} ({self.part})"


class LeagueImport(models.Model):
    """A large import the worker writes in short transactions (muscore.leagues.imports):
    the checked document, how far it got, and why it failed (its competition then deleted
    whole, this row kept so that the organiser reads why)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    competition = models.OneToOneField(Competition, on_delete=models.SET_NULL, null=True,
                                       blank=True, related_name="+")
    name = models.CharField(max_length=200)
    fingerprint = models.CharField(max_length=64)
    rated = models.BooleanField(default=False)
    # The pairs the import added to the club: deleted with the competition if it fails.
    new_pairs = models.JSONField(default=list)
    total = models.PositiveIntegerField()
    written = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True, default="")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, blank=True, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"import of {self.name} ({self.written}/{self.total})"


class LeagueImportDocument(models.Model):
    """A large import's checked document, in a row of its own: the worker updates the
    import's row (how far it got) after every batch of a few matches, and SQLite writes a
    whole row again on any update, the document's megabytes included (2.8 MB a batch for
    the benchmark's league, in the write lock and the WAL: issue 28)."""

    league_import = models.OneToOneField(LeagueImport, on_delete=models.CASCADE,
                                         primary_key=True, related_name="kept_document")
    text = models.TextField()

    def __str__(self) -> str:
        return f"document of {self.league_import_id}"


# --- what the hands say (muscore.leagues.stats_store) -------------------------------------


class HandCounts(models.Model):
    """One side's counts from the hands of a match's vaca (muscore.leagues.compute.handstats.Counts,
    the same names): stored when the table's result arrives, never replayed on a page view."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    side = models.PositiveSmallIntegerField()
    hands = models.PositiveIntegerField(default=0)
    juegos = models.PositiveIntegerField(default=0)
    juegos_ordago = models.PositiveIntegerField(default=0)
    grande = models.PositiveIntegerField(default=0)
    chica = models.PositiveIntegerField(default=0)
    pares = models.PositiveIntegerField(default=0)
    juego = models.PositiveIntegerField(default=0)
    punto = models.PositiveIntegerField(default=0)
    piedras_grande = models.PositiveIntegerField(default=0)
    piedras_chica = models.PositiveIntegerField(default=0)
    piedras_pares = models.PositiveIntegerField(default=0)
    piedras_juego = models.PositiveIntegerField(default=0)
    piedras_punto = models.PositiveIntegerField(default=0)
    piedras = models.PositiveIntegerField(default=0)
    envites = models.PositiveIntegerField(default=0)
    envites_accepted = models.PositiveIntegerField(default=0)
    ordagos = models.PositiveIntegerField(default=0)
    ordagos_accepted = models.PositiveIntegerField(default=0)
    ordagos_won = models.PositiveIntegerField(default=0)
    dejes_taken = models.PositiveIntegerField(default=0)
    dejes_taken_piedras = models.PositiveIntegerField(default=0)
    dejes_given = models.PositiveIntegerField(default=0)
    dejes_given_piedras = models.PositiveIntegerField(default=0)

    class Meta:
        abstract = True


class PairHandStats(HandCounts):
    """A pair's counts in one match it played on a muscore table (whoever sat for it)."""

    pair = models.ForeignKey(Pair, on_delete=models.CASCADE, related_name="hand_stats")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="hand_stats")

    class Meta:
        ordering = ["match", "side"]
        constraints = [
            models.UniqueConstraint(fields=["match", "side"], name="pair_hand_stats_unique"),
        ]
        indexes = [models.Index(fields=["club", "pair"])]

    def __str__(self) -> str:
        return f"{self.pair_id} in match {self.match_id}"


class PlayerHandStats(HandCounts):
    """A player's counts in one match he sat in: his side's (a hand record names the side
    that bets, never the seat)."""

    player = models.ForeignKey(
        "clubs.Player", on_delete=models.CASCADE, related_name="hand_stats")

    class Meta:
        ordering = ["match", "side", "player"]
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="player_hand_stats_unique"),
        ]
        indexes = [models.Index(fields=["club", "player"])]

    def __str__(self) -> str:
        return f"{self.player_id} in match {self.match_id}"


# --- the one-day tournament "a N ceros" (muscore.leagues.ceros_rounds) -------------------


class CerosDraft(models.Model):
    """The next round of a ceros tournament as drawn, waiting for an organiser to check and
    publish it (then it becomes an ordinary Round with its Matches, and this row goes).

    `tables` lists [table number, first entry pk, second entry pk]; `seed` is the draw's.
    """

    competition = models.OneToOneField(
        Competition, on_delete=models.CASCADE, related_name="ceros_draft"
    )
    number = models.PositiveSmallIntegerField()
    seed = models.CharField(max_length=32)
    tables = models.JSONField()
    bye = models.ForeignKey(
        Entry, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    made_at = models.DateTimeField(auto_now_add=True)
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )

    def __str__(self) -> str:
        return f"draft of round {self.number} of {self.competition}"


class CerosEvent(models.Model):
    """The log of a ceros tournament's rounds: each draw, re-draw, publication and
    discarded draft, who did it, when, and the tables drawn ([table, first, second] entry
    indices) with the pair resting."""

    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="ceros_events"
    )
    number = models.PositiveSmallIntegerField()
    action = models.CharField(max_length=10)
    at = models.DateTimeField(auto_now_add=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )
    tables = models.JSONField(default=list)
    bye = models.PositiveSmallIntegerField(null=True, blank=True)
    seed = models.CharField(max_length=32, blank=True, default="")

    class Meta:
        ordering = ["competition", "at", "id"]

    def __str__(self) -> str:
        return f"{self.action} of round {self.number} of {self.competition}"


# The workers' heartbeats: a model of this app, kept in its own module with what reads it.
from muscore.leagues.workers import WorkClaim, WorkerBeat  # noqa: E402, F401
