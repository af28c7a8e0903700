"""What a screen reader hears of a hand's controls (issue 30 point 2): each bet button
named with its side and its lance ("Envido de Ana y Carla a la grande"), each card field
with its seat and whether it is mano ("cartas de Ana, mano"), the cards as words ("rey,
rey, cinco, cuatro"). The buttons show short words ("Envido", "Ana·Carla"); a blind
referee hears two "Envido" a lance without these names. No rule here: only words."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from muscore.handentry.words import LANCE_NAMES, other

# A lance after a bet's words ("Envido de Ana y Carla a la grande"): the card's words too
# (muscore/leagues/card.py), the same catalogue entries.
LANCE_TO: dict[str, str | Promise] = {
    "grande": gettext_lazy("a la grande"),
    "chica": gettext_lazy("a la chica"),
    "pares": gettext_lazy("a pares"),
    "juego": gettext_lazy("a juego"),
    "punto": gettext_lazy("al punto"),
    # Without signal the page cannot know which of the two is played.
    "fourth": gettext_lazy("a juego o al punto"),
}

# The card values as words, as a referee reads a hand aloud.
CARD_WORDS: dict[str, str | Promise] = {
    "1": gettext_lazy("as"),
    "2": gettext_lazy("dos"),
    "3": gettext_lazy("tres"),
    "4": gettext_lazy("cuatro"),
    "5": gettext_lazy("cinco"),
    "6": gettext_lazy("seis"),
    "7": gettext_lazy("siete"),
    "S": gettext_lazy("sota"),
    "C": gettext_lazy("caballo"),
    "R": gettext_lazy("rey"),
}


def card_word(card: str) -> str:
    """One card value as a word ("R" -> "rey"); an unknown token as it is."""
    return str(CARD_WORDS.get(card, card))


def cards_words(cards: str | Iterable[str]) -> str:
    """Cards as words, in the order given: "R R 5 4" -> "rey, rey, cinco, cuatro"."""
    values = cards.split() if isinstance(cards, str) else list(cards)
    return ", ".join(card_word(card) for card in values)


def card_field_name(name: str, *, is_mano: bool) -> str:
    """A seat's card field: "cartas de Ana, mano" (or "cartas de Bruno")."""
    if is_mano:
        return _("cartas de %(name)s, mano") % {"name": name}
    return _("cartas de %(name)s") % {"name": name}


def _to(lance: str) -> str:
    return str(LANCE_TO.get(lance, lance))


def opening_names(lance: str, sides: Sequence[Mapping[str, Any]],
                  names: Mapping[str, str]) -> list[dict[str, Any]]:
    """The opening row's buttons of each side (envido, órdago, another amount), each side's
    dict of `sides` (side, label, parts) with the names of its three buttons."""
    to = _to(lance)
    rows = []
    for s in sides:
        who = {"who": names[s["side"]], "lance": to}
        rows.append({
            **s,
            "say_envido": _("Envido de %(who)s %(lance)s") % who,
            "say_ordago": _("Órdago de %(who)s %(lance)s") % who,
            "say_amount": amount_name(shown_label(s), to),
        })
    return rows


def shown_label(side: Mapping[str, Any]) -> str:
    """What a side's button shows: its players' names joined ("Ana·Carla"), else its label."""
    parts = side.get("parts")
    return "·".join(str(p) for p in parts) if parts else str(side.get("label", ""))


def amount_name(shown: str, to: str) -> str:
    """The name of a side's "otra cantidad" button, which shows the side's names: those
    first, as the button reads (issue 38.7, WCAG 2.5.3: it was "Otra cantidad de Ana y
    Carla a la grande" on a button reading "Ana·Carla")."""
    return _("%(shown)s: otra cantidad %(lance)s") % {"shown": shown, "lance": to}


def answer_names(lance: str, side: str, names: Mapping[str, str]) -> dict[str, str]:
    """The buttons of the side that answers a bet: quiero, no quiero, envido más,
    órdago, N más."""
    who = {"who": names[side], "lance": _to(lance)}
    return {
        "quiero": _("Quiero de %(who)s %(lance)s") % who,
        "no_quiero": _("No quiero de %(who)s %(lance)s") % who,
        "raise": _("Envido más de %(who)s %(lance)s") % who,
        "ordago": _("Órdago de %(who)s %(lance)s") % who,
        "amount": _("Piedras de más de %(who)s %(lance)s") % who,
        "more": _("Más de %(who)s %(lance)s, las piedras escritas") % who,
    }


def undo_name(lance: str) -> str:
    """The lance's undo: "Deshacer el último paso de Grande"."""
    return _("Deshacer el último paso (%(lance)s)") % {"lance": LANCE_NAMES.get(lance, lance)}


def spoken_bets(info: dict[str, Any], sides: Sequence[Mapping[str, Any]],
                names: Mapping[str, str]) -> None:
    """Adds to a lance's dict for templates/tables/_bets.html (lance, bets, to_answer) the
    names its buttons are read by: `open_sides` and `said`."""
    lance = info["lance"]
    info["open_sides"] = opening_names(lance, sides, names)
    # The lance, as the opening "otra cantidad" field's name ends: one name per lance
    # (issue 38.9: every lance's field was "Otra cantidad").
    info["to"] = _to(lance)
    answering = info.get("to_answer") or (other(info["bets"][-1][0]) if info.get("bets") else "A")
    info["said"] = {**answer_names(lance, answering, names), "undo": undo_name(lance)}


# The lances as the page drawn without signal knows them (static/js/muscore.js,
# offlineEntry): juego and punto are one, "fourth".
OFFLINE_LANCES = ("grande", "chica", "pares", "fourth")


def offline_names(names: Mapping[str, str],
                  labels: Mapping[str, str]) -> dict[str, dict[str, object]]:
    """The names of the buttons the hand entry draws without signal, as online (issue
    30.4): per lance (OFFLINE_LANCES) and side (each player in individual play), its
    opening buttons (paso, envido, órdago, another amount) and its answers as that side
    says them (quiero, no quiero), and the lance's undo. The page names the answers by
    the side that answers the last bet; `labels`, what each side's button shows
    ("Ana·Carla")."""
    out: dict[str, dict[str, object]] = {}
    for key in OFFLINE_LANCES:
        to = _to(key)
        sides: dict[str, object] = {}
        for side in names:
            who = {"who": names[side], "lance": to}
            answers = answer_names(key, side, names)
            buttons = sides[side] = {
                "paso": _("Paso de %(who)s %(lance)s") % who,
                "envido": _("Envido de %(who)s %(lance)s") % who,
                "ordago": _("Órdago de %(who)s %(lance)s") % who,
                "amount": amount_name(labels[side], to),
                "quiero": answers["quiero"],
                "no_quiero": answers["no_quiero"],
            }
            if len(names) == 2:
                # By pairs the other side answers this side's bet: its quiero and no
                # quiero, which the page names after the last bet it kept.
                against = answer_names(key, other(side), names)
                buttons["answer_quiero"] = against["quiero"]
                buttons["answer_no_quiero"] = against["no_quiero"]
        lance = _("Juego o punto") if key == "fourth" else LANCE_NAMES.get(key, key)
        sides["undo"] = _("Deshacer el último paso (%(lance)s)") % {"lance": lance}
        sides["amount_field"] = _("Otra cantidad %(lance)s") % {"lance": to}
        out[key] = sides
    return out


def talk_names(lance: str, side: str | None, names: Mapping[str, str]) -> dict[str, str]:
    """Individual play: the names of the buttons of the player whose turn it is (`side`),
    "Paso de Ana a la grande", "Envido de Ana a la grande"..., and of the lance's own
    ("Pasan todos a la grande", as the button reads first, and its undo)."""
    to = _to(lance)
    out = {
        "all_paso": _("Pasan todos %(lance)s") % {"lance": to},
        "undo": undo_name(lance),
    }
    if side is None:
        return out
    who = {"who": names[side], "lance": to}
    return {
        **out,
        **answer_names(lance, side, names),
        "paso": _("Paso de %(who)s %(lance)s") % who,
        "envido": _("Envido de %(who)s %(lance)s") % who,
        "open_amount": _("Otra cantidad de %(who)s %(lance)s") % who,
        "open_input": _("Piedras que envida %(who)s %(lance)s") % who,
    }
