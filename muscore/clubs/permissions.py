"""Who may change a club's records: its organisers, and nobody else.

Every page or service that writes to a club (its players, pairs, competitions,
results) asks `require_organiser` first: a visitor or another club's organiser
gets a 403 and nothing is written.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from muscore.clubs.models import Club, Membership


def is_organiser(user: Any, club: Club) -> bool:
    """True when `user` (a Django user, maybe anonymous) organises `club`: an invitation
    the user has not accepted yet is not enough."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    return Membership.objects.filter(club=club, user=user, accepted=True).exists()


def require_organiser(user: Any, club: Club) -> None:
    """Raise PermissionDenied (a 403 page) unless `user` organises `club`."""
    if not is_organiser(user, club):
        raise PermissionDenied(
            _("Solo los organizadores de %(club)s pueden cambiar esto.") % {"club": club.name}
        )
