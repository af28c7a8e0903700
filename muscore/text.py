"""What text muscore accepts: what both databases can store and every page can show.

Text reaches muscore as JSON (the API, an import, a permalink), where an escape such
as "\\ud800" gives a lone surrogate that no UTF-8 page or PostgreSQL column can hold,
and "\\u0000" a NUL that PostgreSQL's json refuses. Forms and URLs are decoded by
Django with replacement characters, so they never carry a surrogate, but may carry
control characters. Each entry point checks its text here and answers a clear 400.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

# Characters that draw nothing: format characters (zero-width space and joiners, the
# bidirectional marks), every kind of space, and letters that render blank.
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
# Bidirectional embeddings, overrides and isolates: inside a name they reverse how the
# rest of a line of the board reads.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# JSON nested deeper than this is not a hand record or an exported table.
MAX_DEPTH = 50

SURROGATE = "surrogate"
CONTROL = "control"


def problem(text: str) -> str | None:
    """None when `text` can be stored and shown; SURROGATE or CONTROL otherwise.

    A lone surrogate (U+D800..U+DFFF) is not Unicode text; a control character
    (category Cc: NUL, tab, newline, escape, DEL, C1...) has no place in a name,
    a card or a key.
    """
    # Searched by compiled patterns (C), not character by character: a league import
    # checks 160,000 strings in its request.
    if _SURROGATE.search(text):
        return SURROGATE
    if _CONTROL.search(text):
        return CONTROL
    return None


_SURROGATE = re.compile("[\ud800-\udfff]")
# Unicode's category Cc is exactly these 65 code points (C0, DEL and C1).
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def is_invisible(text: str) -> bool:
    """True when nothing of `text` would show: only spaces, zero-width and format
    characters (a right-to-left override...) or letters that draw blank."""
    return all(
        ch in BLANK_LETTERS or unicodedata.category(ch) in ("Cf", "Zs", "Zl", "Zp", "Cc")
        for ch in text
    )


def has_bidi_control(text: str) -> bool:
    return any(ch in BIDI_CONTROLS for ch in text)


def json_problem(value: object, depth: int = 0) -> str | None:
    """The first problem() of any string (keys too) inside parsed JSON, or None."""
    if isinstance(value, str):
        return problem(value)
    if depth > MAX_DEPTH:
        return None  # the reader of this JSON refuses the depth itself
    if isinstance(value, Mapping):
        for key, item in value.items():
            found = (problem(key) if isinstance(key, str) else None) or json_problem(
                item, depth + 1
            )
            if found:
                return found
    elif isinstance(value, list | tuple):
        for item in value:
            found = json_problem(item, depth + 1)
            if found:
                return found
    return None


# --- sorting names as Spanish does ---------------------------------------------------------------

# Ñ is a letter of its own in Spanish, after N (Inza, Iñaki, Io): the Unicode Collation
# Algorithm (pyuca, DUCET) reads it as an N with an accent, so it is written as an N
# followed by a code point that sorts after every letter.
_ENYE = str.maketrans({"ñ": "n\U000effff", "Ñ": "N\U000effff"})


@functools.lru_cache(maxsize=1)
def _collator() -> Any:
    import pyuca  # type: ignore[import-untyped]  # (no stubs) loads its table on the first sort

    return pyuca.Collator()


@functools.lru_cache(maxsize=4096)  # pyuca takes about a millisecond a name: a large
# club's page sorted its 600 names in 0.45 s per request (issue 28); a few MB per worker
def spanish_key(name: str) -> tuple[int, ...]:
    """The sort key of `name` as Spanish orders names: accents and case do not move a name
    (Álvaro beside Alberto, Órdago among the O), ñ after n; the same on SQLite and
    PostgreSQL, since it sorts in Python."""
    key: tuple[int, ...] = _collator().sort_key(name.translate(_ENYE))
    return key


def sorted_by_name(items: Iterable[T], name: Callable[[T], str] = str) -> list[T]:
    """`items` in Spanish order of `name(item)` (its str by default)."""
    return sorted(items, key=lambda item: spanish_key(name(item)))


# --- one person, whatever the spelling -----------------------------------------------------------

# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt): characters a reader
# never sees (the soft hyphen, the zero-width joiners and spaces, variation selectors,
# Hangul fillers, tags...). Python's unicodedata has no such property: the ranges as Unicode
# lists them.
_IGNORABLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)
# Apostrophes join what they separate (D'Elía is Delía); other punctuation and symbols
# separate words ("Etxeberria, Iñaki", "Jean-Pierre", a trailing dot).
_APOSTROPHES = str.maketrans("", "", "'\u2019\u02bc\u00b4`")
# Scripts that are one script in a name (UTS #39's "highly restrictive" sets): Japanese
# (Han, Hiragana, Katakana), Korean (Han, Hangul), Chinese (Han, Bopomofo), each with Latin.
_SCRIPT_SETS = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
)
# Characters of no script of their own: digits, punctuation, spaces; combining marks.
_NO_SCRIPT = frozenset({"COMMON", "INHERITED"})
_TILDE = "\u0303"

MIXED_SCRIPTS = "mixed_scripts"
SIGN_LIKE_LETTER = "sign_like_letter"
NO_LETTER = "no_letter"


@functools.lru_cache(maxsize=1)
def _lookalikes() -> dict[str, str]:
    """Each character Unicode's confusables (UTS #39, confusable-homoglyphs' data) say
    looks like a plain ASCII letter or letters, with them: Cyrillic і and Greek ι, the
    dotless ı, the fullwidth ｉ and the mathematical 𝐢 are all read "i". Plain ASCII is
    never mapped: "m" and "rn", "I" and "l" are what people type, and stay apart."""
    from confusable_homoglyphs.confusables import confusables_data

    out: dict[str, str] = {}
    for char, found in confusables_data.items():
        if char.isascii():
            continue
        plain = [g["c"] for g in found if g["c"].isascii() and g["c"].strip()]
        if plain:
            out[char] = min(plain, key=len)
    return out


@functools.lru_cache(maxsize=4096)
def _script(char: str) -> str:
    from confusable_homoglyphs.categories import alias

    found: str = alias(char)
    return found


def scripts(text: str) -> set[str]:
    """The scripts of `text`'s letters (LATIN, CYRILLIC, GREEK...): digits, punctuation,
    spaces and combining marks belong to none."""
    return {_script(ch) for ch in _IGNORABLE.sub("", text)} - _NO_SCRIPT


def is_mixed_script(text: str) -> bool:
    """True when `text` mixes alphabets as no name does: a Cyrillic І in a Latin name, a
    Greek ο in "Etxeberria" (Japanese kana with kanji, or Latin beside them, is one name)."""
    found = scripts(unicodedata.normalize("NFKC", text))
    return len(found) > 1 and not any(found <= allowed for allowed in _SCRIPT_SETS)


def is_marks_only(text: str) -> bool:
    """True when `text` has something but nothing a mark could sit on: only combining
    accents (and invisible characters), which draw over whatever stands before them."""
    return bool(text) and all(
        unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Mc", "Cf", "Zs")
        for ch in text
    )


def _is_sign(char: str) -> bool:
    """Punctuation or a symbol: it separates words in a key, it is never read as a letter."""
    return unicodedata.category(char)[0] in "PS"


def _plain(text: str) -> str:
    """`text` folded as a reader tells letters apart: without format characters (those
    Unicode says are default-ignorable, and every Cf: none draws a letter), compatibility
    forms folded (NFKC: the fullwidth Ｉ, the mathematical 𝐈 and 𝕚, the circled Ⓘ, the
    Roman numeral Ⅰ are an I), case folded, then decomposed, each letter Unicode's
    confusables read as an ASCII letter made that letter (the Cyrillic і, the Greek ι, the
    dotless ı are an "i"). NFKC and case folding come first: the confusables read a
    mathematical 𝐈 as an "l", as they read the Latin capital I, and "𝐈ñaki" was another
    person than "Iñaki" (issue 40)."""
    table = _lookalikes()
    out: list[str] = []
    for given in _IGNORABLE.sub("", text):
        given = _spacing_alike(given, table)
        parts = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", given).casefold())
        for char in _IGNORABLE.sub("", parts):
            if unicodedata.category(char) == "Cf":
                continue
            if char.isascii() or _is_sign(char):
                out.append(char)
            elif char in table:
                out.append(table[char])
            elif len(parts) == 1 and given in table:
                out.append(table[given])  # a capital read as a letter, its small one not listed
            else:
                out.append(char)
    return "".join(out).casefold()


def _spacing_alike(char: str, table: dict[str, str]) -> str:
    """``char``, or the letter the confusables read it as when NFKC would turn it into no
    letter at all (a spacing accent: the Greek ypogegrammeni ͺ, read "i", is a space and
    a combining mark to NFKC)."""
    if char.isascii() or _is_sign(char):
        return char
    if any(c.isalnum() for c in unicodedata.normalize("NFKC", char)):
        return char
    alike = table.get(char.casefold()) or table.get(char, "")
    return alike if any(c.isalnum() for c in alike) else char


def sign_like_letter(text: str) -> str | None:
    """The first sign (punctuation, symbol) of `text` that Unicode's confusables read as a
    letter or digit ("⍳" an i, "‖" two l), or None: in a person's name it would be read
    as that letter and is refused."""
    table = _lookalikes()
    for char in text:
        if _is_sign(char):
            alike = table.get(char.casefold()) or table.get(char, "")
            if any(c.isalnum() for c in alike):
                return char
    return None


def person_key(name: str) -> str:
    """What tells one person from another, as a reader of the name would: "Iñaki
    Etxeberria", "iñaki  etxeberria.", "Etxeberria, Iñaki", "Iñaki Etxe\u00adberria" (a soft
    hyphen), "Iñaki Etxeberria" in fullwidth letters, with a dotless ı or a Cyrillic і are
    one key.

    Default-ignorable characters removed (zero-width joiners and spaces, the soft hyphen,
    variation selectors), compatibility forms folded (NFKC: fullwidth, ligatures,
    mathematical, circled and Roman numeral letters), case folded, and only then every
    character Unicode's confusables read as an ASCII letter made that letter (a spacing
    accent NFKC would make no letter is read first), the accents dropped as Spanish reads
    them (Álvaro is Alvaro, Müller Muller) but not the ñ, a letter of its own (Iñaki is
    not Inaki, Peña not Pena: as :func:`spanish_key` sorts them), apostrophes joined,
    other punctuation and symbols dropped, and the words in alphabetical order (the order
    of the names does not matter).
    A name with no letter or digit has the key "". Whether a name mixes scripts (a
    Cyrillic І inside a Latin name) is :func:`is_mixed_script`'s to refuse: the key still
    reads it as its look-alike.
    """
    text = _plain(name)
    kept: list[str] = []
    for ch in text:
        if unicodedata.combining(ch):
            if ch == _TILDE and kept and kept[-1] == "n":
                kept.append(ch)
            continue
        kept.append(ch)
    text = unicodedata.normalize("NFC", "".join(kept)).translate(_APOSTROPHES)
    words = "".join(ch if ch.isalnum() else " " for ch in text).split()
    return " ".join(sorted(words))


def person_name_problem(name: str) -> str | None:
    """None when `name` can be a person's; MIXED_SCRIPTS (a Cyrillic І inside a Latin
    name), SIGN_LIKE_LETTER (a sign read as a letter: "⍳ñaki") or NO_LETTER (only
    punctuation, symbols or accents) otherwise. Control characters and direction
    overrides are problem()'s and has_bidi_control()'s."""
    if is_mixed_script(name):
        return MIXED_SCRIPTS
    if sign_like_letter(unicodedata.normalize("NFKC", name)) or sign_like_letter(name):
        return SIGN_LIKE_LETTER
    if not person_key(name):
        return NO_LETTER
    return None


def same_people(names: Sequence[str]) -> list[tuple[int, int]]:
    """Each place of `names` whose name is one person with an earlier place's, as
    (earlier, place): two seats of one table named "Ana" and "ana." (issue 38.9). Compared
    by :func:`person_key`; a name with no letter or digit (key "") is nobody's."""
    seen: dict[str, int] = {}
    found: list[tuple[int, int]] = []
    for place, name in enumerate(names):
        key = person_key(name)
        if not key:
            continue
        if key in seen:
            found.append((seen[key], place))
        else:
            seen[key] = place
    return found
