"""The club's championships on the club's page and the organiser's night (leagues'
templates): the leagues package sits below championships and may not import it, so its
templates load this tag instead (``{% load championships %}{% club_championships club %}``)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django import template

from muscore.championships import pages
from muscore.championships.parts import whole_key
from muscore.clubs.models import Club

register = template.Library()


@register.inclusion_tag("championships/_club_list.html", takes_context=True)
def club_championships(context: template.Context, club: Club,
                       shown: Collection[str] = ()) -> dict[str, Any]:
    """The championships ``club`` organises or hosts a venue of, each once with its state
    (its heats, phases and games are its own pages', not the club's list of competitions),
    current ones first then the past (with their champion); under each, the venues the
    club hosts with their heats; for its organisers, the way to start one. Those the page
    shows already (``shown``: their ``Whole.key``, the organiser's night's sections) are
    left out: a championship is on a page once."""
    listed = pages.listed(pages.club_championships(club), club)
    kept = {kind: [row for row in rows if whole_key(row["championship"].pk) not in shown]
            for kind, rows in listed.items()}
    left_out = sum(len(rows) for rows in listed.values()) - sum(len(r) for r in kept.values())
    return {**kept, "club": club, "organiser": bool(context.get("organiser")),
            "request": context.get("request"), "shown_above": left_out}
