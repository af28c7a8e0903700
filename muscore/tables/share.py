"""Share links as QR codes: the others at the table scan the board instead of typing a link.

The QR is drawn server-side by segno as inline SVG (no script, no image request, nothing
from outside), with presentation attributes only, so the page's CSP (no inline style) holds.
"""

from __future__ import annotations

from functools import lru_cache

import segno
from django.utils.safestring import SafeString, mark_safe


@lru_cache(maxsize=512)
def qr_svg(url: str, title: str = "") -> SafeString:
    """The QR code of `url` as an inline <svg> that scales to its box (viewBox, no size)."""
    # Error level M: still reads from a phone screen with a scratch or a glare on it.
    code = segno.make(url, error="m")
    svg = code.svg_inline(
        scale=1,
        # The quiet zone the QR standard asks for (4 modules of light around the code):
        # with 2, most readers missed the printed pair slips' codes (issue 17.7).
        border=4,
        dark="#000",
        light="#fff",
        omitsize=True,
        svgclass="qr",
        title=title or None,  # segno escapes it
    )
    return mark_safe(svg)  # segno's own markup; it escapes the title
