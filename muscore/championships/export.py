"""The championship as data: the API's JSON document and the entries' CSV, each read in a
fixed number of queries whatever its venues, pairs and groups."""

from __future__ import annotations

import csv
import io
from typing import Any

from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from muscore.championships.models import Championship, Enrolment, PhaseGroup
from muscore.championships.services import champion, qualified
from muscore.leagues import documents
from muscore.leagues.compute.spreadsheet import safe_cell

#: Venues (with their entries and heat) in one page of the API document: 250 venues' heats
#: are 20,000 matches, so they come 25 venues at a time (``?pagina=N``).
PER_PAGE = 25


def championship_document(championship: Championship, page: int = 1) -> dict[str, Any]:
    """The championship as JSON: one page of its venues (with their entries, never the
    contacts, and their heat in league.md's form; ``page`` past the last is the last),
    the quotas with their arithmetic, and its phases (their draw and each group in
    league.md's form). Every heat's and group's document comes from one batch
    (:func:`documents.league_documents`): a fixed number of queries."""
    venues = Paginator(championship.sedes.select_related("region", "heat").order_by("id"),
                       PER_PAGE).get_page(page)
    sede_list = list(venues.object_list)
    ids = [s.pk for s in sede_list]
    enrolments: dict[int, list[dict[str, Any]]] = {}
    for pk, sede_id, name, a, b, paid, status in public_entries(championship).filter(
            sede_id__in=ids).order_by("id").values_list(
            "pk", "sede_id", "name", "player_a", "player_b", "paid", "status"):
        enrolments.setdefault(sede_id, []).append({
            "id": pk, "name": name, "players": [a, b], "paid": paid, "status": status})
    heats = qualified(championship, ids)
    phases = list(championship.phases.select_related("region"))
    groups: dict[int, list[PhaseGroup]] = {}
    for group in PhaseGroup.objects.filter(phase__championship=championship).select_related(
            "competition"):
        groups.setdefault(group.phase_id, []).append(group)
    knockouts = {p.pk for p in phases if p.knockout}
    docs = documents.league_documents(
        [s.heat for s in sede_list if s.heat]  # a ceros heat too (league.md's format)
        + [g.competition for pk, gs in groups.items() if pk not in knockouts for g in gs])
    # A knockout's games, each in a liguilla's form (its two pairs, its one match).
    games = {g.phase_id: documents.game_documents(g.competition)
             for gs in groups.values() for g in gs if g.phase_id in knockouts}
    sedes = []
    for sede in sede_list:
        heat = heats.get(sede.pk)
        sedes.append({
            "id": sede.pk, "name": sede.name,
            "region": sede.region.name if sede.region else None, "capacity": sede.capacity,
            "quota": sede.quota, "entries": enrolments.get(sede.pk, []),
            "heat": docs.get(sede.heat_id) if sede.heat_id else None,
            "qualified": [e.pk for e in heat.qualified] if heat else None,
            "reserves": [e.pk for e in heat.reserves] if heat else None,
        })
    winner = champion(championship)
    return {
        "id": championship.pk, "name": championship.name, "rules": championship.rules,
        "seats": championship.seats, "min_per_sede": championship.min_per_sede,
        "entries_closed": championship.entries_closed_at is not None,
        "regions": [r.name for r in championship.regions.all()],
        "sedes": sedes, "page": {"number": venues.number, "pages": venues.paginator.num_pages,
                                 "per_page": PER_PAGE},
        "quotas": championship.quotas,
        "phases": [{
            "id": phase.pk, "name": phase.name, "level": phase.level,
            "region": phase.region.name if phase.region else None, "advance": phase.advance,
            "draw": phase.draw,
            # A group's or game's name in the reader's language (muscore.leagues.names).
            "groups": games.get(phase.pk, []) if phase.knockout else [
                {**docs[g.competition_id], "name": g.competition.title}
                for g in groups.get(phase.pk, [])],
        } for phase in phases],
        "champion": winner.pk if winner else None,
    }


def public_entries(championship: Championship) -> QuerySet[Enrolment]:
    """The entries anyone may see: confirmed ones (entered, waiting, withdrawn); one waiting
    for its confirmation, or rejected, is for its venue's organisers only."""
    return championship.enrolments.exclude(
        status__in=[Enrolment.Status.PENDING, Enrolment.Status.REJECTED])


#: The separators ``?sep=`` may ask for; a semicolon by default, what a Spanish (or
#: French, or Basque) Excel reads as columns, its decimal mark being the comma.
SEPARATORS = {";": ";", ",": ",", "tab": "\t", "\t": "\t"}


def entries_csv(championship: Championship, sep: str = ";") -> str:
    """The entries for a spreadsheet (no contacts: the file is public), in the current
    language (its headers and its words for a status and paid), for Excel: a UTF-8 byte
    order mark first (without it Excel reads Pérez as PÃ©rez) and ``sep`` between cells."""
    status: dict[str, str] = {
        Enrolment.Status.ENTERED: _("inscrita"), Enrolment.Status.WAITING: _("en espera"),
        Enrolment.Status.WITHDRAWN: _("retirada")}
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, delimiter=sep)
    writer.writerow([_("Sede"), _("Región"), _("Pareja"), _("Jugador 1"), _("Jugador 2"),
                     _("Estado"), _("Pagada")])
    for e in public_entries(championship).select_related("sede__region").order_by(
            "sede_id", "id"):
        # Names typed by anyone at the public entry form: made safe as the leagues' CSV
        # (OWASP's formula injection: a pair named "=HYPERLINK(...)").
        writer.writerow([safe_cell(cell) for cell in (
            e.sede.name, e.sede.region.name if e.sede.region else "", e.name,
            e.player_a, e.player_b, status.get(e.status, e.status),
            _("sí") if e.paid else _("no"))])
    return out.getvalue()
