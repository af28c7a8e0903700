"""A hand's recuento in the table's own words: one sentence a step, who lied and what it
cost, the score it left, a piedras tap or a perete noted. The board, the history, the
hand entry, the undo page and the calculator (muscore.disputes) read a result alike.

Presentation only: the result is the engine's (muscore.rules.score), its sides A and B
by pairs or one a player in individual play (a result's score names every side).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from muscore.handentry.words import LANCE_NAMES, Seating, join_words, lance_word

#: A table's players by name, or its seating (who plays for which side).
Players = Sequence[str]


def seating(players: Players, score: Mapping[str, Any] | None = None) -> Seating:
    """The seating of `players`: itself, or the names with as many sides as `score` has
    (a result's score names every side: A and B in pairs, one a player alone)."""
    return Seating.scored(players, score)


def _step_text(step: Mapping[str, Any], names: str | None, *, alone: bool = False) -> str:
    lance = LANCE_NAMES.get(step["lance"], step["lance"])
    side = step["side"]
    points = step["points"]
    score = step["score"][side]
    why = step.get("why")
    who = f"{names} " if names else ""
    params = {"lance": lance, "who": who, "points": points, "score": score}
    if why == "deje":
        return _("%(lance)s: deje, %(who)s+%(points)s, %(score)s") % params
    if why == "quiero":
        stake = step.get("stake")
        extra = points - stake if isinstance(stake, int) else 0
        if isinstance(stake, int) and extra > 0:
            params.update(stake=stake, extra=extra)
            if step["lance"] == "punto":
                # The punto's extra 1 is the punto itself, not a jugada (issue 19.7).
                return (
                    _("%(lance)s: %(who)s+%(points)s (%(stake)s querido y %(extra)s del punto), "
                      "%(score)s") % params
                )
            return (
                _("%(lance)s: %(who)s+%(points)s (%(stake)s querido y %(extra)s de jugadas), "
                  "%(score)s") % params
            )
        return _("%(lance)s: %(who)s+%(points)s querido, %(score)s") % params
    if why == "no_quiero":
        return _("%(lance)s: %(who)s+%(points)s (no quisieron), %(score)s") % params
    if why == "solo":
        # A side of one player (a table of two) is "él", not "ellos" (issue 30.4).
        if alone:
            return _("%(lance)s: %(who)s+%(points)s (solo él tiene), %(score)s") % params
        return _("%(lance)s: %(who)s+%(points)s (solo ellos tienen), %(score)s") % params
    if why == "mentira":
        return _("%(lance)s: %(who)s+%(points)s (por la mentira), %(score)s") % params
    return _("%(lance)s: %(who)s+%(points)s, %(score)s") % params


def final_line(result: Mapping[str, Any], players: Players = ()) -> str:
    """The score the hand left, "Queda 2–40.", as the engine counted it (not capped:
    docs/rules.md); "" after an accepted órdago, whose score says nothing. In individual
    play each player by name: "Queda Ana 12, Bruno 3 y Carla 0."."""
    score = result.get("score") or {}
    if "A" not in score or "B" not in score or result.get("ordago"):
        return ""
    if len(score) > 2:
        return str(_("Queda %(scores)s") % {"scores": scores_words(score, players)} + ".")
    return str(_("Queda %(a)s–%(b)s") % {"a": score["A"], "b": score["B"]} + ".")


def scores_words(score: Mapping[str, Any], players: Players) -> str:
    """Each player's piedras in individual play, by name: "Ana 12, Bruno 3 y Carla 0"."""
    seats = seating(players, score)
    return join_words([f"{seats.names(side)} {score[side]}" for side in seats.letters
                       if side in score])


def spoken_lines(result: Mapping[str, Any], players: Players) -> list[str]:
    """One hand's count as it is read aloud ("Cantar el recuento"), one sentence an
    utterance: the written recuento word for word, in its order and with its totals
    (issue 38.1: the engine's recuento, dejes first as they are paid when said, "ganan
    el juego" where the juego is won), then the score it left ("Queda 2–40.") that the
    board shows under it."""
    lines = recuento_lines(result, players)
    final = final_line(result, players)
    return [*lines, final] if final else lines


def lie_text(lie: Mapping[str, Any], result: Mapping[str, Any], players: Players) -> str:
    """Who lied and what it cost, one sentence (the board, the history and the calculator).

    `lie` is an entry of the result's "lies" ({"seat", "lance", "side"}); the cost is
    the piedras of the lance's "mentira" step, when the lance was counted.
    """
    seats = seating(players, result.get("score"))
    if seats.individual:
        return _lie_alone(lie, result, seats)
    lance, side = lie["lance"], lie["side"]
    against = "B" if side == "A" else "A"
    steps = result.get("recuento") or []
    step = next((s for s in steps if s["lance"] == lance and s.get("why") == "mentira"), None)
    cost = ""
    if step:
        cost = ngettext(
            " (%(points)s piedra para %(other)s)", " (%(points)s piedras para %(other)s)",
            step["points"],
        ) % {"points": step["points"], "other": seats.names(against)}
    # A side of two or three players "pierden"; a player alone (a table of two) "pierde".
    members = 1 if seats.alone else 2
    if lance == "pares":
        text = ngettext(
            "%(name)s dijo pares y no los tiene: el lance es para %(other)s, y %(side)s "
            "pierde lo apostado%(cost)s.",
            "%(name)s dijo pares y no los tiene: el lance es para %(other)s, y %(side)s "
            "pierden lo apostado%(cost)s.",
            members,
        )
    else:
        text = ngettext(
            "%(name)s dijo juego y no lo tiene: el lance es para %(other)s, y %(side)s "
            "pierde lo apostado%(cost)s.",
            "%(name)s dijo juego y no lo tiene: el lance es para %(other)s, y %(side)s "
            "pierden lo apostado%(cost)s.",
            members,
        )
    seat = lie["seat"]
    return text % {
        "name": _seat_name(seats, seat),
        "other": seats.names(against),
        "side": seats.names(side),
        "cost": cost,
    }


def _seat_name(seats: Seating, seat: object) -> str:
    return seats.players[seat] if isinstance(seat, int) and seat < len(seats.players) \
        else str(seat)


def _lie_alone(lie: Mapping[str, Any], result: Mapping[str, Any], seats: Seating) -> str:
    """lie_text in individual play (rules.md, "Individual play"): the liar collects
    nothing in that lance; what he would have taken goes to the best honest player, whom
    the lance's step names."""
    lance = lie["lance"]
    steps = result.get("recuento") or []
    step = next((s for s in steps if s["lance"] == lance and s.get("side") != lie["side"]
                 and s.get("points")), None)
    params: dict[str, Any] = {"name": _seat_name(seats, lie["seat"])}
    if step is None:
        if lance == "pares":
            return str(_("%(name)s dijo pares y no los tiene: no cobra nada en ese lance.")
                       % params)
        return str(_("%(name)s dijo juego y no lo tiene: no cobra nada en ese lance.")
                   % params)
    params.update(points=step["points"], other=seats.names(step["side"]))
    if lance == "pares":
        text = ngettext(
            "%(name)s dijo pares y no los tiene: no cobra nada en ese lance (%(points)s "
            "piedra para %(other)s).",
            "%(name)s dijo pares y no los tiene: no cobra nada en ese lance (%(points)s "
            "piedras para %(other)s).",
            step["points"])
    else:
        text = ngettext(
            "%(name)s dijo juego y no lo tiene: no cobra nada en ese lance (%(points)s "
            "piedra para %(other)s).",
            "%(name)s dijo juego y no lo tiene: no cobra nada en ese lance (%(points)s "
            "piedras para %(other)s).",
            step["points"])
    return str(text % params)


def piedras_line(result: Mapping[str, Any], players: Players) -> str:
    """A piedras entry tapped by hand: "Piedras a mano: Ana y Carla +5, 12."."""
    entry = result["piedras"]
    side = entry.get("side")
    n = int(entry.get("n", 0))
    score = int((result.get("score") or {}).get(side, 0))
    seats = seating(players, result.get("score"))
    params = {
        "names": seats.names(side) if side in seats.letters else str(side),
        "n": f"+{n}" if n > 0 else f"−{-n}",
        "score": score,
    }
    if n < 0 and score == 0 and not any(
        step.get("points") for step in result.get("recuento") or []
    ):
        return str(_("Piedras a mano: %(names)s %(n)s, pero ya estaban a 0.") % params)
    if result.get("winner") == side:
        if seats.alone:
            return str(_("Piedras a mano: %(names)s %(n)s, %(score)s: gana el juego.") % params)
        return str(_("Piedras a mano: %(names)s %(n)s, %(score)s: ganan el juego.") % params)
    return str(_("Piedras a mano: %(names)s %(n)s, %(score)s.") % params)


def perete_line(result: Mapping[str, Any], players: Players) -> str:
    """A perete noted: "Perete de Ana y Carla: 1 piedra, 13." (": ganan el juego.")."""
    side = result["perete"].get("side")
    seats = seating(players, result.get("score"))
    params = {
        "names": seats.names(side) if side in seats.letters else str(side),
        "score": int((result.get("score") or {}).get(side, 0)),
    }
    if result.get("winner") == side:
        if seats.alone:
            return str(_("Perete de %(names)s: 1 piedra, %(score)s: gana el juego.") % params)
        return str(_("Perete de %(names)s: 1 piedra, %(score)s: ganan el juego.") % params)
    return str(_("Perete de %(names)s: 1 piedra, %(score)s.") % params)


def _step_lines(
    steps: Sequence[Mapping[str, Any]], result: Mapping[str, Any], seats: Seating
) -> list[str]:
    """recuento_lines' sentences of the steps, then of an accepted órdago. A table of two
    or individual play: each side is one player, who "gana", not "ganan" (issue 30.4)."""
    winner, ordago = result.get("winner"), result.get("ordago")
    alone = seats.alone
    lines = []
    for i, step in enumerate(steps):
        side = step["side"]
        text = _step_text(step, seats.names(side), alone=alone)
        if winner and not ordago and i == len(steps) - 1 and side == winner:
            if alone:
                text = _("%(text)s: gana el juego") % {"text": text}
            else:
                text = _("%(text)s: ganan el juego") % {"text": text}
        lines.append(text + ".")
    if ordago:
        params = {"lance": lance_word(ordago["lance"]),
                  "names": seats.names(ordago["side"])}
        if alone:
            lines.append(_("Órdago a %(lance)s querido: lo gana %(names)s, que gana el juego.")
                         % params)
        else:
            lines.append(_("Órdago a %(lance)s querido: lo ganan %(names)s, que ganan el juego.")
                         % params)
    return lines


def recuento_lines(
    result: Mapping[str, Any], players: Players, *, lies: bool = True
) -> list[str]:
    """The result of one hand as the table says it, one sentence per step.

    "Grande: Ana y Carla +1, 39. Chica: Ana y Carla +1, 40: ganan el juego. Pares y
    juego no se cuentan." Every line names its side: lines are read one at a time (a
    numbered list, a glance at the board), so "Chica: +1" alone says nobody. Then who
    lied and what it cost (`lies=False` leaves that to a page that shows it apart).
    """
    if isinstance(result.get("piedras"), Mapping):
        return [piedras_line(result, players)]
    if isinstance(result.get("perete"), Mapping):
        return [perete_line(result, players)]
    lines: list[str] = []
    steps = list(result.get("recuento") or [])
    winner = result.get("winner")
    ended_by = result.get("ended_by")
    ordago = result.get("ordago")
    lines.extend(_step_lines(steps, result, seating(players, result.get("score"))))
    if not steps and not ordago:
        lines.append(_("Nadie se lleva nada."))
    if winner:
        order = list((result.get("lances") or {}).keys())
        last_lance = (
            ordago["lance"] if ordago else (steps[-1]["lance"] if steps else None)
        )
        if last_lance in order:
            # A lance settled by its deje was paid when it was said: it is not among those
            # left uncounted ("Chica, pares y punto no se cuentan" after a chica deje).
            settled = {s["lance"] for s in steps if s.get("why") == "deje"}
            rest = [lance for lance in order[order.index(last_lance) + 1:]
                    if lance not in settled]
            if rest:
                words = join_words([str(LANCE_NAMES.get(rest[0], rest[0])),
                                    *[lance_word(lance) for lance in rest[1:]]])
                params = {"lances": words}
                # "Juego no se cuenta", "Pares y juego no se cuentan": one lance or more.
                if ended_by == "recuento":
                    lines.append(ngettext("%(lances)s no se cuenta.", "%(lances)s no se cuentan.",
                                          len(rest)) % params)
                else:
                    lines.append(ngettext("%(lances)s no se juega.", "%(lances)s no se juegan.",
                                          len(rest)) % params)
    if lies:
        lines.extend(lie_text(lie, result, players) for lie in result.get("lies") or [])
    return lines


def entry_lines(hand: Mapping[str, Any], players: Players) -> list[str]:
    """What one replayed entry of a vaca did, in the table's words (a hand's recuento)."""
    return recuento_lines(hand.get("result") or {}, players)
