"""The recuento told step by step, each step with the rule behind it and a link to it.

The step's own sentence is the board's (muscore.tables.board.recuento_lines), so a
hand reads the same on the board and in the calculator; this module adds the
reason: which rule gave those piedras, in plain words, and where the rules pages
explain it. Who won a lance on the cards is shown too: that is what a table
argues about.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.urls import reverse
from django.utils.text import get_text_list
from django.utils.translation import gettext as _

from muscore import rules as engine
from muscore.handentry.words import jugada_word, lance_word, side_names, side_of
from muscore.rules.contract import Bet, HandResultDict, Premium, StepDict
from muscore.tables import board


def rule_link(page: str, anchor: str = "") -> str:
    url = reverse("disputes:rules_page", args=[page])
    return f"{url}#{anchor}" if anchor else url


def premiums_text(premiums: Sequence[Premium], names: Sequence[str]) -> str:
    """'Ana medias 2 y Carla par 1' (juego: 'Ana 31: 3')."""
    parts = []
    for p in premiums:
        name = names[p["seat"]] if p["seat"] < len(names) else str(p["seat"])
        parts.append(
            _("%(name)s %(jugada)s: %(points)s")
            % {"name": name, "jugada": jugada_word(p["jugada"]), "points": p["points"]}
        )
    return get_text_list(parts, _("y"))


def _bets(record: Mapping[str, Any], lance: str) -> list[Bet]:
    lances = record.get("lances") or {}
    return list((lances.get(lance) or {}).get("bets") or [])


def _rule(
    step: StepDict, record: Mapping[str, Any], names: Sequence[str]
) -> dict[str, str]:
    """The rule behind one recuento step: {"text", "url"}."""
    lance = step["lance"]
    if lance is None:  # a tap (score() makes none): no rule
        return {"text": "", "url": rule_link("recuento")}
    why = step.get("why")
    points = step["points"]
    premiums = premiums_text(step.get("premiums") or [], names)
    stake = step.get("stake", 0)
    params = {"lance": lance_word(lance), "points": points, "stake": stake,
              "premiums": premiums}
    if why == "deje":
        return {"text": _deje_text(_bets(record, lance), params),
                "url": rule_link("apuestas", "deje")}
    if why == "paso":
        if lance in ("pares", "juego"):
            text = _("En paso: el bando que gana %(lance)s cobra sus jugadas: %(premiums)s.")
            return {"text": text % params, "url": rule_link("primas", "paso")}
        return {
            "text": _("En paso: %(lance)s vale 1 para quien lo gana.") % params,
            "url": rule_link("recuento", "paso"),
        }
    if why == "quiero":
        return {"text": _quiero_text(lance) % params, "url": rule_link("apuestas", "quiero")}
    if why == "no_quiero":
        if lance == "punto":
            text = _("No quisieron el punto: además del deje, quien envidó cobra 1 en el recuento.")
        else:
            text = _("No quisieron: quien envidó cobra en el recuento sus propias jugadas "
                     "(%(premiums)s), aunque las del contrario fueran mejores.")
        return {"text": text % params, "url": rule_link("recuento", "no-quiero")}
    if why == "solo":
        text = _("Solo un bando tiene %(lance)s: no se apuesta y cobra sus jugadas en el "
                 "recuento: %(premiums)s.")
        return {"text": text % params, "url": rule_link("lances", "quien-juega")}
    if why == "mentira":
        liars = get_text_list([names[s] for s in step.get("liars") or []], _("y"))
        what = _("lo apostado, %(stake)s, y sus jugadas: %(premiums)s") if stake else _(
            "sus jugadas: %(premiums)s")
        text = _("%(liars)s dijo %(lance)s y no lo tiene: el lance es para el bando %(side)s, "
                 "que cobra como si lo hubiera ganado (%(what)s).") % {
            "liars": liars, "lance": params["lance"], "side": step["side"],
            "what": what % params}
        return {"text": text, "url": rule_link("mentiras")}
    return {"text": "", "url": rule_link("recuento")}


def _deje_text(bets: Sequence[Bet], params: Mapping[str, object]) -> str:
    """Why a rejected bet pays what it pays at once: 1 for the first bet, else what stood."""
    if len(bets) <= 1:
        if bets and bets[0].get("n") == "ordago":
            return _("Órdago rechazado de entrada: quien lo echó cobra 1 en el acto (el deje).")
        return _("Envite rechazado: quien envidó cobra 1 en el acto (el deje).")
    if bets[-1].get("n") == "ordago":
        return _("Rechazado el órdago: se cobra lo que había antes, %(points)s.") % params
    return _("Rechazado un reenvite: se cobra lo que había antes, %(points)s.") % params


def _quiero_text(lance: str) -> str:
    """What an accepted bet pays the lance's winner (a text to fill with the step's params)."""
    if lance in ("pares", "juego"):
        return _("Envite querido: quien gana %(lance)s cobra lo apostado, %(stake)s, "
                 "y sus jugadas: %(premiums)s.")
    if lance == "punto":
        return _("Punto querido: quien lo gana cobra lo apostado, %(stake)s, y 1 del punto.")
    return _("Envite querido: quien gana %(lance)s cobra lo apostado, %(stake)s.")


def _winner_words(step: StepDict, record: Mapping[str, Any], names: Sequence[str]) -> str:
    """'Gana Bruno con R R 5 4.' when the cards decided the lance."""
    lance = step["lance"]
    if lance is None or step.get("why") not in ("paso", "quiero"):
        return ""
    try:
        draft = engine.HandDraft.from_record(record)
        seat = draft.lance_winner_seat(lance)
        if seat is None or side_of(seat) != step["side"]:
            return ""  # not the cards: a lie or a rejected bet gave the lance away
        cards = engine.parse_cards(str(record["hands"][str(seat)]))
    except (engine.RuleError, KeyError, TypeError, ValueError):
        return ""
    ev = engine.evaluate(cards, draft.rules)
    shown = reversed(cards) if lance == "chica" else cards  # chica reads from the lowest card
    extra = ""
    if lance == "pares" and ev.pares:
        extra = f" ({jugada_word(ev.pares.kind)})"
    elif lance in ("juego", "punto"):
        extra = f" ({ev.total}{', 31 real' if ev.real31 else ''})"
    return _("Gana %(name)s con %(cards)s%(extra)s.") % {
        "name": names[seat], "cards": " ".join(engine.CARD_TEXT[c] for c in shown),
        "extra": extra}


def explain(
    result: HandResultDict, record: Mapping[str, Any], names: Sequence[str]
) -> dict[str, object]:
    """Everything the calculator shows for a scored hand."""
    lines = board.recuento_lines(result, names, lies=False)  # lies: shown apart, below
    steps_in = list(result.get("recuento") or [])
    steps = []
    for i, step in enumerate(steps_in):
        steps.append(
            {
                "line": lines[i],
                "lance": step["lance"],
                "side": step["side"],
                "points": step["points"],
                "score": step["score"],
                "why": step.get("why"),
                "rule": _rule(step, record, names),
                "winner": _winner_words(step, record, names),
            }
        )
    closing = lines[len(steps_in):]
    target = engine.Rules.from_json(record.get("rules")).target
    end: dict[str, str] | None = None
    ended_by = result.get("ended_by")
    if ended_by == "recuento":
        end = {
            "text": _("Llegan a %(target)s: ganan el juego y el recuento se para ahí; lo que "
                      "faltaba por contar no se cuenta.") % {"target": target},
            "url": rule_link("recuento", "fin"),
        }
    elif ended_by == "deje":
        end = {
            "text": _("Con el deje llegan a %(target)s: ganan el juego en el acto y el resto "
                      "de la mano no se juega.") % {"target": target},
            "url": rule_link("recuento", "fin"),
        }
    elif ended_by == "ordago":
        end = {
            "text": _("Órdago querido: se enseñan las cartas y quien gana ese lance gana el "
                      "juego, sea cual sea el tanteo."),
            "url": rule_link("apuestas", "ordago"),
        }
    return {
        "steps": steps,
        "closing": closing,
        "end": end,
        "lies": lies(result, record, names),
        "score": result["score"],
        "winner": result.get("winner"),
        "winner_names": side_names(names, winner) if (winner := result["winner"]) else "",
    }


def lies(
    result: HandResultDict, record: Mapping[str, Any], names: Sequence[str]
) -> list[dict[str, str]]:
    """Who lied and what it cost; and who wrongly said "no" (he just did not play)."""
    out = []
    rules = engine.Rules.from_json(record.get("rules"))
    for lie in result.get("lies") or []:
        # The table's own sentence (muscore.tables.board), the same on the board and here.
        out.append({"text": board.lie_text(lie, result, names), "url": rule_link("mentiras")})
    hands = record.get("hands") or {}
    for seat_key, said in sorted((record.get("declared") or {}).items()):
        text_cards = hands.get(seat_key)
        if not text_cards:
            continue
        hand = engine.Hand.parse(text_cards)
        name = names[int(seat_key)]
        if said.get("pares") is False and hand.pares(rules):
            out.append({
                "text": _("%(name)s dijo que no tenía pares y los tiene: no jugó los pares.")
                % {"name": name},
                "url": rule_link("mentiras"),
            })
        if said.get("juego") is False and hand.has_juego(rules):
            out.append({
                "text": _("%(name)s dijo que no tenía juego y lo tiene: no jugó el juego.")
                % {"name": name},
                "url": rule_link("mentiras"),
            })
    return out
