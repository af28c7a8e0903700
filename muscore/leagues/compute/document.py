"""Reading a league document (league.md, "A league") into typed values.

:func:`read_league` checks everything the contract names as an error and gives a
:class:`League`; :meth:`League.to_json` writes the document back in its normal form
(every field spelled out), so reading what it wrote gives the same league.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeGuard

from muscore import text as unicode_text
from muscore.leagues.compute.ceros import MAX_CEROS, MIN_CEROS
from muscore.leagues.compute.errors import (
    FORMAT,
    LEAGUE,
    POINTS,
    THE_MATCH,
    LeagueError,
    Where,
    where_match,
    where_pair,
)
from muscore.leagues.compute.json_check import MAX_DEPTH, check_json
from muscore.rules import RuleError, Rules, replay

MAX_PAIRS = 1000
NAME_LIMIT = 200
# A pair's and a player's name are stored in columns of 60 characters (muscore.clubs'
# NAME_MAX), and seated at a table whose names hold no more: a longer one is refused here
# rather than failing the database (PostgreSQL) or being cut.
PERSON_NAME_LIMIT = 60
# Numbers the database keeps in its columns, with room for any real league: a round of a
# 1,000-pair double liguilla is at most 1,998; points per match and a match's tantos.
MAX_ROUND = 9999
POINTS_RANGE = (-1000, 1000)
MAX_TANTOS = 99999
LEAGUE_KEYS = frozenset({"name", "rules", "points", "legs", "draw", "pairs", "matches",
                         "format"})
PAIR_KEYS = frozenset({"name", "players"})
MATCH_KEYS = frozenset({"round", "pairs", "juegos", "tantos", "vaca", "forfeit", "players"})
POINTS_KEYS = ("win", "loss", "forfeit")
# A league's matches are played to 3 juegos unless it says otherwise (league.md).
LEAGUE_RULES_DEFAULTS: dict[str, Any] = {"juegos": 3}

#: Where a result came from: its vaca played on a table ("table", a document's `vaca` or
#: juegos of a muscore table), juegos given on paper ("manual", a document's `juegos`), a
#: pair (or both) that did not show up ("no_show", a document's `forfeit`).
Source = Literal["table", "manual", "no_show"]
Kind = Literal["liguilla", "groups", "ceros", "knockout"]
# Each kind of competition and the fields its `format` takes beside `kind`.
FORMAT_KEYS: dict[str, frozenset[str]] = {
    "liguilla": frozenset({"kind"}),
    "groups": frozenset({"kind", "groups"}),
    "ceros": frozenset({"kind", "ceros"}),
}


@dataclass(frozen=True)
class Format:
    """What kind of competition the document is (league.md, "The format"): a liguilla, groups
    (2 or 4) and a knockout, a tournament a N ceros, or a knockout alone (written, never read:
    its ties to `best_of` games, `third` place or not). It says how often two pairs may meet:
    `legs` times in a liguilla, once more in a groups' knockout, as the rounds pair a ceros."""

    kind: Kind = "liguilla"
    groups: int = 2
    ceros: int = 3
    best_of: int = 1
    third: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.kind == "groups":
            out["groups"] = self.groups
        elif self.kind == "ceros":
            out["ceros"] = self.ceros
        elif self.kind == "knockout":
            out.update(best_of=self.best_of, third=self.third)
        return out

    def most_meetings(self, legs: int) -> int | None:
        """How many times two pairs may meet (None: no limit)."""
        if self.kind == "ceros":
            return None
        return legs + 1 if self.kind == "groups" else legs


@dataclass(frozen=True)
class Points:
    """Points for a match won, lost on the table, and lost by not showing up."""

    win: int = 2
    loss: int = 0
    forfeit: int = 0

    def to_json(self) -> dict[str, int]:
        return {"win": self.win, "loss": self.loss, "forfeit": self.forfeit}


@dataclass(frozen=True)
class Pair:
    """A pair: its name and its own players (2, or 3 in a 6-player league)."""

    name: str
    players: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "players": list(self.players)}


@dataclass(frozen=True)
class Result:
    """A match's result, as a value: what it gives each side (0 = first pair, 1 = second
    pair) and where it came from (`source`). The winner is derived from it, never stored
    beside it (as python-chess derives `Outcome.winner`).

    The web app stores exactly this, once per result (muscore.leagues.models.ResultRow),
    and draws its standings from it, never by replaying hands.
    """

    juegos: tuple[int, int]
    tantos: tuple[int, int] | None = None
    no_show: tuple[bool, bool] = (False, False)
    source: Source = "manual"

    @property
    def winner(self) -> int | None:
        """0 or 1, the side that won; None when neither pair showed up."""
        if self.no_show == (True, True):
            return None
        if self.no_show[0]:
            return 1
        if self.no_show[1]:
            return 0
        return 0 if self.juegos[0] > self.juegos[1] else 1

    @property
    def is_forfeit(self) -> bool:
        return self.no_show[0] or self.no_show[1]


def forfeit_result(no_show: tuple[bool, bool], rules: Rules) -> Result:
    """The figures of a forfeit (league.md): the pair that came wins ``juegos``-0 and
    ``juegos`` x ``target`` tantos to 0; when neither came, nobody gets anything."""
    if no_show == (True, True):
        return Result((0, 0), (0, 0), no_show, "no_show")
    full = (rules.juegos, rules.juegos * rules.target)
    if no_show[0]:
        return Result((0, full[0]), (0, full[1]), no_show, "no_show")
    return Result((full[0], 0), (full[1], 0), no_show, "no_show")


def vaca_result(vaca: Mapping[str, Any], rules: Rules, where: Where = THE_MATCH) -> Result:
    """Juegos and tantos of a vaca played under ``rules`` (seats 0, 2(, 4) the first pair).

    The winner of each juego counts the target; the loser its score when that juego
    ended. Raises :class:`LeagueError` when the hands cannot be replayed or the vaca
    is not won.
    """
    if not isinstance(vaca, Mapping):
        raise LeagueError("not_a", field="vaca", where=where, what="object", got=show(vaca))
    if "rules" in vaca:
        raise LeagueError("vaca_rules", where=where)
    try:
        replayed = replay({**vaca, "rules": rules.to_json()})
    except RuleError as error:
        raise LeagueError("vaca_invalid", where=where, inner=error) from error
    if replayed["winner"] is None:
        raise LeagueError(
            "vaca_unfinished", where=where, a=replayed["juegos"]["A"], b=replayed["juegos"]["B"],
            juegos=rules.juegos,
        )
    return replay_result(replayed, rules)


def replay_result(replayed: Mapping[str, Any], rules: Rules) -> Result:
    """The figures of a vaca already replayed by ``muscore.rules.replay`` (and won)."""
    tantos = {"A": 0, "B": 0}
    for hand in replayed["hands"]:
        won = hand["winner"]
        if won is None:
            continue
        lost = "B" if won == "A" else "A"
        tantos[won] += rules.target
        tantos[lost] += hand["score"][lost]
    juegos = replayed["juegos"]
    return Result((juegos["A"], juegos["B"]), (tantos["A"], tantos["B"]), (False, False), "table")


@dataclass(frozen=True)
class Match:
    """One vaca between two pairs (indices into the league's pairs), with its result if any.

    ``sat`` gives who sat for each side when it differs from the pair's own players.
    ``forfeit`` and ``vaca`` keep the result as the document gave it, for writing it back.
    """

    pairs: tuple[int, int]
    round: int | None = None
    result: Result | None = None
    sat: tuple[tuple[str, ...] | None, tuple[str, ...] | None] | None = None
    vaca: Mapping[str, Any] | None = None

    def players(self, league_pairs: Sequence[Pair]) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The players who sat for each side."""
        first = self.sat[0] if self.sat and self.sat[0] is not None else None
        second = self.sat[1] if self.sat and self.sat[1] is not None else None
        return (
            first if first is not None else league_pairs[self.pairs[0]].players,
            second if second is not None else league_pairs[self.pairs[1]].players,
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.round is not None:
            out["round"] = self.round
        out["pairs"] = list(self.pairs)
        result = self.result
        if result is not None:
            if result.source == "table" and self.vaca is not None:
                out["vaca"] = _plain(self.vaca)
            elif result.source == "no_show":
                if result.no_show == (True, True):
                    out["forfeit"] = "both"
                else:
                    out["forfeit"] = self.pairs[0] if result.no_show[0] else self.pairs[1]
            else:
                out["juegos"] = list(result.juegos)
                if result.tantos is not None:
                    out["tantos"] = list(result.tantos)
        if self.sat is not None and any(side is not None for side in self.sat):
            out["players"] = [None if side is None else list(side) for side in self.sat]
        return out


@dataclass(frozen=True)
class League:
    """A league as league.md describes it, checked."""

    name: str
    pairs: tuple[Pair, ...]
    rules: Rules = field(default_factory=lambda: Rules(juegos=3))
    points: Points = Points()
    legs: int = 1
    draw: tuple[int, ...] = ()
    matches: tuple[Match, ...] = ()
    # None: the document says no format (a liguilla, unless its reader is told otherwise).
    format: Format | None = None

    def __post_init__(self) -> None:
        if not self.draw:
            object.__setattr__(self, "draw", tuple(range(len(self.pairs))))

    def to_json(self) -> dict[str, Any]:
        """The document in its normal form: reading it back gives this league."""
        out: dict[str, Any] = {"name": self.name}
        if self.format is not None:
            out["format"] = self.format.to_json()
        return {
            **out,
            "rules": self.rules.to_json(),
            "points": self.points.to_json(),
            "legs": self.legs,
            "draw": list(self.draw),
            "pairs": [pair.to_json() for pair in self.pairs],
            "matches": [match.to_json() for match in self.matches],
        }


def _plain(value: Any) -> Any:
    """A JSON value as plain dicts and lists (a copy the caller may keep)."""
    return json.loads(json.dumps(value))


def show(value: object) -> str:
    if isinstance(value, str):
        text = '"' + value + '"'
    elif value is None:
        text = "null"
    elif isinstance(value, bool):
        text = "true" if value else "false"
    else:
        try:
            text = json.dumps(value, ensure_ascii=False)
        except (TypeError, ValueError):
            text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _is_int(value: object) -> TypeGuard[int]:
    return type(value) is int


def _object(value: object, where: Where) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise LeagueError("not_object", where=where)
    return value


def _known(data: Mapping[str, Any], keys: frozenset[str], where: Where) -> None:
    for key in data:
        if key not in keys:
            raise LeagueError("unknown_key", key=str(key)[:40], where=where)


def read_name(value: object, where: Where = LEAGUE, limit: int = NAME_LIMIT) -> str:
    """A required, non-blank name of at most `limit` characters, text a table and a page
    can show (muscore.text: no control character, direction override or invisible name)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        raise LeagueError("name_missing", where=where)
    if not isinstance(value, str):
        raise LeagueError("not_a", field="name", where=where, what="string", got=show(value))
    if len(value) > limit:
        raise LeagueError("name_long", where=where, limit=limit)
    problem = unicode_text.problem(value)
    if problem == unicode_text.SURROGATE:
        raise LeagueError("text_surrogate")
    if problem:
        raise LeagueError("text_control")
    if unicode_text.is_invisible(value):
        raise LeagueError("name_invisible", where=where)
    if unicode_text.has_bidi_control(value):
        raise LeagueError("name_bidi", where=where)
    return value


def _number(value: object, field: str, where: Where, low: int, high: int) -> int:
    if not _is_int(value) or not low <= value <= high:
        raise LeagueError(
            "number_range", field=field, where=where, low=low, high=high, got=show(value)
        )
    return value


def read_rules(raw: object) -> Rules:
    """The league's table options: rules.md's defaults, except 3 juegos."""
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise LeagueError("not_a", field="rules", where=LEAGUE, what="object",
                          got=show(raw))
    try:
        rules = Rules.from_json({**LEAGUE_RULES_DEFAULTS, **raw})
    except RuleError as error:
        raise LeagueError("rules", inner=error) from error
    if rules.sides > 2:  # a match is between two pairs (or two players), never three
        raise LeagueError("individual_rules", players=rules.players)
    return rules


def read_points(raw: object) -> Points:
    """``points``: every key optional (2, 0, 0)."""
    if raw is None:
        return Points()
    data = _object(raw, POINTS)
    _known(data, frozenset(POINTS_KEYS), POINTS)
    values: dict[str, int] = {}
    for key in POINTS_KEYS:
        if key in data:
            if not _is_int(data[key]):
                raise LeagueError("not_a", field=key, where=POINTS, what="number",
                                  got=show(data[key]))
            values[key] = _number(data[key], key, POINTS, *POINTS_RANGE)
    return Points(**values)


def read_legs(raw: object) -> int:
    """``legs``: 1 or 2 (default 1)."""
    if raw is None:
        return 1
    if not _is_int(raw) or raw not in (1, 2):
        raise LeagueError("legs", got=show(raw))
    return raw


def read_format(raw: object) -> Format | None:
    """``format`` (optional): ``{"kind": "liguilla"}``, ``{"kind": "groups", "groups": 2}``
    (or 4) or ``{"kind": "ceros", "ceros": N}`` (1 to 5); None when the document has none."""
    if raw is None:
        return None
    data = _object(raw, FORMAT)
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in FORMAT_KEYS:
        raise LeagueError("format_kind", got=show(kind))
    _known(data, FORMAT_KEYS[kind], FORMAT)
    if kind == "groups":
        groups = data.get("groups", 2)
        if not _is_int(groups) or groups not in (2, 4):
            raise LeagueError("format_groups", got=show(groups))
        return Format("groups", groups=groups)
    if kind == "ceros":
        return Format("ceros", ceros=_number(data.get("ceros", 3), "ceros", FORMAT,
                                             MIN_CEROS, MAX_CEROS))
    return Format("liguilla")


def _names(value: list[Any], where: Where) -> tuple[str, ...]:
    names = tuple(read_name(name, where, PERSON_NAME_LIMIT) for name in value)
    for name, count in Counter(names).items():
        if count > 1:
            raise LeagueError("player_twice", where=where, player=name)
    return names


def read_pair(raw: object, index: int, rules: Rules) -> Pair:
    where = where_pair(index)
    data = _object(raw, where)
    _known(data, PAIR_KEYS, where)
    name = read_name(data.get("name"), where, PERSON_NAME_LIMIT)
    size = rules.players // 2
    players = data.get("players")
    if not isinstance(players, list) or not players:
        raise LeagueError("not_a", field="players", where=where, what="names",
                          got=show(players))
    if len(players) != size:
        raise LeagueError("players_count", pair=index, name=name, count=len(players),
                          players=rules.players, size=size)
    return Pair(name, _names(players, where))


def read_draw(raw: object, count: int) -> tuple[int, ...]:
    """``draw``: a permutation of the pair indices (default their order)."""
    if raw is None:
        return tuple(range(count))
    last = count - 1
    if not isinstance(raw, list):
        raise LeagueError("draw", last=last, problem="not_list", got=show(raw))
    for item in raw:
        if not _is_int(item) or not 0 <= item < count:
            raise LeagueError("draw", last=last, problem="not_index", got=show(item))
    seen = Counter(raw)
    for item, times in seen.items():
        if times > 1:
            raise LeagueError("draw", last=last, problem="twice", item=item, times=times)
    missing = [i for i in range(count) if i not in seen]
    if missing:
        raise LeagueError("draw", last=last, problem="missing", item=missing[0])
    return tuple(raw)


def _pair_index(value: object, count: int, where: Where) -> int:
    if not _is_int(value) or not 0 <= value < count:
        raise LeagueError("unknown_pair", where=where, got=show(value), last=count - 1)
    return value


def _two_counts(value: object, name: str, where: Where) -> tuple[int, int]:
    if (not isinstance(value, list) or len(value) != 2
            or not all(_is_int(v) and v >= 0 for v in value)):
        raise LeagueError("not_a", field=name, where=where,
                          what="counts", got=show(value))
    for count in value:
        _number(count, name, where, 0, MAX_TANTOS)
    return (value[0], value[1])


def read_result(
    data: Mapping[str, Any], pairs: tuple[int, int], rules: Rules, where: Where
) -> tuple[Result | None, Mapping[str, Any] | None]:
    """A match's result (juegos, vaca or forfeit), and the vaca as given if it was one."""
    given = [key for key in ("juegos", "vaca", "forfeit") if key in data]
    if len(given) > 1:
        raise LeagueError("two_results", where=where, keys=", ".join(given))
    if "tantos" in data and given != ["juegos"]:
        raise LeagueError("tantos_alone", where=where)
    if not given:
        return None, None
    if given[0] == "juegos":
        juegos = _two_counts(data["juegos"], "juegos", where)
        if not (max(juegos) == rules.juegos and min(juegos) < rules.juegos):
            raise LeagueError("juegos_end", where=where, got=show(list(juegos)),
                              juegos=rules.juegos)
        tantos = _two_counts(data["tantos"], "tantos", where) if "tantos" in data else None
        return Result(juegos, tantos, (False, False), "manual"), None
    if given[0] == "vaca":
        vaca = data["vaca"]
        return vaca_result(vaca, rules, where), _plain(vaca)
    forfeit = data["forfeit"]
    if forfeit == "both":
        return forfeit_result((True, True), rules), None
    if not _is_int(forfeit) or forfeit not in pairs:
        raise LeagueError("forfeit_pair", where=where, first=pairs[0], second=pairs[1],
                          got=show(forfeit))
    return forfeit_result((forfeit == pairs[0], forfeit == pairs[1]), rules), None


def read_sat(
    raw: object, pairs: tuple[int, int], league_pairs: Sequence[Pair], rules: Rules, where: Where
) -> tuple[tuple[str, ...] | None, tuple[str, ...] | None] | None:
    """A match's ``players``: who sat for each side, null for the pair's own."""
    if raw is None:
        return None
    if not isinstance(raw, list) or len(raw) != 2:
        raise LeagueError("players_shape", where=where, got=show(raw))
    size = rules.players // 2
    sides: list[tuple[str, ...] | None] = []
    for index, side in zip(pairs, raw, strict=True):
        if side is None:
            sides.append(None)
            continue
        if not isinstance(side, list) or not side:
            raise LeagueError("players_shape", where=where, got=show(raw))
        if len(side) != size:
            raise LeagueError("players_count", pair=index, name=league_pairs[index].name,
                              count=len(side), players=rules.players, size=size)
        sides.append(_names(side, where))
    return (sides[0], sides[1])


def read_match(raw: object, number: int, league_pairs: Sequence[Pair], rules: Rules) -> Match:
    where = where_match(number)
    data = _object(raw, where)
    _known(data, MATCH_KEYS, where)
    count = len(league_pairs)
    round_ = data.get("round")
    if round_ is not None and (not _is_int(round_) or round_ < 1):
        raise LeagueError("round", where=where, got=show(round_))
    if round_ is not None:
        _number(round_, "round", where, 1, MAX_ROUND)
    raw_pairs = data.get("pairs")
    if not isinstance(raw_pairs, list) or len(raw_pairs) != 2:
        raise LeagueError("not_a", field="pairs", where=where,
                          what="pair_indices", got=show(raw_pairs))
    first = _pair_index(raw_pairs[0], count, where)
    second = _pair_index(raw_pairs[1], count, where)
    if first == second:
        raise LeagueError("plays_itself", where=where, pair=first, name=league_pairs[first].name)
    result, vaca = read_result(data, (first, second), rules, where)
    sat = read_sat(data.get("players"), (first, second), league_pairs, rules, where)
    match = Match((first, second), round_, result, sat, vaca)
    if sat is not None:
        one, two = match.players(league_pairs)
        for name in one:
            if name in two:
                raise LeagueError("player_both_sides", where=where, player=name)
    return match


_PLAIN_KEYS = frozenset({"round", "pairs", "juegos", "tantos"})


def _plain_match(raw: object, count: int, rules: Rules) -> Match | None:
    """The usual match of a document (a round, its two pairs, juegos and maybe tantos,
    every one well formed), read at once; None for anything else, which
    :func:`read_match` reads or refuses with its reasons. The same Match as read_match
    gives (tests/leagues/test_read_match_fast.py): an import reads 39,800 of them in its
    request, and read_match's checks one by one were half of it."""
    if type(raw) is not dict or not raw.keys() <= _PLAIN_KEYS:
        return None
    round_ = raw.get("round")
    if round_ is not None and not (type(round_) is int and 1 <= round_ <= MAX_ROUND):
        return None
    pairs = raw.get("pairs")
    if type(pairs) is not list or len(pairs) != 2:
        return None
    first, second = pairs
    if (type(first) is not int or type(second) is not int or first == second
            or not 0 <= first < count or not 0 <= second < count):
        return None
    if "juegos" not in raw:
        return None if "tantos" in raw else Match((first, second), round_, None, None, None)
    juegos = _plain_counts(raw["juegos"])
    if juegos is None or max(juegos) != rules.juegos or min(juegos) >= rules.juegos:
        return None
    tantos = None
    if "tantos" in raw:
        tantos = _plain_counts(raw["tantos"])
        if tantos is None:
            return None
    return Match((first, second), round_, Result(juegos, tantos, (False, False), "manual"),
                 None, None)


def _plain_counts(value: object) -> tuple[int, int] | None:
    """_two_counts of a well-formed pair of counts; None for anything else."""
    if type(value) is not list or len(value) != 2:
        return None
    one, two = value
    if (type(one) is not int or type(two) is not int or not 0 <= one <= MAX_TANTOS
            or not 0 <= two <= MAX_TANTOS):
        return None
    return (one, two)


def _read_matches(raw_matches: list[Any], pairs: tuple[Pair, ...],
                  rules: Rules) -> Iterator[Match]:
    count = len(pairs)
    for number, raw in enumerate(raw_matches, 1):
        match = _plain_match(raw, count, rules)
        yield match if match is not None else read_match(raw, number, pairs, rules)


def check_meetings(matches: Iterable[Match], pairs: Sequence[Pair], legs: int,
                   format: Format | None = None) -> None:
    """No two pairs meet more often than the format allows: ``legs`` times in a liguilla,
    once more in a groups' knockout, no limit in a ceros (stops at the first that does: a
    document of half a million matches is refused at its first extra one, not at its end)."""
    most = (format or Format()).most_meetings(legs)
    meetings: Counter[tuple[int, int]] = Counter()
    for match in matches:
        if most is None:
            continue
        first, second = sorted(match.pairs)
        meetings[first, second] += 1
        count = meetings[first, second]
        if count > most:
            raise LeagueError(
                "meets_in_groups" if most != legs else "meets_too_often", first=first,
                second=second, first_name=pairs[first].name, second_name=pairs[second].name,
                count=count, legs=legs, most=most,
            )


def _kept(items: Iterable[Match], into: list[Match]) -> Iterator[Match]:
    for item in items:
        into.append(item)
        yield item


def _quick_sizes(data: object, max_pairs: int) -> None:
    """A quick reader's first look: the contract's largest league (1,000 pairs, 499,500
    matches: 19.5 MB) took 3 s to parse and walk, past the 2 s any request may take."""
    if not isinstance(data, dict):
        return  # check_json and _object say what is wrong with it
    pairs, matches = data.get("pairs"), data.get("matches")
    if isinstance(pairs, list) and len(pairs) > max_pairs:
        raise LeagueError("too_many_pairs", count=len(pairs), limit=max_pairs)
    most = max_pairs * (max_pairs - 1)  # every two pairs meet twice at most (ida y vuelta)
    if isinstance(matches, list) and len(matches) > most:
        raise LeagueError("too_many_matches", pairs=max_pairs, count=len(matches), limit=most)


def read_league(data: object, max_pairs: int = MAX_PAIRS,
                assumed: Format | None = None) -> League:
    """Check a league document (parsed JSON) and read it; raises :class:`LeagueError`.

    `max_pairs` lowers the contract's 1,000 pairs for a reader that must stay quick (the
    app's import), refusing a larger league, or more matches than a league that size can
    have, by the lengths of its two lists alone, before anything of it is read.
    `assumed` is the format of a document that says none (the organiser's word on an
    export made before the contract had `format`); the document's own wins.
    """
    if max_pairs < MAX_PAIRS:
        _quick_sizes(data, max_pairs)
    check_json(data)
    league = _object(data, LEAGUE)
    if isinstance(said := league.get("format"), dict) and said.get("kind") == "knockout":
        raise LeagueError("format_knockout")  # first: its API document's bracket is no reason
    _known(league, LEAGUE_KEYS, LEAGUE)
    name = read_name(league.get("name"), LEAGUE)
    format = read_format(league.get("format")) or assumed
    rules = read_rules(league.get("rules"))
    points = read_points(league.get("points"))
    legs = read_legs(league.get("legs"))
    raw_pairs = league.get("pairs")
    if not isinstance(raw_pairs, list):
        raise LeagueError("not_a", field="pairs", where=LEAGUE, what="list",
                          got=show(raw_pairs))
    if len(raw_pairs) < 2:
        raise LeagueError("too_few_pairs", count=len(raw_pairs))
    if len(raw_pairs) > min(max_pairs, MAX_PAIRS):
        raise LeagueError("too_many_pairs", count=len(raw_pairs), limit=min(max_pairs, MAX_PAIRS))
    pairs = tuple(read_pair(raw, i, rules) for i, raw in enumerate(raw_pairs))
    draw = read_draw(league.get("draw"), len(pairs))
    raw_matches = league.get("matches", [])
    if not isinstance(raw_matches, list):
        raise LeagueError("not_a", field="matches", where=LEAGUE, what="list",
                          got=show(raw_matches))
    # Read lazily into check_meetings: the first match too many ends the reading.
    read = _read_matches(raw_matches, pairs, rules)
    matches: list[Match] = []
    check_meetings(_kept(read, matches), pairs, legs, format)
    return League(name, pairs, rules, points, legs, draw, tuple(matches), format)


def loads_league(text: str) -> League:
    """Parse and read a league document from JSON text."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise LeagueError("not_json", msg=error.msg, line=error.lineno,
                          column=error.colno) from error
    except RecursionError:
        raise LeagueError("too_deep", limit=MAX_DEPTH) from None
    except ValueError as error:  # a number of more than 4,300 digits
        raise LeagueError("not_json", msg=str(error)[:80], line=1, column=1) from None
    return read_league(data)


def tantos_bounds(rules: Rules, loser_juegos: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The tantos a match's winner and its loser can have (each ``(least, most)``) when
    the loser won ``loser_juegos`` juegos: the winner of a juego counts the target, the
    loser of it its score, at most one short of the target (league.md).

    >>> tantos_bounds(Rules(target=40, juegos=3), 1)
    ((120, 159), (40, 157))
    """
    to_win, target = rules.juegos, rules.target
    return ((to_win * target, to_win * target + loser_juegos * (target - 1)),
            (loser_juegos * target, loser_juegos * target + to_win * (target - 1)))


def tantos_possible(result: Result, rules: Rules) -> bool:
    """Whether a result's tantos can come from its juegos (no tantos, or no winner: yes).

    >>> rules = Rules(target=40, juegos=3)
    >>> tantos_possible(Result((3, 1), (150, 97), (False, False), "manual"), rules)
    True
    >>> tantos_possible(Result((3, 1), (50, 150), (False, False), "manual"), rules)
    False
    """
    winner = result.winner
    if result.tantos is None or winner is None:
        return True
    loser = 1 - winner
    (wlo, whi), (llo, lhi) = tantos_bounds(rules, result.juegos[loser])
    return wlo <= result.tantos[winner] <= whi and llo <= result.tantos[loser] <= lhi
