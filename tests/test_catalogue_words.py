"""One word for each thing in each catalogue (issue 29 point 3), as the rules' glossary says it.

French catalogued by a script swapping words said "paires" for a pair of players beside
"équipes", "sites" and "lieu" for the venues; Basque "taldea" for a side and for a group,
"onartua" beside "idukia" for a held bet; English "nivel" beside "level". Here each
catalogue has a small glossary: for a Spanish word of the game (or of the competitions),
every message whose msgid says it is translated with the chosen word, never with a listed
alternative. The same words are the ones /reglas/ shows in its glossary of the four
languages, and every placeholder and tag of a msgid comes back in its translations.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from muscore.disputes import glossary
from tests.test_languages_pages import LANGUAGES
from tests.translations import LOCALE, Entry, messages

# A placeholder (%(n)s, %(mine)+d, %s, {n}) or a tag (<strong>) kept as the msgid has it.
PLACEHOLDER = re.compile(r"%\(\w+\)\+?[sd]|%[sd]|\{\w*\}|</?(?:strong|small|em|b|i|code|br)>")


@dataclass(frozen=True)
class Word:
    """A Spanish word (in the msgid), the catalogue's word for it, the words it must not use."""

    spanish: str
    chosen: str
    never: str
    unless: str | None = None  # msgids where the Spanish word means something else
    always: bool = True  # every such message says the chosen word (not only avoids the others)
    glossary: str | None = None  # the glossary row (muscore.disputes.glossary) it is


FRENCH = (
    Word(r"\bsedes?\b", r"\blieux?\b", r"\bsites?\b", unless="se paga en la sede"),
    Word(r"\bparejas?\b", r"\béquipes?\b", r"\bpaires?\b", unless=r"\bpar(es)?\b",
         glossary="pareja"),
    Word(r"\bvacas?\b", r"\bparties?\b", r"\bvacas?\b|\bmanches?\b", glossary="vaca"),
    Word(r"\bpiedras?\b", r"\bpoints?\b", r"(?<![/\w])piedras?\b|\bpierres?\b",
         glossary="piedra"),
    Word(r"\btantos?\b", r"\bpoints?\b|\bscores?\b", r"\btantos?\b"),
    Word(r"órdago", r"\bhordagos?\b", r"órdago", glossary="ordago"),
    Word(r"\breloj\b", r"\bhorloge\b", r"\bchrono"),
    Word(r"\bgrupos?\b", r"\bpoules?\b", r"\bgroupes?\b",
         unless="pégalo en el grupo|para el grupo"),
    Word(r"amarraco", r"\bamarrekos?\b", r"amarraco|amarrako", glossary="amarraco"),
    Word(r"\bsemilla\b", r"\bclé\b", r"\bgraine\b"),
    Word(r"\bdentro\b", r"\bdedans\b", r"\bdentro\b", always=False, glossary="dentro"),
    Word(r"\brecuentos?\b", r"\bdécomptes?\b", r"\brecuentos?\b", glossary="recuento"),
    Word(r"\blíderes\b", r"\bmeneurs\b", r"\bleaders\b"),
    Word(r"\bpartidas?\b", r"\bparties?\b", r"\bmatch(s|es)?\b"),
    Word(r"\bjornadas?\b", r"\bjournées?\b", r"\bjornadas?\b"),
    Word(r"\brondas?\b", r"\btours?\b", r"\brondas?\b|\bmanches?\b"),
    Word(r"\bbandos?\b", r"\bcamps?\b", r"\bbandos?\b|\bcôtés?\b", glossary="bando"),
)
BASQUE = (
    Word(r"\bvacas?\b", r"\bbehi", r"\bvaca", glossary="vaca"),
    Word(r"\bgrupos?\b", r"\bmultzo", r"\btalde", unless="pégalo en el grupo|para el grupo"),
    Word(r"\banotaci", r"\boharpen", r"\bidazpen"),
    Word(r"órdago", r"\bhordago", r"órdago|\bordago", glossary="ordago"),
    Word(r"\bquerid[oa]s?\b|órdagos? .*aceptad", r"\biduk", r"\bonart"),
    Word(r"\bjugadas?\b", r"\bjokad", r"\bjokaldi", unless=r"\blances?\b", always=False,
         glossary="jugada"),
    Word(r"\bpiedras?\b", r"\bharri", r"\btanto", unless=r"\btantos?\b", glossary="piedra"),
    Word(r"\bcompetici", r"\blehiaketa", r"\btxapelketa", unless="campeonato|torneo"),
    Word(r"\bdentro\b", r"\bbarruan\b", r"\bdentro\b", glossary="dentro"),
    Word(r"\blances?\b", r"\bjokaldi", r"\blance", always=False, glossary="lance"),
    Word(r"\bsorte", r"\bzozket", r"\bzozkat"),
    Word(r"\brecuentos?\b", r"\bkontaket", r"\bzenbaket", glossary="recuento"),
    Word(r"\bsedes?\b", r"\begoitz", r"\bsede\b"),
    Word(r"\bparejas?\b", r"\bbikote", r"\bpareja", unless=r"\bpar(es)?\b", glossary="pareja"),
    Word(r"\bbandos?\b", r"\btalde", r"\bbando", glossary="bando"),
    Word(r"\breloj\b", r"\berloju", r"\bkronometro"),
)
ENGLISH = (
    Word(r"\bnivel(es)?\b", r"\blevels?\b", r"\bnivel(es)?\b", unless="profundidad"),
    Word(r"\bretir", r"\bwithdr[ae]wn?\b|\bwithdraw", r"\bretire"),
    Word(r"\bplazas?\b", r"\bseats?\b", r"\bplaces?\b", unless="comparten puesto"),
    Word(r"\bpartidas?\b", r"\bmatch(es)?\b", r"\bgames?\b"),
    Word(r"\bdentro\b", r"\bin\b", r"\bdentro\b", glossary="dentro"),
    Word(r"\bsedes?\b", r"\bvenues?\b", r"\bsites?\b"),
    Word(r"\bparejas?\b", r"\bpairs?\b", r"\bteams?\b", unless=r"\bequipos\b",
         glossary="pareja"),
    Word(r"\bbandos?\b", r"\bsides?\b", r"\bteams?\b", glossary="bando"),
    Word(r"\breloj\b", r"\bclock\b", r"\btimer\b"),
    Word(r"\bsí\b", r"\byes\b", r"\bsí\b", always=False),
)
WORDS = {"fr": FRENCH, "eu": BASQUE, "en": ENGLISH}
CASES = [(code, word) for code, words in WORDS.items() for word in words]


def catalogue(code: str) -> list[Entry]:
    return messages(LOCALE / code / "LC_MESSAGES" / "django.po")


def bare(text: str) -> str:
    """The words of a message, without its placeholders (%(sede)s is not the word sede)."""
    return PLACEHOLDER.sub(" ", text)


def saying(code: str, word: Word) -> list[tuple[str, str]]:
    """(msgid, msgstr) of each translation whose msgid says the Spanish word."""
    found = []
    for entry in catalogue(code):
        msgid = entry.msgid + " " + (entry.msgid_plural or "")
        if not re.search(word.spanish, bare(msgid), re.I):
            continue
        if word.unless and re.search(word.unless, msgid, re.I):
            continue
        found += [(entry.msgid, text) for text in entry.msgstr]
    return found


def case_id(case: tuple[str, Word]) -> str:
    return f"{case[0]}-{case[1].spanish}"


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_a_word_of_the_game_is_said_one_way(case: tuple[str, Word]) -> None:
    code, word = case
    found = saying(code, word)
    assert found, f"no msgid says {word.spanish}: is the glossary still the catalogue's?"
    other = [(msgid, text) for msgid, text in found if re.search(word.never, bare(text), re.I)]
    assert not other, f"locale/{code} says {word.never} where it says {word.chosen}: {other[:5]}"
    if word.always:
        missing = [(msgid, text) for msgid, text in found
                   if not re.search(word.chosen, bare(text), re.I)]
        assert not missing, f"locale/{code} does not say {word.chosen}: {missing[:5]}"


def test_the_check_sees_a_word_said_another_way(tmp_path: Path) -> None:
    po = tmp_path / "django.po"
    po.write_text('msgid ""\nmsgstr ""\n\nmsgid "Plazas por sede"\nmsgstr "Places par site"\n\n'
                  'msgid "Nombre de la sede"\nmsgstr "Nom du lieu"\n', encoding="utf-8")
    venue = FRENCH[0]
    said = [text for e in messages(po) for text in e.msgstr
            if re.search(venue.spanish, bare(e.msgid), re.I)]
    assert [t for t in said if re.search(venue.never, t, re.I)] == ["Places par site"]
    assert [t for t in said if re.search(venue.chosen, t, re.I)] == ["Nom du lieu"]


@pytest.mark.parametrize("code", ["en", "eu", "fr"])
def test_every_placeholder_and_tag_comes_back_in_the_translation(code: str) -> None:
    # A lost %(pair)s shows a sentence about nobody; an invented one is a KeyError at render.
    wrong = []
    for entry in catalogue(code):
        singular = set(PLACEHOLDER.findall(entry.msgid))
        plural = set(PLACEHOLDER.findall(entry.msgid_plural or entry.msgid))
        for n, text in enumerate(entry.msgstr):
            got = set(PLACEHOLDER.findall(text))
            # A plural's first form may leave the number out ("une partie"), never add one.
            if got != (plural if n else singular) and not (
                    entry.msgid_plural and n == 0 and got <= singular | plural):
                wrong.append((entry.msgid, text))
    assert not wrong, f"locale/{code}: placeholders differ from the msgid: {wrong[:5]}"


@pytest.mark.parametrize("case", [c for c in CASES if c[1].glossary],
                         ids=[case_id(c) for c in CASES if c[1].glossary])
def test_the_rules_glossary_says_the_catalogues_word(case: tuple[str, Word]) -> None:
    code, word = case
    row = next(r for r in glossary.rows() if r["key"] == word.glossary)
    said = dict(row["words"])  # type: ignore[call-overload]
    assert re.fullmatch(f"(?:{word.chosen}).*", said[code], re.I), (code, said)


def glossary_row(html: str, key: str) -> list[tuple[str, str]]:
    found = re.search(rf'<tr id="palabra-{key}">(.*?)</tr>', html, re.S)
    assert found, f"no glossary row {key}"
    return re.findall(r'<t[hd][^>]*lang="(\w+)">([^<]*)</t[hd]>', found.group(1))


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_rules_index_shows_the_words_in_the_four_languages(client: Client, code: str) -> None:
    html = client.get(reverse("disputes:rules"), headers={"accept-language": code}).content.decode()
    assert f'<html lang="{code}"' in html
    assert 'id="palabras"' in html
    heading = re.search(r'<thead><tr>(.*?)</tr></thead>', html, re.S)
    assert heading and re.findall(r'lang="(\w+)">([^<]+)<', heading.group(1)) == [
        ("es", "Español"), ("en", "English"), ("eu", "Euskara"), ("fr", "Français")]
    # The same row on every page: a French player finds the Spanish word by its own.
    assert glossary_row(html, "vaca") == [("es", "vaca"), ("en", "vaca"), ("eu", "behia"),
                                          ("fr", "partie")]
    assert glossary_row(html, "dentro") == [("es", "dentro"), ("en", "in"), ("eu", "barruan"),
                                            ("fr", "dedans")]
    assert len(re.findall(r'<tr id="palabra-', html)) == len(glossary.WORDS)


def test_the_glossary_explains_each_word_in_the_readers_language(client: Client) -> None:
    french = client.get(reverse("disputes:rules"), headers={"accept-language": "fr"})
    assert "Cinq points." in french.content.decode()
    basque = client.get(reverse("disputes:rules"), headers={"accept-language": "eu"})
    assert "Bost harri." in basque.content.decode()
