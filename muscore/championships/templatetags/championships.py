"""The club's championships on the club's page and the organiser's night (leagues'
templates): the leagues package sits below championships and may not import it, so its
templates load this tag instead (``{% load championships %}{% club_championships club %}``)."""

from __future__ import annotations

from typing import Any

from django import template

from muscore.championships import pages
from muscore.clubs.models import Club

register = template.Library()


@register.inclusion_tag("championships/_club_list.html", takes_context=True)
def club_championships(context: template.Context, club: Club) -> dict[str, Any]:
    """The championships ``club`` organises or hosts a venue of, each once with its state
    (its heats, phases and games are its own pages', not the club's list of competitions),
    current ones first then the past (with their champion); under each, the venues the
    club hosts with their heats; for its organisers, the way to start one."""
    listed = pages.listed(pages.club_championships(club), club)
    return {**listed, "club": club, "organiser": bool(context.get("organiser")),
            "request": context.get("request")}
