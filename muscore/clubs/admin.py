"""The Django admin for clubs, organisers, players and pairs."""

from __future__ import annotations

from django.contrib import admin

from muscore.clubs.models import Club, ClubChange, Membership, Pair, PairMember, Player


class MembershipInline(admin.TabularInline[Membership, Club]):
    model = Membership
    fk_name = "club"
    extra = 0
    raw_id_fields = ["user", "invited_by"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin[Club]):
    list_display = ["name", "slug", "created_at"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin[Membership]):
    list_display = ["user", "club", "invited_by", "created_at"]
    list_filter = ["club"]
    raw_id_fields = ["user", "invited_by"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin[Player]):
    list_display = ["name", "club", "created_at"]
    list_filter = ["club"]
    search_fields = ["name"]


class PairMemberInline(admin.TabularInline[PairMember, Pair]):
    model = PairMember
    extra = 0
    raw_id_fields = ["player"]


@admin.register(Pair)
class PairAdmin(admin.ModelAdmin[Pair]):
    list_display = ["name", "club", "created_at"]
    list_filter = ["club"]
    search_fields = ["name"]
    inlines = [PairMemberInline]


@admin.register(PairMember)
class PairMemberAdmin(admin.ModelAdmin[PairMember]):
    list_display = ["pair", "player", "position"]
    list_filter = ["pair__club"]
    raw_id_fields = ["pair", "player"]


@admin.register(ClubChange)
class ClubChangeAdmin(admin.ModelAdmin[ClubChange]):
    list_display = ["club", "at", "by", "what"]
    list_filter = ["club", "what"]
    raw_id_fields = ["by"]
