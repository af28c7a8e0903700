"""The Django admin for competitions, their entries, groups, rounds, matches and audit."""

from __future__ import annotations

from django.contrib import admin

from muscore.leagues.models import Competition, Correction, Entry, Group, Match, Round


class EntryInline(admin.TabularInline[Entry, Competition]):
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


@admin.register(Group)
class GroupAdmin(admin.ModelAdmin[Group]):
    list_display = ["competition", "name", "order"]
    raw_id_fields = ["competition"]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin[Entry]):
    list_display = ["competition", "index", "pair", "group"]
    raw_id_fields = ["competition", "pair", "group"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin[Round]):
    list_display = ["competition", "number", "stage", "group", "starts_at"]
    raw_id_fields = ["competition", "group", "bye"]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin[Match]):
    list_display = ["competition", "number", "slot", "first", "second", "source",
                    "juegos_first", "juegos_second"]
    list_filter = ["source"]
    raw_id_fields = ["competition", "round", "first", "second", "table"]


@admin.register(Correction)
class CorrectionAdmin(admin.ModelAdmin[Correction]):
    list_display = ["competition", "match", "action", "by", "at"]
    raw_id_fields = ["competition", "match", "by"]
    readonly_fields = ["before", "after", "at"]
