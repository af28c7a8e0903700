"""muscore's settings with one extra URL that always fails (tests/test_logging.py).

A real server needs a real 500 to show what it logs, and muscore has no page that
fails on purpose: this test-only URLconf adds one, under an edit link, so the
logged path holds an edit key to be masked.
"""

from muscore.settings import *  # noqa: F403

ROOT_URLCONF = "tests.multiserver.failing_urls"
