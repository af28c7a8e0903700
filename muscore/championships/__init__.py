"""A championship across venues (issue 18): venues (sedes) in regions, each running its heat as
a competition of its own club, entries with one person in one pair, quotas, and phases of
groups drawn from the heats' qualified pairs. The pure side is
:mod:`muscore.championships.compute` (quotas, the phase's draw)."""
