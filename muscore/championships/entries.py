"""A championship's entries: a pair entered at a venue (one person, one pair; a full
venue's waiting list), the names it holds, the fee paid, and the entries closed with the
seats shared among the venues (the pure
:func:`~muscore.championships.compute.quotas.compute_quotas`, championship.md)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.db import transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext as _

from muscore.championships import kept
from muscore.championships.compute.quotas import QuotaError, Quotas, compute_quotas
from muscore.championships.compute.quotas import Sede as QuotaSede
from muscore.championships.entry_text import checked_contact, checked_name, fold
from muscore.championships.errors import ChampionshipError
from muscore.championships.models import Championship, Enrolment, Sede
from muscore.championships.venues import can_run_sede, require_sede
from muscore.clubs.permissions import Actor, require_organiser, stored_user
from muscore.messages import page_message


def entries_open(championship: Championship, now: datetime | None = None) -> bool:
    """Entries are open until closed by hand or past their closing time."""
    now = now or timezone.now()
    if championship.entries_closed_at is not None:
        return False
    return championship.entries_close_at is None or now < championship.entries_close_at



@transaction.atomic
def enter_pair(sede: Sede, *, name: str, players: Sequence[str], contact: str = "",
               by: Actor | None = None, paid: bool = False,
               now: datetime | None = None) -> Enrolment:
    """Enter a pair at ``sede``: from the public form (``by`` anonymous: never paid, and
    PENDING until confirmed) or by the venue's organiser (confirmed at once). One person,
    one pair in the championship; past the venue's capacity the pair goes on its waiting
    list (``status`` says which)."""
    organiser = getattr(by, "is_authenticated", False) and can_run_sede(by, sede)
    # One lock per championship: two entries naming one person cannot both pass.
    championship = Championship.objects.select_for_update().get(pk=sede.championship_id)
    if not entries_open(championship, now):
        raise ChampionshipError(_("Las inscripciones de %(championship)s están cerradas.")
                                % {"championship": championship.name})
    name = checked_name(name, _("el nombre de la pareja"))
    if len(players) != 2:
        raise ChampionshipError(_("Una pareja son dos jugadores."))
    first = checked_name(players[0], _("el primer jugador"), person=True)
    second = checked_name(players[1], _("el segundo jugador"), person=True)
    keys = [fold(first), fold(second)]
    if keys[0] == keys[1]:
        raise ChampionshipError(_("Los dos jugadores no pueden ser la misma persona."))
    contact = checked_contact(contact)
    person_taken(championship, keys)
    name_taken(sede, name)
    kept.touch(championship.pk)
    # The public form's entry holds no seat until the venue's organiser (or the pair, with
    # the link he sends it) confirms it (muscore.championships.confirm); the organiser's own
    # is confirmed as he enters it.
    return Enrolment.objects.create(
        championship=championship, sede=sede, name=name, player_a=first, player_b=second,
        key_a=keys[0], key_b=keys[1], contact=contact, paid=bool(paid and organiser),
        status=seat_status(sede) if organiser else Enrolment.Status.PENDING,
        confirmed_at=(now or timezone.now()) if organiser else None,
        entered_by=stored_user(by) if organiser else None)



#: The entries that hold a seat or a place on the waiting list, and their players.
CONFIRMED = (Enrolment.Status.ENTERED, Enrolment.Status.WAITING)



def name_taken(sede: Sede, name: str, besides: int | None = None) -> None:
    """ChampionshipError if a pair of ``sede`` (other than ``besides``) holds ``name``
    (whatever its case): a confirmed one, or one withdrawn. An entry waiting for its
    confirmation, or rejected, holds no name (issue 40: a false "Los Txapeldunes" kept
    the venue's organiser from entering his own, even once rejected); the first of two
    such entries confirmed takes it (Enrolment.NAME_HELD, the database's constraint)."""
    if (Enrolment.objects.filter(sede=sede, name__iexact=name, status__in=Enrolment.NAME_HELD)
            .exclude(pk=besides or 0).exists()):
        raise ChampionshipError(_("Ya hay una pareja llamada %(pair)s en %(sede)s.")
                                % {"pair": name, "sede": sede.name})



def person_taken(championship: Championship, keys: Sequence[str],
                 besides: int | None = None) -> None:
    """ChampionshipError naming the pair and venue if a person of ``keys`` is in a confirmed
    entry of the championship (other than ``besides``): one person, one pair. An entry
    waiting for its confirmation holds nobody: a false one cannot keep a player out."""
    taken = (Enrolment.objects.filter(championship=championship, status__in=CONFIRMED)
             .exclude(pk=besides or 0).select_related("sede"))
    for key in keys:
        other = taken.filter(key_a=key).first() or taken.filter(key_b=key).first()
        if other is not None:
            person = other.player_a if other.key_a == key else other.player_b
            raise ChampionshipError(
                _("%(person)s ya juega en la pareja %(pair)s (%(sede)s): una persona, una "
                  "pareja.") % {"person": person, "pair": other.name, "sede": other.sede.name})



def seat_status(sede: Sede) -> str:
    """ENTERED while the venue has room, else WAITING (its waiting list)."""
    entered = sede.enrolments.filter(status=Enrolment.Status.ENTERED).count()
    full = sede.capacity is not None and entered >= sede.capacity
    return Enrolment.Status.WAITING if full else Enrolment.Status.ENTERED



@transaction.atomic
def mark_paid(enrolment: Enrolment, *, by: Actor, paid: bool = True) -> Enrolment:
    """The fee paid (or not) at the bar."""
    require_sede(by, enrolment.sede)
    enrolment.paid = paid
    enrolment.save(update_fields=["paid"])
    kept.touch(enrolment.championship_id)
    return enrolment



def quota_sedes(championship: Championship) -> tuple[list[Sede], list[int]]:
    """The venues in order and the pairs entered at each (waiting and withdrawn left out)."""
    sedes = list(championship.sedes.all())
    counts = dict(Enrolment.objects.filter(championship=championship,
                                           status=Enrolment.Status.ENTERED)
                  .values("sede_id").annotate(n=Count("id")).values_list("sede_id", "n"))
    return sedes, [counts.get(s.pk, 0) for s in sedes]



@transaction.atomic
def close_entries(championship: Championship, *, by: Actor,
                  now: datetime | None = None) -> Quotas:
    """Close the entries and share the seats among the venues (championship.md): stored
    with their arithmetic, shown on the championship's page. Refused whole if the
    contract refuses the figures (nothing closed)."""
    require_organiser(by, championship.club)
    championship = Championship.objects.select_for_update().get(pk=championship.pk)
    if championship.entries_closed_at is not None:
        raise ChampionshipError(_("Las inscripciones ya están cerradas."))
    sedes, counts = quota_sedes(championship)
    try:
        quotas = compute_quotas(
            championship.seats, [QuotaSede(s.name, n) for s, n in zip(sedes, counts, strict=True)],
            championship.min_per_sede)
    except QuotaError as error:
        raise ChampionshipError(page_message(error)) from None
    championship.entries_closed_at = now or timezone.now()
    championship.quotas = {
        "seats": quotas.seats, "min_per_sede": quotas.min_per_sede, "total": quotas.total,
        "left": quotas.left,
        "rows": [{"sede": sede.pk, "name": row.name, "pairs": row.pairs, "minimum": row.minimum,
                  "share": row.share, "remainder": row.remainder, "extra": row.extra,
                  "seats": row.seats} for sede, row in zip(sedes, quotas.rows, strict=True)],
    }
    championship.save(update_fields=["entries_closed_at", "quotas"])
    kept.touch(championship.pk)
    for sede, row in zip(sedes, quotas.rows, strict=True):
        sede.quota = row.seats
    Sede.objects.bulk_update(sedes, ["quota"], batch_size=500)  # one write for 250 venues
    return quotas
