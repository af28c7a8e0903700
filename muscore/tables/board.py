"""How the board shows a table: plain dicts in, plain dicts and words out.

Everything here takes the state the services return (the replay output of
muscore.rules, see docs/contract.md) and turns it into what the pages draw:
piedras as amarracos, the chart of the juego, the recuento in the table's own
words. No storage and no rules are decided here: only presentation.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from muscore import rules as rules_engine
from muscore.handentry.words import (
    LANCE_NAMES,
    join_words,
    lance_word,
    other,
    side_names,
    side_seats,
)
from muscore.tables.state import BoardState, ReplayedHand, Score, SideName, TableState, Vaca

SIDES: tuple[SideName, SideName] = ("A", "B")
PIEDRAS_PER_AMARRACO = 5
REAL31_WORDS = {
    "no": gettext_lazy("sin 31 real"),
    "rey": gettext_lazy("31 real: 7 7 7 R"),
    "figura": gettext_lazy("31 real: 7 7 7 y figura"),
    "sota": gettext_lazy("31 real: 7 7 7 S"),
}


def piedras(points: int) -> dict[str, Any]:
    """17 piedras read as 3 amarracos and 2 piedras, the way a table keeps them."""
    points = max(0, int(points))
    amarracos, loose = divmod(points, PIEDRAS_PER_AMARRACO)
    return {
        "points": points,
        "amarracos": amarracos,
        "piedras": loose,
        "amarraco_range": range(amarracos),
        "piedra_range": range(loose),
    }


def dentro_from(target: int) -> int:
    """The first score that is "dentro": fewer than five piedras missing (36 of 40).

    rules.md (seed 000, section 6) says it for any target: target minus 4. The one
    place the board asks, and it asks the engine.
    """
    return rules_engine.Rules(target=int(target)).dentro()


def is_dentro(points: int, target: int) -> bool:
    return int(target) > points >= dentro_from(target)


def postre(mano: int, players: int) -> int:
    """The dealer sits on the mano's left: the seat before it in speaking order."""
    return (mano - 1) % players


CHART_WIDTH = 320
CHART_LEFT, CHART_RIGHT, CHART_TOP, CHART_BOTTOM = 26, 8, 8, 18
CHART_TICK_GAP = 16  # the x axis' labels, at least this far apart (two digits at 10 px)


def chart(
    scores: Sequence[Score],
    target: int,
    *,
    breaks: Sequence[int] = (),
    height: int = 130,
    dealt: Sequence[bool] | None = None,
) -> dict[str, Any]:
    """Both sides' score over the hands, for an inline SVG with axes and the dentro line.

    `scores` are the scores after each entry, from 0-0. `breaks` are the counts of
    entries after which a juego was won: the next juego starts again at 0-0, drawn as a
    new pair of lines after a dashed separator (the chart of a whole vaca). `dealt` says
    of each entry whether it was a hand dealt: the axis counts hands (issue 30.6: 22
    hands and 14 piedras taps read "1-36" under "22 manos"), and an entry that is no
    hand (piedras tapped, a perete) moves the score where the last hand stands, a
    step up. Without it every entry is a hand.
    """
    plot_left, plot_right = CHART_LEFT, CHART_WIDTH - CHART_RIGHT
    plot_top, plot_bottom = CHART_TOP, height - CHART_BOTTOM
    flags = [True] * len(scores) if dealt is None else [bool(d) for d in dealt]
    # place[i]: the hands dealt up to and including entry i - 1 (place[0] is the start).
    place = [0]
    for flag in flags:
        place.append(place[-1] + (1 if flag else 0))
    hands = place[-1]
    steps = max(hands, 1)

    def y(points: int) -> float:
        shown = min(max(points, 0), target)
        return round(plot_bottom - shown / target * (plot_bottom - plot_top), 1)

    def x_hand(n: int) -> float:
        return round(plot_left + n * (plot_right - plot_left) / steps, 1)

    def x(i: int) -> float:
        return x_hand(place[i])

    ends = [b for b in sorted(set(breaks)) if 0 < b < len(scores)]
    starts = [0, *ends]
    segments = []
    for k, start in enumerate(starts):
        stop = ends[k] if k < len(ends) else len(scores)
        series = [(start, {"A": 0, "B": 0})] + [(i + 1, scores[i]) for i in range(start, stop)]
        segments.append(
            {
                side.lower(): " ".join(f"{x(i)},{y(s[side])}" for i, s in series)
                for side in SIDES
            }
        )
    last = scores[-1] if scores else {"A": 0, "B": 0}
    # Labels every 5 hands (10, 20... on a long vaca), at least CHART_TICK_GAP apart: the
    # last hand's label stays, the one before it goes if too near ("35" over "36").
    per_hand = (plot_right - plot_left) / steps
    every = next((n for n in (5, 10, 20, 50) if n * per_hand >= CHART_TICK_GAP), 100)
    ticks = [n for n in range(every, hands, every) if (hands - n) * per_hand >= CHART_TICK_GAP]
    ticks = [1, *ticks] + ([hands] if hands > 1 else [])
    return {
        "width": CHART_WIDTH,
        "height": height,
        "left": plot_left,
        "right": plot_right,
        "top": plot_top,
        "bottom": plot_bottom,
        "segments": segments,
        "a": segments[-1]["a"],
        "b": segments[-1]["b"],
        "a_end": {"x": x(len(scores)), "y": y(last["A"])},
        "b_end": {"x": x(len(scores)), "y": y(last["B"])},
        "dentro": dentro_from(target),
        "dentro_y": y(dentro_from(target)),
        "target": target,
        "target_y": y(target),
        "zero_y": y(0),
        "separators": [x(b) for b in ends],
        "x_ticks": [{"n": n, "x": x_hand(n)} for n in sorted(set(ticks)) if hands],
        "label_y": height - 4,
        "hands": hands,
    }


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


def final_line(result: Mapping[str, Any]) -> str:
    """The score the hand left, "Queda 2–40.", as the engine counted it (not capped:
    docs/rules.md); "" after an accepted órdago, whose score says nothing."""
    score = result.get("score") or {}
    if "A" not in score or "B" not in score or result.get("ordago"):
        return ""
    return str(_("Queda %(a)s–%(b)s") % {"a": score["A"], "b": score["B"]} + ".")


def spoken_lines(result: Mapping[str, Any], players: Sequence[str]) -> list[str]:
    """One hand's count as it is read aloud ("Cantar el recuento"), one sentence an
    utterance: the written recuento word for word, in its order and with its totals
    (issue 38.1: the engine's recuento, dejes first as they are paid when said, "ganan
    el juego" where the juego is won), then the score it left ("Queda 2–40.") that the
    board shows under it."""
    lines = recuento_lines(result, players)
    final = final_line(result)
    return [*lines, final] if final else lines


def lie_text(lie: Mapping[str, Any], result: Mapping[str, Any], players: Sequence[str]) -> str:
    """Who lied and what it cost, one sentence (the board, the history and the calculator).

    `lie` is an entry of the result's "lies" ({"seat", "lance", "side"}); the cost is
    the piedras of the lance's "mentira" step, when the lance was counted.
    """
    lance, side = lie["lance"], lie["side"]
    against = other(side)
    steps = result.get("recuento") or []
    step = next((s for s in steps if s["lance"] == lance and s.get("why") == "mentira"), None)
    cost = ""
    if step:
        cost = ngettext(
            " (%(points)s piedra para %(other)s)", " (%(points)s piedras para %(other)s)",
            step["points"],
        ) % {"points": step["points"], "other": side_names(players, against)}
    # A side of two or three players "pierden"; a player alone (a table of two) "pierde".
    members = max(1, len(players) // 2)
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
        "name": players[seat] if seat < len(players) else str(seat),
        "other": side_names(players, against),
        "side": side_names(players, side),
        "cost": cost,
    }


def piedras_line(result: Mapping[str, Any], players: Sequence[str]) -> str:
    """A piedras entry tapped by hand: "Piedras a mano: Ana y Carla +5, 12."."""
    entry = result["piedras"]
    side = entry.get("side")
    n = int(entry.get("n", 0))
    score = int((result.get("score") or {}).get(side, 0))
    params = {
        "names": side_names(players, side) if side in SIDES else str(side),
        "n": f"+{n}" if n > 0 else f"−{-n}",
        "score": score,
    }
    if n < 0 and score == 0 and not any(
        step.get("points") for step in result.get("recuento") or []
    ):
        return str(_("Piedras a mano: %(names)s %(n)s, pero ya estaban a 0.") % params)
    if result.get("winner") == side:
        if len(players) == 2:
            return str(_("Piedras a mano: %(names)s %(n)s, %(score)s: gana el juego.") % params)
        return str(_("Piedras a mano: %(names)s %(n)s, %(score)s: ganan el juego.") % params)
    return str(_("Piedras a mano: %(names)s %(n)s, %(score)s.") % params)


def perete_line(result: Mapping[str, Any], players: Sequence[str]) -> str:
    """A perete noted: "Perete de Ana y Carla: 1 piedra, 13." (": ganan el juego.")."""
    side = result["perete"].get("side")
    params = {
        "names": side_names(players, side) if side in SIDES else str(side),
        "score": int((result.get("score") or {}).get(side, 0)),
    }
    if result.get("winner") == side:
        if len(players) == 2:
            return str(_("Perete de %(names)s: 1 piedra, %(score)s: gana el juego.") % params)
        return str(_("Perete de %(names)s: 1 piedra, %(score)s: ganan el juego.") % params)
    return str(_("Perete de %(names)s: 1 piedra, %(score)s.") % params)


def _entry_of(hand: Mapping[str, Any], key: str) -> bool:
    return isinstance(hand.get(key), Mapping) or isinstance(
        (hand.get("result") or {}).get(key), Mapping
    )


def is_piedras(hand: Mapping[str, Any]) -> bool:
    """True for an entry of piedras tapped by hand (not a dealt hand)."""
    return _entry_of(hand, "piedras")


def is_perete(hand: Mapping[str, Any]) -> bool:
    """True for a perete noted (4 5 6 7: one piedra; not a dealt hand either)."""
    return _entry_of(hand, "perete")


def is_dealt(hand: Mapping[str, Any]) -> bool:
    """True for a hand dealt and played: neither piedras tapped nor a perete. Players
    number these ("Mano 6"); the others are entries ("Anotación 9")."""
    return not (is_piedras(hand) or is_perete(hand))


def _step_lines(
    steps: Sequence[Mapping[str, Any]], result: Mapping[str, Any], players: Sequence[str]
) -> list[str]:
    """recuento_lines' sentences of the steps, then of an accepted órdago. A table of two:
    each side is one player, who "gana", not "ganan" (issue 30.4)."""
    winner, ordago = result.get("winner"), result.get("ordago")
    alone = len(players) == 2
    lines = []
    for i, step in enumerate(steps):
        side = step["side"]
        text = _step_text(step, side_names(players, side), alone=alone)
        if winner and not ordago and i == len(steps) - 1 and side == winner:
            if alone:
                text = _("%(text)s: gana el juego") % {"text": text}
            else:
                text = _("%(text)s: ganan el juego") % {"text": text}
        lines.append(text + ".")
    if ordago:
        params = {"lance": lance_word(ordago["lance"]),
                  "names": side_names(players, ordago["side"])}
        if alone:
            lines.append(_("Órdago a %(lance)s querido: lo gana %(names)s, que gana el juego.")
                         % params)
        else:
            lines.append(_("Órdago a %(lance)s querido: lo ganan %(names)s, que ganan el juego.")
                         % params)
    return lines


def recuento_lines(
    result: Mapping[str, Any], players: Sequence[str], *, lies: bool = True
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
    lines.extend(_step_lines(steps, result, players))
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


def entry_lines(hand: Mapping[str, Any], players: Sequence[str]) -> list[str]:
    """What one replayed entry of a vaca did, in the table's words (a hand's recuento)."""
    return recuento_lines(hand.get("result") or {}, players)


def current_juego(vaca: Vaca) -> dict[str, Any]:
    """The juego being played in a vaca: its number, score and the hands so far."""
    hands = list(vaca.get("hands") or [])
    if not hands:
        return {"number": 1, "score": {"A": 0, "B": 0}, "hands": [], "first_index": 0}
    last = hands[-1]
    if last.get("winner"):
        return {
            "number": last["juego"] + 1,
            "score": {"A": 0, "B": 0},
            "hands": [],
            "first_index": len(hands),
        }
    number = last["juego"]
    in_juego = [h for h in hands if h["juego"] == number]
    return {
        "number": number,
        "score": dict(last["score"]),
        "hands": in_juego,
        "first_index": len(hands) - len(in_juego),
    }


def juegos_results(vaca: Vaca, players: Sequence[str]) -> list[dict[str, Any]]:
    """Each juego won in a vaca: who won it and the final score as the engine counted
    it, past the target too (docs/rules.md, issue 38.2: a tap of 5 at 36 won it 41-17,
    as the API, the export and the calculator say)."""
    out = []
    for hand in vaca.get("hands") or []:
        if winner := hand["winner"]:
            result = hand.get("result") or {}
            score = {"A": int(hand["score"]["A"]), "B": int(hand["score"]["B"])}
            won, lost = (score["A"], score["B"]) if winner == "A" else (score["B"], score["A"])
            out.append(
                {
                    "juego": hand["juego"],
                    "winner": winner,
                    "names": side_names(players, winner),
                    "score": score,
                    # The winner's score first, as a title says who won (issue 19.5).
                    # Word joiners keep "42–2" whole when the line wraps.
                    "a": f"{won}\u2060",
                    "b": f"\u2060{lost}",
                    # An órdago ends the juego where it stood: the score says nothing.
                    "ordago": result.get("ended_by") == "ordago" or bool(result.get("ordago")),
                }
            )
    return out


def board(state: BoardState) -> dict[str, Any]:
    """Everything the scoreboard draws, from the board's state (services.board_state, or
    services.summarize of a whole state): the finished vacas' summaries are enough, and
    the last finished vaca's hands are there when the board shows its end."""
    players: list[str] = list(state["players"])
    rules: Mapping[str, Any] = state["rules"]
    n = len(players)
    target = int(rules.get("target", 40))
    needed = int(rules.get("juegos", 2))
    vaca = state["current"]
    juego = current_juego(vaca)
    vaca_won = vaca.get("winner")
    next_mano = int(vaca["next_mano"])
    sides = _sides(players, vaca, juego, target, needed)
    hands = list(vaca.get("hands") or [])
    first_hand = int(vaca.get("first_hand", 1))
    last_hand = None
    if hands:
        last_hand = _last_hand(hands, first_hand, players)
    elif (ended := state.get("last_finished")) and ended.get("hands"):
        # The last hand played ended the last vaca: the board still shows its recuento.
        last_hand = _last_hand(
            ended["hands"], int(ended.get("first_hand", 1)), players
        )
    finished_count = len(state.get("finished") or [])
    names = {side: side_names(players, side) for side in SIDES}
    ended_vaca = state.get("last_finished")
    return {
        "players": players,
        "rules": rules,
        "target": target,
        "dentro_from": dentro_from(target),
        "juegos_needed": needed,
        "sides": sides,
        "juego": juego,
        "vaca_winner": vaca_won,
        "vaca_winner_names": side_names(players, vaca_won) if vaca_won else "",
        "mano": {"seat": next_mano, "name": players[next_mano]},
        "postre": {"seat": postre(next_mano, n), "name": players[postre(next_mano, n)]},
        "chart": with_legend(
            chart(
                [h["score"] for h in juego["hands"]],
                target,
                dealt=[is_dealt(h) for h in juego["hands"]],
            ),
            players,
        ),
        "last_hand": last_hand,
        "next_number": first_hand + len(hands),
        "juegos_results": juegos_results(vaca, players),
        # One entry per finished vaca: a full table has a hundred or more, so each side's
        # names are worded once.
        "finished": [
            {
                "winner": v.get("winner"),
                "names": names[winner] if (winner := v["winner"]) else "",
                "juegos": v.get("juegos"),
            }
            for v in state.get("finished") or []
        ],
        "tally": vacas_tally(state),
        "vaca_end": (
            shown_vaca_end(ended_vaca, finished_count, players, rules)
            if not hands and ended_vaca
            else None
        ),
        "options": table_options(rules),
    }


def _sides(
    players: list[str], vaca: Vaca, juego: dict[str, Any], target: int, needed: int
) -> list[dict[str, Any]]:
    """Each side's part of the board: names and seats, piedras, juegos, the vaca won."""
    sides = []
    for side in SIDES:
        points = juego["score"][side]
        won = vaca["juegos"][side]
        sides.append(
            {
                "side": side,
                "names": side_names(players, side),
                "seats": [
                    {"seat": s, "name": players[s]} for s in side_seats(side, len(players))
                ],
                "piedras": piedras(points),
                "dentro": is_dentro(points, target),
                "juegos": won,
                "juegos_marks": [i < won for i in range(needed)],
                "vaca": vaca.get("winner") == side,
            }
        )
    return sides


def _last_hand(
    hands: Sequence[ReplayedHand], first_hand: int, players: list[str]
) -> dict[str, Any]:
    """The board's last hand: its number, its recuento, who won, whether tapped piedras
    or a perete."""
    last = hands[-1]
    result = last.get("result") or {}
    return {
        "number": first_hand + len(hands) - 1,
        "lines": recuento_lines(result, players),
        "final": final_line(result),
        "winner": last.get("winner"),
        "piedras": is_piedras(last),
        "perete": is_perete(last),
    }


def with_legend(shown: dict[str, Any], players: Sequence[str]) -> dict[str, Any]:
    """The chart with its legend: each side's colour and names."""
    shown["legend"] = [{"side": side, "names": side_names(players, side)} for side in SIDES]
    return shown


def vacas_tally(state: BoardState | TableState) -> dict[str, Any] | None:
    """The vacas won by each pair at this table tonight, None before the first is won."""
    finished = [v for v in state.get("finished") or [] if v.get("winner")]
    if not finished:
        return None
    players = list(state["players"])
    return {
        "sides": [
            {
                "side": side,
                "names": side_names(players, side),
                "won": sum(1 for v in finished if v["winner"] == side),
            }
            for side in SIDES
        ],
        "played": len(finished),
    }


def vaca_end(state: TableState, number: int) -> dict[str, Any] | None:
    """The end of vaca `number` (1 = the table's first): who won, each juego, the chart.

    None when that vaca is not finished (or does not exist).
    """
    finished = list(state.get("finished") or [])
    if not 1 <= number <= len(finished):
        return None
    return shown_vaca_end(finished[number - 1], number, state["players"], state["rules"])


def shown_vaca_end(
    vaca: Vaca, number: int, players: Sequence[str], rules: Mapping[str, Any]
) -> dict[str, Any] | None:
    """The end of `vaca`, the table's vaca `number`, as its screen shows it (see vaca_end);
    None when it has no winner."""
    winner = vaca["winner"]
    if winner is None:
        return None
    players = list(players)
    target = int(rules.get("target", 40))
    hands = list(vaca.get("hands") or [])
    breaks = [i + 1 for i, hand in enumerate(hands) if hand.get("winner")]
    first = int(vaca.get("first_hand", 1))
    return {
        "number": number,
        "winner": winner,
        "names": side_names(players, winner),
        "juegos_won": vaca.get("juegos") or {"A": 0, "B": 0},
        "juegos": juegos_results(vaca, players),
        "hands": len(hands),
        "first_hand": first,
        "last_hand": first + len(hands) - 1,
        "chart": with_legend(
            chart(
                [h["score"] for h in hands],
                target,
                breaks=breaks,
                height=170,
                dealt=[is_dealt(h) for h in hands],
            ),
            players,
        ),
    }


def table_options(rules: Mapping[str, Any]) -> list[str]:
    """The table's options as a table says them: "8 reyes", "a 40", "31 real: rey"..."""
    words = [
        _("%(n)s jugadores") % {"n": rules.get("players", 4)},
        _("%(n)s reyes") % {"n": rules.get("reyes", 8)},
        _("a %(n)s piedras") % {"n": rules.get("target", 40)},
    ]
    juegos = int(rules.get("juegos", 2))
    words.append(
        ngettext("vaca a %(n)s juego", "vaca a %(n)s juegos", juegos) % {"n": juegos}
    )
    real31 = rules.get("real31", "no")
    words.append(str(REAL31_WORDS.get(str(real31), str(real31))))
    if rules.get("perete"):
        words.append(_("con perete (4 5 6 7: un tanto)"))
    return [str(w) for w in words]


def dealt_numbers(state: Mapping[str, Any]) -> Callable[[int], int]:
    """The number a player reads for table-wide entry n: hands dealt up to it (taps and
    peretes are entries, not hands). An entry past the stored ones (one undone) counts
    from the last stored: the number it had when it stood there. `state` is a whole
    state (table_state), its finished vacas with their hands."""
    before = [0]  # before[k]: hands dealt among entries 1..k
    for vaca in [*(state.get("finished") or []), state["current"]]:
        for hand in vaca.get("hands") or []:
            before.append(before[-1] + (1 if is_dealt(hand) else 0))

    def dealt(number: int) -> int:
        return before[min(max(number - 1, 0), len(before) - 1)] + 1

    return dealt


def history(state: TableState) -> list[dict[str, Any]]:
    """Every hand of the table, newest first, with its recuento and its juego/vaca result."""
    players = list(state["players"])
    vacas = [*(state.get("finished") or []), state["current"]]
    out: list[dict[str, Any]] = []
    # The number a player reads counts hands dealt: piedras taps are entries, not hands.
    dealt = 0
    for vaca_index, vaca in enumerate(vacas, start=1):
        first = int(vaca.get("first_hand", 1))
        hands = list(vaca.get("hands") or [])
        for i, hand in enumerate(hands):
            dealt += 1 if is_dealt(hand) else 0
            is_last_of_vaca = i == len(hands) - 1 and vaca.get("winner")
            out.append(
                {
                    "number": first + i,
                    "dealt": dealt,
                    "vaca": vaca_index,
                    "juego": hand.get("juego"),
                    "mano": players[hand["mano"]] if "mano" in hand else "",
                    "score": hand.get("score"),
                    "winner": hand.get("winner"),
                    "winner_names": side_names(players, won) if (won := hand["winner"]) else "",
                    "vaca_winner_names": side_names(players, vaca_won)
                    if is_last_of_vaca and (vaca_won := vaca["winner"])
                    else "",
                    "lines": entry_lines(hand, players),
                    "piedras": is_piedras(hand),
                    "perete": is_perete(hand),
                }
            )
    out.reverse()
    return out


def history_groups(
    hands: Sequence[Mapping[str, Any]], state: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """The history's hands (newest first, from `history`) grouped by vaca, then juego.

    Vacas and juegos come newest first too; each vaca says who won it, each juego
    its final score, so the evening reads top-down as it was played bottom-up.
    """
    players = list(state["players"])
    vacas = [*(state.get("finished") or []), state["current"]]
    groups: list[dict[str, Any]] = []
    for hand in hands:
        if not groups or groups[-1]["number"] != hand["vaca"]:
            vaca = vacas[hand["vaca"] - 1] if hand["vaca"] <= len(vacas) else {}
            winner = vaca.get("winner")
            groups.append(
                {
                    "number": hand["vaca"],
                    "winner": winner,
                    "names": side_names(players, winner) if winner else "",
                    "juegos_won": vaca.get("juegos") or {"A": 0, "B": 0},
                    "juegos": [],
                }
            )
        juegos = groups[-1]["juegos"]
        if not juegos or juegos[-1]["number"] != hand["juego"]:
            juegos.append({"number": hand["juego"], "winner_names": "", "score": None, "hands": []})
        if hand.get("winner_names"):
            juegos[-1]["winner_names"] = hand["winner_names"]
            juegos[-1]["score"] = hand["score"]
        juegos[-1]["hands"].append(hand)
    return groups
