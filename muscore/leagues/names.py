"""The names the app makes for competitions, in the reader's language (issue 27).

A championship's groups and its knockout's games are competitions of the club, named by
the app, not by a person: their ``Competition.made`` keeps what the name is made of (the
phase's name as its organiser typed it, then a group's number, or a game's round, tie and
number), and :func:`title` says it in the active language whenever it is shown, whoever's
request made it. A competition whose ``made`` is empty has a name as typed, shown as it
is. The stored ``name`` is the same name in the site's language (a fallback for the
admin and the logs, never in the language of the request that made it).

The parts (plain JSON, no language words):

- ``{"of": "Fase de grupos", "group": 1}``: "Fase de grupos · Grupo 1";
- ``{"of": "Cuadro", "round": 2, "rounds": 3, "tie": 1, "third": false, "game": 2}``: a
  knockout's game, "Cuadro · Semifinal 1 · partida 2" (``game`` only in a best of 3; no
  tie number in the final's round, where ``third`` tells the match for third place).

Imports only Django's translation: the leagues' pages, TV, cards, exports and API name
through it without knowing the championships (which are above the leagues).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _


def round_name(phase_rounds: int, number: int, third: bool = False) -> str:
    """A knockout round's name for people: the final, semifinals, quarterfinals, else its
    number."""
    if third:
        return _("Tercer puesto")
    left = phase_rounds - number
    if left == 0:
        return _("Final")
    if left == 1:
        return _("Semifinales")
    if left == 2:
        return _("Cuartos de final")
    if left == 3:
        return _("Octavos de final")
    return _("Ronda %(n)s") % {"n": number}


def tie_name(phase_rounds: int, number: int, tie: int) -> str:
    """One tie of a round before the final: "Semifinal 1", not the round's plural and a
    number ("Semifinales 1", "Demi-finales 1")."""
    left = phase_rounds - number
    if left == 1:
        return _("Semifinal %(n)s") % {"n": tie}
    if left == 2:
        return _("Cuarto de final %(n)s") % {"n": tie}
    if left == 3:
        return _("Octavo de final %(n)s") % {"n": tie}
    return _("Ronda %(round)s · eliminatoria %(n)s") % {"round": number, "n": tie}


def group_parts(of: str, number: int) -> dict[str, Any]:
    """The parts of a phase's group's name (``number`` from 1)."""
    return {"of": of, "group": number}


def game_parts(of: str, *, round: int, rounds: int, tie: int, game: int | None,
               third: bool = False) -> dict[str, Any]:
    """The parts of a knockout's game's name (``tie`` from 1; ``game`` None in a knockout
    of one vaca)."""
    parts: dict[str, Any] = {"of": of, "round": round, "rounds": rounds, "tie": tie,
                             "third": third}
    if game is not None:
        parts["game"] = game
    return parts


def made_name(parts: Mapping[str, Any]) -> str:
    """The name ``parts`` make, in the active language ("" for no parts)."""
    if not parts:
        return ""
    of = str(parts.get("of", ""))
    try:
        if "group" in parts:
            return f"{of} · " + _("Grupo %(n)s") % {"n": int(parts["group"])}
        rounds, number = int(parts["rounds"]), int(parts["round"])
        third = bool(parts.get("third"))
        if number == rounds:
            name = f"{of} · {round_name(rounds, number, third=third)}"
        else:
            name = f"{of} · {tie_name(rounds, number, int(parts['tie']))}"
        if parts.get("game") is not None:
            name += " · " + _("partida %(n)s") % {"n": int(parts["game"])}
        return name
    except (KeyError, TypeError, ValueError):  # parts the app did not write
        return ""


def stored_name(parts: Mapping[str, Any]) -> str:
    """The name ``parts`` make in the site's language: what is stored, whoever made it."""
    with translation.override(settings.LANGUAGE_CODE):
        return made_name(parts)


def title(competition: Any) -> str:
    """A competition's name for the reader: made from its parts in the active language,
    else its name as typed."""
    return made_name(getattr(competition, "made", None) or {}) or str(competition.name)
