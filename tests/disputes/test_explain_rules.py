"""Each recuento step's rule, in every case the calculator words differently: a rejected
bet (first bet, first bet an órdago, a raise, an órdago after bets) and an accepted one
(pares or juego, punto, grande or chica). The calculator's pages show them; these check
each wording against the step it explains."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from muscore.disputes.explain import _rule

NAMES = ["Ana", "Bruno", "Carla", "Dani"]
ENVIDO = {"side": "A", "n": 2}
ORDAGO = {"side": "B", "n": "ordago"}


def rule(why: str, lance: str, bets: list[dict[str, Any]] | None = None) -> dict[str, str]:
    step = {"lance": lance, "why": why, "points": 2, "stake": 7, "side": "A",
            "premiums": [{"seat": 0, "jugada": "medias", "points": 2}]}
    record = {"lances": {lance: {"bets": bets or [], "end": "no_quiero"}}}
    with translation.override("es"):
        return _rule(step, record, NAMES)


@pytest.mark.parametrize(
    ("bets", "text"),
    [
        ([ENVIDO], "Envite rechazado: quien envidó cobra 1 en el acto (el deje)."),
        ([ORDAGO], "Órdago rechazado de entrada: quien lo echó cobra 1 en el acto (el deje)."),
        ([ENVIDO, {"side": "B", "n": 3}], "Rechazado un reenvite: se cobra lo que había antes, 2."),
        ([ENVIDO, ORDAGO], "Rechazado el órdago: se cobra lo que había antes, 2."),
    ],
)
def test_a_rejected_bet_says_what_its_deje_pays(bets: list[dict[str, Any]], text: str) -> None:
    assert rule("deje", "grande", bets) == {"text": text, "url": "/reglas/apuestas/#deje"}


@pytest.mark.parametrize(
    ("lance", "text"),
    [
        ("pares", "Envite querido: quien gana pares cobra lo apostado, 7, "
                  "y sus jugadas: Ana medias: 2."),
        ("punto", "Punto querido: quien lo gana cobra lo apostado, 7, y 1 del punto."),
        ("chica", "Envite querido: quien gana chica cobra lo apostado, 7."),
    ],
)
def test_an_accepted_bet_says_what_its_winner_collects(lance: str, text: str) -> None:
    assert rule("quiero", lance) == {"text": text, "url": "/reglas/apuestas/#quiero"}
