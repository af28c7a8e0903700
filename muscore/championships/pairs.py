"""A championship's pairs in the clubs that play them: each entry's pair in its venue's club
(the heat) and in the championship's club (the phases, the knockout's ties), and who acts
for a club whose organiser is the championship's."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from muscore.championships.errors import ChampionshipError
from muscore.championships.models import Championship, Enrolment
from muscore.clubs.models import NAME_MAX, Club, ClubChange, Pair, PairMember, Player
from muscore.clubs.permissions import Actor, is_organiser, stored_user
from muscore.clubs.services import save_pair


def unique_pair_name(club: Club, name: str, suffix: str) -> str:
    """``name`` if no pair of ``club`` has it, else ``name (suffix)``, then numbered."""
    if not Pair.objects.filter(club=club, name__iexact=name).exists():
        return name
    candidate = f"{name} ({suffix})"[:NAME_MAX]
    number = 2
    while Pair.objects.filter(club=club, name__iexact=candidate).exists():
        candidate = f"{name} ({suffix} {number})"[:NAME_MAX]
        number += 1
    return candidate


def make_phase_pairs(championship: Championship, enrolments: Sequence[Enrolment],
                     by: Actor) -> None:
    """Each enrolment's pair in the championship's club, made for all those without one in
    a fixed number of queries (a phase of 448 pairs made them one by one in thousands):
    the players by name (a name already in the club is that player), the pairs with
    names unique in the club, their members, and the club's audit of each new pair."""
    todo = [e for e in enrolments if e.phase_pair_id is None]
    if not todo:
        return
    club = championship.club
    taken = {name.lower() for name in Pair.objects.filter(club=club).values_list(
        "name", flat=True)}
    players = {p.name.lower(): p for p in Player.objects.filter(club=club)}
    new_players = []
    for enrolment in todo:
        for name in enrolment.players:
            if name.lower() not in players:
                players[name.lower()] = Player(club=club, name=name)
                new_players.append(players[name.lower()])
    Player.objects.bulk_create(new_players)
    pairs = []
    for enrolment in todo:
        name = enrolment.name
        if name.lower() in taken:  # as _unique_pair_name: the venue's name, then a number
            name, number = f"{enrolment.name} ({enrolment.sede.name})"[:NAME_MAX], 2
            while name.lower() in taken:
                name = f"{enrolment.name} ({enrolment.sede.name} {number})"[:NAME_MAX]
                number += 1
        taken.add(name.lower())
        pairs.append(Pair(club=club, name=name, placed_by=championship.name))
    Pair.objects.bulk_create(pairs)
    PairMember.objects.bulk_create(
        PairMember(pair=pair, player=players[name.lower()], position=i)
        for pair, enrolment in zip(pairs, todo, strict=True)
        for i, name in enumerate(enrolment.players))
    user = stored_user(by)
    ClubChange.objects.bulk_create(
        ClubChange(club=club, by=user, what="pair", before=None, after={
            "id": pair.pk, "name": pair.name,
            "players": [players[n.lower()].name for n in enrolment.players]})
        for pair, enrolment in zip(pairs, todo, strict=True))
    for pair, enrolment in zip(pairs, todo, strict=True):
        enrolment.phase_pair = pair
    Enrolment.objects.bulk_update(todo, ["phase_pair"])


def heat_pair(enrolment: Enrolment, by: Actor) -> Pair:
    """The enrolment's pair in its venue's club, made the first time."""
    if enrolment.heat_pair_id is None:
        club = enrolment.sede.club
        enrolment.heat_pair = save_pair(
            club, unique_pair_name(club, enrolment.name, enrolment.championship.name),
            enrolment.players, by=by, same_players_ok=True)
        placed(enrolment.heat_pair, enrolment.championship)
        enrolment.save(update_fields=["heat_pair"])
    assert enrolment.heat_pair is not None
    return enrolment.heat_pair


def phase_pair(enrolment: Enrolment) -> Pair:
    """The enrolment's pair in the championship's club, made the first time."""
    if enrolment.phase_pair_id is None:
        club = enrolment.championship.club
        enrolment.phase_pair = save_pair(
            club, unique_pair_name(club, enrolment.name, enrolment.sede.name),
            enrolment.players, same_players_ok=True)
        placed(enrolment.phase_pair, enrolment.championship)
        enrolment.save(update_fields=["phase_pair"])
    assert enrolment.phase_pair is not None
    return enrolment.phase_pair


def placed(pair: Pair, championship: Championship) -> None:
    """``pair`` is the championship's entry's: the club's doors leave it as the entry made
    it, naming the championship (muscore.clubs.holders)."""
    Pair.objects.filter(pk=pair.pk).update(placed_by=championship.name)
    pair.placed_by = championship.name


def acting(by: Actor | None, club: Club) -> User:
    """Who writes for ``club``: ``by`` if he organises it, else its first organiser."""
    # A championship organiser acts for a venue's club: the league's checks ask the club's
    # organisers, so its write is made as one of them (the audit keeps who that is).
    user = stored_user(by)
    if user is not None and is_organiser(user, club):
        return user
    membership = club.memberships.select_related("user").order_by("id").first()
    if membership is None:
        raise ChampionshipError(_("%(club)s no tiene organizadores.") % {"club": club.name})
    return membership.user
