"""A club's roster over time (issue 17): retire a player or a pair, and merge two players.

- `set_retired(item, retired, *, by)`: a Player or a Pair off the club's lists and the draw
  of new competitions (create_competition refuses a retired pair), or back on them. Nothing
  played is touched: results, standings, rating history and hand stats keep them.
- `merge_players(keep, gone, *, by)`: `gone` was the same person as `keep` (entered twice,
  a nickname): every pair, every result he sat in as a substitute, his rating history and
  his hand stats follow to `keep`, the ratings are re-derived (so they equal a fresh
  `rate_players`) and `gone` is deleted; audited in the club's changes. Refused
  (MergeRefused, nothing written) when the merged person would sit twice: both in one
  pair, both in one competition (different pairs or the same), or in one match.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import F, Q
from django.utils.translation import gettext as _

from muscore.clubs import holders
from muscore.clubs.models import ClubChange, Pair, PairMember, Player
from muscore.clubs.permissions import Actor, require_organiser, stored_user
from muscore.leagues import rating_store
from muscore.leagues.changes import CompetitionError
from muscore.leagues.competitions import touch_pairs
from muscore.leagues.models import (
    Competition,
    Entry,
    Match,
    PlayerHandStats,
    PlayerRating,
    RatingPoint,
)
from muscore.leagues.results.consequences import named
from muscore.leagues.signals import revisions_moved


class MergeRefused(CompetitionError):
    """Two players that cannot be one person: str() says where he would sit twice."""


class RetireRefused(CompetitionError):
    """A pair or player a championship's draw placed: str() says which holds it."""

    status = 409


def _log(club_id: int, by: Actor | None, what: str, before: Any, after: Any) -> None:
    user = stored_user(by)
    ClubChange.objects.create(club_id=club_id, by=user, what=what, before=before, after=after)


@transaction.atomic
def set_retired(item: Player | Pair, retired: bool, *, by: Actor) -> None:
    """Retire `item` (a Player or a Pair) or bring it back; audited in the club's changes."""
    require_organiser(by, item.club)
    if item.retired == retired:
        return
    held = held_by(item) if retired else []
    if held:  # a retired pair is refused by the next game its draw makes
        raise RetireRefused(
            _("%(name)s juega en %(holders)s: no se retira desde el club mientras su "
              "campeonato la tenga (su retirada la anota el organizador de su sede).")
            % {"name": item.name, "holders": named(held)})
    kind = "player" if isinstance(item, Player) else "pair"
    type(item).objects.filter(pk=item.pk).update(retired=retired)
    item.retired = retired
    _log(item.club_id, by, f"retire_{kind}" if retired else f"restore_{kind}",
         {"name": item.name}, {"name": item.name, "retired": retired})
    if isinstance(item, Pair):
        touch_pairs([item.pk])


def held_by(item: Player | Pair) -> list[str]:
    """What outside the club holds a pair, or a pair of a player (a championship's draw:
    muscore.clubs.holders)."""
    pairs = [item] if isinstance(item, Pair) else list(
        Pair.objects.filter(members__player=item).distinct())
    return sorted({name for pair in pairs for name in holders.of_pair(pair)})


def _competitions_of(player: Player) -> dict[int, set[int]]:
    """The competitions `player` plays in, each with the pairs (entry ids) he sits for:
    his pairs' entries, and the matches he sat in as a substitute."""
    played: dict[int, set[int]] = {}
    for competition_id, entry_id in Entry.objects.filter(
            pair__members__player=player).values_list("competition_id", "pk"):
        played.setdefault(competition_id, set()).add(entry_id)
    name = player.name.lower()
    for m in _sat_in(player):
        for side, names in enumerate((m.players_first, m.players_second)):
            if names and name in (n.lower() for n in names):
                entry = m.first_id if side == 0 else m.second_id
                played.setdefault(m.competition_id, set()).add(entry or 0)
    return played


def _sat_in(player: Player) -> list[Match]:
    """The club's matches naming `player` among who sat (a substitute)."""
    candidates = Match.objects.filter(competition__club_id=player.club_id).filter(
        Q(players_first__isnull=False) | Q(players_second__isnull=False)).only(
        "pk", "competition_id", "first_id", "second_id", "players_first", "players_second")
    name = player.name.lower()
    return [m for m in candidates
            if any(n.lower() == name for side in (m.players_first, m.players_second)
                   for n in side or [])]


def check_merge(keep: Player, gone: Player) -> None:
    """MergeRefused when `keep` and `gone` cannot be one person (see the module)."""
    if keep.pk == gone.pk or keep.club_id != gone.club_id:
        raise MergeRefused(_("Elige a otro jugador del mismo club."))
    held = held_by(gone)
    if held:  # its pair's players are its championship entry's
        raise MergeRefused(
            _("%(name)s juega en %(holders)s: su pareja es la de su inscripción y no cambia "
              "desde el club.") % {"name": gone.name, "holders": named(held)})
    shared = Pair.objects.filter(members__player=keep).filter(members__player=gone).first()
    if shared is not None:
        raise MergeRefused(
            _("%(a)s y %(b)s juegan juntos en la pareja %(pair)s: no pueden ser la misma "
              "persona.") % {"a": keep.name, "b": gone.name, "pair": shared.name})
    kept, went = _competitions_of(keep), _competitions_of(gone)
    common = sorted(set(kept) & set(went))
    if common:
        competition = Competition.objects.get(pk=common[0])
        raise MergeRefused(
            _("%(a)s y %(b)s juegan los dos en %(competition)s: una persona entra en una "
              "competición una sola vez, así que no pueden ser la misma.")
            % {"a": keep.name, "b": gone.name, "competition": competition.title})
    # A pair of `gone` with the same players as one of `keep`'s would be two pairs of one
    # pair of people (the club refuses those): the organiser retires or changes one first.
    keep_pairs = {frozenset(p for p in _members(pair) if p != keep.pk): pair
                  for pair in Pair.objects.filter(members__player=keep)}
    for pair in Pair.objects.filter(members__player=gone):
        twin = keep_pairs.get(frozenset(p for p in _members(pair) if p != gone.pk))
        if twin is not None:
            raise MergeRefused(
                _("Las parejas %(a)s y %(b)s quedarían con los mismos jugadores: cambia o "
                  "retira una antes de fusionar.") % {"a": twin.name, "b": pair.name})


def _members(pair: Pair) -> list[int]:
    return list(PairMember.objects.filter(pair=pair).values_list("player_id", flat=True))


@transaction.atomic
def merge_players(keep: Player, gone: Player, *, by: Actor) -> Player:
    """`gone` becomes `keep` everywhere (see the module); returns `keep`."""
    require_organiser(by, keep.club)
    keep = Player.objects.select_for_update().get(pk=keep.pk)
    gone = Player.objects.select_for_update().get(pk=gone.pk)
    check_merge(keep, gone)
    pairs = list(PairMember.objects.filter(player=gone).values_list("pair_id", flat=True))
    matches = _sat_in(gone)
    # The earliest place where the merged history differs: the ratings are replayed from it.
    first = (RatingPoint.objects.filter(player=gone).order_by("arrived_at", "match_id")
             .values_list("arrived_at", "match_id").first())
    before = {"keep": keep.name, "gone": gone.name, "pairs": len(pairs),
              "substitute_in": len(matches),
              "rated": RatingPoint.objects.filter(player=gone).count()}
    PairMember.objects.filter(player=gone).update(player=keep)
    name = gone.name.lower()
    for m in matches:
        for field in ("players_first", "players_second"):
            names = getattr(m, field)
            if names:
                setattr(m, field, [keep.name if n.lower() == name else n for n in names])
        m.save(update_fields=["players_first", "players_second"])  # its document text too
    PlayerHandStats.objects.filter(player=gone).update(player=keep)
    RatingPoint.objects.filter(player=gone).delete()
    PlayerRating.objects.filter(player=gone).delete()
    gone.delete()
    if first is not None:
        rating_store.rerate(keep.club_id, first)
    # Their documents name who sat: the cached copies (keyed by revision) go.
    moved = {m.competition_id for m in matches}
    Competition.objects.filter(pk__in=moved).update(revision=F("revision") + 1)
    revisions_moved.send(sender=Competition, competitions=sorted(moved))
    touch_pairs(pairs)
    _log(keep.club_id, by, "merge_players", before, {"name": keep.name})
    return keep
