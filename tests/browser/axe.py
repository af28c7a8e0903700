"""axe-core for the accessibility tests: the copy vendored in tests/vendor/axe-core
(4.14.1, its hash checked here before it is used), run through axe-playwright-python's
runner, whose own bundled axe-core (4.12.1) leaves label-content-name-mismatch off."""

from __future__ import annotations

import base64
import hashlib
from functools import cache
from pathlib import Path
from typing import Any

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

AXE_VERSION = "4.14.1"
# sri-history.json of the npm package axe-core, "4.14.1" -> "axe.min.js".
AXE_SRI = "sha256-KTSJmUUM3yhJqOcLeRL8LahahJ2jnA0NU5T1HUqe2Vw="
AXE_FILE = Path(__file__).resolve().parents[1] / "vendor" / "axe-core" / "axe.min.js"


def sri(data: bytes) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(data).digest()).decode()


@cache
def axe() -> Axe:
    """The runner with the vendored axe-core, once its hash is the pinned one."""
    data = AXE_FILE.read_bytes()
    found = sri(data)
    if found != AXE_SRI:
        raise AssertionError(
            f"{AXE_FILE} is not axe-core {AXE_VERSION} as published ({found}, wanted "
            f"{AXE_SRI}): see tests/vendor/axe-core/README.md")
    return Axe(axe_script=data.decode("utf-8"))


def run(page: Page, options: dict[str, Any]) -> dict[str, Any]:
    """axe.run on the page's document with options: its results, as the runner gives them.
    The vendored axe-core is put in the page only when the page has none yet: a page
    checked again without loading (in dark after light) keeps the copy the first check put
    there, instead of being sent its 650 KB again (0.15-0.25 s a page at load 7)."""
    if page.evaluate("() => typeof window.axe === 'undefined'"):
        page.evaluate(axe().axe_script)
    results: dict[str, Any] = page.evaluate(
        "options => axe.run(document, options)", options)
    return results
