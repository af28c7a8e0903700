"""How many examples a hypothesis test tries, by the settings profile in use.

The profiles are registered in tests/conftest.py. `ci` (the default, and what
./scripts/test and .ci/run use) tries exactly the number each test names; `dev`
(`HYPOTHESIS_PROFILE=dev ./scripts/test tests/rules`) a tenth of it, at least 5, for a
quick loop while editing. A test writes `@settings(max_examples=examples(150), ...)`.
"""

from __future__ import annotations

import os

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")
DEV_SHARE = 10


def examples(n: int) -> int:
    """The number of examples to try for a test that names n for CI."""
    if PROFILE == "dev":
        return max(5, n // DEV_SHARE)
    return n
