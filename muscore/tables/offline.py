"""What a phone keeps for the table when the bar's signal goes: the manifest and the
service worker's list of files (templates/tables/sw.js; static/js/muscore.js queues
hands entered offline and sends them, with their client id, when the signal is back)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from muscore.handentry import spoken
from muscore.permalink import next_context
from muscore.tables import services
from muscore.tables.forms.entry import EntryHead
from muscore.tables.models import Table
from muscore.tables.state import BoardState

# Everything a kept page needs to draw itself without the network: every stylesheet and
# script of static/css and static/js (a club's, the TV's, the rules'), the icons, htmx.
STATIC_DIRS = ("css", "js")
OTHER_STATIC_FILES = (
    "django_htmx/htmx-2.min.js",
    "icons/muscore.svg",
    "icons/muscore-192.png",
    "icons/muscore-512.png",
    "icons/muscore-512-maskable.png",
)
# The pages the worker keeps at install, by URL name; the apps above add theirs
# (muscore.disputes: the calculator, the lector, the rules and each of their sections).
INSTALL_PAGES = ["tables:home", "tables:new", "clubs:index"]
_install_hooks: list[Callable[[], list[str]]] = []
BACKGROUND = "#0f1d16"  # static/css/muscore.css --bg
THEME = "#183026"  # --panel


def static_files() -> list[str]:
    """The files of STATIC_DIRS (as static/ has them) and OTHER_STATIC_FILES, by name."""
    root = Path(settings.STATICFILES_DIRS[0])
    found = sorted(
        path.relative_to(root).as_posix()
        for folder in STATIC_DIRS
        for path in (root / folder).iterdir()
        if path.is_file() and path.suffix in (".css", ".js")
    )
    return [*found, *OTHER_STATIC_FILES]


def precache_json() -> str:
    """The static URLs as the pages ask for them (whitenoise's manifest names in
    production: what collectstatic wrote), as JSON."""
    return json.dumps([static(path) for path in static_files()])


def keep_at_install(pages: Callable[[], list[str]]) -> None:
    """An app's pages for the worker to keep at install (called from its AppConfig.ready)."""
    _install_hooks.append(pages)


def install_pages_json() -> str:
    """The paths the worker keeps at install, as JSON: their addresses without a language
    prefix (muscore.addresses), which answer in the phone's language, whatever language
    the request for the worker was answered in."""
    with translation.override(settings.LANGUAGE_CODE):
        paths = [reverse(name) for name in INSTALL_PAGES]
        for hook in _install_hooks:
            paths.extend(path for path in hook() if path not in paths)
    return json.dumps(paths)


def stylesheet() -> str:
    """The site's stylesheet as production serves it (css/muscore.<hash>.css)."""
    return static("css/muscore.css")


def static_prefix() -> str:
    """Where the static files are served ("/static/"; the manifest has no entry for it)."""
    return str(settings.STATIC_URL)


def manifest(*, start_url: str, name: str, language: str) -> dict[str, Any]:
    return {
        # The board's own URL is its id: each installed board is its own app.
        "id": start_url,
        "name": name if name == "muscore" else f"muscore · {name}",
        "short_name": "muscore",
        "start_url": start_url,
        "scope": "/",
        "display": "standalone",
        "orientation": "portrait",
        "lang": language,
        "background_color": BACKGROUND,
        "theme_color": THEME,
        "icons": [
            {"src": static("icons/muscore.svg"), "sizes": "any", "type": "image/svg+xml"},
            {"src": static("icons/muscore-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("icons/muscore-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": static("icons/muscore-512-maskable.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
        ],
    }


def offline_words() -> dict[str, dict[str, str]]:
    """The page the worker answers for a page it never kept, in every language of the
    site (the worker picks the phone's): its title, what happened, the way home."""
    words = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            words[code] = {
                "title": gettext("Sin conexión"),
                "text": gettext(
                    "Esta página no está guardada en este móvil: se abrirá cuando vuelva "
                    "la señal. Las mesas, la calculadora y las reglas que ya abriste sí "
                    "funcionan."
                ),
                "home": gettext("Ir al inicio"),
            }
    return words


def next_hand(table: Table, state: BoardState, last: Mapping[str, Any] | None = None) -> str:
    """What the hand page kept on a phone needs to be the next hand's page without signal,
    as JSON for the edit board's live part (data-next-hand): the table's revision, the
    entry's number and the number players read, the mano, the words above the cards and
    each seat's card field's name. Every change reaches the phones with its board, so the
    kept hand page is brought up to date from the push (static/js/muscore.js, "the next
    hand") instead of being fetched again after each change (issue 38.4: a whole page a
    phone a save). `last`: the board's last hand (muscore.tables.board), whose number as
    players read it ("dealt"), when the board has it, spares reading the table's taps."""
    current = state["current"]
    mano, score = next_context(current)
    # As the hand page numbers it: the table-wide number after the last entry.
    number = int(current["first_hand"]) + len(current["hands"])
    if last is not None and "dealt" in last and last["number"] == number - 1:
        dealt = int(last["dealt"]) + 1
    else:
        dealt = services.dealt_number(table, number)
    head = EntryHead(players=state["players"], rules=state["rules"], mano=mano, score=score)
    before = render_to_string("tables/_entry_before.html", {"entry": head})
    return json.dumps(
        {
            "revision": state["revision"],
            "number": number,
            "dealt": dealt,
            "mano": mano,
            "before": " ".join(before.split()),
            "fields": {
                str(seat): spoken.card_field_name(head.players[seat], is_mano=seat == mano)
                for seat in head.speaking_order()
            },
        },
        ensure_ascii=False,
    )
