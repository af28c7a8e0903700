"""``python -m muscore.leagues``: the command line of muscore.leagues.compute.cli, and
``quotas``, a championship's (championship.md), which it has always served: the one
import of a championship from the leagues, allowed to this entry point alone (.importlinter).
"""

import sys

from muscore.championships.compute.quotas import quotas_json
from muscore.leagues.compute.cli import COMMANDS, main

if __name__ == "__main__":
    sys.exit(main(commands={**COMMANDS, "quotas": quotas_json}))
