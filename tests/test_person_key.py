"""A person's key (muscore.text.person_key): one person whatever the spelling (issue 28
point 4). The variants of "Iñaki Etxeberria" are made from Unicode's own data, not from a
list: every look-alike the confusables data (confusable-homoglyphs) gives for each letter,
every format character and variation selector Unicode has, trailing punctuation, the
names swapped, fullwidth forms. Each is the same person, or refused as mixed scripts (or
as a sign read as a letter: "⍳ñaki", "Etxeberria‖")."""

from __future__ import annotations

import unicodedata

from confusable_homoglyphs.confusables import confusables_data
from hypothesis import given
from hypothesis import strategies as st

from muscore.text import (
    MIXED_SCRIPTS,
    NO_LETTER,
    SIGN_LIKE_LETTER,
    is_marks_only,
    is_mixed_script,
    person_key,
    person_name_problem,
)

NAME = "Iñaki Etxeberria"
KEY = person_key(NAME)


def nfkc_agrees(alike: str, letter: str) -> bool:
    """Whether NFKC leaves ``alike`` for the confusables to read, or makes it ``letter``."""
    folded = unicodedata.normalize("NFKC", alike).casefold()
    return not folded.isascii() or folded == letter


def look_alikes() -> list[tuple[str, str]]:
    """Each letter of NAME replaced, one at a time, by every single character the
    confusables data reads as that letter (and its capital, where it has one)."""
    out = []
    for i, char in enumerate(NAME):
        letter = char.casefold()
        if not (letter.isascii() and letter.isalpha()):
            continue
        for glyph in confusables_data.get(letter, []):
            alike = glyph["c"]
            if len(alike) != 1 or alike.isascii() or unicodedata.combining(alike):
                continue
            forms = {alike}
            if char.isupper() and len(alike.upper()) == 1 and not alike.upper().isascii():
                forms.add(alike.upper())
            out += [(f"{letter}->U+{ord(f):04X}", NAME[:i] + f + NAME[i + 1:]) for f in forms]
    return out


def invisibles() -> list[tuple[str, str]]:
    """Every format character (Cf: zero-width joiners and spaces, the soft hyphen, word
    joiners...), variation selector, the combining grapheme joiner and the Hangul fillers,
    inside a word and at the end."""
    found = [chr(c) for c in range(0x20, 0x30000) if unicodedata.category(chr(c)) == "Cf"]
    found += [chr(c) for c in range(0xFE00, 0xFE10)] + ["\u034f"]
    found += [chr(c) for c in range(0x20, 0x30000)
              if unicodedata.name(chr(c), "").startswith("HANGUL") and "FILLER" in
              unicodedata.name(chr(c), "")]
    out = []
    for char in found:
        out.append((f"U+{ord(char):04X} inside", NAME.replace("ñaki", "ña" + char + "ki")))
        out.append((f"U+{ord(char):04X} at the end", NAME + char))
    return out


def punctuation() -> list[tuple[str, str]]:
    """Every punctuation character of Latin-1 and of the General Punctuation block, after
    the name (and a full stop after each name)."""
    marks = [chr(c) for c in list(range(0x21, 0xC0)) + list(range(0x2010, 0x205F))
             if unicodedata.category(chr(c)).startswith("P")]
    return [(f"trailing U+{ord(m):04X}", NAME + m) for m in marks] + [
        ("full stops", "Iñaki. Etxeberria.")]


def other_forms() -> list[tuple[str, str]]:
    """The names swapped (with a comma), the case changed, extra spaces, fullwidth letters
    (NFKC), the ñ decomposed, accents added to the vowels."""
    fullwidth = "".join(chr(ord(c) + 0xFEE0) if c.isascii() and c.isalpha() else c
                        for c in NAME)
    return [("swapped", "Etxeberria Iñaki"), ("swapped with a comma", "Etxeberria, Iñaki"),
            ("upper case", NAME.upper()), ("spaces", "  iñaki   etxeberria "),
            ("fullwidth", fullwidth), ("decomposed ñ", unicodedata.normalize("NFD", NAME)),
            ("accented vowels", "Íñaki Etxebérría")]


def test_every_variant_from_unicodes_data_is_the_same_person_or_refused() -> None:
    variants = look_alikes() + invisibles() + punctuation() + other_forms()
    same, refused, other = [], [], []
    for what, variant in variants:
        if person_name_problem(variant) in (MIXED_SCRIPTS, SIGN_LIKE_LETTER):
            refused.append(what)
        elif person_key(variant) == KEY:
            same.append(what)
        else:
            other.append((what, variant, person_key(variant)))
    assert other == []
    assert len(variants) > 500  # made from the data: hundreds, not a dozen
    # The six the probe entered as another person, and the script mixes it refuses:
    assert "U+200D inside" in same and "U+00AD inside" in same  # zero-width joiner, soft hyphen
    assert "i->U+0131" in same  # the dotless ı (a Latin letter: no mix)
    assert "trailing U+002E" in same and "swapped" in same
    assert "i->U+0406" in refused and "i->U+0456" in refused  # Cyrillic І, і
    assert "i->U+03B9" in refused and "e->U+0435" in refused  # Greek ι, Cyrillic е
    assert "fullwidth" in same and "upper case" in same
    assert "i->U+2373" in refused  # the APL iota, a symbol read as an i


def test_a_cyrillic_letter_inside_a_latin_name_is_mixed_scripts() -> None:
    assert is_mixed_script("\u0406ñaki Etxeberria")  # Cyrillic І
    assert is_mixed_script("Iñaki Etx\u0435berria")  # Cyrillic е
    assert not is_mixed_script("Иван Петров") and not is_mixed_script("Ιωάννης")
    assert not is_mixed_script("山田 たろう") and not is_mixed_script("김 민준")
    # A whole name in look-alike letters of another alphabet is one alphabet: it is read
    # as the Latin letters it looks like.
    assert person_key("\u0410\u0441\u0435") == person_key("Ace")


def test_marks_and_names_without_letters() -> None:
    assert is_marks_only("\u0301\u0301\u0303") and is_marks_only("\u0301 \u200b\u0308")
    assert not is_marks_only("a\u0301") and not is_marks_only("")
    assert person_name_problem("...") == NO_LETTER
    assert person_name_problem("\u0301\u0301") == NO_LETTER
    assert person_name_problem("Ane 2") is None


def test_the_enye_is_a_letter_the_accents_are_not() -> None:
    """As Spanish reads names (and muscore.text.spanish_key sorts them): Iñaki is not
    Inaki, Peña not Pena; Álvaro is Alvaro and Güemes Guemes."""
    assert person_key("Iñaki") != person_key("Inaki")
    assert person_key("Peña") != person_key("Pena")
    assert person_key("Álvaro Núñez") == person_key("alvaro nuñez")
    assert person_key("Güemes") == person_key("Guemes")
    assert person_key("Ñ") == person_key("n\u0303")


# ---------------------------------------------------------------- different names stay apart

LETTERS = "abcdefghijklmnopqrstuvwxyzñáéíóúü"
PLAIN = str.maketrans("áéíóúü", "aeiouu")
WORDS = st.text(alphabet=LETTERS, min_size=1, max_size=6)
NAMES = st.lists(WORDS, min_size=1, max_size=3)


def by_hand(words: list[str]) -> str:
    """The names as a Spanish reader tells them apart: case and accents do not count, ñ
    does, and neither does the order of the names."""
    return " ".join(sorted(w.lower().translate(PLAIN) for w in words))


@given(NAMES, NAMES, st.booleans())
def test_different_names_stay_different(first: list[str], second: list[str],
                                        capitals: bool) -> None:
    a = " ".join(first)
    b = " ".join(w.capitalize() for w in second) if capitals else " ".join(second)
    assert person_name_problem(a) is None and person_name_problem(b) is None
    assert (person_key(a) == person_key(b)) == (by_hand(first) == by_hand(second))


@given(NAMES)
def test_a_name_and_its_look_alikes_are_one_key(words: list[str]) -> None:
    """Each ASCII letter replaced by a Latin-script letter the data says looks like it
    (the dotless ı, small capitals, fullwidth, mathematical letters): still one person,
    never refused. (Lower-case look-alikes: a capital is read through its lower case, so
    the Roman numeral Ⅰ, which Unicode reads "l" as it reads the Latin I, is an "i"; and
    NFKC first, so a look-alike NFKC makes another ASCII character is that one: the
    mathematical 𝟏 that the data reads as an "l" is a "1".)"""
    name = " ".join(words)
    alike = []
    for char in name:
        found = [g["c"] for g in confusables_data.get(char, []) if len(g["c"]) == 1
                 and not g["c"].isascii() and not unicodedata.combining(g["c"])
                 and unicodedata.category(g["c"])[0] in "LN" and g["c"].casefold() == g["c"]
                 and not is_mixed_script(g["c"] + "a") and nfkc_agrees(g["c"], char)]
        alike.append(found[len(name) % len(found)] if found else char)
    assert person_name_problem("".join(alike)) is None
    assert person_key("".join(alike)) == person_key(name)


# ------------------------------------------- every form of a letter, the whole of Unicode's lists


def compatibility_forms() -> dict[str, list[str]]:
    """Every character of Unicode that NFKC and case folding make one ASCII letter, by that
    letter: fullwidth, mathematical (bold, italic, script, fraktur, double-struck, sans-serif,
    monospace), circled, modifier and subscript letters, letterlike symbols, Roman
    numerals... (898 of them in Unicode 15)."""
    forms: dict[str, list[str]] = {}
    for code in range(0x80, 0x110000):
        if 0xD800 <= code < 0xE000:
            continue
        char = chr(code)
        folded = unicodedata.normalize("NFKC", char).casefold()
        if len(folded) == 1 and folded.isascii() and folded.isalpha():
            forms.setdefault(folded, []).append(char)
    return forms


def confusable_letters() -> dict[str, list[str]]:
    """Every single character Unicode's confusables (confusables.txt, through
    confusable-homoglyphs) read as one ASCII letter, by that letter's small form."""
    found: dict[str, list[str]] = {}
    for letter, glyphs in confusables_data.items():
        if not (letter.isascii() and letter.isalpha()):
            continue
        for glyph in glyphs:
            alike = glyph["c"]
            if len(alike) == 1 and not alike.isascii() and not unicodedata.combining(alike):
                found.setdefault(letter.casefold(), []).append(alike)
    return found


FORMS = compatibility_forms()
CONFUSABLE = confusable_letters()
REFUSED = (MIXED_SCRIPTS, SIGN_LIKE_LETTER)


def test_every_compatibility_form_of_a_letter_is_that_letter() -> None:
    # "𝐈ñaki Etxeberria" (U+1D408) beside "Iñaki Etxeberria" was another person: the
    # confusables, asked before NFKC, read the mathematical capital I as an "l" (issue 40).
    assert person_key("\U0001d408ñaki Etxeberria") == KEY
    assert sum(len(forms) for forms in FORMS.values()) > 800
    assert "\U0001d408" in FORMS["i"] and "\uff29" in FORMS["i"] and "\u2160" in FORMS["i"]
    other = [(f"U+{ord(form):04X}", letter) for letter, forms in FORMS.items() for form in forms
             if person_name_problem(f"{form}ar Etxeberria") not in REFUSED
             and person_key(f"{form}ar Etxeberria") != person_key(f"{letter}ar Etxeberria")]
    assert other == []


def test_every_confusable_of_a_letter_keys_as_plain_letters_or_is_refused() -> None:
    # What the confusables read as a letter never makes a key of its own: the key is the
    # ASCII letters (and ñ) the name reads as, or the name is refused (mixed scripts, a
    # sign read as a letter).
    assert sum(len(found) for found in CONFUSABLE.values()) > 1000
    other = []
    for letter, found in CONFUSABLE.items():
        for alike in found:
            name = f"{alike}ar Etxeberria"
            key = person_key(name)
            if person_name_problem(name) not in REFUSED and not key.replace("ñ", "").isascii():
                other.append((f"U+{ord(alike):04X}", letter, key))
    assert other == []


LETTER_FORMS = {letter: sorted(set(FORMS.get(letter, [])) | set(CONFUSABLE.get(letter, [])))
                for letter in "abcdefghijklmnopqrstuvwxyz"}


@given(st.lists(st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=7),
                min_size=1, max_size=3), st.data())
def test_a_name_written_in_any_forms_of_its_letters_is_that_name_or_refused(
        words: list[str], data: st.DataObject) -> None:
    """Each letter of a name, any of its capitals, replaced (or not) by any of its forms in
    the whole of Unicode's lists (compatibility forms and confusables): the same person,
    or a name refused; never another person. NFKC first: a confusable NFKC makes another
    ASCII character is that character (the mathematical 𝟏, which the confusables read as
    an "l", is a "1")."""
    name = " ".join(words)
    drawn = [(char, data.draw(st.sampled_from([char, char.upper(), *LETTER_FORMS[char]])))
             if char in LETTER_FORMS else (char, char) for char in name]
    written = "".join(form for _, form in drawn)
    if person_name_problem(written) in REFUSED:
        return
    read = "".join(reads(form, char) for char, form in drawn)
    assert person_key(written) == person_key(read)


def readings() -> dict[str, set[str]]:
    """Each character the confusables read as one ASCII letter or digit: those (small)."""
    out: dict[str, set[str]] = {}
    for plain, glyphs in confusables_data.items():
        if len(plain) == 1 and plain.isascii() and plain.isalnum():
            for glyph in glyphs:
                out.setdefault(glyph["c"], set()).add(plain.casefold())
    return out


READINGS = readings()


def reads(form: str, letter: str) -> str:
    """What ``form``, drawn for ``letter``, is as the issue says a name is folded: NFKC and
    case folding first (the mathematical 𝟏 is a "1"), then the confusables on what they
    made (the capital iota Ɩ, which the data reads as an "l", is its small ɩ, an "i")."""
    folded = unicodedata.normalize("NFKC", form).casefold()
    if folded.isascii() and len(folded) == 1:
        return folded
    found = READINGS.get(folded, set())
    return letter if letter in found or not found else min(found)
