"""What the league pages show, worked out from muscore.leagues' models and services:
standings rows with the tie-break that separated each level pair, rounds with the
matches left, the knockout as bracket columns, a match's result in words. No rule of
the league is worked out here; the figures come from muscore.leagues.results (the
standings, a match's result as a value) and .documents."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Max, Q, QuerySet
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from muscore.clubs.models import PairMember
from muscore.leagues import results
from muscore.leagues.compute.document import Result
from muscore.leagues.compute.standings import Row
from muscore.leagues.models import (
    Competition,
    Correction,
    Entry,
    Match,
    ResultClaim,
    ResultRow,
    Round,
    unplayed_q,
)
from muscore.leagues.models.knockout import game_title
from muscore.leagues.models.knockout import name as bracket_name
from muscore.leagues.results.standings import standings, standings_until
from muscore.tables.models import Hand, VacaCheckpoint

STAGE_NAMES = {
    "quarterfinal": gettext_lazy("Cuartos de final"),
    "semifinal": gettext_lazy("Semifinales"),
    "final": gettext_lazy("Final y tercer puesto"),
}
SLOT_NAMES = {
    "qf1": gettext_lazy("Cuartos 1"),
    "qf2": gettext_lazy("Cuartos 2"),
    "qf3": gettext_lazy("Cuartos 3"),
    "qf4": gettext_lazy("Cuartos 4"),
    "sf1": gettext_lazy("Semifinal 1"),
    "sf2": gettext_lazy("Semifinal 2"),
    "final": gettext_lazy("Final"),
    "third": gettext_lazy("Tercer puesto"),
}
# Where each of a cup's ties' pairs come from, before they are known.
SLOT_FEEDS: dict[str, dict[int, tuple[str | Promise, str | Promise]]] = {
    "sf1": {2: ("1A", "2B"), 4: (gettext_lazy("Ganador C1"), gettext_lazy("Ganador C3"))},
    "sf2": {2: ("1B", "2A"), 4: (gettext_lazy("Ganador C2"), gettext_lazy("Ganador C4"))},
    "qf1": {4: ("1A", "2B")},
    "qf2": {4: ("1B", "2A")},
    "qf3": {4: ("1C", "2D")},
    "qf4": {4: ("1D", "2C")},
    "final": {0: (gettext_lazy("Ganador S1"), gettext_lazy("Ganador S2"))},
    "third": {0: (gettext_lazy("Perdedor S1"), gettext_lazy("Perdedor S2"))},
}


def disputes_by_competition(competitions: Iterable[Competition]) -> dict[int, int]:
    """How many results each competition has disputed (a pair said the other's claim was
    wrong), in one query: the club page flags them so the organiser need not open every
    match to find one (issue 17.5)."""
    return dict(
        ResultClaim.objects.filter(competition__in=list(competitions),
                                   status=ResultClaim.Status.DISPUTED)
        .order_by().values("competition_id").annotate(n=Count("id"))
        .values_list("competition_id", "n")
    )


def disputes_text(count: int) -> str:
    """'1 resultado en disputa', '3 resultados en disputa' (empty for none)."""
    if not count:
        return ""
    return ngettext("%(n)s resultado en disputa", "%(n)s resultados en disputa", count) % {
        "n": count}


def status(competition: Competition) -> str:
    """Where a competition stands, in words."""
    words: dict[str, Promise] = {
        Competition.Status.DRAFT: gettext_lazy("falta el sorteo"),
        Competition.Status.PLAYING: gettext_lazy("en juego"),
        Competition.Status.FINISHED: gettext_lazy("terminada"),
    }
    return str(words.get(competition.status, ""))


def format_text(competition: Competition) -> str:
    """'Liguilla a ida y vuelta', 'Grupos y eliminatoria (2 grupos)'."""
    if competition.format == Competition.Format.GROUPS:
        return _("Grupos y eliminatoria (%(n)s grupos)") % {"n": competition.group_count}
    if competition.format == Competition.Format.CEROS:
        return ngettext("Torneo a %(n)s cero", "Torneo a %(n)s ceros", competition.ceros) % {
            "n": competition.ceros}
    if competition.legs == 2:
        return _("Liguilla a ida y vuelta")
    return _("Liguilla a una vuelta")


def competition_url(competition: Competition, name: str = "competition", *args: Any) -> str:
    return reverse(f"clubs:{name}", args=[competition.club.slug, competition.pk, *args])


def match_url(match: Match) -> str:
    return competition_url(match.competition, "match", match.number)


def entry_url(competition: Competition, index: int) -> str:
    return competition_url(competition, "entry", index)


# --- standings ----------------------------------------------------------------------------------


def tie_break(row: Row, above: Row, names: Mapping[int, str] | None = None) -> str:
    """Why `row` is below `above` when they are level on points, in a reader's words.

    Head to head says among whom it was decided (league.md, criterion 2): all the pairs
    level on points, or the smaller group still level after that mini-league; `names`
    gives the pairs' names by index.
    """
    criterion = row.decided_by
    decider = row.head_to_head_decider(above) if criterion == "head_to_head" else None
    if decider is not None:
        level, among = decider
        named = get_text_list([(names or {}).get(pair, str(pair)) for pair in among], _("y"))
        figures = {"other": above.name, "among": named,
                   "mine": row.head_to_head_rounds[level],
                   "theirs": above.head_to_head_rounds[level]}
        if level == 0 and len(among) == 2:
            return _(
                "Empatados a puntos con %(other)s: decide el enfrentamiento directo "
                "(%(mine)s puntos contra %(theirs)s)."
            ) % figures
        if level == 0:
            return _(
                "Empatados a puntos con %(other)s: decide el enfrentamiento directo entre "
                "%(among)s (%(mine)s puntos contra %(theirs)s)."
            ) % figures
        return _(
            "Empatados con %(other)s también en el enfrentamiento directo de todos los "
            "empatados a puntos: decide el directo entre %(among)s, aplicado de nuevo "
            "(%(mine)s puntos contra %(theirs)s)."
        ) % figures
    if criterion == "juego_difference":
        return _(
            "Empatados a puntos y en el directo con %(other)s: decide la diferencia de "
            "juegos (%(mine)+d contra %(theirs)+d)."
        ) % {"other": above.name, "mine": row.juego_difference, "theirs": above.juego_difference}
    if criterion == "juegos_for":
        return _(
            "Empatados con %(other)s hasta la diferencia de juegos: deciden los juegos a "
            "favor (%(mine)s contra %(theirs)s)."
        ) % {"other": above.name, "mine": row.juegos_for, "theirs": above.juegos_for}
    if criterion == "tanto_difference":
        return _(
            "Empatados con %(other)s también en juegos: decide la diferencia de tantos "
            "(%(mine)+d contra %(theirs)+d)."
        ) % {"other": above.name, "mine": row.tanto_difference, "theirs": above.tanto_difference}
    if criterion == "draw":
        return _("Empatados en todo con %(other)s: decide el sorteo.") % {"other": above.name}
    return ""


@dataclass
class StandingsTable:
    """One table of standings (a liguilla, or one group) as the page draws it."""

    title: str
    rows: list[dict[str, Any]]
    qualify: int = 0


def standings_tables(competition: Competition, upto: int | None = None) -> list[StandingsTable]:
    """The standings as the pages draw them: today's, or after round `upto` when given."""
    tables = []
    groups = (standings(competition) if upto is None
              else standings_until(competition, upto))
    url_of = url_maker("clubs:entry", competition.club.slug, competition.pk)  # 200 pairs' links
    for group in groups:
        rows: list[dict[str, Any]] = []
        names = {row.pair: row.name for row in group.rows}
        for i, row in enumerate(group.rows):
            rows.append(_line(group.rows, i, names, url_of(row.pair)))
        title = _("Grupo %(name)s") % {"name": group.group.name} if group.group else ""
        tables.append(StandingsTable(title, rows, 2 if group.group else 0))
    return tables


def standing_of(competition: Competition, index: int) -> dict[str, Any] | None:
    """One pair's line of the standings as standings_tables draws it (its tie-break note
    too), without the words and links of every other line: a pair's page shows only its own."""
    for group in standings(competition):
        names = {row.pair: row.name for row in group.rows}
        for i, row in enumerate(group.rows):
            if row.pair == index:
                return _line(group.rows, i, names, entry_url(competition, index))
    return None


def _line(rows: list[Row], i: int, names: Mapping[int, str], url: str) -> dict[str, Any]:
    """Line i of a group's standings: its row, its link, why it is below the line above
    when they are level on points."""
    row, above = rows[i], (rows[i - 1] if i else None)
    note = tie_break(row, above, names) if above is not None and above.points == row.points else ""
    return {"row": row, "url": url, "tie": note}


# --- matches ------------------------------------------------------------------------------------


def matches_of(competition: Competition) -> QuerySet[Match]:
    """The matches with what every page shows of them, in two or three queries."""
    return (
        Match.objects.filter(competition=competition).with_outcome()
        .select_related("competition__club", "round", "round__group", "first__pair", "second__pair",
                        "tie")
        .order_by("number")
    )


def pair_name(entry: Entry | None, fallback: str = "") -> str:
    return entry.pair.name if entry is not None else fallback


def result_text(match: Match) -> str:
    """'3–1', 'No se presentó X', '' (not played)."""
    result = match.outcome
    if result is None:
        return ""
    if result.source == "no_show":
        if all(result.no_show):
            return _("No se presentó ninguna")
        absent = match.first if result.no_show[0] else match.second
        return _("No se presentó %(pair)s") % {"pair": pair_name(absent)}
    return f"{result.juegos[0]}–{result.juegos[1]}"


def table_board(table_id: str) -> dict[str, Any] | None:
    """What a league table's board shows (muscore.tables.signals.board_shown): the
    competition, round and match, the result the league holds (an organiser's correction
    included) and how final it is, and the way back to the competition. None for a table
    of no league match."""
    match = (
        Match.objects.filter(table_id=table_id).with_outcome()
        .select_related("competition__club", "round__group", "first__pair", "second__pair")
        .first()
    )
    if match is None:
        return None
    competition = match.competition
    result = ""
    note = ""
    settled = results.settled(match) if match.played else None
    if match.played:
        result = _("Resultado de la partida: %(first)s %(result)s %(second)s") % {
            "first": pair_name(match.first), "result": result_text(match),
            "second": pair_name(match.second)}
        if settled is not None:
            note = _("Definitivo: una corrección la hace la organización.")
        else:
            note = _("Provisional: deshacer en la mesa todavía lo cambia.")
    return {
        # The table's first vaca can no longer change; a knockout game's table takes
        # nothing more at all (the board then offers neither "Deshacer" nor a new vaca).
        "undo_refused": settled is not None and (
            settled.knockout or last_hand_in_first_vaca(table_id)),
        "closed": settled is not None and settled.knockout,
        "title": competition.title,
        "where": _("%(round)s · partida %(n)s") % {
            "round": round_title(match.round), "n": match.number},
        "url": match_url(match),
        "result": result,
        "note": note,
        "back_url": competition_url(competition),
        "back": _("Volver a %(competition)s") % {"competition": competition.title},
    }


def last_hand_in_first_vaca(table_id: str) -> bool:
    """Whether a table's last hand is one of its first vaca's (two queries)."""
    first = (VacaCheckpoint.objects.filter(table_id=table_id, index=0)
             .values_list("first_hand", "hand_count").first())
    last = Hand.objects.filter(table_id=table_id).aggregate(n=Max("number"))["n"]
    return first is not None and last is not None and last < first[0] + first[1]


def source_text(match: Match) -> str:
    texts: dict[str, str] = {
        "table": _("jugada en una mesa de muscore"),
        # The page adds its "en papel" mark beside it: said once, not twice.
        "manual": _("anotada a mano"),
        "no_show": _("no presentado"),
    }
    result = match.outcome
    return texts.get(result.source, "") if result is not None else ""


def tie_name(competition: Competition, number: int | None, order: int | None) -> str:
    """A cup's tie named as ever ("qf1".."final", "third"; "" for no tie, or a knockout
    alone's, whose games have names of their own: `game_title`)."""
    if number is None or order is None or competition.format == Competition.Format.KNOCKOUT:
        return ""
    return bracket_name(number, order, 3 if competition.group_count == 4 else 2)


def match_row(match: Match, *, url: bool = True) -> dict[str, Any]:
    """A match as the pages list it; `url=False` leaves out its link (a card has none, and
    reverse() is the costliest part of a row)."""
    tie = match.tie
    slot = tie_name(match.competition, tie.round, tie.order) if tie is not None else ""
    feeds = SLOT_FEEDS.get(slot, {})
    feed = feeds.get(match.competition.group_count) or feeds.get(0) or ("", "")
    return {
        "match": match,
        # Its result as a value (None: not played): what a template reads of it.
        "outcome": match.outcome,
        "url": match_url(match) if url else "",
        "first": pair_name(match.first, str(feed[0])),
        "second": pair_name(match.second, str(feed[1])),
        "known": match.first_id is not None and match.second_id is not None,
        "result": result_text(match),
        "slot": (game_title(match.competition, tie, match.game)
                 if match.competition.format == Competition.Format.KNOCKOUT
                 else str(SLOT_NAMES.get(slot, ""))),
    }


def url_maker(name: str, *args: Any) -> Any:
    """A function number -> reverse(name, args=[*args, number]), reversing once: a pair's
    page links each of its ~400 matches, and reverse() is the costliest part of a row."""
    marker = 987654321
    url = reverse(name, args=[*args, marker])
    head, tail = url.split(str(marker))
    return lambda value: f"{head}{value}{tail}"


def pair_rows(competition: Competition, entry: Entry) -> list[dict[str, Any]]:
    """A pair's matches as its page lists them (opponent, result in words, links), from
    one query of value rows: no model row, no template logic per match."""
    match_url_of = url_maker("clubs:match", competition.club.slug, competition.pk)
    history_url_of = url_maker("tables:history")
    against = _("contra %(pair)s")
    words = {True: _("ganada"), False: _("perdida")}
    rows = []
    for (number, tie_round, tie_order, first_id, first_name, second_name, table_id,
         outcome) in (
        Match.objects.filter(Q(first=entry) | Q(second=entry), competition=competition)
        .order_by("number")
        .outcomes("number", "tie__round", "tie__order", "first_id", "first__pair__name",
                  "second__pair__name", "table_id")
    ):
        side = 0 if first_id == entry.pk else 1
        feeds = SLOT_FEEDS.get(tie_name(competition, tie_round, tie_order), {})
        feed = feeds.get(competition.group_count) or feeds.get(0) or ("", "")
        other = (second_name or str(feed[1])) if side == 0 else (first_name or str(feed[0]))
        if outcome is None:
            result = ""
        elif outcome.source == "no_show":
            absent = first_name if outcome.no_show[0] else second_name
            result = (_("No se presentó ninguna") if all(outcome.no_show)
                      else _("No se presentó %(pair)s") % {"pair": absent})
        else:
            # From the pair's side, as it would say it: its own juegos first ("1–3 · perdida").
            mine, theirs = outcome.juegos if side == 0 else outcome.juegos[::-1]
            result = f"{mine}–{theirs}"
        if result and outcome is not None and outcome.winner is not None:
            result += " · " + words[outcome.winner == side]
        rows.append({
            "number": number,
            "url": match_url_of(number),
            "against": against % {"pair": other},
            "result": result,
            "history": history_url_of(table_id) if table_id else "",
        })
    return rows


@dataclass
class RoundView:
    round: Round
    title: str
    matches: list[dict[str, Any]] = field(default_factory=list)
    left: int = 0
    bye: str = ""
    url: str = ""


def round_title(round: Round) -> str:
    if round.stage in STAGE_NAMES:
        return str(STAGE_NAMES[round.stage])
    if round.stage == "ceros":
        return _("Ronda %(n)s") % {"n": round.number}
    if round.group is not None:
        return _("Jornada %(n)s · grupo %(group)s") % {"n": round.number, "group": round.group.name}
    return _("Jornada %(n)s") % {"n": round.number}


def rounds_of(competition: Competition, number: int | None = None) -> list[RoundView]:
    """Every round (a group's round apart from the others'), or those of one `number`, with
    their matches and how many are left to play."""
    matches = matches_of(competition)
    rounds = (
        Round.objects.filter(competition=competition)
        .select_related("group", "bye__pair")
        .order_by("number", "group__order")
    )
    if number is not None:
        matches = matches.filter(round__number=number)
        rounds = rounds.filter(number=number)
    views = {
        r.pk: RoundView(
            r,
            round_title(r),
            bye=pair_name(r.bye),
            url=competition_url(competition, "round", r.number),
        )
        for r in rounds
    }
    # A pair's result waiting for the other pair (or the organiser): shown, never counted.
    claims = ResultClaim.objects.filter(
        competition=competition,
        status__in=[ResultClaim.Status.PENDING, ResultClaim.Status.DISPUTED],
    )
    if number is not None:
        claims = claims.filter(match__round__number=number)
    claimed = {
        claim.match_id: ("{}–{}".format(*claim.claimed.juegos),
                         claim.status == ResultClaim.Status.DISPUTED)
        for claim in claims.order_by().select_related("result").only(
            "match_id", "status", "result")
    }
    for match in matches:
        view = views[match.round_id]
        row = match_row(match)
        row["claimed"], row["disputed"] = ("", False) if match.played else claimed.get(
            match.pk, ("", False))
        view.matches.append(row)
        view.left += 0 if match.played else 1
    return list(views.values())


def add_named_pairs_players(views: list[RoundView]) -> None:
    """On a round's sheet, the players of each pair whose name does not say them ("Los de
    Azpeitia": who sits?), as `first_players` / `second_players` of each match row, in one
    query for the whole sheet."""
    pair_ids = {getattr(row["match"], side).pair_id for view in views for row in view.matches
                for side in ("first", "second") if getattr(row["match"], side) is not None}
    names: dict[int, list[str]] = {}
    for pair_id, name in (PairMember.objects.filter(pair_id__in=pair_ids)
                          .order_by("pair_id", "position")
                          .values_list("pair_id", "player__name")):
        names.setdefault(pair_id, []).append(name)
    for view in views:
        for row in view.matches:
            for side in ("first", "second"):
                entry = getattr(row["match"], side)
                players = names.get(entry.pair_id, []) if entry is not None else []
                shown = entry is not None and not all(p in entry.pair.name for p in players)
                row[f"{side}_players"] = ", ".join(players) if shown else ""


def next_round(competition: Competition) -> list[RoundView]:
    """The first round with a match left (every group's round of that number): a query for
    its number, then its matches only, however long the league."""
    first_left = (
        Match.objects.filter(competition=competition).unplayed()
        .exclude(first=None)
        .order_by("number")
        .values_list("round__number", flat=True)
        .first()
    )
    return [] if first_left is None else rounds_of(competition, first_left)


def round_summaries(competition: Competition) -> list[dict[str, Any]]:
    """Each round's number, title, matches and matches left, counted by the database."""
    rounds = (
        Round.objects.filter(competition=competition)
        .select_related("group", "bye__pair")
        .annotate(total=Count("matches"), left=Count("matches", filter=unplayed_q("matches__")))
        .order_by("number", "group__order")
    )
    return [
        {
            "round": r,
            "title": round_title(r),
            "total": r.total,
            "left": r.left,
            "bye": pair_name(r.bye),
            "url": competition_url(competition, "round", r.number),
        }
        for r in rounds
    ]


def bracket(competition: Competition) -> list[dict[str, Any]]:
    """The knockout as columns (quarterfinals, semifinals, final and third place)."""
    if competition.format != Competition.Format.GROUPS:
        return []  # only groups + knockout has one (no query: a liguilla's page reads it)
    matches = list(matches_of(competition).filter(tie__isnull=False))
    columns = []
    for stage in ("quarterfinal", "semifinal", "final"):
        column = [match_row(m) for m in matches if m.round.stage == stage]
        if column:
            columns.append({"title": STAGE_NAMES[stage], "matches": column})
    return columns


def audit_rows(match: Match, usernames: bool = False) -> list[dict[str, Any]]:
    """The corrections of a match, newest first, in words; who made each by his username
    only with ``usernames`` (for the club's organisers: a public page names no account)."""
    actions = {
        "table": _("resultado llegado de la mesa"),
        "table_fix": _("corregido en la mesa"),
        "manual": _("resultado anotado a mano"),
        "no_show": _("no presentado"),
        "clear": _("resultado anulado"),
        "reset": _("anulado: dependía de un resultado corregido"),
        "players": _("jugadores cambiados"),
        "import": _("importado"),
        "confirmed": _("resultado de una pareja, confirmado por la otra"),
        "accepted": _("resultado de una pareja, aceptado por la organización"),
        "auto_accept": _("resultado de una pareja, aceptado a las 24 horas"),
    }
    # Who wrote a result without an organiser's account: the table, or the pairs' links.
    nobody = {"confirmed": _("las parejas"), "auto_accept": _("las parejas")}
    rows = []
    corrections = (Correction.objects.filter(match=match)
                   .select_related("by", "before_result", "after_result").order_by("-at", "-id"))
    for c in corrections:
        rows.append(
            {
                "at": c.at,
                "by": (c.by.get_username() if usernames else _("la organización")) if c.by
                else nobody.get(c.action, _("la mesa")),
                "action": actions.get(c.action, c.action),
                "before": figures_text(c.before_result),
                "after": figures_text(c.after_result),
                "reason": c.reason,
                "table_fix": c.action == "table_fix",
            }
        )
    return rows


def table_fixes(club_id: int, limit: int = 20) -> list[dict[str, Any]]:
    """The results tables changed after storing them, newest first, in the club's listed
    competitions (the organiser's night shows them, with both results: one query)."""
    rows = []
    for c in (Correction.objects.filter(action="table_fix", competition__club_id=club_id,
                                        competition__archived=False)
              .select_related("competition__club", "match", "before_result", "after_result")
              .order_by("-at", "-id")[:limit]):
        rows.append({"at": c.at, "competition": c.competition.title,
                     "number": c.match.number,
                     "url": competition_url(c.competition, "match", c.match.number),
                     "before": figures_text(c.before_result),
                     "after": figures_text(c.after_result)})
    return rows


def figures_text(row: ResultRow | None) -> str:
    """A result the audit keeps (its row; None: no result) in a few words."""
    result: Result | None = row.value() if row is not None else None
    if result is None:
        return _("sin resultado")
    if result.source == "no_show":
        if all(result.no_show):
            return _("no se presentó ninguna")
        return _("no se presentó la pareja %(n)s") % {"n": 1 if result.no_show[0] else 2}
    text = f"{result.juegos[0]}–{result.juegos[1]}"
    if result.tantos is not None:
        text += " " + _("(tantos %(a)s–%(b)s)") % {"a": result.tantos[0], "b": result.tantos[1]}
    return text
