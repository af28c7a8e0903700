"""Competitions in the database: fixtures from the draw, results from a table by
themselves, by hand, no-shows, substitutes, corrections with their audit, knockouts."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied

from muscore.leagues import competitions, documents, imports, results
from muscore.leagues.models import Competition, Correction, Match
from muscore.leagues.results import standings as results_standings
from muscore.tables import services as tables
from tests.clubs.factory import make_club, make_user

from .factory import club_with_pairs, liguilla
from .helpers import ORDAGO_A, ORDAGO_B, PLAIN, game, games

pytestmark = pytest.mark.django_db


def rows(competition: Competition) -> list[dict[str, Any]]:
    competition.refresh_from_db()
    return [row.to_json() for row in results_standings.standings(competition)[0].rows]


def test_liguilla_fixtures_follow_the_draw() -> None:
    club, user, pairs = club_with_pairs(5)
    competition = competitions.create_competition(club, by=user, name="Liga", pairs=pairs, legs=2)
    assert competition.status == Competition.Status.DRAFT
    assert not competition.matches.exists()
    competitions.record_draw(competition, [4, 2, 0, 1, 3], by=user, method="random")
    competition.refresh_from_db()
    assert competition.status == Competition.Status.PLAYING
    assert competition.draw == [4, 2, 0, 1, 3] and competition.draw_method == "random"
    matches = list(competition.matches.select_related("first", "second", "round"))
    assert len(matches) == 20 and [m.number for m in matches] == list(range(1, 21))
    meetings = Counter(frozenset((m.first.index, m.second.index)) for m in matches)
    assert set(meetings.values()) == {2} and len(meetings) == 10
    # Round 1 is the circle's first round over the draw: draw[0]-draw[4], draw[1]-draw[3].
    first_round = [(m.first.index, m.second.index) for m in matches if m.round.number == 1]
    assert first_round == [(4, 3), (2, 1)]
    assert competition.rounds.get(number=1).bye.index == 0  # draw[2]
    with pytest.raises(competitions.CompetitionError):
        competitions.record_draw(competition, [0, 1, 2, 3, 4], by=user)


def test_bad_competitions_are_refused() -> None:
    club, user, pairs = club_with_pairs(3)
    for kwargs in [
        {"pairs": pairs[:1]},
        {"pairs": pairs + [pairs[0]]},
        {"pairs": pairs, "legs": 3},
        {"pairs": pairs, "rules": {"juegos": 9}},
        {"pairs": pairs, "name": " "},
        {"pairs": pairs, "format": "groups", "groups": 2},
        {"pairs": pairs, "rules": {"players": 6}},
        {"pairs": pairs, "draw": [0, 0, 1]},
    ]:
        with pytest.raises(competitions.CompetitionError):
            competitions.create_competition(club, by=user, **{"name": "Liga", **kwargs})
    assert not Competition.objects.exists()


def play(table: Any, *records: dict[str, Any]) -> None:
    for record in records:
        tables.add_hand(table, record, via="edit_link")


def test_a_match_played_on_its_table_gets_its_result_by_itself() -> None:
    competition, user = liguilla(4)
    match = competition.matches.select_related("first__pair", "second__pair").first()
    assert match is not None
    table = competitions.open_table(match, by=user)
    assert competitions.open_table(match, by=user).pk == table.pk
    first = match.first.pair.player_names()
    second = match.second.pair.player_names()
    assert table.players == [first[0], second[0], first[1], second[1]]
    assert table.rules["juegos"] == 3
    play(table, PLAIN, ORDAGO_A, ORDAGO_B, PLAIN, ORDAGO_A)
    match.refresh_from_db()
    assert match.outcome is None  # 2-1 in juegos: not won yet
    play(table, ORDAGO_A)
    match.refresh_from_db()
    result = match.outcome
    assert (result.source, result.juegos, result.tantos, result.winner) == (
        "table", (3, 1), (120, 56), 0)
    top = rows(competition)[0]
    assert (top["pair"], top["points"], top["tantos_for"]) == (match.first.index, 2, 120)
    # An undo un-wins the vaca: the result goes; the hand again brings it back.
    tables.undo_last(table, via="edit_link")
    match.refresh_from_db()
    assert match.outcome is None
    assert rows(competition)[0]["points"] == 0
    play(table, ORDAGO_A)
    match.refresh_from_db()
    assert match.outcome.source == "table"
    # Editing a hand so that the other side wins re-checks the result.
    tables.replace_hand(table, 2, ORDAGO_B, via="edit_link")
    match.refresh_from_db()
    assert match.outcome is None  # juegos 2-2 now
    actions = list(Correction.objects.filter(match=match).values_list("action", "by"))
    # The first is the table's result; each change of it at the table is shown as such.
    assert actions == [("table", None)] + [("table_fix", None)] * 3


def test_results_by_hand_no_shows_and_corrections_are_audited() -> None:
    competition, user = liguilla(4)
    m1, m2 = list(competition.matches.filter(round__number=1))
    results.record_result(m1, by=user, juegos=[3, 2], tantos=[140, 118], reason="acta")
    results.record_no_show(m2, by=user, who="1", reason="acta")
    table = rows(competition)
    by_pair = {r["pair"]: r for r in table}
    m1.refresh_from_db()
    m2.refresh_from_db()
    assert m1.outcome.source == "manual" and m2.outcome.source == "no_show"
    assert by_pair[m1.first.index]["tantos_for"] == 140
    assert by_pair[m2.second.index]["forfeits"] == 1
    assert by_pair[m2.first.index]["tantos_for"] == 120
    # A correction: the audit keeps before and after, who and when.
    results.record_result(m1, by=user, juegos=[1, 3], reason="acta")
    correction = Correction.objects.filter(match=m1).order_by("-id").first()
    assert correction is not None and correction.by == user and correction.action == "manual"
    before, after = correction.before_result.value(), correction.after_result.value()
    assert before.juegos == (3, 2) and after.juegos == (1, 3)
    assert after.tantos is None
    results.clear_result(m2, by=user, reason="un error")
    m2.refresh_from_db()
    assert m2.outcome is None and Correction.objects.filter(match=m2).count() == 2
    with pytest.raises(competitions.CompetitionError):
        results.record_result(m1, by=user, juegos=[3, 3], reason="acta")
    results.record_no_show(m2, by=user, who="both", reason="acta")
    by_pair = {r["pair"]: r for r in rows(competition)}
    assert by_pair[m2.first.index]["forfeits"] == by_pair[m2.second.index]["forfeits"] == 1


def test_a_result_entered_by_hand_stands_over_the_table() -> None:
    competition, user = liguilla(2)
    match = competition.matches.get()
    table = competitions.open_table(match, by=user)
    results.record_result(match, by=user, juegos=[0, 3], reason="acta")
    # The result is final: the table's first vaca (the match) is not played over it, every
    # write to it refused (issue 20: the guard sees every write, not only undo and edit).
    with pytest.raises(tables.ResultSettled, match=competition.name):
        play(table, PLAIN, ORDAGO_A, ORDAGO_A, ORDAGO_A)
    match.refresh_from_db()
    assert (match.outcome.source, match.outcome.juegos) == ("manual", (0, 3))
    assert table.hands.count() == 0


def test_substitutes() -> None:
    competition, user = liguilla(2)
    match = competition.matches.select_related("first__pair").get()
    own = match.first.pair.player_names()
    competitions.substitute(match, by=user, side=0, replaced=own[1], substitute="Iñaki")
    match.refresh_from_db()
    assert match.players_first == [own[0], "Iñaki"] and match.players_second is None
    assert competition.club.players.filter(name="Iñaki").exists()
    table = competitions.open_table(match, by=user)
    assert table.players[2] == "Iñaki"
    with pytest.raises(competitions.CompetitionError):
        competitions.substitute(match, by=user, side=1, replaced="Nadie", substitute="X")
    results.record_result(match, by=user, juegos=[3, 0], reason="acta")
    document = documents.league_document(competition)
    assert document["matches"][0]["players"] == [[own[0], "Iñaki"], None]
    assert document["matches"][0]["juegos"] == [3, 0]


def test_groups_and_knockout() -> None:
    club, user, pairs = club_with_pairs(8)
    competition = competitions.create_competition(
        club, by=user, name="Torneo", pairs=pairs, format="groups", groups=2,
        draw=[7, 6, 5, 4, 3, 2, 1, 0])
    groups = list(competition.groups.all())
    assert [g.name for g in groups] == ["A", "B"]
    # Drawn in turn: the 1st, 3rd, 5th, 7th balls to A, the others to B.
    assert sorted(e.index for e in groups[0].entries.all()) == [1, 3, 5, 7]
    group_matches = list(competition.matches.filter(tie__isnull=True)
                         .select_related("first", "second"))
    assert len(group_matches) == 12
    knockout = games(competition)
    assert set(knockout) == {"sf1", "sf2", "final", "third"}
    with pytest.raises(competitions.CompetitionError):
        results.record_result(knockout["sf1"], by=user, juegos=[3, 0], reason="acta")
    # The lower index always wins: A's order 1, 3, 5, 7; B's 0, 2, 4, 6.
    for m in group_matches:
        first_wins = m.first.index < m.second.index
        results.record_result(m, by=user, juegos=[3, 0] if first_wins else [0, 3], reason="acta")
    knockout = games(competition)
    assert (knockout["sf1"].first.index, knockout["sf1"].second.index) == (1, 2)  # 1A-2B
    assert (knockout["sf2"].first.index, knockout["sf2"].second.index) == (0, 3)  # 1B-2A
    assert knockout["final"].first is None
    with pytest.raises(competitions.CompetitionError):
        results.record_no_show(knockout["sf1"], by=user, who="both", reason="acta")
    results.record_result(knockout["sf1"], by=user, juegos=[3, 1], reason="acta")
    results.record_no_show(knockout["sf2"], by=user, who=0, reason="acta")
    final = game(competition, "final")
    third = game(competition, "third")
    assert (final.first.index, final.second.index) == (1, 3)
    assert (third.first.index, third.second.index) == (2, 0)
    results.record_result(final, by=user, juegos=[3, 2], reason="acta")
    results.record_result(third, by=user, juegos=[2, 3], reason="acta")
    competition.refresh_from_db()
    assert competition.status == Competition.Status.FINISHED
    standings = results_standings.standings(competition)
    assert [[r.pair for r in g.rows] for g in standings] == [[1, 3, 5, 7], [0, 2, 4, 6]]


def test_four_groups_quarterfinals() -> None:
    club, user, pairs = club_with_pairs(8)
    competition = competitions.create_competition(
        club, by=user, name="Torneo", pairs=pairs, format="groups", groups=4,
        draw=list(range(8)))
    assert set(games(competition)) == {"qf1", "qf2", "qf3", "qf4", "sf1", "sf2", "final",
                                       "third"}
    for m in competition.matches.filter(tie__isnull=True):
        results.record_result(m, by=user, juegos=[3, 0], reason="acta")
    qf = {slot: (m.first.index, m.second.index) for slot, m in games(competition).items()
          if slot.startswith("qf")}
    # Groups: A = 0, 4; B = 1, 5; C = 2, 6; D = 3, 7. The first of each match won.
    firsts = {}
    for m in competition.matches.filter(tie__isnull=True).select_related("first", "second"):
        firsts[m.first.group.name] = (m.first.index, m.second.index)
    a, b, c, d = (firsts[g] for g in "ABCD")
    assert qf == {"qf1": (a[0], b[1]), "qf2": (b[0], a[1]), "qf3": (c[0], d[1]),
                  "qf4": (d[0], c[1])}
    for slot in ("qf1", "qf2", "qf3", "qf4"):
        results.record_result(game(competition, slot), by=user, juegos=[3, 0],
            reason="acta")
    sf1 = game(competition, "sf1")
    assert (sf1.first.index, sf1.second.index) == (a[0], c[0])


def test_visitors_and_other_organisers_change_nothing() -> None:
    competition, user = liguilla(4)
    match = competition.matches.first()
    assert match is not None
    intruder = make_user("intrusa")
    _other_club, other_organiser, _ = club_with_pairs(2, organiser=make_user("otra"))
    from django.contrib.auth.models import AnonymousUser

    def snapshot() -> Any:
        return (list(Match.objects.values()), list(Correction.objects.values()),
                list(Competition.objects.values()))

    before = snapshot()
    def writes(who: Any) -> list[Any]:
        return [
            lambda: results.record_result(match, by=who, juegos=[3, 0], reason="acta"),
            lambda: results.record_no_show(match, by=who, who=0, reason="acta"),
            lambda: results.clear_result(match, by=who, reason="un error"),
            lambda: competitions.open_table(match, by=who),
            lambda: competitions.set_players(match, by=who, side=0, players=["X", "Y"]),
            lambda: competitions.create_competition(competition.club, by=who, name="X",
                                                pairs=list(competition.club.pairs.all())),
            lambda: imports.import_competition(
                competition.club, documents.league_document(competition), by=who),
            lambda: competitions.record_draw(competition, [0, 1, 2, 3], by=who),
        ]

    for who in (AnonymousUser(), intruder, other_organiser):
        for write in writes(who):
            with pytest.raises(PermissionDenied):
                write()
    assert snapshot() == before


def test_export_import_round_trip() -> None:
    competition, user = liguilla(4, legs=2, points={"win": 3, "loss": 1, "forfeit": -1})
    matches = list(competition.matches.select_related("first__pair"))
    table = competitions.open_table(matches[0], by=user)
    play(table, PLAIN, ORDAGO_A, ORDAGO_B, PLAIN, ORDAGO_A, ORDAGO_A)
    results.record_result(matches[1], by=user, juegos=[3, 2], tantos=[150, 133], reason="acta")
    results.record_no_show(matches[2], by=user, who="both", reason="acta")
    results.record_no_show(matches[3], by=user, who=1, reason="acta")
    competitions.substitute(matches[4], by=user, side=0,
                        replaced=matches[4].first.pair.player_names()[0], substitute="Zuri")
    results.record_result(matches[4], by=user, juegos=[0, 3], reason="acta")
    exported = documents.league_document(competition, hands=True)
    assert exported["matches"][0]["vaca"]["hands"][1] == ORDAGO_A
    assert "juegos" not in exported["matches"][0]
    # Into another club of the same organiser: into its own club it is a copy, refused.
    copy = imports.import_competition(make_club("Otro club", organiser=user), exported, by=user)
    assert copy.pk != competition.pk
    again = documents.league_document(copy, hands=True)
    assert again == exported
    assert documents.league_document(copy) == documents.league_document(competition)
    assert rows(copy) == rows(competition)
    imported_match = copy.matches.get(number=1)
    assert imported_match.table is not None and imported_match.outcome.source == "table"


def test_database_standings_equal_the_contract_on_random_leagues() -> None:
    """The sums the database makes (and its head to head) order pairs exactly as the
    pure computation does on the same document, ties included."""
    import random

    from muscore.leagues import read_league, standings_json

    from .helpers import league

    rng = random.Random(11)
    club, user, _pairs = club_with_pairs(0)
    for attempt in range(8):
        n = rng.randint(2, 8)
        matches: list[dict[str, Any]] = []
        for a in range(n):
            for b in range(a + 1, n):
                for _leg in range(2):
                    roll = rng.random()
                    first, second = (a, b) if rng.random() < 0.5 else (b, a)
                    if roll < 0.1:
                        matches.append({"pairs": [first, second],
                                        "forfeit": rng.choice([first, second, "both"])})
                    elif roll < 0.25:
                        matches.append({"pairs": [first, second]})
                    else:
                        j = rng.choice([(3, 0), (3, 1), (0, 3), (2, 3)])
                        m: dict[str, Any] = {"pairs": [first, second], "juegos": list(j)}
                        if rng.random() < 0.5:
                            # Tantos the juegos allow (the winner 3 x 40 and up to 39 a
                            # juego lost, the loser 40 a juego won and up to 39 a juego lost).
                            lost = min(j)
                            won_t = 120 + lost * rng.choice([0, 10])
                            lost_t = 40 * lost + rng.choice([40, 60])
                            m["tantos"] = [won_t, lost_t] if j[0] == 3 else [lost_t, won_t]
                        matches.append(m)
        doc = league(n, matches, legs=2, draw=rng.sample(range(n), n),
                     points={"win": 2, "loss": rng.choice([0, 1]), "forfeit": -1})
        doc["name"] = f"Liga {attempt}"
        for pair in doc["pairs"]:
            pair["name"] = f"{pair['name']}-{attempt}"
        competition = imports.import_competition(club, doc, by=user)
        assert [row.to_json() for row in results_standings.standings(competition)[0].rows] == \
            standings_json(read_league(doc))["standings"]


def test_entry_lines_stay_equal_to_a_recount() -> None:
    """The standings line each entry keeps, changed match by match, never drifts from a
    count made afresh from the stored figures."""
    from muscore.leagues.models import Entry

    competition, user = liguilla(4, legs=2, points={"win": 3, "loss": 1, "forfeit": -1})
    matches = list(competition.matches.all())
    table = competitions.open_table(matches[0], by=user)
    play(table, PLAIN, ORDAGO_A, ORDAGO_B, PLAIN, ORDAGO_A, ORDAGO_A)
    results.record_result(matches[1], by=user, juegos=[3, 2], tantos=[150, 133], reason="acta")
    results.record_result(matches[1], by=user, juegos=[0, 3], reason="acta")
    results.record_no_show(matches[2], by=user, who="both", reason="acta")
    results.record_no_show(matches[3], by=user, who=1, reason="acta")
    results.clear_result(matches[3], by=user, reason="un error")
    results.record_result(matches[4], by=user, juegos=[3, 1], reason="acta")
    tables.undo_last(table, via="edit_link")

    def lines() -> list[tuple[int, ...]]:
        return list(Entry.objects.filter(competition=competition).order_by("index")
                    .values_list("index", *results_standings.LINE_FIELDS))

    kept = lines()
    assert any(line[1] for line in kept)
    results_standings.recount_lines(competition)
    assert lines() == kept


def played_groups(groups: int, draw: list[int]) -> tuple[Competition, Any]:
    club, user, pairs = club_with_pairs(8)
    competition = competitions.create_competition(
        club, by=user, name="Torneo", pairs=pairs, format="groups", groups=groups, draw=draw)
    table = None
    for m in competition.matches.filter(tie__isnull=True).select_related("first", "second"):
        if table is None:
            table = competitions.open_table(m, by=user)
            play(table, PLAIN, ORDAGO_A, ORDAGO_B, PLAIN, ORDAGO_A, ORDAGO_A)
            continue
        results.record_result(m, by=user, juegos=[3, 0] if m.first.index < m.second.index
                               else [1, 3], reason="acta")
    for slot in ("qf1", "qf2", "qf3", "qf4", "sf1", "sf2"):
        knockout = games(competition).get(slot)
        if knockout is not None:
            if slot == "sf2":
                results.record_no_show(knockout, by=user, who=1, reason="acta")
            else:
                results.record_result(knockout, by=user, juegos=[3, 2], reason="acta")
    results.record_result(game(competition, "third"), by=user, juegos=[0, 3],
        reason="acta")
    competition.refresh_from_db()
    return competition, user


@pytest.mark.parametrize(("groups", "draw"), [(2, [3, 1, 0, 2, 7, 5, 6, 4]),
                                              (4, list(range(8)))])
def test_a_groups_competition_is_imported_again_as_it_was(groups: int, draw: list[int]) -> None:
    competition, user = played_groups(groups, draw)
    exported = documents.league_document(competition, hands=True)
    assert "final" not in [m.get("slot") for m in exported["matches"]]  # the contract's form
    copy = imports.import_competition(make_club("Otro club", organiser=user), exported, by=user,
                                       format="groups", groups=groups)
    assert copy.format == "groups" and copy.group_count == groups
    assert documents.league_document(copy, hands=True) == exported
    assert documents.api_document(copy) == documents.api_document(competition)
    def slots(of: Competition) -> list[tuple[str, str]]:
        return sorted((slot, match.outcome.source if match.outcome else "")
                      for slot, match in games(of).items())

    assert slots(copy) == slots(competition)
    copy_final = game(copy, "final")
    assert copy_final.first_id is not None and copy_final.second_id is not None


def test_a_document_that_is_not_those_groups_is_refused_whole() -> None:
    from django.utils import translation

    translation.activate("es")  # the messages matched below are the Spanish ones
    competition, user = played_groups(2, list(range(8)))
    exported = documents.league_document(competition)
    before = (Competition.objects.count(), Match.objects.count())
    # Another draw places other pairs in the groups: its first match is not the document's.
    with pytest.raises(competitions.CompetitionError, match="no es la que toca"):
        imports.import_competition(competition.club, {**exported, "draw": [1, 0, *range(2, 8)]},
                                    by=user, format="groups", groups=2)
    # A file without its format (exported before the contract had one) said to be of 4.
    unsaid = {k: v for k, v in exported.items() if k != "format"}
    with pytest.raises(competitions.CompetitionError, match="4 grupos"):
        imports.import_competition(competition.club, unsaid, by=user, format="groups",
                                    groups=4)
    # A semifinal between pairs the group results do not send there.
    wrong = {**exported, "matches": [*exported["matches"][:12],
                                     {**exported["matches"][12], "pairs": [5, 6]}]}
    with pytest.raises(competitions.CompetitionError):
        imports.import_competition(competition.club, wrong, by=user, format="groups",
                                    groups=2)
    assert (Competition.objects.count(), Match.objects.count()) == before


def test_an_export_imported_into_its_own_club_is_refused_as_a_copy() -> None:
    """Issue 17.3: the club's own export imported again doubled its ratings and leaders."""
    from muscore.leagues.models import Competition as Competitions

    competition, user = liguilla(4, legs=2)
    results.record_result(competition.matches.order_by("number")[0], by=user, juegos=[3, 1],
        reason="acta")
    exported = documents.league_document(competition, hands=True)
    for doc in (exported, {**exported, "name": "Otro nombre"}):
        with pytest.raises(competitions.CompetitionError,
                           match="es una copia de Liga de los jueves"):
            imports.import_competition(competition.club, doc, by=user)
    with pytest.raises(competitions.CompetitionError, match="es una copia"):
        imports.import_competition(competition.club, exported, by=user, name="Renombrada")
    assert Competitions.objects.count() == 1
    # Into another club: imported, under the name that club gives it, and then known there
    # by its fingerprint (a second import of it is refused too).
    other = make_club("Otro club", organiser=user)
    copy = imports.import_competition(other, exported, by=user, name="Liga de Azpeitia")
    assert copy.name == "Liga de Azpeitia" and copy.fingerprint
    with pytest.raises(competitions.CompetitionError, match="es una copia de Liga de Azpeitia"):
        imports.import_competition(other, exported, by=user)
    # A different document (one more result) is not a copy.
    results.record_result(competition.matches.order_by("number")[1], by=user, juegos=[3, 0],
        reason="acta")
    later = documents.league_document(competition, hands=True)
    assert imports.import_competition(other, later, by=user).pk != copy.pk


def test_a_copy_of_a_large_competition_is_known_by_the_worker_s_fingerprint(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 21: the copy check built the club's own large export in the request (the
    benchmark's league: seconds); a large competition is compared by the fingerprint the
    document worker keeps, and, until it has one of its current revision, the import is
    refused as not known yet (and the competition queued for the worker)."""
    import json

    from muscore.leagues import prepared
    from muscore.leagues.models import Competition as Competitions

    competition, user = liguilla(4, legs=2)
    results.record_result(competition.matches.order_by("number")[0], by=user, juegos=[3, 1],
        reason="acta")
    exported = documents.league_document(competition, hands=True)
    # The worker's fingerprint is the one of the document as a client reads it.
    assert documents.document_fingerprint(exported) == documents.document_fingerprint(
        json.loads(json.dumps(exported)))
    monkeypatch.setattr(prepared, "INLINE_MATCHES", 2)  # 12 matches: "large"
    prepared.catch_up()
    results.record_result(competition.matches.order_by("number")[1], by=user, juegos=[3, 0],
        reason="acta")
    later = documents.league_document(competition, hands=True)
    real = documents.league_document

    def not_in_the_request(*args: object, **kwargs: object) -> object:
        raise AssertionError("the export was built in the request")

    monkeypatch.setattr(documents, "league_document", not_in_the_request)
    # The kept fingerprint is of the revision before: the older document is known as a copy,
    # the current one cannot be told yet.
    with pytest.raises(competitions.CompetitionError, match="es una copia de Liga de los jueves"):
        imports.import_competition(competition.club, exported, by=user)
    with pytest.raises(competitions.CompetitionError, match="se está poniendo al día"):
        imports.import_competition(competition.club, later, by=user)
    assert prepared.waiting(competition.pk)
    monkeypatch.setattr(documents, "league_document", real)
    prepared.catch_up()
    monkeypatch.setattr(documents, "league_document", not_in_the_request)
    with pytest.raises(competitions.CompetitionError, match="es una copia de Liga de los jueves"):
        imports.import_competition(competition.club, later, by=user)
    assert Competitions.objects.count() == 1
