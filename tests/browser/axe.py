"""axe-core for the accessibility tests: the copy vendored in tests/vendor/axe-core
(4.14.1, its hash checked here before it is used), not the one axe-playwright-python's
runner bundles (4.12.1, with label-content-name-mismatch off). The tours put it in each
page by an init script (install) and read only the violations (violations)."""

from __future__ import annotations

import base64
import hashlib
from functools import cache
from pathlib import Path
from typing import Any

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import BrowserContext, Page

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


def install(context: BrowserContext) -> None:
    """Put the vendored axe-core in every document the context opens, before the page's own
    scripts (an init script: not subject to the page's CSP, as page.evaluate is not). Sent
    to Chromium once for the context instead of once a page: evaluating its 650 KB in each
    page cost 80-90 ms of CPU (Python, Playwright's node and Chromium passing the text on),
    the init script 25-30 ms (V8 keeps the compiled code between the documents)."""
    context.add_init_script(script=axe().axe_script)


# axe.run's violations, as much of them as the checks print: the rule, its impact and the
# elements' selectors. The "no-passes" reporter is the default one without the per-node
# failure summaries and without the passes, incomplete and inapplicable lists: the same
# rules run, only less is written up and sent back (a full result is 100-200 KB a run).
# null when the document has no axe yet.
VIOLATIONS = """async options => {
    if (typeof window.axe === "undefined") return null;
    const results = await axe.run(document, Object.assign({reporter: "no-passes"}, options));
    return results.violations.map(v => ({
        id: v.id, impact: v.impact, targets: v.nodes.map(n => n.target)}));
}"""


def violations(page: Page, options: dict[str, Any]) -> list[dict[str, Any]]:
    """axe.run's violations on the page's document with options ({"id", "impact",
    "targets"} each). The vendored axe-core is put in the page only when the page has none
    yet (no install() in its context, or a page made by set_content): a page checked again
    without loading (in dark after light) keeps the copy it has."""
    found: list[dict[str, Any]] | None = page.evaluate(VIOLATIONS, options)
    if found is None:
        page.evaluate(axe().axe_script)
        found = page.evaluate(VIOLATIONS, options)
    assert found is not None, "axe-core is not in the page"
    return found
