"""Who may change a club's records: its organisers, and nobody else.

Every page or service that writes to a club (its players, pairs, competitions,
results) asks `require_organiser` first: a visitor or another club's organiser
gets a 403 and nothing is written.
"""

from __future__ import annotations

from typing import TypeAlias

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from muscore.clubs.models import Club, Membership

#: Who acts on a club's records: the request's user, signed in (an organiser, as
#: `require_organiser` checks) or an anonymous visitor, whom the checks refuse.
Actor: TypeAlias = User | AnonymousUser


def stored_user(by: Actor | None) -> User | None:
    """The user an audit row or a record's author keeps: the signed-in one; None for a
    visitor or for the app itself (a command, a table's signal)."""
    return by if isinstance(by, User) else None


def is_organiser(user: Actor | None, club: Club) -> bool:
    """True when `user` (a Django user, maybe anonymous) organises `club`: an invitation
    the user has not accepted yet is not enough."""
    if not isinstance(user, User) or not user.is_active:
        return False
    return Membership.objects.filter(club=club, user=user, accepted=True).exists()


def require_organiser(user: Actor | None, club: Club) -> None:
    """Raise PermissionDenied (a 403 page) unless `user` organises `club`."""
    if not is_organiser(user, club):
        raise PermissionDenied(
            _("Solo los organizadores de %(club)s pueden cambiar esto.") % {"club": club.name}
        )
