"""What a phone keeps for the table when the bar's signal goes: the manifest and the
service worker's list of files (templates/tables/sw.js; static/js/muscore.js queues
hands entered offline and sends them, with their client id, when the signal is back)."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.templatetags.static import static
from django.utils import translation
from django.utils.translation import gettext

# Everything a board needs to draw itself without the network.
STATIC_FILES = (
    "css/muscore.css",
    "css/disputes.css",
    "js/muscore.js",
    "js/a11y.js",
    "django_htmx/htmx-2.min.js",
    "icons/muscore.svg",
    "icons/muscore-192.png",
    "icons/muscore-512.png",
    "icons/muscore-512-maskable.png",
)
BACKGROUND = "#0f1d16"  # static/css/muscore.css --bg
THEME = "#183026"  # --panel


def precache_json() -> str:
    """The static URLs as the pages ask for them (hashed names in production), as JSON."""
    return json.dumps([static(path) for path in STATIC_FILES])


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
