"""A championship's business logic, one concept a module, named here for its callers
(``services.draw_phase(...)``): :mod:`~muscore.championships.venues` (a championship, its
regions and venues), :mod:`~muscore.championships.entries` (pairs entered; the entries
closed and the seats shared), :mod:`~muscore.championships.heats` (a venue's heat and its
qualified), :mod:`~muscore.championships.phases` (a phase, its field, its groups' orders,
the champion), :mod:`~muscore.championships.phase_draw` (its draw) and
:mod:`~muscore.championships.reserves` (a pair withdrawn, and who takes its place).

Results are never written here: a heat's and a group's matches are league matches, played
through :mod:`muscore.leagues.results` (its pages, tables, links). Every write checks
its organiser (PermissionDenied, a 403) and runs in one transaction."""

from __future__ import annotations

from muscore.championships.entries import (
    close_entries,
    enter_pair,
    entries_open,
    mark_paid,
    name_taken,
    person_taken,
    seat_status,
)
from muscore.championships.errors import ChampionshipError
from muscore.championships.heats import qualified, start_heat
from muscore.championships.phase_draw import draw_phase
from muscore.championships.phases import (
    add_phase,
    champion,
    phase_field,
    phase_group_orders,
    start_round_clock,
)
from muscore.championships.reserves import placed_in, withdraw
from muscore.championships.venues import (
    add_region,
    add_sede,
    add_sede_with_club,
    can_run_sede,
    create_championship,
    require_sede,
)

__all__ = [
    "ChampionshipError", "add_phase", "add_region", "add_sede", "add_sede_with_club",
    "can_run_sede", "champion", "close_entries", "create_championship", "draw_phase",
    "enter_pair", "entries_open", "mark_paid", "name_taken", "person_taken", "phase_field",
    "phase_group_orders", "placed_in", "qualified", "require_sede", "seat_status",
    "start_heat", "start_round_clock", "withdraw",
]
