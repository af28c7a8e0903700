"""Every drawn knockout phase becomes one knockout competition (leagues 0028), whose ties
are Tie rows and whose games are its matches: before, each game of each tie was a
competition of its own (a PhaseGroup with its round, place and game number).

Per phase: the competition (the phase's name, the championship's club and rules), an entry
for each pair of the draw (a withdrawn pair's reserve in its place, as the bracket has
it), every tie of the bracket (a bye played to no game, the third place when the phase
has one) with the pairs the games' results sent there, and each game's match moved into
it, keeping its id, result, table, claims, corrections, pair links and hand stats, now
numbered in the order the games were made, in a round of its own for each tie's round and
game number. The games' competitions, their entries and rounds go; which game's
competition became which match stays in the phase's draw (``games``) for 0013, which
keeps it as OldGame rows (their old addresses lead to the match). The way back is the
backup `scripts/upgrade` takes (docs/operations.md): the games' competitions are not made
again.
"""

from __future__ import annotations

import json
from typing import Any

from django.db import migrations
from django.db.migrations.exceptions import IrreversibleError
from django.utils import timezone

#: The models whose rows move with a game (its competition's id, its entries' ids), or
#: go with its competition (what was prepared of its documents, made again for the new).
MOVED = ("Match", "Entry", "Round", "PhaseGroup", "Group", "Tie", "DocumentBacklog",
         "PreparedPart")
#: An entry's standings line, summed over its pair's games.
LINE = ("played", "won", "lost", "forfeits", "points", "juegos_for", "juegos_against",
        "tantos_for", "tantos_against")


def _winner(row: Any) -> int | None:
    """The side that won a stored result (muscore.leagues.compute.document.Result)."""
    if row is None or (row.first_absent and row.second_absent):
        return None
    if row.first_absent or row.second_absent:
        return 1 if row.first_absent else 0
    return 0 if row.first_juegos > row.second_juegos else 1


def _doc(number: int, first: int, second: int, row: Any, players: list[Any]) -> str:
    """A match's document text (muscore.leagues.models.match.document_text)."""
    text = f'{{"round":{number},"pairs":[{first},{second}]'
    if row is not None and row.source == "no_show":
        who = ('"both"' if row.first_absent and row.second_absent
               else first if row.first_absent else second)
        text += f',"forfeit":{who}'
    elif row is not None:
        text += f',"juegos":[{row.first_juegos},{row.second_juegos}]'
        if row.first_tantos is not None and row.second_tantos is not None:
            text += f',"tantos":[{row.first_tantos},{row.second_tantos}]'
    if players[0] or players[1]:
        text += ',"players":' + json.dumps([players[0] or None, players[1] or None],
                                           ensure_ascii=False, separators=(",", ":"))
    return text + "}"


def _repoint(apps: Any, target: str, moves: dict[int, int]) -> None:
    """Every foreign key to `target` (leagues' Competition or Entry) outside the moved
    models, from each old id to its new one."""
    model = apps.get_model("leagues", target)
    for other in apps.get_models():
        if other._meta.object_name in MOVED and other._meta.app_label in (
                "leagues", "championships"):
            continue
        for field in other._meta.concrete_fields:
            if field.is_relation and field.related_model is model:
                for old, new in moves.items():
                    other._default_manager.filter(**{field.name: old}).update(**{field.name: new})


def _phase(apps: Any, phase: Any) -> None:
    Competition = apps.get_model("leagues", "Competition")
    DocumentBacklog = apps.get_model("leagues", "DocumentBacklog")
    Enrolment = apps.get_model("championships", "Enrolment")
    Entry = apps.get_model("leagues", "Entry")
    Match = apps.get_model("leagues", "Match")
    PhaseGroup = apps.get_model("championships", "PhaseGroup")
    ResultRow = apps.get_model("leagues", "ResultRow")
    Round = apps.get_model("leagues", "Round")
    Tie = apps.get_model("leagues", "Tie")

    groups = list(PhaseGroup.objects.filter(phase=phase).select_related("competition")
                  .order_by("competition_id"))
    if not groups or not phase.draw or "bracket" not in phase.draw:
        return
    games = [g.competition for g in groups]
    championship = phase.championship
    # The draw's pairs in its order, each through the reserves that took its place.
    replaced = {r["out"]: r["in"] for r in phase.draw.get("replaced", [])}
    keys = []
    for pair in phase.draw["pairs"]:
        key = pair["enrolment"]
        while key in replaced:
            key = replaced[key]
        keys.append(key)
    pair_of = dict(Enrolment.objects.filter(pk__in=keys).values_list("pk", "phase_pair_id"))
    first = games[0]
    competition = Competition.objects.create(
        club_id=championship.club_id, name=phase.name, format="knockout",
        rules=championship.rules, points_win=first.points_win, points_loss=first.points_loss,
        points_forfeit=first.points_forfeit, draw_method="phase", drawn_at=phase.drawn_at,
        drawn_by_id=first.drawn_by_id, created_by_id=first.created_by_id, rated=first.rated,
        revision=1 + sum(g.revision for g in games), made={}, status="playing",
        draw=[keys.index(k) if k is not None else None for k in phase.draw["bracket"]])
    Competition.objects.filter(pk=competition.pk).update(created_at=first.created_at)
    entries = {}
    for index, key in enumerate(keys):
        entries[pair_of[key]] = Entry.objects.create(competition=competition,
                                                     pair_id=pair_of[key], index=index)
    # Each game's entries onto the new ones (by pair), their standings lines summed.
    old_entries = {}
    for entry in Entry.objects.filter(competition__in=games):
        new = entries[entry.pair_id]
        old_entries[entry.pk] = new.pk
        for field in LINE:
            setattr(new, field, getattr(new, field) + getattr(entry, field))
    for new in entries.values():
        new.save()
    # The ties of the bracket: the first round's from its places, a bye to no game.
    best_of = phase.best_of
    places = competition.draw
    rounds = max(len(places).bit_length() - 1, 1)
    ties = {}
    for number in range(1, rounds + 1):
        for order in range(2 ** (rounds - number)):
            ties[(number, order)] = Tie(competition=competition, round=number, order=order,
                                        best_of=best_of)
    if phase.third_place and len(places) >= 4:
        ties[(rounds, 1)] = Tie(competition=competition, round=rounds, order=1,
                                best_of=best_of)
    index_entry = {e.index: e.pk for e in entries.values()}
    for order in range(len(places) // 2):
        tie = ties[(1, order)]
        a, b = places[2 * order], places[2 * order + 1]
        tie.first_id = index_entry[a] if a is not None else None
        tie.second_id = index_entry[b] if b is not None else None
        if tie.first_id is None or tie.second_id is None:
            tie.best_of = 0
    # The games, in the order they were made, onto their ties.
    at = {g.competition_id: g for g in groups}
    matches = list(Match.objects.filter(competition__in=games).order_by("competition_id"))
    rows = ResultRow.objects.in_bulk([m.result_id for m in matches if m.result_id])
    played: dict[tuple[int, int], list[tuple[int, Any]]] = {}
    for match in matches:
        group = at[match.competition_id]
        played.setdefault((group.round, group.order), []).append((group.game, match))

    def winner(place: tuple[int, int], won: bool) -> int | None:
        tie = ties.get(place)
        if tie is None:
            return None
        if tie.best_of == 0:
            return (tie.first_id or tie.second_id) if won else None
        wins: dict[int, int] = {}
        for _game, match in sorted(played.get(place, []), key=lambda g: g[0]):
            side = _winner(rows.get(match.result_id))
            if side is None:
                continue
            pair: int = old_entries[match.first_id if side == 0 else match.second_id]
            wins[pair] = wins.get(pair, 0) + 1
            if wins[pair] >= tie.best_of // 2 + 1:
                if won:
                    return pair
                lost: int | None = next((p for p in (tie.first_id, tie.second_id)
                                         if p != pair), None)
                return lost
        return None

    for number in range(2, rounds + 1):
        for order in range(2 ** (rounds - number)):
            ties[(number, order)].first_id = winner((number - 1, 2 * order), True)
            ties[(number, order)].second_id = winner((number - 1, 2 * order + 1), True)
    if (rounds, 1) in ties:
        ties[(rounds, 1)].first_id = winner((rounds - 1, 0), False)
        ties[(rounds, 1)].second_id = winner((rounds - 1, 1), False)
    for tie in ties.values():
        tie.save()
    most = best_of or 1
    made_rounds: dict[int, Any] = {}
    entry_index = {e.pk: e.index for e in entries.values()}
    for number, match in enumerate(matches, 1):
        group = at[match.competition_id]
        round_number = (group.round - 1) * most + group.game
        if round_number not in made_rounds:
            made_rounds[round_number] = Round.objects.create(
                competition=competition, number=round_number, stage="knockout",
                starts_at=match.round.starts_at)
        first_id, second_id = old_entries[match.first_id], old_entries[match.second_id]
        Match.objects.filter(pk=match.pk).update(
            competition=competition, round=made_rounds[round_number], number=number,
            tie=ties[(group.round, group.order)], game=group.game, first_id=first_id,
            second_id=second_id, doc=_doc(round_number, entry_index[first_id],
                                       entry_index[second_id], rows.get(match.result_id),
                                       [match.players_first, match.players_second]))
    _repoint(apps, "Entry", old_entries)
    _repoint(apps, "Competition", {g.pk: competition.pk for g in games})
    if not Match.objects.filter(competition=competition, result=None).exists():
        Competition.objects.filter(pk=competition.pk).update(status="finished")
    # The old games' addresses were shared and bookmarked: 0013 keeps where each went.
    phase.draw = {**phase.draw, "games": {str(m.competition_id): m.pk for m in matches}}
    phase.save(update_fields=["draw"])
    PhaseGroup.objects.filter(phase=phase).delete()
    PhaseGroup.objects.create(phase=phase, order=0, round=0, game=1, competition=competition)
    Round.objects.filter(competition__in=games).delete()
    Entry.objects.filter(competition__in=games).delete()
    Competition.objects.filter(pk__in=[g.pk for g in games]).delete()
    DocumentBacklog.objects.get_or_create(competition=competition,
                                          defaults={"queued_at": timezone.now()})


def forward(apps: Any, schema_editor: Any) -> None:
    Phase = apps.get_model("championships", "Phase")
    for phase in Phase.objects.filter(knockout=True).select_related("championship"):
        _phase(apps, phase)


def backward(apps: Any, schema_editor: Any) -> None:
    Phase = apps.get_model("championships", "Phase")
    if Phase.objects.filter(knockout=True, groups__isnull=False).exists():
        raise IrreversibleError("a drawn knockout phase is one competition now: restore the "
                                "backup scripts/upgrade took (scripts/rollback)")


class Migration(migrations.Migration):

    dependencies = [
        ("championships", "0010_enrolment_name_held"),
        ("leagues", "0028_knockout_format"),
    ]

    operations = [migrations.RunPython(forward, backward)]
