"""The championship's pure computations: no Django import here, like :mod:`muscore.rules`
and :mod:`muscore.leagues.compute` (lint-imports' contract ``championships-compute-pure``).

A championship's quotas (how many pairs each venue sends on: :mod:`.quotas`, the contract
of championship.md, served on the command line by ``python -m muscore.leagues quotas``)
and a phase's seeded group draw and who goes on from heats and groups (:mod:`.draw`). The
Django side of :mod:`muscore.championships` stores the championship and asks these.
"""
