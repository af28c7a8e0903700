"""Results both pairs agree on (issue 12 item 6).

Each pair of a match gets a link of its own (a `SideKey`: 128 random bits, compared in
constant time, like a table's edit link) that an organiser hands over from the match
page or the round's sheet of links. From it a pair enters its vaca's result, which
waits as a `ResultClaim` (it never counts in the standings) until:

- the other pair confirms it from its own link (a pair never confirms its own claim);
- an organiser accepts it, or rejects it, with a note;
- 24 hours pass with no dispute: it is accepted as of `claimed_at + 24 h`, whenever
  that is noticed (the next read or write of the competition, or
  `manage.py accept_pending_results` from cron), so the outcome never depends on when
  anybody looks. A disputed claim is never accepted by itself: the organiser decides
  (the disputing pair may also confirm after all, once the calculator has settled it).

The result is then stored through `results.write` (source "manual": a vaca kept on
paper), so the standings, the audit (`Correction`, action confirmed / accepted /
auto_accept) and whatever follows a result (ratings, stats) see it as any other.
Every step leaves a `ClaimEvent` row; the match page shows them.

Every function takes `now` so tests (and the 24 hours) run on a fixed clock.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import DatabaseError, transaction
from django.db.models import Prefetch, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from muscore.clubs.models import Club
from muscore.clubs.permissions import Actor, require_organiser, stored_user
from muscore.leagues import results
from muscore.leagues.changes import CompetitionError, competition_rules, league_error, lock_match
from muscore.leagues.compute.document import Result
from muscore.leagues.compute.errors import LeagueError
from muscore.leagues.models import (
    ClaimEvent,
    Competition,
    Correction,
    Match,
    ResultClaim,
    SideKey,
    from_q,
    unplayed_q,
)
from muscore.leagues.results import consequences
from muscore.text import has_bidi_control, problem

logger = logging.getLogger(__name__)

WINDOW = timedelta(hours=24)
NOTE_MAX = 500
OPEN = (ResultClaim.Status.PENDING, ResultClaim.Status.DISPUTED)


class ClaimError(CompetitionError):
    """A claim, confirmation or decision refused for what was sent (a 400)."""

    code = "claim"
    status = 400


class ClaimForbidden(ClaimError):
    """Refused for who sent it: a pair confirming its own claim, a link whose match is
    settled (a 403)."""

    code = "claim_forbidden"
    status = 403


# ------------------------------------------------------------------------------ the links


def keys_for(matches: Iterable[Match]) -> dict[int, dict[int, str]]:
    """{match pk: {side: key}} for the matches whose two pairs are known, made the first
    time they are asked for (and made again for a knockout's game whose pairs changed)."""
    wanted = {
        m.pk: (m.first_id, m.second_id)
        for m in matches
        if m.first_id is not None and m.second_id is not None
    }
    if not wanted:
        return {}
    found: dict[int, dict[int, str]] = {pk: {} for pk in wanted}
    stale: list[int] = []
    rows = SideKey.objects.filter(match_id__in=list(wanted)).order_by().values_list(
        "pk", "match_id", "side", "entry_id", "key"
    )
    for pk, match_id, side, entry_id, key in rows:
        if wanted[match_id][side] == entry_id:
            found[match_id][side] = key
        else:
            stale.append(pk)
    missing = [
        SideKey(match_id=match_id, side=side, entry_id=wanted[match_id][side])
        for match_id, sides in found.items()
        for side in (0, 1)
        if side not in sides
    ]
    if missing:
        with transaction.atomic():
            SideKey.objects.filter(pk__in=stale).delete()
            # Two organisers' pages at once: the second insert is ignored, both read back.
            SideKey.objects.bulk_create(missing, ignore_conflicts=True)
        for match_id, side, key in (
            SideKey.objects.filter(match_id__in=[k.match_id for k in missing])
            .order_by()
            .values_list("match_id", "side", "key")
        ):
            found[match_id][side] = key
    return found


def side_of(match: Match, key: str | None) -> int | None:
    """The side (0, 1) whose link `key` is, or None: compared in constant time with both
    keys, and only while the key's pair is still the match's pair on that side."""
    if not key:
        return None
    entries = (match.first_id, match.second_id)
    side = None
    for stored_side, entry_id, stored in (
        SideKey.objects.filter(match=match).order_by().values_list("side", "entry_id", "key")
    ):
        if secrets.compare_digest(key.encode(), stored.encode()) and (
            entries[stored_side] == entry_id
        ):
            side = stored_side
    return side


# ---------------------------------------------------------------------------- the claims


def _open(match: Match) -> QuerySet[ResultClaim]:
    # Ordered by its own id: the model's ordering would join the competition and club
    # rows, and a FOR UPDATE would lock them too.
    return ResultClaim.objects.filter(match=match, status__in=OPEN).order_by("id")


def open_claim(match: Match) -> ResultClaim | None:
    """The match's pending or disputed claim, if any."""
    return _open(match).select_related("result").first()


def _now(now: datetime | None) -> datetime:
    return now or timezone.now()


def _check_side(side: int) -> None:
    if side not in (0, 1):
        raise ClaimError(_("¿Qué pareja?"))


def _note(note: str) -> str:
    note = (note or "").strip().replace("\r\n", "\n")
    if len(note) > NOTE_MAX:
        raise ClaimError(
            _("La nota es demasiado larga: como mucho %(n)s letras.") % {"n": NOTE_MAX}
        )
    if problem(note.replace("\n", " ")) or has_bidi_control(note):
        raise ClaimError(_("La nota lleva caracteres que no se pueden guardar."))
    return note


def _event(
    claim: ResultClaim,
    action: str,
    at: datetime,
    *,
    side: int | None = None,
    by: Actor | None = None,
    note: str = "",
) -> None:
    ClaimEvent.objects.create(
        claim=claim,
        action=action,
        at=at,
        side=side,
        by=stored_user(by),
        note=note,
    )


def _result(match: Match, juegos: Sequence[int], tantos: Sequence[int] | None) -> Any:
    """The claimed figures read as the league reads a paper result (same checks)."""
    rules = competition_rules(match.competition)
    data: dict[str, Any] = {"pairs": [0, 1], "juegos": list(juegos)}
    if tantos is not None:
        data["tantos"] = list(tantos)
    try:
        result = results.read_result(data, rules)
    except LeagueError as error:
        raise ClaimError(str(league_error(error))) from None
    try:
        results.check_result(match, result, rules)
    except CompetitionError as error:
        raise ClaimError(str(error)) from None
    return result


def _settled(match: Match) -> None:
    if not match.played:
        return
    depending = consequences.dependents(match)
    competition = consequences.full_title(match.competition)
    if depending:
        raise ClaimForbidden(
            ngettext("Esta partida de %(competition)s ya tiene su resultado y de él depende "
                     "%(dependents)s: el enlace ya no cambia nada.",
                     "Esta partida de %(competition)s ya tiene su resultado y de él dependen "
                     "%(dependents)s: el enlace ya no cambia nada.", len(depending))
            % {"dependents": consequences.named(depending), "competition": competition})
    raise ClaimForbidden(
        _("Esta partida de %(competition)s ya tiene su resultado: el enlace ya no cambia "
          "nada.") % {"competition": competition})


def _locked(match: Match, now: datetime) -> tuple[Match, ResultClaim | None]:
    """The match locked for a write, after settling what is due, and its open claim."""
    locked = lock_match(match)
    _settle(locked, now)
    return locked, _open(locked).select_for_update().first()


@transaction.atomic
def claim(
    match: Match,
    *,
    side: int,
    juegos: Sequence[int],
    tantos: Sequence[int] | None = None,
    now: datetime | None = None,
) -> ResultClaim:
    """Pair `side` enters the match's result from its link: pending until confirmed."""
    now = _now(now)
    _check_side(side)
    match, current = _locked(match, now)
    if match.first_id is None or match.second_id is None:
        raise ClaimError(_("Esta partida aún no tiene sus dos parejas."))
    _settled(match)
    if current is not None:
        if current.side == side:
            raise ClaimError(
                _("Ya anotasteis un resultado: falta que la otra pareja lo confirme.")
            )
        raise ClaimError(
            _("La otra pareja ya anotó un resultado: confirmadlo o discutidlo.")
        )
    result = _result(match, juegos, tantos)
    new = ResultClaim.objects.create(
        competition_id=match.competition_id,
        match=match,
        side=side,
        first_id=match.first_id,
        second_id=match.second_id,
        result=results.new_row(match, result),  # the row the match holds once agreed
        claimed_at=now,
    )
    _event(new, "claim", now, side=side)
    return new


def _other_pairs_claim(current: ResultClaim | None, side: int) -> ResultClaim:
    if current is None:
        raise ClaimError(_("No hay ningún resultado pendiente en esta partida."))
    if current.side == side:
        raise ClaimForbidden(
            _("Este resultado lo anotasteis vosotros: lo confirma la otra pareja.")
        )
    return current


@transaction.atomic
def confirm(match: Match, *, side: int, now: datetime | None = None) -> ResultClaim:
    """The other pair agrees: the claimed result is the match's result, as of now.
    Also after disputing it (the calculator may have proved the claim right)."""
    now = _now(now)
    _check_side(side)
    match, current = _locked(match, now)
    _settled(match)
    current = _other_pairs_claim(current, side)
    _decide(current, ResultClaim.Status.CONFIRMED, now)
    _event(current, "confirm", now, side=side)
    _store(match, current, by=None, action="confirmed", at=now)
    return current


@transaction.atomic
def dispute(
    match: Match, *, side: int, note: str = "", now: datetime | None = None
) -> ResultClaim:
    """The other pair does not agree: the claim waits for an organiser (never accepted
    after 24 hours)."""
    now = _now(now)
    _check_side(side)
    note = _note(note)
    match, current = _locked(match, now)
    _settled(match)
    current = _other_pairs_claim(current, side)
    if current.status == ResultClaim.Status.DISPUTED:
        raise ClaimError(_("Este resultado ya está discutido: decide la organización."))
    current.status = ResultClaim.Status.DISPUTED
    current.save(update_fields=["status"])
    _event(current, "dispute", now, side=side, note=note)
    return current


@transaction.atomic
def withdraw(match: Match, *, side: int, now: datetime | None = None) -> ResultClaim:
    """The claiming pair takes its pending claim back (a wrong figure): it may claim again."""
    now = _now(now)
    _check_side(side)
    match, current = _locked(match, now)
    _settled(match)
    if current is None:
        raise ClaimError(_("No hay ningún resultado pendiente en esta partida."))
    if current.side != side:
        raise ClaimForbidden(_("Solo la pareja que lo anotó puede retirarlo."))
    if current.status != ResultClaim.Status.PENDING:
        raise ClaimError(_("Este resultado ya está discutido: decide la organización."))
    _decide(current, ResultClaim.Status.WITHDRAWN, now)
    _event(current, "withdraw", now, side=side)
    return current


@transaction.atomic
def accept(
    match: Match, *, by: Actor, note: str = "", now: datetime | None = None
) -> ResultClaim:
    """An organiser accepts the open claim (pending or disputed) as the match's result."""
    require_organiser(by, match.competition.club)
    now = _now(now)
    note = _note(note)
    match, current = _locked(match, now)
    if current is None and match.played:
        raise ClaimError(_("Esta partida ya tiene resultado."))
    if current is None:
        raise ClaimError(_("No hay ningún resultado pendiente en esta partida."))
    # A claim that differs from the result the table stored: accepting it corrects that
    # result, so its note is the correction's reason (required, as for any correction).
    _decide(current, ResultClaim.Status.ACCEPTED, now, by=by, note=note)
    _event(current, "accept", now, by=by, note=note)
    _store(match, current, by=by, action="accepted", at=now, reason=note)
    return current


@transaction.atomic
def reject(
    match: Match, *, by: Actor, note: str = "", now: datetime | None = None
) -> ResultClaim:
    """An organiser rejects the open claim: nothing is stored; the pairs may claim again,
    or the organiser enters the result."""
    require_organiser(by, match.competition.club)
    now = _now(now)
    note = _note(note)
    match, current = _locked(match, now)
    if current is None:
        raise ClaimError(_("No hay ningún resultado pendiente en esta partida."))
    _decide(current, ResultClaim.Status.REJECTED, now, by=by, note=note)
    _event(current, "reject", now, by=by, note=note)
    return current


def _decide(
    claim: ResultClaim, status: str, at: datetime, *, by: Actor | None = None, note: str = ""
) -> None:
    claim.status = status
    claim.decided_at = at
    claim.decided_by = stored_user(by)
    claim.note = note
    claim.save(update_fields=["status", "decided_at", "decided_by", "note"])


def _store(match: Match, claim: ResultClaim, *, by: Actor | None, action: str,
           at: datetime, reason: str = "") -> None:
    """The claim's result becomes the match's (its very row), through the league's own
    path, checked again as any result is."""
    claimed = claim.claimed
    result = _result(match, claimed.juegos, claimed.tantos)
    correction = results.write(match, result, by=by, action=action, at=at, reason=reason,
                               row=claim.result if result == claimed else None)
    # Correction.at is auto_now_add: the audit keeps the result's own time.
    Correction.objects.filter(pk=correction.pk).update(at=at)
    results.after_change(match.competition)


# ------------------------------------------------------------------- after 24 hours


def _settle(match: Match, now: datetime) -> bool:
    """On a locked match: its open claim closed if the match got a result another way or
    its pairs changed, or accepted if it has waited 24 hours undisputed. True if changed."""
    current = _open(match).select_for_update().first()
    if current is None:
        return False
    same_pairs = (current.first_id, current.second_id) == (match.first_id, match.second_id)
    result = match.outcome
    if result is not None and result.source == "table" and same_pairs and not _agrees(
            current, result):
        # The match's table stored another result while the claim waited (a 3-0 claimed
        # while the table was playing to 3-1): a disagreement the organiser decides, never
        # closed silently. (An organiser's own result decides it: the claim is closed.)
        if current.status == ResultClaim.Status.DISPUTED:
            return False
        current.status = ResultClaim.Status.DISPUTED
        current.save(update_fields=["status"])
        _event(current, "differs", now)
        return True
    if result is not None or not same_pairs:
        _decide(current, ResultClaim.Status.SUPERSEDED, now)
        _event(current, "superseded", now)
        return True
    due = current.claimed_at + WINDOW
    if current.status == ResultClaim.Status.PENDING and due <= now:
        _decide(current, ResultClaim.Status.AUTO_ACCEPTED, due)
        _event(current, "auto_accept", due)
        _store(match, current, by=None, action="auto_accept", at=due)
        return True
    return False


def _agrees(claim: ResultClaim, result: Result) -> bool:
    """Whether a claim says what the match's stored result says (its tantos, if claimed)."""
    claimed = claim.claimed
    return claimed.juegos == result.juegos and (
        claimed.tantos is None or claimed.tantos == result.tantos)


def _due(now: datetime) -> Q:
    pending = Q(status=ResultClaim.Status.PENDING, claimed_at__lte=now - WINDOW)
    superseded = Q(status__in=OPEN) & ~unplayed_q("match__")
    # A claim already flagged against its table's result waits for the organiser.
    flagged = Q(status=ResultClaim.Status.DISPUTED) & from_q("table", "match__")
    superseded &= ~flagged
    return pending | superseded


def accept_due(
    *,
    club: Club | None = None,
    competition: Competition | None = None,
    match: Match | None = None,
    now: datetime | None = None,
) -> int:
    """Settle every claim that is due (of a club, a competition or a match, or all): accepted as
    of 24 hours after it was entered unless disputed, closed if the match got its result
    another way. One query when nothing is due; returns how many claims changed."""
    now = _now(now)
    due = ResultClaim.objects.filter(_due(now))
    if club is not None:
        due = due.filter(competition__club=club)
    if competition is not None:
        due = due.filter(competition=competition)
    if match is not None:
        due = due.filter(match=match)
    changed = 0
    for match_id in list(due.order_by().values_list("match_id", flat=True).distinct()):
        try:
            with transaction.atomic():
                changed += _settle(lock_match(Match(pk=match_id)), now)
        except CompetitionError:
            # Figures the league no longer takes (its options changed): left open for
            # an organiser, and a read of the page never fails for it.
            continue
        except DatabaseError:
            # A lock that timed out, a database busy: the next read or cron run tries again.
            logger.exception("league match %s: a due claim was not settled", match_id)
            continue
    if changed and competition is not None:
        competition.refresh_from_db(fields=["revision", "status"])
    return changed


# ------------------------------------------------------------------- what pages show


@dataclass
class ClaimView:
    """A claim as the pages show it: figures, who entered it, its state and log."""

    claim: ResultClaim
    claimant: str
    other: str
    result: str
    state: str
    due: datetime
    events: list[dict[str, Any]]
    dispute_note: str = ""


def claim_text(claim: ResultClaim) -> str:
    claimed = claim.claimed
    text = f"{claimed.juegos[0]}–{claimed.juegos[1]}"
    if claimed.tantos is not None:
        text += " " + _("(tantos %(a)s–%(b)s)") % {"a": claimed.tantos[0],
                                                    "b": claimed.tantos[1]}
    return text


def claims_of(match: Match, names: tuple[str, str], usernames: bool = False) -> list[ClaimView]:
    """Every claim of a match, newest first, with its log in words; `names` are the
    pairs' names (first, second); an organiser's step by his username only with
    `usernames` (the organisers' view: a public page names no account)."""
    words = {
        "claim": _("anota el resultado"),
        "confirm": _("lo confirma"),
        "dispute": _("lo discute"),
        "withdraw": _("lo retira"),
        "accept": _("la organización lo da por bueno"),
        "reject": _("la organización lo rechaza"),
        "auto_accept": _("aceptado: pasaron 24 horas sin discutirlo"),
        "superseded": _("cerrado: la partida tuvo su resultado por otro camino"),
        "differs": _("no coincide con el resultado de su mesa: decide la organización"),
    }
    states: dict[str, str] = {
        ResultClaim.Status.PENDING: _("pendiente de confirmar"),
        ResultClaim.Status.CONFIRMED: _("confirmado por la otra pareja"),
        ResultClaim.Status.ACCEPTED: _("aceptado por la organización"),
        ResultClaim.Status.AUTO_ACCEPTED: _("aceptado a las 24 horas"),
        ResultClaim.Status.DISPUTED: _("discutido: decide la organización"),
        ResultClaim.Status.REJECTED: _("rechazado por la organización"),
        ResultClaim.Status.WITHDRAWN: _("retirado"),
        ResultClaim.Status.SUPERSEDED: _("cerrado"),
    }
    claims = list(
        ResultClaim.objects.filter(match=match).select_related("result")
        .prefetch_related(
            Prefetch("events", ClaimEvent.objects.select_related("by").order_by("at", "id"))
        )
        .order_by("-claimed_at", "-id")
    )
    out = []
    for claim in claims:
        events = []
        for event in claim.events.all():
            if event.side is not None:
                who = names[event.side]
            elif event.by is not None:  # an organiser: by name for the organisers only
                who = event.by.get_username() if usernames else _("la organización")
            else:
                who = ""
            events.append(
                {
                    "at": event.at,
                    "who": who,
                    "action": words.get(event.action, event.action),
                    "note": event.note,
                }
            )
        out.append(
            ClaimView(
                claim=claim,
                claimant=names[claim.side],
                other=names[1 - claim.side],
                result=claim_text(claim),
                state=states.get(claim.status, claim.status),
                due=claim.claimed_at + WINDOW,
                events=events,
                dispute_note=next(
                    (e.note for e in reversed(claim.events.all()) if e.action == "dispute"), ""
                ),
            )
        )
    return out
