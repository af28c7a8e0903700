"""The dispute pages: thin views over calculator, explain, lector and rules_pages."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from muscore import permalink
from muscore.disputes import calculator as calc_mod
from muscore.disputes import glossary, rules_pages
from muscore.disputes import lector as lector_mod
from muscore.disputes.explain import explain
from muscore.handentry.cards import CARD_VALUES, JUEGO_CHOICES, PARES_CHOICES, normal_cards
from muscore.handentry.options import REAL31_CHOICES, TARGETS
from muscore.handentry.presets import PRESETS
from muscore.handentry.spoken import spoken_bets
from muscore.handentry.words import LANCE_NAMES, NAME_MAX, side_names, side_of
from muscore.htmx import HtmxHttpRequest
from muscore.rules import Rules, parse_cards

MAX_NAMES_PARAM = 300


def _names(raw: str, players: int) -> list[str] | None:
    names = [n.strip()[:NAME_MAX] for n in raw[:MAX_NAMES_PARAM].split(",")]
    if len(names) != players or not all(names):
        return None
    return names


def _context(calc: calc_mod.Calculation) -> dict[str, Any]:
    n = calc.players
    seats = [
        {
            "seat": seat,
            "name": calc.names[seat],
            "side": side_of(seat),
            "cards": calc.cards.get(seat, ""),
            "showed": len(calc.cards.get(seat, "").split()) == 4,
            "pares": calc.pares.get(seat, "no"),
            "juego": calc.juego.get(seat, "no"),
            "dp": calc.declared.get(seat, {}).get("pares", ""),
            "dj": calc.declared.get(seat, {}).get("juego", ""),
            "is_mano": seat == calc.mano,
        }
        for seat in range(n)
    ]
    sides = [{"side": side, "label": side_names(calc.names, side)} for side in ("A", "B")]
    labels = {s["side"]: s["label"] for s in sides}
    lances = [
        {
            "lance": lance,
            "name": LANCE_NAMES[lance] if lance != "juego" else _("Juego / punto"),
            "first": calc.first.get(lance, ""),
            "amounts": calc.amounts.get(lance, ""),
            "end": calc.ends.get(lance, ""),
            "winner": calc.winners.get(lance, ""),
            **calc.bet_buttons(lance, labels),
        }
        for lance in calc_mod.LANCES
    ]
    for info in lances:
        spoken_bets(info, sides, labels)
    return {
        "calc": calc,
        "seats": seats,
        "all_showed": all(s["showed"] for s in seats),
        "lances": lances,
        "sides": sides,
        "card_values": CARD_VALUES,
        "pares_choices": PARES_CHOICES,
        "juego_choices": JUEGO_CHOICES,
        "targets": TARGETS,
        "presets": PRESETS,
        "six": n == 6,
        "players": n,
        # A seat dealt 4 5 6 7 at a table that plays perete: a tanto and new cards.
        "peretes": [
            {"name": calc.names[seat], "names": labels[side_of(seat)]}
            for seat in calc.peretes()
        ],
        "real31_choices": [(value, str(label)) for value, label in REAL31_CHOICES],
    }


#: What a calculator link without a hand may set: the table options and the names.
START_FIELDS = ("reyes", "target", "juegos", "real31", "perete", *(f"n{seat}" for seat in range(6)))


@require_http_methods(["GET", "HEAD", "POST"])
def calculator(request: HtmxHttpRequest) -> HttpResponse:
    status = 200
    errors: list[str] = []
    settled = None
    if request.method == "POST":
        calc = calc_mod.Calculation.from_data(request.POST)
        errors = list(calc.errors)
        if not errors:
            settled = calc_mod.settle(calc.record(), calc.form_winners(), calc.names)
    elif request.GET.get("h"):
        try:
            record = permalink.decode(request.GET["h"])
        except permalink.PermalinkError:
            calc = calc_mod.Calculation()
            errors = [_("Ese enlace está dañado: no lleva una mano que se pueda leer.")]
            status = 400
        else:
            try:
                players = Rules.from_json(record.get("rules")).players
                names = _names(request.GET.get("n", ""), players)
                calc = calc_mod.Calculation.from_record(record, names)
            except (ValueError, TypeError, AttributeError, KeyError):
                # A record the engine refuses: its error is shown, the form starts empty.
                calc = calc_mod.Calculation()
            settled = calc_mod.settle(record, names=calc.names)
            if settled.error:
                status = 400
    else:
        players = {"2": 2, "6": 6}.get(request.GET.get("players", ""), 4)
        # A new hand; a league's disputed paper result opens it with the competition's
        # table options and the players' names (muscore.leagues.views.confirm).
        start = {key: request.GET[key] for key in START_FIELDS if key in request.GET}
        calc = calc_mod.Calculation.from_data({**start, "players": str(players)})
    context = _context(calc)
    context["errors"] = errors
    context["settled"] = settled
    if settled is not None and settled.result is not None:
        context["explained"] = explain(settled.result, settled.record, calc.names)
        context["permalink"] = permalink.permalink_url(
            settled.record, calc.names if calc.names_changed() else None
        )
        context["asked"] = settled.asked
    elif settled is not None:
        context["engine_error"] = settled.error
        context["asked"] = settled.asked
    if request.htmx and request.method == "POST":
        response = render(request, "disputes/calculator.html#result", context)
        # The bet buttons follow the lance's fields. A tap changes the fields themselves, so
        # the whole section comes back; a typed change only redraws the buttons, leaving
        # the field being typed in alone.
        extra: str
        if calc.act:
            extra = render_to_string(
                "disputes/calculator.html#lances", {**context, "oob": True}, request
            )
        else:
            extra = "".join(
                render_to_string(
                    "disputes/_calc_taps.html",
                    {"l": lance, "sides": context["sides"], "oob": True},
                    request,
                )
                for lance in context["lances"]
            )
        response.content += extra.encode()
        if context.get("permalink"):
            # The address bar becomes the permalink: reload or share it as it is.
            response["HX-Replace-Url"] = context["permalink"]
        return response
    return render(request, "disputes/calculator.html", context, status=status)


@require_safe
def lector(request: HtmxHttpRequest) -> HttpResponse:
    """GET /lector/?c0=R+R+5+4: what four cards hold, in 8 and in 4 reyes."""
    text = str(request.GET.get("c0", "") or "")[:60]
    error = ""
    reading = None
    status = 200
    cards_text = ""
    if text.strip():
        try:
            cards_text = normal_cards(text)
        except ValueError as bad:
            error = _("«%(token)s» no es una carta (1-7, S, C, R).") % {"token": str(bad)[:10]}
            cards_text = text
        else:
            count = len(cards_text.split())
            if count == 4:
                reading = lector_mod.read_hand(parse_cards(cards_text))
            else:
                error = _("Una mano tiene 4 cartas, no %(k)s.") % {"k": count}
        if error:
            status = 400
    context = {
        # One seat and no player: its field is "the four cards", and the live region
        # says how many are in (not "Cartas de Cartas: 0 de 4", issue 30.6).
        "seats": [{"seat": 0, "name": _("Cartas"), "side": "A", "cards": cards_text,
                   "showed": bool(reading), "field_name": _("Las cuatro cartas")}],
        "picker_msg": _("Cartas: {n} de 4"),
        "card_values": CARD_VALUES,
        "reading": reading,
        "error": error,
    }
    if request.htmx:
        return render(request, "disputes/lector.html#reading", context, status=200)
    return render(request, "disputes/lector.html", context, status=status)


@require_safe
def rules_index(request: HttpRequest) -> HttpResponse:
    return render(request, "disputes/rules_index.html", {
        "pages": rules_pages.pages(), "glossary": glossary.rows(),
        "glossary_languages": glossary.languages()})


@require_safe
def rules_page(request: HttpRequest, page: str) -> HttpResponse:
    found = rules_pages.page(page)
    if found is None:
        raise Http404(_("No hay ninguna página de reglas con ese nombre."))
    return render(
        request,
        "disputes/rules_page.html",
        {"page": found, "pages": rules_pages.pages(), "rendered": rules_pages.render_page(found)},
    )
