"""The league's pure computations: no Django import here, like :mod:`muscore.rules`.

Standings, fixtures, ratings, the ceros pairing, hand stats, the league document and
its errors, a championship's quotas and group draws. The Django side of
:mod:`muscore.leagues` stores competitions and asks these functions; the command line
``python -m muscore.leagues`` serves them as docs/league.md and docs/championship.md say.
"""
