"""The Django admin for clubs, organisers, players and pairs.

Players and pairs are written by the clubs' services (their names checked as text
(`muscore.text`), a pair that has played keeps its players, its competitions' kept pages
made again) and the club's audit by whatever changes it: the admin shows them and never
changes them (:class:`WrittenByTheApp`). It changes who organises a club.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from muscore.clubs.models import Club, ClubChange, Membership, Pair, PairMember, Player


class WrittenByTheApp:
    """Shown in the admin, never added, changed or deleted there: the app's own services
    write it, with the checks, the audit and the pages that follow (muscore.leagues.admin
    uses it too)."""

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class MembershipInline(admin.TabularInline[Membership, Club]):
    model = Membership
    fk_name = "club"
    extra = 0
    raw_id_fields = ["user", "invited_by"]


def championships_of(club: Club) -> list[str]:
    """The championships a club runs or hosts a venue of (asked through its related
    managers: the clubs sit below the championships and do not import them)."""
    run = club.championships.values_list("name", flat=True)
    hosted = club.sedes.values_list("championship__name", flat=True)
    return sorted(set(run) | set(hosted))


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin[Club]):
    list_display = ["name", "slug", "created_at"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]

    def get_actions(
        self, request: HttpRequest
    ) -> dict[str, tuple[Callable[..., str], str, str] | None]:
        # Deleted one at a time, where a club a championship holds is refused.
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    def delete_view(self, request: HttpRequest, object_id: str,
                    extra_context: dict[str, object] | None = None) -> HttpResponse:
        """A club a championship runs, or whose venue it drew, is not deleted (its heat,
        its entries and the groups drawn from them would go with it): 409, saying which."""
        club = self.get_object(request, object_id)
        held = championships_of(club) if club is not None else []
        if held:
            return HttpResponse(
                _("%(club)s es parte de %(holders)s: no se borra mientras ese campeonato "
                  "exista.") % {"club": club.name if club else "",
                                "holders": ", ".join(f"«{h}»" for h in held)},
                status=409, content_type="text/plain; charset=utf-8")
        return super().delete_view(request, object_id, extra_context)


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin[Membership]):
    list_display = ["user", "club", "invited_by", "created_at"]
    list_filter = ["club"]
    raw_id_fields = ["user", "invited_by"]


@admin.register(Player)
class PlayerAdmin(WrittenByTheApp, admin.ModelAdmin[Player]):
    list_display = ["name", "club", "created_at"]
    list_filter = ["club"]
    search_fields = ["name"]


class PairMemberInline(WrittenByTheApp, admin.TabularInline[PairMember, Pair]):
    model = PairMember
    extra = 0
    raw_id_fields = ["player"]


@admin.register(Pair)
class PairAdmin(WrittenByTheApp, admin.ModelAdmin[Pair]):
    list_display = ["name", "club", "created_at"]
    list_filter = ["club"]
    search_fields = ["name"]
    inlines = [PairMemberInline]


@admin.register(PairMember)
class PairMemberAdmin(WrittenByTheApp, admin.ModelAdmin[PairMember]):
    list_display = ["pair", "player", "position"]
    list_filter = ["pair__club"]
    raw_id_fields = ["pair", "player"]


@admin.register(ClubChange)
class ClubChangeAdmin(WrittenByTheApp, admin.ModelAdmin[ClubChange]):
    list_display = ["club", "at", "by", "what"]
    list_filter = ["club", "what"]
    raw_id_fields = ["by"]
