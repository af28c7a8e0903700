"""The league's pure computations: no Django import here, like :mod:`muscore.rules`.

Standings, fixtures, ratings, the ceros pairing, hand stats, the league document and
its errors (a championship's quotas and phase draw are the championship's own:
:mod:`muscore.championships.compute`). The Django side of :mod:`muscore.leagues` stores
competitions and asks these functions; the command line ``python -m muscore.leagues``
serves them as docs/league.md says (and the quotas, as docs/championship.md says).
"""
