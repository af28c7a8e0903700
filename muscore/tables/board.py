"""How the board shows a table: plain dicts in, plain dicts and words out.

Everything here takes the state the services return (the replay output of
muscore.rules, see docs/contract.md) and turns it into what the pages draw:
piedras as amarracos, the chart of the juego, the recuento in the table's own
words. No storage and no rules are decided here: only presentation.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from muscore import rules as rules_engine
from muscore.handentry.words import Seating

# The recuento in words lives in muscore.tables.recuento; the pages and their tests read
# it as the board's.
from muscore.tables.recuento import Players, scores_words, seating
from muscore.tables.recuento import entry_lines as entry_lines
from muscore.tables.recuento import final_line as final_line
from muscore.tables.recuento import lie_text as lie_text
from muscore.tables.recuento import perete_line as perete_line
from muscore.tables.recuento import piedras_line as piedras_line
from muscore.tables.recuento import recuento_lines as recuento_lines
from muscore.tables.recuento import spoken_lines as spoken_lines
from muscore.tables.state import BoardState, ReplayedHand, SideName, TableState, Vaca

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


def table_seating(state: Mapping[str, Any]) -> Seating:
    """A table state's seating: its names under its rules."""
    return Seating.of(list(state["players"]), state["rules"])


CHART_WIDTH = 320
CHART_LEFT, CHART_RIGHT, CHART_TOP, CHART_BOTTOM = 26, 8, 8, 18
CHART_TICK_GAP = 16  # the x axis' labels, at least this far apart (two digits at 10 px)


def chart(
    scores: Sequence[Mapping[str, Any]],
    target: int,
    *,
    breaks: Sequence[int] = (),
    height: int = 130,
    dealt: Sequence[bool] | None = None,
    letters: Sequence[str] = (),
) -> dict[str, Any]:
    """Every side's score over the hands (`letters`: the sides, A and B unless the scores
    say more), for an inline SVG with axes and the dentro line.
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
    sides = list(letters or (scores[0] if scores else SIDES))
    zero = dict.fromkeys(sides, 0)
    segments = []
    for k, start in enumerate(starts):
        stop = ends[k] if k < len(ends) else len(scores)
        series = [(start, zero)] + [(i + 1, scores[i]) for i in range(start, stop)]
        segments.append({side: " ".join(f"{x(i)},{y(s[side])}" for i, s in series)
                         for side in sides})
    last = scores[-1] if scores else zero
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
        "segments": [{"lines": [{"side": side, "points": points} for side, points in seg.items()]}
                     for seg in segments],
        "a": segments[-1]["A"],
        "b": segments[-1]["B"],
        "a_end": {"x": x(len(scores)), "y": y(last["A"])},
        "b_end": {"x": x(len(scores)), "y": y(last["B"])},
        "ends": [{"side": side, "x": x(len(scores)), "y": y(last[side])} for side in sides],
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


def current_juego(vaca: Vaca) -> dict[str, Any]:
    """The juego being played in a vaca: its number, score and the hands so far."""
    hands = list(vaca.get("hands") or [])
    zero = dict.fromkeys(vaca.get("juegos") or SIDES, 0)
    if not hands:
        return {"number": 1, "score": zero, "hands": [], "first_index": 0}
    last = hands[-1]
    if last.get("winner"):
        return {
            "number": last["juego"] + 1,
            "score": zero,
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


def juegos_results(vaca: Vaca, players: Players) -> list[dict[str, Any]]:
    """Each juego won in a vaca: who won it and the final score as the engine counted
    it, past the target too (docs/rules.md, issue 38.2: a tap of 5 at 36 won it 41-17,
    as the API, the export and the calculator say). In individual play the others'
    piedras follow the winner's in seat order: "41–17–3"."""
    out = []
    for hand in vaca.get("hands") or []:
        if winner := hand["winner"]:
            result = hand.get("result") or {}
            score = {side: int(str(points)) for side, points in hand["score"].items()}
            seats = seating(players, score)
            rest = [score[side] for side in score if side != winner]
            out.append(
                {
                    "juego": hand["juego"],
                    "winner": winner,
                    "names": seats.names(winner),
                    "alone": seats.alone,  # one player: "irabazi du", not "dute" (eu)
                    "score": score,
                    # The winner's score first, as a title says who won (issue 19.5).
                    # Word joiners keep "42–2" whole when the line wraps.
                    "a": f"{score[winner]}\u2060",
                    "b": "–".join(f"\u2060{lost}" for lost in rest),
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
    seats = table_seating(state)
    n = len(players)
    target = int(rules.get("target", 40))
    needed = int(rules.get("juegos", 2))
    vaca = state["current"]
    juego = current_juego(vaca)
    vaca_won = vaca.get("winner")
    next_mano = int(vaca["next_mano"])
    sides = _sides(seats, vaca, juego, target, needed)
    hands = list(vaca.get("hands") or [])
    first_hand = int(vaca.get("first_hand", 1))
    last_hand = None
    if hands:
        last_hand = _last_hand(hands, first_hand, seats)
    elif (ended := state.get("last_finished")) and ended.get("hands"):
        # The last hand played ended the last vaca: the board still shows its recuento.
        last_hand = _last_hand(
            ended["hands"], int(ended.get("first_hand", 1)), seats
        )
    finished_count = len(state.get("finished") or [])
    names = {side: seats.names(side) for side in seats.letters}
    ended_vaca = state.get("last_finished")
    return {
        "players": players,
        "rules": rules,
        "individual": seats.individual,
        "alone": seats.alone,
        "target": target,
        "dentro_from": dentro_from(target),
        "juegos_needed": needed,
        "sides": sides,
        # "12–30", or "12–30–7" in individual play: the page's title.
        "points": "–".join(str(side["piedras"]["points"]) for side in sides),
        "everyone": seats.names_all(),
        "juego": juego,
        "vaca_winner": vaca_won,
        "vaca_winner_names": seats.names(vaca_won) if vaca_won else "",
        # The mano and the dealer of the next hand and of each one after it, round the
        # table once (rules.md: the mano moves one seat to the right a hand): for a phone
        # that keeps hands without signal (static/js/muscore.js, turnAfterKept).
        "turns_json": _turns_json(players, rules, next_mano),
        "mano": {"seat": next_mano, "name": players[next_mano]},
        "postre": {"seat": postre(next_mano, n), "name": players[postre(next_mano, n)]},
        "chart": with_legend(
            chart(
                [h["score"] for h in juego["hands"]],
                target,
                dealt=[is_dealt(h) for h in juego["hands"]],
                letters=seats.letters,
            ),
            seats,
        ),
        "last_hand": last_hand,
        "next_number": first_hand + len(hands),
        "juegos_results": juegos_results(vaca, seats),
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
            shown_vaca_end(ended_vaca, finished_count, seats, rules)
            if not hands and ended_vaca
            else None
        ),
        "options": table_options(rules),
    }


def _turns_json(players: list[str], rules: Mapping[str, Any], next_mano: int) -> str:
    """[mano, dealer] of the next hand and of each one after it, round the table once."""
    manos = rules_engine.Rules.from_json(rules).seats_from(next_mano)
    n = len(players)
    return json.dumps([[players[m], players[postre(m, n)]] for m in manos], ensure_ascii=False)


def _sides(
    seats: Seating, vaca: Vaca, juego: dict[str, Any], target: int, needed: int
) -> list[dict[str, Any]]:
    """Each side's part of the board (each player's in individual play): names and
    seats, piedras, juegos, the vaca won."""
    sides = []
    for side in seats.letters:
        points = juego["score"][side]
        juegos: Mapping[str, Any] = vaca["juegos"]
        won = juegos[side]
        sides.append(
            {
                "side": side,
                "names": seats.names(side),
                "seats": [{"seat": s, "name": seats.players[s]} for s in seats.seats(side)],
                "piedras": piedras(points),
                "dentro": is_dentro(points, target),
                "juegos": won,
                "juegos_marks": [i < won for i in range(needed)],
                "vaca": vaca.get("winner") == side,
            }
        )
    return sides


def _last_hand(
    hands: Sequence[ReplayedHand], first_hand: int, players: Seating
) -> dict[str, Any]:
    """The board's last hand: its number, its recuento, who won, whether tapped piedras
    or a perete."""
    last = hands[-1]
    result = last.get("result") or {}
    return {
        "number": first_hand + len(hands) - 1,
        "lines": recuento_lines(result, players),
        "final": final_line(result, players),
        "winner": last.get("winner"),
        "piedras": is_piedras(last),
        "perete": is_perete(last),
    }


def with_legend(shown: dict[str, Any], seats: Seating) -> dict[str, Any]:
    """The chart with its legend: each side's colour and names."""
    shown["legend"] = [{"side": side, "names": seats.names(side)} for side in seats.letters]
    shown["individual"] = seats.individual  # "each player's score", not "each side's"
    return shown


def vacas_tally(state: BoardState | TableState) -> dict[str, Any] | None:
    """The vacas won by each pair at this table tonight, None before the first is won."""
    finished = [v for v in state.get("finished") or [] if v.get("winner")]
    if not finished:
        return None
    seats = table_seating(state)
    return {
        "sides": [
            {
                "side": side,
                "names": seats.names(side),
                "won": sum(1 for v in finished if v["winner"] == side),
            }
            for side in seats.letters
        ],
        "played": len(finished),
    }


def _juegos_won(vaca: Mapping[str, Any], seats: Seating) -> dict[str, Any]:
    """A vaca's juegos won as its end and the history say them: by side ("juegos_won"),
    and in individual play by name ("juegos_words": "Ana 2, Bruno 1 y Carla 0")."""
    won = vaca.get("juegos") or seats.zero()
    return {"juegos_won": won, "juegos_words": scores_words(won, seats) if seats.individual else ""}


def vaca_end(state: TableState, number: int) -> dict[str, Any] | None:
    """The end of vaca `number` (1 = the table's first): who won, each juego, the chart.

    None when that vaca is not finished (or does not exist).
    """
    finished = list(state.get("finished") or [])
    if not 1 <= number <= len(finished):
        return None
    return shown_vaca_end(finished[number - 1], number, table_seating(state), state["rules"])


def shown_vaca_end(
    vaca: Vaca, number: int, seats: Seating, rules: Mapping[str, Any]
) -> dict[str, Any] | None:
    """The end of `vaca`, the table's vaca `number`, as its screen shows it (see vaca_end);
    None when it has no winner."""
    winner = vaca["winner"]
    if winner is None:
        return None
    target = int(rules.get("target", 40))
    hands = list(vaca.get("hands") or [])
    breaks = [i + 1 for i, hand in enumerate(hands) if hand.get("winner")]
    first = int(vaca.get("first_hand", 1))
    return {
        "number": number,
        "winner": winner,
        "names": seats.names(winner),
        "alone": seats.alone,
        **_juegos_won(vaca, seats),
        "juegos": juegos_results(vaca, seats),
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
                letters=seats.letters,
            ),
            seats,
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
    seats = table_seating(state)
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
                    "winner_names": seats.names(won) if (won := hand["winner"]) else "",
                    "vaca_winner_names": seats.names(vaca_won)
                    if is_last_of_vaca and (vaca_won := vaca["winner"])
                    else "",
                    "lines": entry_lines(hand, seats),
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
    seats = table_seating(state)
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
                    "names": seats.names(winner) if winner else "",
                    **_juegos_won(vaca, seats),
                    "juegos": [],
                }
            )
        juegos = groups[-1]["juegos"]
        if not juegos or juegos[-1]["number"] != hand["juego"]:
            juegos.append({"number": hand["juego"], "winner_names": "", "score": None, "hands": []})
        if hand.get("winner_names"):
            juegos[-1]["winner_names"] = hand["winner_names"]
            juegos[-1]["score"] = hand["score"]
            # Every player's piedras, the winner's among them, in individual play.
            juegos[-1]["points"] = "–".join(str(p) for p in (hand["score"] or {}).values())
        juegos[-1]["hands"].append(hand)
    return groups
