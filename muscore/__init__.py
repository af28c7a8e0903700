"""muscore: a scoreboard and table assistant for Mus."""
