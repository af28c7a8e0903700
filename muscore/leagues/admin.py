"""The Django admin for competitions, their entries, groups, rounds, matches and audit,
and the pairs' results (claims, their log, the pairs' links).

A result has one owner (issue 17): every door that writes it goes through
`results.write`, which asks a correction's reason, keeps the audit, bumps the
competition's revision (its kept pages, export and cards are made again) and re-rates
the club. The admin is not such a door: what that path writes, and what is computed
from it, is shown here and never changed (:class:`WrittenByTheApp`); a result is
corrected on the competition's own pages. Of a competition, the admin changes only its
name (not of one a championship's draw placed) and whether it is archived or on the
bar's TV, and bumps its revision when it does.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.db.models.functions import Length
from django.http import HttpRequest

from muscore.clubs.admin import WrittenByTheApp
from muscore.leagues.changes import bump
from muscore.leagues.models import (
    CerosDraft,
    CerosEvent,
    ClaimEvent,
    Competition,
    Correction,
    DocumentBacklog,
    Entry,
    Group,
    LeagueImport,
    LeagueImportDocument,
    Match,
    PairHandStats,
    PlayerHandStats,
    PlayerRating,
    PreparedPart,
    RatingBacklog,
    RatingMatch,
    RatingPoint,
    ResultClaim,
    ResultRow,
    Round,
    SideKey,
    Stage,
    Tie,
    WorkClaim,
    WorkerBeat,
)
from muscore.leagues.results import consequences


class EntryInline(WrittenByTheApp, admin.TabularInline[Entry, Competition]):
    model = Entry
    extra = 0
    raw_id_fields = ["pair", "group"]


@admin.register(Competition)
class CompetitionAdmin(admin.ModelAdmin[Competition]):
    list_display = ["name", "club", "format", "legs", "status", "created_at"]
    list_filter = ["format", "status", "club"]
    search_fields = ["name", "club__name"]
    raw_id_fields = ["club", "drawn_by", "created_by"]
    inlines = [EntryInline]
    # Only these are changed here; the rest (its draw, rules, points, status, whether it
    # is rated) belongs to the services that keep its matches, ratings and pages in step.
    EDITABLE = ("name", "archived", "on_tv")

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        # One a championship's draw placed keeps the name its draw gave it.
        held = obj is not None and bool(consequences.holders(obj))
        return [f.name for f in Competition._meta.fields
                if f.name not in self.EDITABLE or (held and f.name == "name")]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: Competition, form: Any,
                   change: bool) -> None:
        super().save_model(request, obj, form, change)
        bump(obj)  # its kept pages, export and cards carry the new name


@admin.register(Group)
class GroupAdmin(WrittenByTheApp, admin.ModelAdmin[Group]):
    list_display = ["competition", "name", "order"]
    raw_id_fields = ["competition"]


@admin.register(Entry)
class EntryAdmin(WrittenByTheApp, admin.ModelAdmin[Entry]):
    list_display = ["competition", "index", "pair", "group"]
    raw_id_fields = ["competition", "pair", "group"]


@admin.register(Round)
class RoundAdmin(WrittenByTheApp, admin.ModelAdmin[Round]):
    list_display = ["competition", "number", "stage", "group", "starts_at"]
    raw_id_fields = ["competition", "group", "bye"]


@admin.register(Tie)
class TieAdmin(WrittenByTheApp, admin.ModelAdmin[Tie]):
    """A knockout's tie: its place in the bracket, its pairs; its games are matches."""

    list_display = ["competition", "round", "order", "first", "second", "best_of"]
    raw_id_fields = ["competition", "first", "second"]


@admin.register(Stage)
class StageAdmin(WrittenByTheApp, admin.ModelAdmin[Stage]):
    """What placed competitions (a championship's heat or phase), written by its draw."""

    list_display = ["within", "name", "drawn_at"]
    raw_id_fields = ["sources"]


@admin.register(Match)
class MatchAdmin(WrittenByTheApp, admin.ModelAdmin[Match]):
    list_display = ["competition", "number", "tie", "first", "second", "outcome"]
    raw_id_fields = ["competition", "round", "tie", "first", "second", "table", "result"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Match]:
        return super().get_queryset(request).select_related("result")


@admin.register(ResultRow)
class ResultRowAdmin(WrittenByTheApp, admin.ModelAdmin[ResultRow]):
    """A result as stored (a match's, a claim's, the audit's before and after)."""

    list_display = ["id", "competition", "__str__"]
    list_filter = ["source"]
    raw_id_fields = ["competition"]


@admin.register(Correction)
class CorrectionAdmin(WrittenByTheApp, admin.ModelAdmin[Correction]):
    list_display = ["competition", "match", "action", "by", "at"]
    raw_id_fields = ["competition", "match", "by", "before_result", "after_result"]
    readonly_fields = ["players_before", "players_after", "at"]


class ClaimEventInline(WrittenByTheApp, admin.TabularInline[ClaimEvent, ResultClaim]):
    model = ClaimEvent
    extra = 0
    raw_id_fields = ["by"]


@admin.register(ResultClaim)
class ResultClaimAdmin(WrittenByTheApp, admin.ModelAdmin[ResultClaim]):
    list_display = ["competition", "match", "side", "result", "status", "claimed_at",
                    "decided_at"]
    list_filter = ["status"]
    raw_id_fields = ["competition", "match", "first", "second", "decided_by"]
    inlines = [ClaimEventInline]


@admin.register(SideKey)
class SideKeyAdmin(WrittenByTheApp, admin.ModelAdmin[SideKey]):
    list_display = ["match", "side", "entry", "created_at"]
    raw_id_fields = ["match", "entry"]
    # The key is a pair's secret: the admin shows that it exists, not what it is.
    exclude = ["key"]


@admin.register(ClaimEvent)
class ClaimEventAdmin(WrittenByTheApp, admin.ModelAdmin[ClaimEvent]):
    list_display = ["claim", "action", "side", "by", "at"]
    list_filter = ["action"]
    raw_id_fields = ["claim", "by"]


# Player ratings (muscore.leagues.rating_store): computed from the results, so they are
# shown, not edited; `manage.py rate_players` recomputes them.
@admin.register(RatingMatch)
class RatingMatchAdmin(WrittenByTheApp, admin.ModelAdmin[RatingMatch]):
    list_display = ["match", "club", "arrived_at"]
    raw_id_fields = ["club", "match"]


@admin.register(RatingPoint)
class RatingPointAdmin(WrittenByTheApp, admin.ModelAdmin[RatingPoint]):
    list_display = ["player", "match", "won", "nivel", "matches", "arrived_at"]
    raw_id_fields = ["club", "player", "match"]


@admin.register(PlayerRating)
class PlayerRatingAdmin(WrittenByTheApp, admin.ModelAdmin[PlayerRating]):
    list_display = ["player", "club", "nivel", "mu", "sigma", "matches"]
    raw_id_fields = ["club", "player"]


# What the hands say (muscore.leagues.stats_store): counted from the tables' hands, so
# shown, not edited; `manage.py count_hand_stats` counts them again.
@admin.register(PairHandStats)
class PairHandStatsAdmin(WrittenByTheApp, admin.ModelAdmin[PairHandStats]):
    list_display = ["pair", "match", "side", "hands", "envites", "ordagos", "ordagos_won"]
    raw_id_fields = ["club", "match", "pair", "entry"]


@admin.register(PlayerHandStats)
class PlayerHandStatsAdmin(WrittenByTheApp, admin.ModelAdmin[PlayerHandStats]):
    list_display = ["player", "match", "side", "hands", "envites", "ordagos", "ordagos_won"]
    raw_id_fields = ["club", "match", "player"]


# The ceros tournaments' drafts and the log of their draws (muscore.leagues.ceros_rounds).
@admin.register(CerosDraft)
class CerosDraftAdmin(WrittenByTheApp, admin.ModelAdmin[CerosDraft]):
    list_display = ["competition", "number", "made_at"]
    raw_id_fields = ["competition", "bye", "made_by"]


@admin.register(CerosEvent)
class CerosEventAdmin(WrittenByTheApp, admin.ModelAdmin[CerosEvent]):
    list_display = ["competition", "number", "action", "at", "by"]
    list_filter = ["action"]
    raw_id_fields = ["competition", "by"]


@admin.register(RatingBacklog)
class RatingBacklogAdmin(admin.ModelAdmin[RatingBacklog]):
    """A club whose ratings the worker has still to bring up to date (read-only: the
    worker alone clears it; deleting one by hand would leave the ratings stale)."""

    list_display = ["club", "since_at", "version", "queued_at"]
    raw_id_fields = ["club"]

    def has_add_permission(self, request: object) -> bool:
        return False


@admin.register(DocumentBacklog)
class DocumentBacklogAdmin(admin.ModelAdmin[DocumentBacklog]):
    """A competition whose export and cards the worker has still to make."""

    list_display = ["competition", "queued_at"]
    raw_id_fields = ["competition"]

    def has_add_permission(self, request: object) -> bool:
        return False


@admin.register(PreparedPart)
class PreparedPartAdmin(admin.ModelAdmin[PreparedPart]):
    """A piece of an export or a card the worker made (read-only: made again from the
    competition; the body is not shown, an export's is a megabyte)."""

    list_display = ["competition", "kind", "revision", "part", "made_at"]
    list_filter = ["kind"]
    raw_id_fields = ["competition"]
    exclude = ["body"]

    def has_add_permission(self, request: object) -> bool:
        return False

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False


@admin.register(LeagueImportDocument)
class LeagueImportDocumentAdmin(admin.ModelAdmin[LeagueImportDocument]):
    """A large import's checked document: which import and how long, never the text
    itself (megabytes) and never changed (the worker reads it as checked)."""

    list_display = ["league_import", "length"]
    fields = ["league_import", "length"]
    readonly_fields = ["league_import", "length"]

    @admin.display(description="characters")
    def length(self, obj: LeagueImportDocument) -> int:
        return int(getattr(obj, "_length", 0))

    def get_queryset(self, request: HttpRequest) -> QuerySet[LeagueImportDocument]:
        # The length without fetching megabytes for each row of the list.
        return super().get_queryset(request).defer("text").annotate(_length=Length("text"))

    def has_add_permission(self, request: object) -> bool:
        return False

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False


@admin.register(LeagueImport)
class LeagueImportAdmin(admin.ModelAdmin[LeagueImport]):
    """A large import the worker writes in batches, or wrote, or failed (why); its
    document (megabytes) is a row of its own, not shown."""

    list_display = ["name", "club", "competition", "written", "total", "created_at",
                    "finished_at", "error"]
    raw_id_fields = ["club", "competition", "created_by"]

    def has_add_permission(self, request: object) -> bool:
        return False

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False


@admin.register(WorkerBeat)
class WorkerBeatAdmin(admin.ModelAdmin[WorkerBeat]):
    """The workers running now and when each last beat (read-only: each worker writes its
    own, muscore.leagues.workers; /healthz reads them)."""

    list_display = ["worker_id", "host", "pid", "queues", "started_at", "seen_at"]

    def has_add_permission(self, request: object) -> bool:
        return False

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False


@admin.register(WorkClaim)
class WorkClaimAdmin(admin.ModelAdmin[WorkClaim]):
    """The work a worker is doing now (read-only: taken and given back by the workers)."""

    list_display = ["key", "worker_id", "until"]

    def has_add_permission(self, request: object) -> bool:
        return False

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False
