"""The Mus words in the four languages side by side, for the rules index (/reglas/).

A player from Iparralde reads "partie" and "dedans" on the French pages, a Basque player
"behia" and "barruan": the glossary shows each word of the game in Spanish, English,
Basque and French on one row, with what it is in the reader's language, so anyone finds
the word the others use. Each word is the catalogue's own (msgctxt "glosario"), the same
one tests/test_catalogue_words.py holds every other string of that catalogue to.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy


@dataclass(frozen=True)
class Word:
    """A word of the game: its name in each language and what it is."""

    key: str  # the Spanish word, stable: the row's anchor and the tests' handle
    word: Promise
    meaning: Promise


def _word(key: str, word: Promise, meaning: Promise) -> Word:
    return Word(key, word, meaning)


WORDS: tuple[Word, ...] = (
    _word("lance", pgettext_lazy("glosario", "lance"),
          pgettext_lazy("glosario", "Cada una de las cuatro partes de una mano.")),
    _word("grande", pgettext_lazy("glosario", "grande"),
          pgettext_lazy("glosario", "El lance de las cartas más altas.")),
    _word("chica", pgettext_lazy("glosario", "chica"),
          pgettext_lazy("glosario", "El lance de las cartas más bajas.")),
    _word("pares", pgettext_lazy("glosario", "pares"),
          pgettext_lazy("glosario", "El lance de las cartas iguales: par, medias, duples.")),
    _word("juego", pgettext_lazy("glosario", "juego"),
          pgettext_lazy("glosario", "El lance de quien suma 31 o más; y el tanteo hasta 40 "
                        "piedras que gana un bando.")),
    _word("punto", pgettext_lazy("glosario", "punto"),
          pgettext_lazy("glosario", "El cuarto lance cuando nadie tiene juego.")),
    _word("jugada", pgettext_lazy("glosario", "jugada"),
          pgettext_lazy("glosario", "Lo que lleva un jugador en pares o en juego, y lo que "
                        "cobra por ello.")),
    _word("mano", pgettext_lazy("glosario", "mano"),
          pgettext_lazy("glosario", "El jugador que habla primero y gana los empates.")),
    _word("postre", pgettext_lazy("glosario", "postre"),
          pgettext_lazy("glosario", "El que da las cartas y habla el último: pierde los "
                        "empates.")),
    _word("envido", pgettext_lazy("glosario", "envido"),
          pgettext_lazy("glosario", "Apostar: 2 piedras, o lo que se diga.")),
    _word("quiero", pgettext_lazy("glosario", "quiero / no quiero"),
          pgettext_lazy("glosario", "Aceptar o rechazar una apuesta.")),
    _word("deje", pgettext_lazy("glosario", "deje"),
          pgettext_lazy("glosario", "Lo que cobra en el acto quien apostó cuando no le "
                        "quieren.")),
    _word("ordago", pgettext_lazy("glosario", "órdago"),
          pgettext_lazy("glosario", "Apostar todo el juego en un lance.")),
    _word("piedra", pgettext_lazy("glosario", "piedra"),
          pgettext_lazy("glosario", "Cada punto del tanteo.")),
    _word("amarraco", pgettext_lazy("glosario", "amarraco"),
          pgettext_lazy("glosario", "Cinco piedras.")),
    _word("dentro", pgettext_lazy("glosario", "dentro"),
          pgettext_lazy("glosario", "Un bando al que le faltan 5 piedras o menos.")),
    _word("vaca", pgettext_lazy("glosario", "vaca"),
          pgettext_lazy("glosario", "Los juegos acordados (2, de normal): quien los gana gana "
                        "la vaca.")),
    _word("tanteo", pgettext_lazy("glosario", "tanteo"),
          pgettext_lazy("glosario", "Las piedras de cada bando.")),
    _word("recuento", pgettext_lazy("glosario", "recuento"),
          pgettext_lazy("glosario", "Lo que se cobra al acabar la mano, lance a lance.")),
    _word("bando", pgettext_lazy("glosario", "bando"),
          pgettext_lazy("glosario", "Los dos compañeros sentados frente a frente en una mesa "
                        "(A o B).")),
    _word("pareja", pgettext_lazy("glosario", "pareja"),
          pgettext_lazy("glosario", "Dos jugadores inscritos juntos en una competición.")),
    _word("senas", pgettext_lazy("glosario", "señas"),
          pgettext_lazy("glosario", "Los gestos con que los compañeros se dicen sus cartas.")),
)


def in_language(text: Promise, code: str) -> str:
    with translation.override(code):
        return str(text)


def rows() -> list[dict[str, object]]:
    """Each word as the four languages say it (in the order of the switch), and what it is
    in the reader's language."""
    codes = [code for code, _name in settings.LANGUAGES]
    return [{"key": w.key, "words": [(code, in_language(w.word, code)) for code in codes],
             "meaning": str(w.meaning)} for w in WORDS]


def languages() -> list[tuple[str, str]]:
    """The columns: each language's code and its own name."""
    return list(settings.LANGUAGES)
