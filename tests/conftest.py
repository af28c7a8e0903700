"""Project-wide test setup: settings for tests, the browser marker, the screenshots folder."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in the test thread, and Django then refuses
# ORM calls from that thread unless told it is safe. That is true in tests only (one
# thread, no real async code), so it is set here and never in muscore/settings.py.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

ROOT = Path(__file__).resolve().parent.parent
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
STARTED = time.time()


@pytest.fixture(scope="session")
def screenshots_dir() -> Path:
    """Where browser tests save what a person should be able to look at afterwards."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # Everything under tests/browser drives a real Chromium, so `-m "not browser"`
    # gives the quick suite without marking each test by hand.
    browser_dir = Path(__file__).parent / "browser"
    for item in items:
        if browser_dir in item.path.parents:
            item.add_marker(pytest.mark.browser)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if SCREENSHOTS.is_dir():
        # Only this run's: older files may be from tests that no longer exist.
        shots = [p for p in SCREENSHOTS.glob("*.png") if p.stat().st_mtime >= STARTED]
        if shots:
            terminalreporter.write_sep("-", "screenshots")
            terminalreporter.write_line(f"{len(shots)} screenshots saved in {SCREENSHOTS}")
