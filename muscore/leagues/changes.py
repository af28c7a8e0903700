"""What every change of a competition goes through, whichever service makes it: who may
(its club's organisers), the lock on the match it changes, the revision it bumps (the
ETag of its pages and documents, its export and cards queued for the worker), and the
error it refuses with, in a person's words."""

from __future__ import annotations

from django.db.models import F
from django.utils.translation import gettext as _

from muscore.clubs.models import Club
from muscore.clubs.permissions import Actor, require_organiser
from muscore.leagues.compute.errors import LeagueError
from muscore.leagues.models import Competition, DocumentBacklog, Match
from muscore.leagues.signals import revisions_moved
from muscore.messages import WordedError, league_message
from muscore.rules import Rules


class CompetitionError(WordedError):
    """A change a competition refuses; str() says why, for a person."""

    family = "competition"


def check_organiser(by: Actor, club: Club) -> None:
    require_organiser(by, club)


def bump(competition: Competition) -> None:
    """One more revision of `competition` (what its pages and documents are kept by)."""
    Competition.objects.filter(pk=competition.pk).update(revision=F("revision") + 1)
    # Its export and cards are made again outside the request (muscore.leagues.prepared).
    DocumentBacklog.add([competition.pk])
    revisions_moved.send(sender=Competition, competitions=[competition.pk])
    competition.refresh_from_db(fields=["revision", "status"])


def competition_rules(competition: Competition) -> Rules:
    return Rules.from_json(competition.rules)


def league_error(error: LeagueError) -> CompetitionError:
    return CompetitionError(league_message(error))


def lock_match(match: Match) -> Match:
    """`match` as it is now, its row locked for the rest of the transaction."""
    return (Match.objects.select_for_update(of=("self", "competition")).with_outcome()
            .select_related("competition").get(pk=match.pk))


def writable_match(match: Match, by: Actor) -> Match:
    """`match` locked for a change by `by`, one of its club's organisers, once both its
    pairs are known (CompetitionError otherwise; PermissionDenied for anybody else)."""
    check_organiser(by, match.competition.club)
    locked = lock_match(match)
    if locked.first_id is None or locked.second_id is None:
        raise CompetitionError(_("Esta partida aún no tiene sus dos parejas."))
    return locked
