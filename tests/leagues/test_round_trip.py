"""The round trip (issue 27, point 4): every kind of competition a club makes (a liguilla,
ida y vuelta, groups and a knockout whose pairs meet again, a tournament a N ceros, a
championship's heats, groups and knockout games)
exported (documents.league_document with the hands) and imported into another club
(imports.import_competition) gives the same document and the same standings; read as a
plain league by another program (the pure reader, the command line) it reads too. The
results are random, written through the real doors (by hand, no-shows, a played table)
into real database rows."""

from __future__ import annotations

import io
import itertools
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from muscore.leagues import ceros_rounds, competitions, documents, imports, results
from muscore.leagues.compute import cli
from muscore.leagues.compute.document import read_league
from muscore.leagues.models import Competition, Match
from muscore.tables import services as tables
from tests.clubs.factory import make_club, make_pair, make_user

from .helpers import ORDAGO_A, ORDAGO_B, PLAIN, game

pytestmark = pytest.mark.django_db

settings.register_profile("round_trip", max_examples=8, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow,
                                                 HealthCheck.function_scoped_fixture])
PROFILE = settings.get_profile("round_trip")

COUNTER = itertools.count()
VACA = (PLAIN, ORDAGO_A, ORDAGO_B, PLAIN, ORDAGO_A, ORDAGO_A)  # the first pair wins 3-1
KINDS = ("liguilla", "ida_y_vuelta", "groups-2", "groups-4", "ceros")

# A result: how (by hand, a no-show, a table), who wins, the loser's juegos; None leaves
# the match unplayed.
result = st.one_of(
    st.none(),
    st.tuples(st.just("hand"), st.integers(0, 1), st.integers(0, 2)),
    st.tuples(st.just("no_show"), st.integers(0, 1), st.just(0)),
    st.tuples(st.just("table"), st.just(0), st.just(1)),
)


def new_club(pairs: int) -> tuple[Any, Any, list[Any]]:
    n = next(COUNTER)
    user = make_user(f"rt{n}")
    club = make_club(f"Bar Ida {n}", organiser=user)
    return club, user, [make_pair(club, f"Íñigo {n}-{i}", f"Álvaro {n}-{i}")
                        for i in range(pairs)]


def play(match: Match, user: Any, how: tuple[str, int, int] | None) -> None:
    """One result through its door."""
    if how is None:
        return
    kind, winner, lost = how
    if kind == "table":
        table = competitions.open_table(match, by=user)
        for record in VACA:
            tables.add_hand(table, record, via="edit_link")
    elif kind == "no_show":
        results.record_no_show(match, by=user, who=1 - winner)
    else:
        results.record_result(match, by=user, juegos=[3, lost] if winner == 0 else [lost, 3])


def next_unplayed(competition: Competition) -> Match | None:
    return (Match.objects.filter(competition=competition, table__isnull=True,
                                 first__isnull=False, second__isnull=False).unplayed()
            .select_related("competition").order_by("number").first())


def build(kind: str, size: int, plays: list[Any]) -> Competition:
    """A competition of `kind` with the results `plays` (taken in turn, match by match,
    a knockout's matches as their pairs are known, a ceros' rounds drawn and published
    as the one before is complete)."""
    club, user, pairs = new_club(size)
    if kind == "ceros":
        competition = competitions.create_competition(
            club, by=user, name="A tres ceros", pairs=pairs, format="ceros",
            ceros=1 + size % 3)
        return _play_ceros(competition, user, plays)
    fmt, _sep, groups = kind.partition("-")
    competition = competitions.create_competition(
        club, by=user, name="Copa" if groups else "Liga", pairs=pairs,
        format="groups" if groups else "liguilla", groups=int(groups or 2),
        legs=2 if kind == "ida_y_vuelta" else 1, draw=list(reversed(range(size))))
    skipped: set[int] = set()
    for how in itertools.cycle(plays or [None]):
        match = (Match.objects.filter(competition=competition, table__isnull=True,
                                      first__isnull=False, second__isnull=False).unplayed()
                 .exclude(pk__in=skipped).select_related("competition")
                 .order_by("number").first())
        if match is None:
            break
        if how is None:
            skipped.add(match.pk)
        play(match, user, how)
    competition.refresh_from_db()
    return competition


def _play_ceros(competition: Competition, user: Any, plays: list[Any]) -> Competition:
    """Round after round to its winner; with a first play None, the second round is
    published and left unplayed (a tournament exported half way)."""
    turns = itertools.cycle(plays or [("hand", 0, 1)])
    for number in range(1, 60):
        if ceros_rounds.table(competition).winner is not None:
            break
        ceros_rounds.make_round(competition, by=user)
        ceros_rounds.publish_round(competition, by=user)
        if number == 2 and plays and plays[0] is None:
            break
        while (match := next_unplayed(competition)) is not None:
            play(match, user, next(turns) or ("hand", match.number % 2, 0))
    competition.refresh_from_db()
    return competition


def standings(competition: Competition) -> Any:
    if competition.format == Competition.Format.CEROS:
        return ceros_rounds.rows_json(competition)
    return documents.standings_json(competition)


def round_trip(competition: Competition, *, said: dict[str, Any] | None = None) -> Competition:
    """The export as a file (JSON text), imported into another club."""
    exported = json.loads(json.dumps(documents.league_document(competition, hands=True)))
    if said is not None:  # an export made before the contract had `format`
        exported.pop("format", None)
    user = make_user(f"otro{next(COUNTER)}")
    other = make_club(f"Otro club {next(COUNTER)}", organiser=user)
    copy = imports.import_competition(other, exported, by=user, **(said or {}))
    assert copy.club_id == other.pk and copy.pk != competition.pk
    return copy


def check_same(competition: Competition, copy: Competition) -> None:
    exported = documents.league_document(competition, hands=True)
    assert documents.league_document(copy, hands=True) == exported
    assert copy.format == competition.format
    assert standings(copy) == standings(competition)
    assert copy.status == competition.status
    # Another program reads it as a plain league of those matches (league.md).
    league = read_league(json.loads(json.dumps(exported)))
    assert len(league.matches) == len(exported["matches"])
    out = io.StringIO()
    assert cli.run("standings", json.dumps(exported), out) == 0, out.getvalue()


@settings(PROFILE)
@given(st.sampled_from(KINDS), st.integers(4, 9), st.lists(result, max_size=8),
       st.booleans())
@example("groups-2", 8, [("hand", 0, 1)] * 12 + [("hand", 0, 1), ("hand", 1, 2)], False)
@example("groups-4", 8, [("hand", 1, 2), ("hand", 0, 0)], True)
@example("ceros", 5, [("hand", 0, 1), ("no_show", 1, 0), ("table", 0, 1)], False)
@example("ida_y_vuelta", 4, [None, ("table", 0, 1), ("no_show", 0, 0)], True)
def test_every_kind_exported_imports_again_with_the_same_standings(
    kind: str, size: int, plays: list[Any], old_file: bool,
) -> None:
    if kind == "groups-4":
        size = max(size, 8)
    competition = build(kind, size, plays)
    fmt, _sep, number = kind.partition("-")
    said = None
    if old_file:  # the organiser says what a file without `format` was
        said = {"format": {"ida_y_vuelta": "liguilla"}.get(fmt, fmt)}
        if number:
            said["groups"] = int(number)
        if fmt == "ceros":
            said["ceros"] = competition.ceros
    copy = round_trip(competition, said=said)
    check_same(competition, copy)


def test_a_cup_whose_group_pairs_meet_again_in_the_final_imports() -> None:
    """The issue's cup: the first semifinal won by its first pair, the second by its
    second, so the final is between the two best of one group (and the third place between
    two of the other), and the file says it is groups."""
    competition = build("groups-2", 8, [("hand", 0, 1)] * 12 + [
        ("hand", 0, 1), ("hand", 1, 2), ("hand", 0, 0), ("hand", 1, 1)])
    final = game(competition, "final")
    assert final.first is not None and final.second is not None
    assert final.first.group_id == final.second.group_id  # a rematch
    exported = documents.league_document(competition, hands=True)
    assert exported["format"] == {"kind": "groups", "groups": 2}
    copy = round_trip(competition)
    check_same(competition, copy)
    assert game(copy, "final").outcome.winner == final.outcome.winner


def test_a_file_without_format_read_as_a_liguilla_still_says_who_meets_too_often() -> None:
    competition = build("groups-2", 8, [("hand", 0, 1)] * 12 + [
        ("hand", 0, 1), ("hand", 1, 2), ("hand", 0, 0), ("hand", 1, 1)])
    exported = documents.league_document(competition, hands=True)
    exported.pop("format")
    user = make_user("sin_formato")
    other = make_club("Sin formato", organiser=user)
    with pytest.raises(competitions.CompetitionError, match="se enfrentan 2 veces"):
        imports.import_competition(other, exported, by=user)
    assert not Competition.objects.filter(club=other).exists()


def test_a_ceros_file_that_is_no_tournament_is_refused_whole() -> None:
    competition = build("ceros", 5, [("hand", 0, 1)])
    exported = documents.league_document(competition, hands=True)
    user = make_user("ceros_mal")
    other = make_club("Ceros mal", organiser=user)
    # A round of two matches in which a pair still in plays twice... and two rest.
    wrong = {**exported, "matches": [{**exported["matches"][0], "round": 2},
                                     *exported["matches"][1:]]}
    with pytest.raises(competitions.CompetitionError, match="ronda a ronda"):
        imports.import_competition(other, wrong, by=user)
    assert not Competition.objects.filter(club=other).exists()


def test_a_championship_s_phases_export_and_import_again() -> None:
    """A championship's heats, its groups' liguillas and its knockout's games (a best of 3,
    each game a liguilla of two pairs) each export and import into another club with the
    same document and standings."""
    from muscore.championships import services as championship_services
    from muscore.championships.models import PhaseGroup
    from tests.championships.factory import drawn_semifinal, play_all

    championship, boss, _barmen, phase = drawn_semifinal()
    for group in PhaseGroup.objects.filter(phase=phase).select_related("competition"):
        play_all(group.competition, boss)
    final = championship_services.add_phase(championship, by=boss, name="Final", level=2,
                                            knockout=True, best_of=3)
    final = championship_services.draw_phase(final, by=boss, seed="ida")
    for _step in range(30):
        games = list(Match.objects.filter(competition__phase_group__phase=final)
                     .exclude(first=None).exclude(second=None).unplayed())
        if not games:
            break
        for played in games:
            play_all(played, boss)
    made = [s.heat for s in championship.sedes.select_related("heat") if s.heat] + [
        g.competition for g in PhaseGroup.objects.filter(
            phase__championship=championship, phase__knockout=False)
        .select_related("competition")]
    for competition in made:
        competition.refresh_from_db()
        check_same(competition, round_trip(competition))
    # The knockout's games, each a liguilla of its two pairs in the championship's
    # document, import into another club as that liguilla.
    knockout = PhaseGroup.objects.get(phase=final).competition
    games_said = documents.game_documents(knockout)
    assert len(games_said) >= 4 and any(g["name"].endswith("partida 3") for g in games_said)
    for said in games_said:
        user = make_user(f"otro{next(COUNTER)}")
        copy = imports.import_competition(make_club(f"Otro club {next(COUNTER)}",
                                                    organiser=user), said, by=user)
        assert documents.league_document(copy) == {**said, "name": copy.name}
