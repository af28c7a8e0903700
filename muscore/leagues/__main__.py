"""``python -m muscore.leagues``: the command line of muscore.leagues.compute.cli."""

import sys

from muscore.leagues.compute.cli import main

if __name__ == "__main__":
    sys.exit(main())
