"""muscore.rules: the game of Mus, scored exactly as a table plays it (work in progress)."""
