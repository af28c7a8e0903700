"""A one-day tournament "a N ceros" in the database: its rounds are drawn one at a time by
the pure pairing (muscore.leagues.compute.ceros) and stored, once an organiser publishes them, as
ordinary Round and Match rows (with Match.table_number), so the match pages, the tables,
the results by hand or from a table and the pairs' confirmations all work on them.

- `make_round(competition, *, by, redraw=False) -> CerosDraft`: the next round drawn
  (only when every result of the round before is in), or a new draw of it
- `publish_round(competition, *, by) -> Round`: the draft becomes the round to play
- `table(competition) -> CerosTable`: who is still in, the ceros of each pair, who went
  out in which round, the positions and the winner
- `check_change(match, result)`: the guard `results.store` calls before a ceros match's
  result is written: a match has a loser, and a result that would change who lost a round
  already followed by a published one is refused (the later round was drawn from it)

Every write checks that `by` organises the club, runs in one transaction and is logged
(CerosEvent: draws, re-draws, publications, discarded drafts; results keep Correction).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from muscore.clubs.permissions import Actor, require_organiser, stored_user
from muscore.leagues.changes import CompetitionError, bump
from muscore.leagues.compute import ceros
from muscore.leagues.compute.document import Result
from muscore.leagues.compute.spreadsheet import write_csv
from muscore.leagues.models import CerosDraft, CerosEvent, Competition, Entry, Match, Round
from muscore.messages import page_message


@dataclass
class CerosRow:
    """A pair's line in a ceros tournament."""

    entry: Entry
    wins: int
    losses: int
    byes: int
    ceros_left: int
    out_in_round: int | None
    position: int | None

    @property
    def played(self) -> int:
        return self.wins + self.losses

    @property
    def alive(self) -> bool:
        return self.ceros_left > 0


@dataclass
class CerosTable:
    """The state of a ceros tournament: its rows (pairs still in first, by fewest ceros,
    then those out, best placed first), the rounds published, whether all their results
    are in, the draft waiting to be published and the winner once there is one."""

    competition: Competition
    rows: list[CerosRow]
    rounds: int
    complete: bool
    draft: CerosDraft | None
    winner: Entry | None
    left_to_play: int = 0
    history: list[ceros.PlayedRound] = field(default_factory=list)

    @property
    def alive(self) -> list[CerosRow]:
        return [row for row in self.rows if row.alive]


def _require_ceros(competition: Competition) -> None:
    if competition.format != Competition.Format.CEROS:
        raise CompetitionError(_("Esta competición no es un torneo a ceros."))


def _history(
    competition: Competition, upto: int | None = None
) -> tuple[list[Entry], list[ceros.PlayedRound], int]:
    """The entries, the rounds played (as the pure pairing takes them; up to round `upto`
    when given) and how many matches of those rounds are still without a result. Two
    queries."""
    entries = list(competition.entries.select_related("pair").order_by("index"))
    round_rows = competition.rounds.order_by("number")
    match_rows = Match.objects.filter(competition=competition)
    if upto is not None:
        round_rows = round_rows.filter(number__lte=upto)
        match_rows = match_rows.filter(round__number__lte=upto)
    rounds: dict[int, tuple[list[ceros.Played], int | None]] = {
        number: ([], bye) for number, bye in round_rows.values_list("number", "bye_id")
    }
    left = 0
    for number, first, second, result in (
        match_rows.order_by("number").outcomes("round__number", "first_id", "second_id")
    ):
        winner = result.winner if result is not None else None
        if winner is None:
            left += 1
            continue
        loser = second if winner == 0 else first
        rounds[number][0].append(ceros.Played(first, second, loser))
    history = [ceros.PlayedRound(tuple(played), bye) for played, bye in rounds.values()]
    return entries, history, left


def table(competition: Competition, upto: int | None = None) -> CerosTable:
    """The tournament's state, from its stored rounds (a fixed number of queries); with
    `upto`, as it stood after that round (a round's share card tells that round)."""
    _require_ceros(competition)
    entries, history, left = _history(competition, upto)
    pks = [e.pk for e in entries]
    by_pk = {e.pk: e for e in entries}
    complete = left == 0
    # The last round may be half played: its losers are counted, the rest wait.
    states = ceros.replay(pks, competition.ceros, history) if len(pks) >= 2 else {}
    rows = [
        CerosRow(
            entry=by_pk[pk], wins=s.wins, losses=s.losses, byes=s.byes,
            ceros_left=max(competition.ceros - s.losses, 0), out_in_round=s.out_in_round,
            position=s.position,
        )
        for pk, s in states.items()
    ]
    rows.sort(key=lambda r: (
        not r.alive, r.losses if r.alive else 0, -(r.out_in_round or 0), -r.wins, r.entry.index))
    alive = [r for r in rows if r.alive]
    winner = alive[0].entry if len(alive) == 1 and complete else None
    draft = CerosDraft.objects.filter(competition=competition).select_related("bye__pair").first()
    return CerosTable(competition, rows, len(history), complete, draft, winner, left, history)


def _locked(competition: Competition, by: Actor) -> Competition:
    require_organiser(by, competition.club)
    locked = Competition.objects.select_for_update().select_related("club").get(
        pk=competition.pk)
    _require_ceros(locked)
    return locked


def _event(
    competition: Competition, number: int, action: str, by: Actor | None,
    tables: Sequence[Sequence[int]] = (), bye: int | None = None, seed: str = "",
) -> None:
    index = dict(competition.entries.values_list("pk", "index"))
    CerosEvent.objects.create(
        competition=competition, number=number, action=action,
        by=stored_user(by),
        tables=[[n, index[a], index[b]] for n, a, b in tables],
        bye=index[bye] if bye is not None else None, seed=seed,
    )


@transaction.atomic
def make_round(competition: Competition, *, by: Actor, redraw: bool = False) -> CerosDraft:
    """Draw the next round (a draft for the organiser to check), or with `redraw` draw it
    again with a new seed. Refused while a result of the round before is missing, and
    once the tournament has its winner. The draft already made is returned as it is
    unless `redraw`."""
    competition = _locked(competition, by)
    entries, history, left = _history(competition)
    if left:
        raise CompetitionError(
            _("Faltan resultados de la ronda %(n)s: la siguiente se sortea cuando estén "
              "todos.") % {"n": len(history)})
    existing = CerosDraft.objects.filter(competition=competition).first()
    if existing is not None and not redraw:
        return existing
    seed = secrets.token_hex(8)
    try:
        drawn = ceros.next_round([e.pk for e in entries], competition.ceros, history, seed)
    except ceros.CerosError as error:
        raise CompetitionError(_("El torneo no se puede sortear: %(why)s") % {
            "why": page_message(error)}) from None
    if drawn.winner is not None:
        raise CompetitionError(_("El torneo ya tiene ganadora."))
    tables = [[t.number, t.first, t.second] for t in drawn.tables]
    if existing is not None:
        existing.delete()
    draft = CerosDraft.objects.create(
        competition=competition, number=drawn.number, seed=seed, tables=tables,
        bye_id=drawn.bye, made_by=stored_user(by),
    )
    _event(competition, drawn.number, "redraw" if existing else "draw", by, tables, drawn.bye,
           seed)
    bump(competition)
    return draft


@transaction.atomic
def publish_round(competition: Competition, *, by: Actor) -> Round:
    """The draft becomes round N: a Round (with its pair resting) and its Matches with
    their table numbers. The draft was drawn from every result of the round before (a
    change of who lost there discards it), so it is published as it is."""
    competition = _locked(competition, by)
    draft = CerosDraft.objects.filter(competition=competition).first()
    if draft is None:
        raise CompetitionError(_("No hay ninguna ronda sorteada por publicar."))
    last = competition.rounds.order_by("-number").values_list("number", flat=True).first()
    if draft.number != (last or 0) + 1:  # never expected: the guard discards stale drafts
        draft.delete()
        raise CompetitionError(_("El sorteo se ha quedado antiguo: sortea otra vez."))
    number = (Match.objects.filter(competition=competition).order_by("-number")
              .values_list("number", flat=True).first() or 0)
    round_ = Round.objects.create(competition=competition, number=draft.number,
                                  bye_id=draft.bye_id, stage="ceros")
    Match.objects.bulk_create(
        Match(competition=competition, round=round_, number=number + i, first_id=a,
              second_id=b, table_number=t)
        for i, (t, a, b) in enumerate(draft.tables, start=1)
    )
    _event(competition, draft.number, "publish", by, draft.tables, draft.bye_id, draft.seed)
    draft.delete()
    if competition.status == Competition.Status.DRAFT:
        competition.drawn_at = timezone.now()
        competition.drawn_by = stored_user(by)
    competition.status = Competition.Status.PLAYING
    competition.save(update_fields=["status", "drawn_at", "drawn_by"])
    bump(competition)
    return round_


def check_change(match: Match, result: Result | None) -> None:
    """Before a ceros match's result is written (results.store.store): a ceros match always
    has a loser (a no-show of both pairs, or a draw, is refused); and who lost cannot
    change once a later round is published, because that round was drawn from it (the
    juegos may still be corrected). A draft drawn from the old result is discarded."""
    if result is not None and result.winner is None:
        raise CompetitionError(
            _("En un torneo a ceros una de las dos parejas pierde: di cuál."))
    stored = match.outcome
    before = stored.winner if stored is not None else None
    after = result.winner if result is not None else None
    if before == after:
        return
    # The competition's row is the lock publish_round and make_round hold: a round cannot
    # be published from a draft while the result it was drawn from changes.
    Competition.objects.select_for_update().filter(pk=match.competition_id).first()
    number = Round.objects.filter(pk=match.round_id).values_list("number", flat=True).get()
    if Round.objects.filter(competition_id=match.competition_id, number__gt=number).exists():
        raise CompetitionError(
            _("La ronda %(next)s ya está sorteada con este resultado: no se puede cambiar "
              "quién perdió esta partida.") % {"next": number + 1})
    draft = CerosDraft.objects.filter(competition_id=match.competition_id).first()
    if draft is not None:
        # The draft was drawn from the old result: it goes, logged, to be drawn again.
        competition = Competition.objects.get(pk=match.competition_id)
        _event(competition, draft.number, "discard", None, draft.tables, draft.bye_id,
               draft.seed)
        draft.delete()


def after_change(competition: Competition) -> None:
    """The competition's status after a result: finished once one pair is left and every
    result is in, else playing (results.after_change calls it for a ceros)."""
    entries, history, left = _history(competition)
    status = Competition.Status.PLAYING if history else Competition.Status.DRAFT
    if history and not left:
        drawn = ceros.next_round([e.pk for e in entries], competition.ceros, history)
        if drawn.winner is not None:
            status = Competition.Status.FINISHED
    Competition.objects.filter(pk=competition.pk).update(status=status)


def rows_json(competition: Competition) -> list[dict[str, Any]]:
    """The tournament's table as JSON rows (the standings CSV and the TV page)."""
    return [
        {"position": r.position, "pair": r.entry.index, "name": r.entry.pair.name,
         "played": r.played, "won": r.wins, "lost": r.losses, "ceros_left": r.ceros_left,
         "byes": r.byes, "out_in_round": r.out_in_round}
        for r in table(competition).rows
    ]


CEROS_CSV = ["position", "pair", "name", "played", "won", "lost", "ceros_left", "byes",
             "out_in_round"]


def standings_csv(competition: Competition, *, sep: str = ",") -> str:
    """The tournament's table as CSV (one line per pair, still in first); ``sep`` ``;``
    for Spanish Excel."""
    return write_csv(CEROS_CSV, ([row.get(column) for column in CEROS_CSV]
                                 for row in rows_json(competition)), sep=sep)
