"""Every page, rendered in Spanish, English, Basque and French, speaks only that language.

The catalogues being complete (test_translations.py) is not enough: a string built
outside gettext, or a template text never marked, still reaches the page in the wrong
language. Here each page is rendered in each language through the real stack
(middleware, the language cookie the switch sets) and its visible text, attributes a
reader hears or sees included, is searched for the other languages' sentences.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from muscore import permalink
from muscore.disputes import rules_pages
from muscore.tables.models import Table
from tests.tables.factory import make_deje_record, make_hands, make_record, make_table
from tests.translations import LOCALE, messages

LANGUAGES = ["es", "en", "eu", "fr"]
# Placeholders and markup split a message into the literal runs a page shows.
SPLIT = re.compile(r"%\(\w+\)s|%s|\{\w*\}|<[^>]+>|\n")
# Shorter runs ("no", "A", "31") are shared by the languages or are the players' names.
MIN_RUN = 8
VISIBLE_ATTRIBUTES = {"title", "aria-label", "placeholder", "alt"}


class VisibleText(HTMLParser):
    """What a reader sees or hears: text outside script/style, labels and messages.

    A cell that says its own language (<td lang="eu">behia</td>, the rules' glossary of
    the four languages side by side) is another language on purpose, and marked so for a
    screen reader: it is left out, as the switch's language names are."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden_depth = 0
        self.other_language: str | None = None  # the tag of the open element with a lang

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "template"):
            self.hidden_depth += 1
        if tag != "html" and self.other_language is None and any(
                name == "lang" for name, _value in attrs):
            self.other_language = tag
        for name, value in attrs:
            if value and (name in VISIBLE_ATTRIBUTES or name.startswith("data-msg")):
                self.parts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "template"):
            self.hidden_depth = max(0, self.hidden_depth - 1)
        if tag == self.other_language:
            self.other_language = None

    def handle_data(self, data: str) -> None:
        if not self.hidden_depth and self.other_language is None:
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = VisibleText()
    parser.feed(html)
    # One part a line: a sentence never runs from one element into the next.
    return "\n".join(" ".join(part.split()) for part in parser.parts if part.strip())


def runs(message: str) -> set[str]:
    cleaned = {" ".join(run.split()).strip(" :,.;·()¿?«»“”\"") for run in SPLIT.split(message)}
    return {run for run in cleaned if len(run) >= MIN_RUN}


def language_texts() -> dict[str, set[str]]:
    """Each language's literal runs: Spanish from the msgids, the others from msgstr."""
    texts: dict[str, set[str]] = {"es": set()}
    for code in LANGUAGES[1:]:
        texts[code] = set()
        for entry in messages(LOCALE / code / "LC_MESSAGES" / "django.po"):
            # The rules' glossary names the words of every language on every page (each
            # cell marked with its lang): "recuento" is the game's word, not a sentence.
            # Its meanings (sentences, with a full stop) are the reader's language's.
            if entry.msgctxt == "glosario" and not entry.msgid.endswith("."):
                continue
            texts["es"] |= runs(entry.msgid) | runs(entry.msgid_plural or "")
            for text in entry.msgstr:
                texts[code] |= runs(text)
    return texts


TEXTS = language_texts()


@functools.cache
def foreign_runs(code: str) -> frozenset[str]:
    """What must not appear on a page in `code`: the other languages' own sentences."""
    own = TEXTS[code]
    others = set().union(*(TEXTS[other] for other in LANGUAGES if other != code))
    # A run the languages share ("31 real", "Órdago") is nobody's mistake. One joined
    # text for "inside one of mine": a substring search in C, not a loop over thousands.
    mine = "\n".join(own)
    return frozenset(run for run in others - own if run not in mine)


def found_in(text: str, candidates: Iterable[str]) -> list[str]:
    # The plain substring test first (fast); the word-boundary regex only on a hit.
    return sorted(
        run
        for run in candidates
        if run in text and re.search(r"(?<!\w)" + re.escape(run) + r"(?!\w)", text)
    )


def page_urls(table: Table) -> Iterator[tuple[str, str]]:
    edit = [table.id, table.edit_key]
    record = make_record(grande={"bets": [{"side": "A", "n": 2}], "end": "quiero"})
    yield "home", reverse("tables:home")
    yield "new", reverse("tables:new")
    yield "import", reverse("tables:import")
    yield "board", reverse("tables:board", args=[table.id])
    yield "edit board", reverse("tables:edit_board", args=edit)
    yield "history", reverse("tables:history", args=[table.id])
    yield "edit history", reverse("tables:edit_history", args=edit)
    yield "hand", reverse("tables:hand", args=edit)
    yield "correct hand", reverse("tables:edit_hand", args=[*edit, 2])
    yield "calculator", reverse("disputes:calculator")
    yield "calculator with a hand", reverse("disputes:calculator") + "?h=" + permalink.encode(
        {"score": {"A": 30, "B": 35}, **record}
    )
    yield "lector", reverse("disputes:lector") + "?c0=R+R+5+4"
    yield "rules", reverse("disputes:rules")
    for page in rules_pages.pages():
        yield f"rules {page.slug}", reverse("disputes:rules_page", args=[page.slug])
    yield "api", reverse("api_docs")
    yield "clubs", reverse("clubs:index")
    yield "organiser login", reverse("clubs:login")
    yield "new club", reverse("clubs:new")
    yield "not found", "/no-existe/"


@pytest.fixture
def table(db: None) -> Table:
    table = make_table(players=["Ana", "Bruno", "Carla", "Diego"])
    make_hands(table, [make_record(), make_deje_record("B")])
    return table


def render(client: Client, code: str, url: str) -> str:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = code
    response = client.get(url)
    assert response.status_code in (200, 404), (url, response.status_code)
    html = response.content.decode()
    assert f'<html lang="{code}"' in html, f"{url} is not served in {code}"
    return html


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_page_speaks_only_its_language(client: Client, table: Table, code: str) -> None:
    foreign = foreign_runs(code)
    assert len(foreign) > 100, "the catalogues gave too few sentences to look for"
    wrong = {}
    for name, url in page_urls(table):
        found = found_in(visible_text(render(client, code, url)), foreign)
        if found:
            wrong[name] = found
    assert not wrong, f"pages in {code} show other languages' text: {wrong}"


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_switch_offers_every_language_on_every_page(
    client: Client, table: Table, code: str
) -> None:
    for name, url in page_urls(table):
        html = render(client, code, url)
        switch = re.search(r'<form class="lang".*?</form>', html, re.S)
        assert switch, f"{name}: no language switch"
        offered = re.findall(r'name="language" value="(\w+)"', switch.group(0))
        assert offered == LANGUAGES, (name, offered)
        current = re.findall(r'value="(\w+)" aria-current="true"', switch.group(0))
        assert current == [code], (name, current)


def test_the_switch_sets_the_language_for_the_next_pages(client: Client, table: Table) -> None:
    response = client.post(
        reverse("set_language"), {"language": "eu", "next": reverse("tables:home")}
    )
    assert response.status_code == 302
    html = client.get(reverse("tables:board", args=[table.id])).content.decode()
    assert '<html lang="eu"' in html
    text = visible_text(html)
    assert "Talde bakoitzaren tanteoa" in text
    assert "Handia" in text, "the recuento names the lances as Basque tables do"


def test_basque_game_words_are_the_basque_tables_own(client: Client, table: Table) -> None:
    edit = [table.id, table.edit_key]
    text = visible_text(render(client, "eu", reverse("tables:hand", args=edit)))
    for word in ("Handia", "Txikia", "Imido", "Hordago", "eskua", "Kontaketa"):
        assert word in text, word
    calculator = reverse("disputes:calculator")
    text = visible_text(render(client, "eu", calculator))
    for word in ("iduki", "ez dut nahi", "Pareak", "Jokoa / puntua"):
        assert word in text, word


def test_the_search_finds_a_spanish_sentence_on_a_basque_page() -> None:
    # The check above must be able to fail: a Spanish message left on a page is found.
    foreign = foreign_runs("eu")
    page = visible_text("<main><p>Guardar la mano</p><p title='Volver sin guardar'></p></main>")
    assert found_in(page, foreign) == ["Guardar la mano", "Volver sin guardar"]
    assert found_in(visible_text("<p>Eskua gorde</p>"), foreign) == []


def test_the_catalogues_are_read(tmp_path: Path) -> None:
    assert "Guardar la mano" in TEXTS["es"]
    assert "Save the hand" in TEXTS["en"]
    assert "Eskua gorde" in TEXTS["eu"]
