"""Settling a disputed hand: the recuento calculator, its permalinks, the hand lector
and the rules pages. No storage: everything here is muscore.rules plus words."""
