"""A club's business logic: create it, invite organisers, give a new password link,
save players and pairs. The pages (muscore.clubs.views) sit on these functions.

Every write runs in one transaction: a refused change leaves nothing behind.
Permissions are checked by the caller (muscore.clubs.permissions) before calling.
"""

from __future__ import annotations

from typing import TypedDict

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.text import slugify
from django.utils.translation import gettext as _

from muscore.clubs import holders
from muscore.clubs.models import (
    NAME_MAX,
    Club,
    ClubChange,
    Membership,
    Pair,
    PairMember,
    Player,
)
from muscore.clubs.people import name_key, player_ids, player_named
from muscore.clubs.permissions import Actor, stored_user
from muscore.messages import WordedError


class ClubError(WordedError):
    """A change a club's page refuses; str() says why, for a person."""

    family = "club"


def unique_slug(name: str) -> str:
    """The club's address from its name: 'Bar Txoko' -> 'bar-txoko', then -2, -3... if taken."""
    base = slugify(name)[: NAME_MAX - 4] or "club"
    slug, n = base, 1
    while Club.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def _audit(club: Club, by: Actor | None, what: str, before: object, after: object) -> None:
    user = stored_user(by)
    ClubChange.objects.create(club=club, by=user, what=what, before=before, after=after)


@transaction.atomic
def create_club(name: str, *, organiser: Actor) -> Club:
    """A new club whose first organiser is `organiser` (a saved user; a visitor gets a
    403: the pages make an account first)."""
    user = stored_user(organiser)
    if user is None:
        raise PermissionDenied
    club = Club.objects.create(name=name, slug=unique_slug(name))
    Membership.objects.create(club=club, user=user)
    _audit(club, organiser, "club", None, {"name": name, "slug": club.slug})
    return club


@transaction.atomic
def rename_club(club: Club, name: str, *, by: Actor) -> Club:
    """A new name; the club's address (its slug) stays, so printed links keep working."""
    before = {"name": club.name}
    club.name = name
    club.save(update_fields=["name"])
    _audit(club, by, "club", before, {"name": name})
    return club


def create_account_and_club(name: str, *, username: str, password: str) -> tuple[User, Club]:
    """Whoever starts a club without an account gets one, as its first organiser.

    The password is hashed before the transaction starts: the hasher takes a good part of
    a second on purpose, and on SQLite the transaction holds the one write lock of the
    whole site (every other table's write would wait for it).
    """
    model = get_user_model()
    # Asked and saved as Django stores it (NFKC): "ｉｋｅｒ" is the taken "iker", not a 500.
    username = model.normalize_username(username)
    user = model(username=username, password=make_password(password))
    with transaction.atomic():
        if model.objects.filter(username__iexact=username).exists():
            # Asked here, once everything else is valid and the request counted against the
            # creation limit, with one answer for every refusal: no free probe for usernames.
            raise ClubError(_("Ese nombre de usuario no se puede usar: elige otro."))
        user.save()
        return user, create_club(name, organiser=user)


class AccountLinkTokens(PasswordResetTokenGenerator):
    """Django's password-reset tokens that also die when the account joins or is invited
    to another club: a link its inviter asked for before cannot be kept and used once the
    account belongs to someone else's club too (issue #21: X invites, Y adds, X resets)."""

    def _make_hash_value(self, user: User, timestamp: int) -> str:
        clubs = Membership.objects.filter(user=user).order_by("pk").values_list("pk", flat=True)
        return super()._make_hash_value(user, timestamp) + "|" + ",".join(map(str, clubs))


account_tokens = AccountLinkTokens()


class InvitationTokens(PasswordResetTokenGenerator):
    """The invitation link of an account that already has its password: it sets nothing
    (its page says to log in and accept), so an invitation gives the inviter the same kind
    of link whether or not the username existed. It dies once the invitation is answered."""

    key_salt = "muscore.clubs.services.InvitationTokens"

    def _make_hash_value(self, user: User, timestamp: int) -> str:
        clubs = Membership.objects.filter(user=user).order_by("pk").values_list("pk", "accepted")
        return super()._make_hash_value(user, timestamp) + "|" + ",".join(
            f"{pk}{'a' if accepted else 'p'}" for pk, accepted in clubs)


invitation_tokens = InvitationTokens()


def password_link(user: User) -> str:
    """The path where `user` sets a new password: valid once, for PASSWORD_RESET_TIMEOUT.

    It stops working once the password changes, and once the account's clubs change.
    """
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = account_tokens.make_token(user)
    return reverse("clubs:set_password", args=[uid, token])


@transaction.atomic
def invite(club: Club, username: str, *, by: Actor) -> tuple[Membership, str]:
    """Invite `username` to organise `club`, by `by`; returns the invitation and its link.

    Whether the username existed or not, the answer is the same (a pending invitation and
    a link of the same form): the invite form tells no stranger which usernames exist.
    A new username gets an account without a password, and its link sets one (and
    accepts). An existing account belongs to whoever it is: its link only says to log in
    and accept (`answer_invitation`); only whoever made an account may reset its password,
    and only while it is in no other club.
    """
    users = get_user_model().objects
    # Django stores usernames NFKC-normalised: "ｉｋｅｒ" finds "iker" instead of failing on
    # the unique column.
    username = users.model.normalize_username(username)
    user = users.filter(username__iexact=username).first()
    created = user is None
    if user is None:
        user = users.create_user(username=username)  # no password: it cannot log in yet
    elif Membership.objects.filter(club=club, user=user).exists():
        raise ClubError(_("%(user)s ya organiza este club.") % {"user": user.get_username()})
    membership = Membership.objects.create(
        club=club, user=user, invited_by=stored_user(by), created_account=created, accepted=False
    )
    _audit(club, by, "organiser", None, {"user": user.get_username(), "new_account": created})
    return membership, invitation_link(membership)


def invitation_link(membership: Membership) -> str:
    """A pending invitation's link: for an account it made that has no password yet and is
    in no other club, the link to choose one; for any other, a link of the same form that
    sets nothing (never a way into someone else's account)."""
    user = membership.user
    if (membership.created_account and not user.has_usable_password()
            and not Membership.objects.filter(user=user).exclude(pk=membership.pk).exists()):
        return password_link(user)
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    return reverse("clubs:set_password", args=[uid, invitation_tokens.make_token(user)])


def accept_created(user: User) -> None:
    """An account made by an invitation has chosen its password: it organises the clubs
    whose invitation made it."""
    Membership.objects.filter(user=user, created_account=True, accepted=False).update(
        accepted=True)


def pending_invitations(user: Actor) -> list[Membership]:
    """The clubs that invited `user` and wait for an answer."""
    if not isinstance(user, User):
        return []
    rows = Membership.objects.filter(user=user, accepted=False).select_related("club", "invited_by")
    return list(rows)


@transaction.atomic
def answer_invitation(membership: Membership, *, accept: bool) -> None:
    """The invited account's own answer: it organises the club, or the invitation goes."""
    club, user = membership.club, membership.user
    if accept:
        membership.accepted = True
        membership.save(update_fields=["accepted"])
        _audit(club, user, "organiser", None, {"user": user.get_username(), "accepted": True})
    else:
        membership.delete()
        _audit(club, user, "organiser", {"user": user.get_username()}, None)


def can_reset_password(membership: Membership, by: Actor) -> bool:
    """Only the organiser whose invitation made the account resets its password, only while
    the account belongs to no other club (invited there or organising it: then it may be
    someone else's), and never an administrator's (reset from the command line)."""
    user = membership.user
    return (
        membership.accepted
        and membership.created_account
        and membership.invited_by_id is not None
        and membership.invited_by_id == getattr(by, "pk", None)
        and not (user.is_staff or user.is_superuser)
        and not Membership.objects.filter(user=user).exclude(pk=membership.pk).exists()
    )


def can_resend_invitation(membership: Membership, by: Actor) -> bool:
    """Whoever invited may see a pending invitation's link again (the same for every
    account: it tells nothing of whether the account is new)."""
    return (not membership.accepted and membership.invited_by_id is not None
            and membership.invited_by_id == getattr(by, "pk", None))


def reset_password_link(membership: Membership, *, by: Actor) -> str:
    """A pending invitation's link again (to its inviter), or a new-password link for an
    account the organiser made (`can_reset_password`)."""
    if can_resend_invitation(membership, by):
        return invitation_link(membership)
    if not can_reset_password(membership, by):
        raise ClubError(_("Solo quien invitó a este organizador puede darle una contraseña nueva."))
    return password_link(membership.user)


@transaction.atomic
def save_player(club: Club, name: str, player: Player | None = None, *,
                by: Actor | None = None) -> Player:
    """A new player, or a player's name corrected (audited). A player of a pair a
    championship's draw placed keeps who he is (his spelling may still be corrected)."""
    if player is None:
        player = Player.objects.create(club=club, name=name)
        _audit(club, by, "player", None, {"id": player.pk, "name": name})
        return player
    if name_key(name) != name_key(player.name):  # another person, not a spelling
        held = sorted({h for pair in Pair.objects.filter(members__player=player)
                       for h in holders.of_pair(pair)})
        if held:  # its pair's players are its championship entry's
            raise ClubError(
                _("%(name)s juega en %(holders)s: su pareja es la de su inscripción y no cambia "
                  "desde el club.") % {"name": player.name,
                                       "holders": ", ".join(f"«{h}»" for h in held)})
    before = {"id": player.pk, "name": player.name}
    player.name = name
    player.save(update_fields=["name"])
    _audit(club, by, "player", before, {"id": player.pk, "name": name})
    return player


def _player_named(club: Club, name: str) -> Player:
    found = player_named(club.pk, name)  # one person however written (muscore.clubs.people)
    return found or Player.objects.create(club=club, name=name)


class PairRecord(TypedDict):
    """A pair as its audit entry keeps it, before and after a change."""

    id: int
    name: str
    players: list[str]


def _pair_record(pair: Pair) -> PairRecord:
    return {"id": pair.pk, "name": pair.name, "players": pair.player_names()}


def pair_with_players(
    club: Club, players: list[str], *, besides: Pair | None = None
) -> Pair | None:
    """The club's pair (other than `besides`) made of exactly `players`, in any seat order,
    the names read by the Spanish key (muscore.clubs.people: case and accents aside); None
    if there is none."""
    first = player_ids(club.pk, players[:1]).get(players[0]) if players else None
    if first is None:
        return None
    wanted = sorted(name_key(n) for n in players)
    candidates = club.pairs.filter(players__pk=first).prefetch_related("members__player")
    if besides is not None:
        candidates = candidates.exclude(pk=besides.pk)
    for candidate in candidates:
        if sorted(name_key(n) for n in candidate.player_names()) == wanted:
            return candidate
    return None


@transaction.atomic
def save_pair(
    club: Club,
    name: str,
    players: list[str],
    pair: Pair | None = None,
    *,
    by: Actor | None = None,
    same_players_ok: bool = False,
) -> Pair:
    """A pair of `players` (names: a new one joins the club), in that seat order.

    A pair that has played keeps its players: its results say who sat (a substitute for
    one match is entered on that match); its name may still be corrected. Two pairs of a
    club never have the same players (one person would sit at two tables of a draw), unless
    `same_players_ok`: a championship's heat and final phase each make their own pair of
    one enrolment, and the venue may be the championship's own club.
    """
    if len(players) not in (2, 3):
        raise ClubError(_("Una pareja tiene dos jugadores (tres en mus a 6)."))
    twin = None if same_players_ok else pair_with_players(club, players, besides=pair)
    if twin is not None:
        raise ClubError(
            _("%(pair)s ya tiene esos jugadores: elige esa pareja en vez de hacer otra.")
            % {"pair": twin.name}
        )
    before = None
    if pair is None:
        pair = Pair.objects.create(club=club, name=name)
    else:
        held = holders.of_pair(pair)
        if held:  # its name and players are its championship entry's
            raise ClubError(
                _("%(pair)s juega en %(holders)s: su nombre y sus jugadores son los de su "
                  "inscripción y no cambian desde el club.")
                % {"pair": pair.name, "holders": ", ".join(f"«{h}»" for h in held)})
        before = _pair_record(pair)
        same = [name_key(n) for n in before["players"]] == [name_key(n) for n in players]
        # Asked through the club's competitions (a related manager): clubs sits below
        # leagues and does not import it. One filter() call: one match, played, by this pair.
        played = club.competitions.filter(
            Q(matches__first__pair=pair) | Q(matches__second__pair=pair),
            matches__result__isnull=False,
        )
        if not same and played.exists():
            raise ClubError(
                _(
                    "%(pair)s ya ha jugado: sus jugadores no cambian. Un suplente se anota en "
                    "su partida; una pareja distinta es una pareja nueva."
                )
                % {"pair": pair.name}
            )
        pair.name = name
        pair.save(update_fields=["name"])
        if same:
            _audit(club, by, "pair", before, _pair_record(pair))
            return pair
        pair.members.all().delete()
    PairMember.objects.bulk_create(
        PairMember(pair=pair, player=_player_named(club, n), position=i)
        for i, n in enumerate(players)
    )
    _audit(club, by, "pair", before, _pair_record(pair))
    return pair

