"""The rules as muscore scores them, in pages, each rule with a worked example.

An example is a hand record written here; its numbers on the page are computed
by muscore.rules when the page is drawn, so the page can never disagree with
the engine. Each example also states the figures a person works out by hand
(`expect_*`): tests/disputes/test_rules_pages.py checks the engine and the page
against them, so a wrong example (or a wrong engine) fails loudly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from muscore import rules as engine
from muscore.disputes import lector
from muscore.disputes.explain import explain
from muscore.handentry.words import LANCE_NAMES, side_names, side_of
from muscore.rules.contract import HandRecord, LanceBets, Score, SideName

NAMES = ("Ana", "Bruno", "Carla", "Diego")
#: The table of the guide's examples: Ana and Carla (A) against Bruno and Diego (B).
TABLE = {"0": "R R 5 4", "1": "R C C 5", "2": "1 1 6 7", "3": "S S 7 7"}


@dataclass(frozen=True)
class Example:
    """A hand record and what it scores, worked out by hand."""

    key: str
    record: HandRecord
    expect_score: tuple[int, int]
    expect_steps: tuple[tuple[str, str, int, str], ...]  # (lance, side, points, why)
    expect_winner: str | None = None
    names: tuple[str, ...] = NAMES


@dataclass(frozen=True)
class HandExample:
    """Four cards and what they hold in 8 reyes: (pares kind or None, total)."""

    cards: str
    expect_pares: str | None
    expect_total: int


@dataclass(frozen=True)
class Section:
    anchor: str
    title: Promise | str
    paragraphs: tuple[Promise | str, ...]
    examples: tuple[Example, ...] = ()
    hands: tuple[HandExample, ...] = ()


@dataclass(frozen=True)
class Page:
    slug: str
    title: Promise | str
    intro: Promise | str
    sections: tuple[Section, ...] = field(default_factory=tuple)
    # The words that open the sections on the page itself ("Las más corrientes:"): not
    # part of the intro, which the index shows alone.
    lead_in: Promise | str = ""


def _bets(*bets: tuple[SideName, int | Literal["ordago"]],
          end: Literal["quiero", "no_quiero"]) -> LanceBets:
    return {"bets": [{"side": s, "n": n} for s, n in bets], "end": end}


PAGES: tuple[Page, ...] = (
    Page(
        "lances",
        _("Los lances"),
        _("Cada mano se juega en cuatro lances, siempre en este orden: grande, chica, pares y "
          "juego (o punto, si nadie tiene juego). Cada jugador juega con sus cuatro cartas; el "
          "bando gana el lance cuando su mejor jugador gana al mejor del otro bando."),
        (
            Section(
                "grande-chica",
                _("Grande y chica"),
                (
                    _("A la grande gana la mano más alta: se ordenan las cartas de mayor a menor "
                      "y se comparan una a una; la primera carta más alta gana. R R 5 4 gana a R "
                      "C C 5."),
                    _("A la chica, al revés: se ordenan de menor a mayor y gana la primera carta "
                      "más baja. Con 8 reyes cada 3 es un rey y cada 2 un as."),
                    _("En un empate gana la mano, y después el asiento más cercano a su derecha: "
                      "el postre pierde todos los empates."),
                ),
                (
                    Example(
                        "table", {"hands": TABLE}, (2, 8),
                        (("grande", "A", 1, "paso"), ("chica", "A", 1, "paso"),
                         ("pares", "B", 4, "paso"), ("juego", "B", 4, "solo")),
                    ),
                ),
            ),
            Section(
                "pares",
                _("Pares"),
                (
                    _("Par (dos iguales) < medias (tres iguales) < duples (dos parejas, o cuatro "
                      "iguales). Dentro de cada clase gana la pareja más alta; en duples la "
                      "pareja alta y luego la baja. Las cartas sueltas no cuentan: jugadas "
                      "iguales van a la regla del empate."),
                ),
            ),
            Section(
                "juego",
                _("Juego y punto"),
                (
                    _("Tiene juego quien suma 31 o más (R, C, S valen 10; con 8 reyes el 3 vale "
                      "10 y el 2 vale 1). El orden, de mejor a peor: 31, 32, 40, 37, 36, 35, 34, "
                      "33."),
                    _("Si nadie tiene juego, el cuarto lance es el punto: gana la suma más alta "
                      "(30 es lo mejor)."),
                ),
                (
                    Example(
                        "juego31",
                        {"hands": {"0": "R C S 1", "1": "R R C 5", "2": "4 5 6 7", "3": "S 7 7 4"},
                         "lances": {"juego": _bets(("A", 2), end="quiero")}},
                        (6, 3),
                        (("grande", "B", 1, "paso"), ("chica", "A", 1, "paso"),
                         ("pares", "B", 2, "solo"), ("juego", "A", 5, "quiero")),
                    ),
                    Example(
                        "punto",
                        {"hands": {"0": "1 1 4 5", "1": "6 6 7 S", "2": "2 3 4 5", "3": "7 7 C 1"},
                         "lances": {"punto": _bets(("A", 2), end="quiero")}},
                        (2, 5),
                        (("grande", "A", 1, "paso"), ("chica", "A", 1, "paso"),
                         ("pares", "B", 2, "paso"), ("punto", "B", 3, "quiero")),
                    ),
                ),
            ),
            Section(
                "quien-juega",
                _("Quién juega pares y juego"),
                (
                    _("Antes de pares, y otra vez antes de juego, cada jugador dice si tiene la "
                      "jugada. Si la tienen los dos bandos, se apuesta entre quienes la tienen. "
                      "Si solo la tiene un bando, no se apuesta: ese bando cobra sus jugadas en "
                      "el recuento. Si nadie tiene pares, el lance no vale nada."),
                ),
            ),
        ),
    ),
    Page(
        "apuestas",
        _("Las apuestas"),
        _("En cada lance se habla desde la mano: paso, envido (2, o lo que se diga), y ante un "
          "envite quiero, no quiero, subir (N más) u órdago. Las subidas se alternan entre los "
          "bandos."),
        (
            Section(
                "deje",
                _("No quiero: el deje"),
                (
                    _("Cuando no se quiere, el bando que hizo el último envite cobra en el acto "
                      "el deje: 1 si era el primer envite del lance, y si no, lo que había antes "
                      "de la subida rechazada. Envido 2, cinco más (7), no quiero: 2. Luego «que "
                      "sean diez» (17), no quiero: 7. Un órdago rechazado paga igual."),
                ),
                (
                    Example(
                        "deje",
                        {"hands": TABLE,
                         "lances": {"grande": _bets(("A", 2), ("B", 5), ("A", 10),
                                                    end="no_quiero")}},
                        (8, 8),
                        (("grande", "A", 7, "deje"), ("chica", "A", 1, "paso"),
                         ("pares", "B", 4, "paso"), ("juego", "B", 4, "solo")),
                    ),
                ),
            ),
            Section(
                "quiero",
                _("Quiero"),
                (
                    _("Un envite querido se cobra en el recuento: lo apostado para quien gana el "
                      "lance; en pares y juego, además, las jugadas de su bando; en el punto, 1 "
                      "más. Un envite de 40 o más querido no es un órdago: espera al recuento."),
                ),
                (
                    Example(
                        "quiero",
                        {"hands": TABLE, "lances": {"pares": _bets(("B", 2), end="quiero")}},
                        (2, 10),
                        (("grande", "A", 1, "paso"), ("chica", "A", 1, "paso"),
                         ("pares", "B", 6, "quiero"), ("juego", "B", 4, "solo")),
                    ),
                ),
            ),
            Section(
                "ordago",
                _("Órdago"),
                (
                    _("Un órdago querido se resuelve en el acto: se enseñan las cartas y el "
                      "bando que gana ese lance gana el juego, vaya como vaya el tanteo. Nada "
                      "más de la mano cuenta."),
                ),
                (
                    Example(
                        "ordago",
                        {"score": {"A": 5, "B": 30}, "hands": TABLE,
                         "lances": {"chica": _bets(("A", "ordago"), end="quiero")}},
                        (5, 30), (), "A",
                    ),
                ),
            ),
        ),
    ),
    Page(
        "primas",
        _("Lo que vale cada jugada"),
        _("En pares y juego se cobran las jugadas de todos los jugadores del bando que cobra, "
          "también las del compañero que las tenía peores."),
        (
            Section(
                "paso",
                _("Las jugadas"),
                (
                    _("Pares: par 1, medias 2, duples 3. Juego: 31 vale 3, cualquier otro juego "
                      "2."),
                    _("En paso, el bando que gana el lance cobra sus jugadas; querido, lo "
                      "apostado más sus jugadas."),
                ),
                (
                    Example(
                        "primas",
                        {"hands": TABLE}, (2, 8),
                        (("grande", "A", 1, "paso"), ("chica", "A", 1, "paso"),
                         ("pares", "B", 4, "paso"), ("juego", "B", 4, "solo")),
                    ),
                ),
            ),
        ),
    ),
    Page(
        "recuento",
        _("El recuento y el final del juego"),
        _("Los dejes se apuntan en el momento. Al acabar la mano se enseñan las cartas y se "
          "cuentan los lances en orden: grande, chica, pares y juego (o punto)."),
        (
            Section(
                "paso",
                _("Lo que vale cada lance"),
                (
                    _("Grande, chica y punto en paso valen 1 para quien los gana; pares y juego "
                      "en paso, las jugadas del bando que gana."),
                ),
            ),
            Section(
                "no-quiero",
                _("No quiero en pares, juego y punto"),
                (
                    _("En pares y juego, el bando cuyo envite no se quiso cobra el deje en el "
                      "acto y, en el recuento, sus propias jugadas, aunque las del otro fueran "
                      "mejores. En el punto, el deje y 1 en el recuento."),
                ),
                (
                    Example(
                        "noquiero",
                        {"hands": TABLE, "lances": {"pares": _bets(("A", 2), end="no_quiero")}},
                        (5, 4),
                        (("pares", "A", 1, "deje"), ("grande", "A", 1, "paso"),
                         ("chica", "A", 1, "paso"), ("pares", "A", 2, "no_quiero"),
                         ("juego", "B", 4, "solo")),
                    ),
                ),
            ),
            Section(
                "fin",
                _("El final del juego"),
                (
                    _("En cuanto un bando llega a las piedras del juego (40), gana el juego y el "
                      "recuento se para: lo que el otro bando habría cobrado después no se "
                      "cuenta. Si llega con un deje, el resto de la mano no se juega."),
                    _("Ejemplo: A 38, B 35. A gana grande y chica en paso (39, 40): gana A, y "
                      "los 8 de B en pares y juego no se cuentan."),
                ),
                (
                    Example(
                        "fin",
                        {"score": {"A": 38, "B": 35}, "hands": TABLE}, (40, 35),
                        (("grande", "A", 1, "paso"), ("chica", "A", 1, "paso")), "A",
                    ),
                ),
            ),
            Section(
                "amarracos",
                _("Amarracos, juegos y vaca"),
                (
                    _("Cinco piedras hacen un amarraco; 40 piedras son 8 amarracos. A partir de "
                      "35 un bando está «dentro». Los puntos que sobran al ganar no pasan al "
                      "juego siguiente, que empieza 0-0. Quien gana los juegos acordados (2, de "
                      "normal) gana la vaca."),
                ),
            ),
        ),
    ),
    Page(
        "opciones",
        _("Las opciones de la mesa"),
        _("Donde las mesas juegan distinto, es una opción que se elige al preparar la mesa: 4 o "
          "6 jugadores, 8 o 4 reyes, a cuántas piedras (30, 35, 40), cuántos juegos para la vaca "
          "y el 31 real."),
        (
            Section(
                "reyes",
                _("8 reyes o 4 reyes"),
                (
                    _("Con 8 reyes (lo normal) cada 3 es un rey y cada 2 un as, en todos los "
                      "lances; el 3 vale 10 y el 2 vale 1. Con 4 reyes, el 3 y el 2 son lo que "
                      "marcan. La misma mano en las dos:"),
                ),
                (
                    Example(
                        "reyes8",
                        {"hands": {"0": "3 3 5 4", "1": "R C 6 5", "2": "2 2 6 7", "3": "S C 7 4"}},
                        (4, 6),
                        (("grande", "A", 1, "paso"), ("chica", "A", 1, "paso"),
                         ("pares", "A", 2, "solo"), ("juego", "B", 6, "solo")),
                    ),
                    Example(
                        "reyes4",
                        {"rules": {"reyes": 4},
                         "hands": {"0": "3 3 5 4", "1": "R C 6 5", "2": "2 2 6 7", "3": "S C 7 4"}},
                        (3, 7),
                        (("grande", "B", 1, "paso"), ("chica", "A", 1, "paso"),
                         ("pares", "A", 2, "solo"), ("juego", "B", 6, "solo")),
                    ),
                ),
            ),
            Section(
                "real31",
                _("El 31 real"),
                (
                    _("Con esta opción, 7 7 7 y una figura (según la mesa: un rey, cualquier "
                      "figura o una sota) es el 31 real: gana a cualquier otro 31 esté donde "
                      "esté sentado. Sigue cobrando 3. Aquí Bruno es mano: sin la opción, su 31 "
                      "gana por ser mano; con el 31 real «rey», gana Ana."),
                ),
                (
                    Example(
                        "real31no",
                        {"mano": 1, "hands": {"0": "7 7 7 R", "1": "R C S 1", "2": "4 5 6 1",
                                              "3": "2 3 4 5"}},
                        (3, 4),
                        (("grande", "B", 1, "paso"), ("chica", "A", 1, "paso"),
                         ("pares", "A", 2, "solo"), ("juego", "B", 3, "paso")),
                    ),
                    Example(
                        "real31",
                        {"rules": {"real31": "rey"}, "mano": 1,
                         "hands": {"0": "7 7 7 R", "1": "R C S 1", "2": "4 5 6 1", "3": "2 3 4 5"}},
                        (6, 1),
                        (("grande", "B", 1, "paso"), ("chica", "A", 1, "paso"),
                         ("pares", "A", 2, "solo"), ("juego", "A", 3, "paso")),
                    ),
                ),
            ),
        ),
    ),
    Page(
        "mentiras",
        _("Mentiras"),
        _("En pares y juego no se puede mentir al decir si se tiene la jugada."),
        (
            Section(
                "mentira",
                _("Decir que sí sin tener"),
                (
                    _("Quien dijo que tenía pares o juego y al enseñar no los tiene hace perder "
                      "el lance a su bando, con todo lo apostado en él: el otro bando cobra como "
                      "si lo hubiera ganado (lo apostado si se quiso, y sus jugadas). Si "
                      "mintieron los dos bandos, nadie cobra el lance."),
                    _("Quien dijo que no tenía y sí tiene, simplemente no jugó ese lance."),
                ),
                (
                    Example(
                        "mentira",
                        {"hands": {"0": "R R 5 4", "1": "R C 6 5", "2": "1 1 6 7", "3": "S C 7 4"},
                         "declared": {"1": {"pares": True}},
                         "lances": {"pares": _bets(("B", 2), end="quiero")}},
                        (6, 6),
                        (("grande", "A", 1, "paso"), ("chica", "A", 1, "paso"),
                         ("pares", "A", 4, "mentira"), ("juego", "B", 6, "solo")),
                    ),
                ),
            ),
        ),
    ),
    Page(
        "senas",
        _("Las señas"),
        _("Los compañeros se pasan señas sin que las vea el otro bando, y el otro bando intenta "
          "pillarlas. Las señas han de ser verdad: no se engaña con ellas."),
        (
            Section(
                "reyes",
                _("Morderse el labio de abajo: dos reyes"),
                (_("Para la grande. Dos veces: cuatro reyes (con 8 reyes, los treses cuentan "
                   "como reyes)."),),
                hands=(HandExample("R 3 5 4", "par", 29),),
            ),
            Section(
                "ases",
                _("Sacar la punta de la lengua: dos ases"),
                (_("Para la chica. Dos veces: cuatro ases (con 8 reyes, los doses son ases)."),),
                hands=(HandExample("1 2 6 7", "par", 15),),
            ),
            Section(
                "medias",
                _("Torcer la boca hacia un lado: medias"),
                (_("Seguida de la seña de reyes, medias de reyes; de la de ases, medias de "
                   "ases."),),
                hands=(HandExample("R R R 5", "medias", 35),),
            ),
            Section(
                "duples",
                _("Levantar las cejas: duples"),
                (_("Seguida de la seña de reyes o de ases, duples con reyes o con ases."),),
                hands=(HandExample("R R 1 1", "duples", 22),),
            ),
            Section(
                "31",
                _("Guiñar un ojo: 31"),
                (_("La mejor jugada de juego."),),
                hands=(HandExample("R C S 1", None, 31),),
            ),
            Section(
                "punto",
                _("Encoger un hombro: 30 al punto"),
                (_("Sin juego, el mejor punto."),),
                hands=(HandExample("R C 6 4", None, 30),),
            ),
            Section(
                "ciego",
                _("Cerrar los ojos: nada"),
                (_("Malas cartas: ni pares ni juego."),),
                hands=(HandExample("C 7 5 4", None, 26),),
            ),
        ),
        lead_in=_("Las más corrientes:"),
    ),
)


def pages() -> tuple[Page, ...]:
    return PAGES


def page(slug: str) -> Page | None:
    return next((p for p in PAGES if p.slug == slug), None)


def all_examples() -> list[Example]:
    return [ex for p in PAGES for s in p.sections for ex in s.examples]


def all_hand_examples() -> list[HandExample]:
    return [h for p in PAGES for s in p.sections for h in s.hands]


def bet_words(record: HandRecord, names: Sequence[str]) -> list[str]:
    """'Grande: A envida 2, B 5 más, A 10 más; no quiero.' for each lance with bets."""
    out = []
    for lance, betting in (record.get("lances") or {}).items():
        bets = betting.get("bets") or []
        if not bets:
            continue
        words = []
        for i, bet in enumerate(bets):
            who = side_names(names, bet["side"])
            if bet["n"] == "ordago":
                words.append(gettext("%(who)s: órdago") % {"who": who})
            elif i == 0:
                words.append(gettext("%(who)s: envido %(n)s") % {"who": who, "n": bet["n"]})
            else:
                words.append(gettext("%(who)s: %(n)s más") % {"who": who, "n": bet["n"]})
        answer = gettext("quiero") if betting.get("end") == "quiero" else gettext("no quiero")
        words.append(answer)
        out.append(f"{LANCE_NAMES[lance]}: " + ", ".join(words))
    return out


def render_example(example: Example) -> dict[str, object]:
    """The example as drawn: its hands, its bets, and the engine's recuento of it."""
    record = example.record
    rules = engine.Rules.from_json(record.get("rules"))
    names = list(example.names[: rules.players])
    result = engine.score(record)
    mano = int(record.get("mano", 0))
    score: Score = record.get("score") or {"A": 0, "B": 0}
    return {
        "key": example.key,
        "seats": [
            {"name": names[int(seat)], "side": side_of(int(seat)), "cards": cards,
             "is_mano": int(seat) == mano}
            for seat, cards in sorted((record.get("hands") or {}).items())
        ],
        "before": {"A": score.get("A", 0), "B": score.get("B", 0)},
        "rules": rules,
        "bets": bet_words(record, names),
        "explained": explain(result, record, names),
        "result": result,
    }


def render_hand(example: HandExample) -> dict[str, object]:
    reading = lector.read_hand(engine.parse_cards(example.cards))
    return {"cards": example.cards, "mode": reading["modes"][0]}


def render_page(p: Page) -> list[dict[str, object]]:
    return [
        {
            "section": s,
            "examples": [render_example(ex) for ex in s.examples],
            "hands": [render_hand(h) for h in s.hands],
        }
        for s in p.sections
    ]
