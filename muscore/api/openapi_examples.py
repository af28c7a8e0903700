"""The examples of the OpenAPI description (muscore.api.openapi), worked out by hand:
tests/api/test_openapi.py checks each one against muscore.rules and the live app."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from muscore.problems import problem_type, title

SEED_HANDS = {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"}
#: Five piedras (an amarraco) for side A, tapped by hand.
PIEDRAS_REQUEST = {"side": "A", "n": 5}
#: A perete shown by a player of side B (on a table whose rules have "perete": true).
PERETE_REQUEST = {"side": "B"}

#: A 38, B 35. Grande: A envido, B cinco más, A no quiero: B's deje is 2 (37). Chica to A
#: en paso (39). Pares: B holds par and duples, 1 + 3 = 4: B reaches 41 and wins the juego.
SCORE_REQUEST = {
    "rules": {"target": 40},
    "mano": 0,
    "score": {"A": 38, "B": 35},
    "hands": SEED_HANDS,
    "lances": {"grande": {"bets": [{"side": "A", "n": 2}, {"side": "B", "n": 5}],
                          "end": "no_quiero"}},
}
SCORE_RESPONSE = {
    "score": {"A": 39, "B": 41},
    "winner": "B",
    "ended_by": "recuento",
    "lances": {
        "grande": {"side": "B", "points": 2},
        "chica": {"side": "A", "points": 1},
        "pares": {"side": "B", "points": 4},
        "juego": {"side": None, "points": 0},
    },
    "recuento": [
        {"lance": "grande", "side": "B", "points": 2, "why": "deje", "score": {"A": 38, "B": 37}},
        {"lance": "chica", "side": "A", "points": 1, "why": "paso", "score": {"A": 39, "B": 37}},
        {"lance": "pares", "side": "B", "points": 4, "why": "paso",
         "premiums": [{"seat": 1, "jugada": "par", "points": 1},
                      {"seat": 3, "jugada": "duples", "points": 3}],
         "score": {"A": 39, "B": 41}},
    ],
}
SCORE_ERROR_REQUEST = {"hands": {**SEED_HANDS, "0": "R R R R R"}}
def problem(status: int, family: str, code: str, error: str | Promise,
            **extra: object) -> dict[str, object]:
    """An error's answer (muscore.problems) as the API gives it to a request without
    Accept-Language: its detail is its English `error`."""
    return {"type": problem_type(family, code), "title": title(code), "status": status,
            "detail": error, "code": code, "error": error, **extra}


SCORE_ERROR_RESPONSE = problem(400, "rules", "card_count",
                               "Seat 0 has 5 cards (R R R R R): a hand has 4.")

#: Hand 1 en paso: A 2, B 8. Hand 2 (mano 1): B's envido in grande rejected, deje 1 (9);
#: chica A (3), pares B 4 (13), juego B alone 4 (17).
REPLAY_REQUEST = {
    "mano": 0,
    "hands": [
        {"hands": SEED_HANDS},
        {"hands": SEED_HANDS,
         "lances": {"grande": {"bets": [{"side": "B", "n": 2}], "end": "no_quiero"}}},
    ],
}
REPLAY_SUMMARY = {
    "juegos": {"A": 0, "B": 0}, "winner": None, "score": {"A": 3, "B": 17}, "next_mano": 2,
    "hands": [
        {"mano": 0, "juego": 1, "score": {"A": 2, "B": 8}, "winner": None},
        {"mano": 1, "juego": 1, "score": {"A": 3, "B": 17}, "winner": None},
    ],
}
CREATE_REQUEST = {"players": ["Ana", "Bruno", "Carla", "Diego"], "rules": {"target": 30},
                  "mano": 0}
CREATE_RESPONSE = {
    "id": "k3v9x2", "edit_key": "s3cr3t-edit-key",
    "view_url": "https://muscore.example/t/k3v9x2/",
    "edit_url": "https://muscore.example/t/k3v9x2/k/s3cr3t-edit-key/",
    "players": ["Ana", "Bruno", "Carla", "Diego"],
    "rules": {"players": 4, "reyes": 8, "target": 30, "juegos": 2, "real31": "no"},
    "current": {"hands": [], "juegos": {"A": 0, "B": 0}, "winner": None,
                "score": {"A": 0, "B": 0}, "next_mano": 0, "first_hand": 1, "mano": 0},
    "finished": [],
    "revision": 1,
}
ADD_HAND_REQUEST = {"hands": SEED_HANDS, "number": 1}
ERROR_EXAMPLES = {
    "no_key": problem(403, "api", "no_key",
                      "this needs the table's edit key in the X-Table-Key header"),
    "no_table": problem(404, "table", "table_not_found", _("no hay ninguna mesa con ese enlace")),
    "too_many": problem(429, "api", "too_many_requests",
                        "too many requests from this address: try again in 42 seconds",
                        retry_after=42),
    "no_league": problem(404, "api", "league_not_found", "there is no such league"),
    "no_championship": problem(404, "api", "championship_not_found",
                               "there is no such championship"),
    "bad_page": problem(400, "api", "bad_page", "pagina is a page number: 1, 2, 3..."),
}
