"""Draw the home-screen PNG icons from static/icons/muscore.svg (run once; the PNGs are committed).

    .venv/bin/python scripts/make_icons.py

Chromium (the one the browser tests use) rasterises the SVG at each size, so the
PNGs are exactly the SVG. Phones that install the board want PNGs of 192 and
512 px; the maskable one keeps the drawing inside the safe circle (80 %).
"""

from __future__ import annotations

import base64
import os
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
ICONS = ROOT / "static" / "icons"
CHROMIUM = os.environ.get("MUSCORE_CHROMIUM", "/usr/bin/chromium")
BACKGROUND = "#1b5e3a"  # the SVG's own background, for the maskable margin


def main() -> None:
    svg = (ICONS / "muscore.svg").read_bytes()
    src = "data:image/svg+xml;base64," + base64.b64encode(svg).decode()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page()
        for size, maskable in ((192, False), (512, False), (512, True)):
            page.set_viewport_size({"width": size, "height": size})
            inner = round(size * 0.8) if maskable else size
            page.set_content(
                f'<body style="margin:0;background:{BACKGROUND if maskable else "transparent"};'
                f'display:grid;place-items:center;height:{size}px">'
                f'<img src="{src}" width="{inner}" height="{inner}"></body>'
            )
            name = f"muscore-{size}{'-maskable' if maskable else ''}.png"
            page.screenshot(path=ICONS / name, omit_background=not maskable)
            print(ICONS / name)
        browser.close()


if __name__ == "__main__":
    main()
