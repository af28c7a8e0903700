"""What the backfill commands (rate_players, count_hand_stats) share: the clubs to go over."""

from __future__ import annotations

from django.core.management.base import CommandError, CommandParser
from django.db.models import QuerySet

from muscore.clubs.models import Club


def add_club_argument(parser: CommandParser) -> None:
    parser.add_argument("--club", help="the club's slug (default: every club)")


def clubs(slug: str | None) -> QuerySet[Club]:
    """Every club, in creation order, or the one named; an unknown slug is refused."""
    found = Club.objects.order_by("pk")
    if slug is not None:
        found = found.filter(slug=slug)
        if not found.exists():
            raise CommandError(f"no club with the slug {slug!r}")
    return found
