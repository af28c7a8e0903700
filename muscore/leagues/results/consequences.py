"""What depends on a match's result: the question its one owner (`muscore.leagues.results`)
asks before a table, a pair's link or anybody else changes it.

A result is final for its table as soon as anything was drawn or played from it. The
league answers from its own rows: a ceros round published after it, a knockout's games
started after it (a groups competition's, a knockout alone's), and what a stage drew from
its competition's standings (`muscore.leagues.models.stage`: a championship's phase drawn
from a venue's heat or from the groups before it, which the championship writes when it
draws; the league never imports it, the import-linter layers).

An answer is the names of what depends on the match, in the active language, for people
to read ("Final · partida 1", "la ronda 3" ...): empty when nothing does. What a later
match "started" means is `started()`: it has a result, or a hand was entered at its table.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils.translation import gettext as _

from muscore.leagues.models import Competition, Match, Round, Stage, Tie
from muscore.leagues.models.knockout import game_title
from muscore.tables.models import Hand


def started(matches: QuerySet[Match]) -> QuerySet[Match]:
    """The matches of `matches` that are being played or were: a result stored, or a hand
    entered at their table."""
    hands = Hand.objects.filter(table_id=OuterRef("table_id"))
    return matches.filter(Q(result__isnull=False) | Exists(hands))


def dependents(match: Match) -> list[str]:
    """The names of everything drawn or played from `match`'s result (none without one)."""
    if not match.played:
        return []
    return _league_own(match) + drawn_or_played(match)


def drawn_or_played(match: Match) -> list[str]:
    """What a person's change of `match`'s result is refused for while it stands: the
    stages drawn from its competition's standings (a championship's phases), and a
    knockout alone's later games played from it (a cup's have their finer rule: reset
    with it)."""
    if not match.played:
        return []
    found = _later_games(match) if match.competition.format == Competition.Format.KNOCKOUT \
        else []
    return found + drawn_from(match.competition_id)


def drawn_from(competition_id: int) -> list[str]:
    """The names of the stages drawn from the competition's standings, in the order they
    were made (a championship's phases of the next level)."""
    return list(Stage.objects.filter(sources=competition_id, drawn_at__isnull=False)
                .order_by("id").values_list("name", flat=True))


def _later_games(match: Match) -> list[str]:
    """A knockout alone's games started after `match`: its tie's deciding game (games 1
    and 2 of a best of 3 are made together: the third is drawn from both) and the later
    ties' games of its pairs, by their names."""
    if match.tie_id is None:
        return []
    tie = Tie.objects.get(pk=match.tie_id)
    pairs = [match.first_id, match.second_id]
    later = (Match.objects.filter(competition_id=match.competition_id)
             .filter(Q(tie__round__gt=tie.round) | Q(tie=tie, game__gt=max(match.game or 1, 2)))
             .filter(Q(first_id__in=pairs) | Q(second_id__in=pairs)))
    return [game_title(m.competition, m.tie, m.game) for m in started(later).select_related(
        "competition", "tie").order_by("number")]


def _league_own(match: Match) -> list[str]:
    competition = match.competition
    if competition.format == Competition.Format.KNOCKOUT:
        return []  # its later games are guarded as the stages' are (drawn_or_played)
    if competition.format == Competition.Format.CEROS:
        number = Round.objects.filter(pk=match.round_id).values_list("number", flat=True).get()
        later = (Round.objects.filter(competition_id=match.competition_id, number__gt=number)
                 .order_by("number").values_list("number", flat=True))
        return [_("%(competition)s · ronda %(n)s") % {"n": n, "competition": competition.title}
                for n in later]
    if competition.format != Competition.Format.GROUPS:
        return []
    knockout = started(Match.objects.filter(competition_id=match.competition_id,
                                            tie__isnull=False))
    if match.tie_id is not None:
        # A knockout result: the later rounds its pairs played.
        number = Tie.objects.filter(pk=match.tie_id).values_list("round", flat=True).get()
        pairs = [match.first_id, match.second_id]
        knockout = knockout.filter(tie__round__gt=number).filter(
            Q(first_id__in=pairs) | Q(second_id__in=pairs))
    # A group's result: the knockout drawn from the groups' standings, once started.
    return [_("%(competition)s · partida %(n)s") % {"n": n, "competition": competition.title}
            for n in knockout.order_by("number").values_list("number", flat=True)]


def named(names: list[str]) -> str:
    """The names joined for a sentence ("«A», «B» y 2 más")."""
    shown = ", ".join(f"«{n}»" for n in names[:3])
    if len(names) > 3:
        shown += " " + _("y %(n)s más") % {"n": len(names) - 3}
    return shown


# ------------------------------------------------------------- what holds a competition


@dataclass(frozen=True)
class Holder:
    """What placed a competition: `within` (a championship's name), `part` (its phase, or
    the venue whose heat it is)."""

    within: str
    part: str

    def __str__(self) -> str:
        return f"{self.within} · {self.part}"


def holders(competition: Competition) -> list[Holder]:
    """What placed `competition` (empty for a club's own): its stage, a championship's
    phase whose draw made it a group or its knockout, or the venue whose heat it is. Such
    a competition is deleted or changed only through what placed it."""
    return [Holder(within, name) for within, name in Stage.objects.filter(
        competitions=competition.pk).values_list("within", "name")]


def full_title(competition: Competition) -> str:
    """The competition's title with the championship it is part of, when it is one's
    ("Txapelketa 2026 · Final · partida 3"): what a refusal names."""
    title = competition.title
    placed = holders(competition)
    if placed and not title.startswith(placed[0].within):
        return f"{placed[0].within} · {title}"
    return title


# ----------------------------------------------------- competitions played side by side

def siblings(competition: Competition) -> list[int]:
    """The ids of the competitions whose round n is played with `competition`'s round n:
    the others of its stage (a championship phase's other groups; one person sits at one
    table per round across all of them)."""
    return list(Competition.objects.filter(stage__competitions=competition.pk)
                .exclude(pk=competition.pk).order_by("pk").values_list("pk", flat=True))
