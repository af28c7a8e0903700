"""An entry of the public form holds no seat until it is confirmed (issue 28 point 3).

As a federation's volunteers run it: the venue's organiser sees the entries waiting for
their confirmation on the venue's page and confirms or rejects each (he knows the bar's
pairs, or calls the contact). He may instead send the pair its link (or show it at the
bar): the pair opens it and confirms itself. Until then the entry takes no seat and no
place on the waiting list, holds none of its players (a false entry cannot keep a real
player out), and the quotas, the heats and the draw do not see it. A confirmation is
refused once the entries are closed, if a player is by then in a confirmed pair, or if
its name is by then a confirmed pair's of its venue (a pending entry holds no name).

The pair's link is the entry's id signed with the site's secret (django.core.signing):
nothing is stored for it, a changed or made-up link is refused, and once the entry is
confirmed (or rejected) the same link confirms nothing again.
"""

from __future__ import annotations

from datetime import datetime

from django.core import signing
from django.db import transaction
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext as _

from muscore.championships import kept
from muscore.championships.models import Championship, Enrolment
from muscore.championships.services import (
    ChampionshipError,
    entries_open,
    name_taken,
    person_taken,
    require_sede,
    seat_status,
)
from muscore.clubs.permissions import Actor

_SALT = "muscore.championships.confirm"


def link_key(enrolment: Enrolment) -> str:
    """The key of the pair's confirmation link (the signature of the entry's id)."""
    return signing.Signer(salt=_SALT).signature(str(enrolment.pk))


def key_matches(enrolment: Enrolment, key: str) -> bool:
    return constant_time_compare(key[:200], link_key(enrolment))


class LinkRefused(ChampionshipError):
    """A confirmation link that is not this entry's (404: no such link)."""

    status = 404


class AlreadyDecided(ChampionshipError):
    """The entry was confirmed or rejected already: the link (or the button) again."""

    status = 409


def _locked(enrolment: Enrolment) -> tuple[Championship, Enrolment]:
    # The championship's row first, as enter_pair does: two confirmations naming one
    # person cannot both pass.
    championship = Championship.objects.select_for_update().get(pk=enrolment.championship_id)
    found = Enrolment.objects.select_for_update().select_related("sede").get(pk=enrolment.pk)
    return championship, found


def _decided(enrolment: Enrolment) -> AlreadyDecided:
    if enrolment.status == Enrolment.Status.REJECTED:
        return AlreadyDecided(_("La inscripción de %(pair)s fue rechazada.")
                              % {"pair": enrolment.name})
    return AlreadyDecided(_("La inscripción de %(pair)s ya está confirmada.")
                          % {"pair": enrolment.name})


@transaction.atomic
def confirm(enrolment: Enrolment, *, by: Actor | None = None, key: str | None = None,
            now: datetime | None = None) -> Enrolment:
    """Confirm a pending entry: by its venue's organiser (``by``), or by the pair with its
    link's ``key``. It takes a seat if its venue has room, else the waiting list."""
    if key is None:
        require_sede(by, enrolment.sede)
    elif not key_matches(enrolment, key):
        raise LinkRefused(_("Este enlace de confirmación no es válido: pide el tuyo al "
                            "organizador de la sede."))
    championship, enrolment = _locked(enrolment)
    if enrolment.status != Enrolment.Status.PENDING:
        raise _decided(enrolment)
    if not entries_open(championship, now):
        raise ChampionshipError(_("Las inscripciones de %(championship)s están cerradas: una "
                                  "inscripción sin confirmar ya no entra.")
                                % {"championship": championship.name})
    person_taken(championship, [enrolment.key_a, enrolment.key_b], besides=enrolment.pk)
    name_taken(enrolment.sede, enrolment.name, besides=enrolment.pk)
    enrolment.status = seat_status(enrolment.sede)
    enrolment.confirmed_at = now or timezone.now()
    enrolment.save(update_fields=["status", "confirmed_at"])
    kept.touch(championship.pk)
    return enrolment


@transaction.atomic
def reject(enrolment: Enrolment, *, by: Actor) -> Enrolment:
    """The venue's organiser refuses a pending entry (false, doubled, unknown at the bar):
    it stays listed for him as rejected, and its link confirms nothing."""
    require_sede(by, enrolment.sede)
    championship, enrolment = _locked(enrolment)
    if enrolment.status != Enrolment.Status.PENDING:
        raise _decided(enrolment)
    enrolment.status = Enrolment.Status.REJECTED
    enrolment.save(update_fields=["status"])
    kept.touch(championship.pk)
    return enrolment
