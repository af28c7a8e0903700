"""The API's contract, declared once (issue 36.5): every request and answer the JSON API
speaks, as types that both validate a request (pydantic) and write the schemas of the
OpenAPI document (muscore.api.openapi takes its components from :func:`components`).

The types are ``TypedDict`` s, like the engine's own (muscore.rules.contract), with what
the engine's types cannot say in the standard library: bounds, patterns, descriptions,
the conditions that span keys (a mano that is a seat of the table's players). The
engine's types stay the engine's; tests/api/test_contract.py holds these to them (the
same keys, the same required keys, the same sides and words) and checks the engine's
answers to every shared example against them. Why pydantic and not django-ninja:
docs/api.md.

No ``from __future__ import annotations`` here: pydantic and TypedDict read the
annotations at run time.
"""

from collections.abc import Mapping
from functools import cache
from typing import Annotated, Any, Literal, NotRequired, Required, Union

from pydantic import ConfigDict, Field, TypeAdapter, ValidationError, with_config
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaMode, JsonSchemaValue
from pydantic_core import ErrorDetails, core_schema
from typing_extensions import TypedDict

from muscore.api.openapi_shapes import (
    MANO_OF_THE_RULES,
    NAME,
    SEATS_OF_A_NEW_TABLE,
    SOME_SEAT,
)
from muscore.rules.contract import EndedBy, SideName, Why

#: Closed objects: a key the contract does not know is refused.
CLOSED = ConfigDict(extra="forbid")

Seat = Annotated[str, Field(pattern="^[0-5]$")]
Count = Annotated[int, Field(ge=0)]
ManoSeat = Annotated[int, Field(ge=0, le=5)]
LanceName = Literal["grande", "chica", "pares", "juego", "punto"]
# What the API reads as a client id (muscore.tables.services.checks): printable ASCII.
ClientId = Annotated[str, Field(pattern="^[ -~]{1,100}$")]
# A seat's name as muscore.tables.services.checks reads it (muscore.api.openapi_shapes).
Name = Annotated[str, Field(json_schema_extra=NAME)]
# Piedras tapped by hand: -100..100, never 0.
Taps = Annotated[int, Field(ge=-100, le=100, json_schema_extra={"not": {"const": 0}})]


def _closed(**schema: Any) -> ConfigDict:
    return ConfigDict(extra="forbid", json_schema_extra=schema or None)


# -- the hand record (docs/contract.md) ------------------------------------------------------


class Score(TypedDict):
    """Piedras (or juegos, or vacas) by side: A and B, and in individual play of 3 or more
    one a player (C, D, E, F as the table has them)."""

    A: Count
    B: Count
    C: NotRequired[Count]
    D: NotRequired[Count]
    E: NotRequired[Count]
    F: NotRequired[Count]


@with_config(CLOSED)
class ScoreBefore(TypedDict, total=False):
    """A record's score before the hand: a side left out has 0 (what the engine reads;
    it refuses any other key, and a side its table does not have)."""

    A: Count
    B: Count
    C: Count
    D: Count
    E: Count
    F: Count


@with_config(CLOSED)
class Rules(TypedDict, total=False):
    """The table's options (rules.md, Options); every key optional."""

    players: Annotated[Literal[2, 3, 4, 5, 6], Field(json_schema_extra={"default": 4})]
    reyes: Annotated[Literal[8, 4], Field(json_schema_extra={"default": 8})]
    target: Annotated[int, Field(ge=10, le=100, json_schema_extra={"default": 40})]
    juegos: Annotated[int, Field(ge=1, le=5, json_schema_extra={"default": 2})]
    real31: Annotated[Literal["no", "rey", "figura", "sota"],
                      Field(json_schema_extra={"default": "no"})]
    perete: Annotated[bool, Field(description="The table notes a perete (4 5 6 7: one "
                                              "piedra to its side); written only when true.",
                                  json_schema_extra={"default": False})]
    individual: Annotated[bool | None, Field(
        description="Each plays for himself (sides A..F, one a seat): always with 2, 3 or 5 "
                    "players, asked for with 4 or 6 (rules.md, Individual play); written "
                    "only for individual play of 3 or more. null reads as left out: the "
                    "players' number's own way.",
        json_schema_extra={"default": False})]


@with_config(CLOSED)
class Bet(TypedDict):
    """One bet of a lance: the side that bet and the piedras it adds, or "ordago"."""

    side: SideName
    n: Annotated[int, Field(ge=1)] | Literal["ordago"]


@with_config(CLOSED)
class Lance(TypedDict, total=False):
    """A lance's betting: its bets in order and the answer to the last; in individual play
    of 3 or more, out: the players who left it (no quiero) while another held on."""

    bets: list[Bet]
    end: Literal["quiero", "no_quiero"]
    out: list[SideName]


@with_config(CLOSED)
class Jugada(TypedDict, total=False):
    """What a seat without cards had: its pares and its juego ("no" or the total)."""

    pares: Literal["no", "par", "medias", "duples"]
    juego: Literal["no", 31, 32, 33, 34, 35, 36, 37, 40]


@with_config(CLOSED)
class Declared(TypedDict, total=False):
    """What a seat said: pares sí/no, juego sí/no."""

    pares: bool
    juego: bool


@with_config(CLOSED)
class Lances(TypedDict, total=False):
    """The betting of each lance that was bet."""

    grande: Lance
    chica: Lance
    pares: Lance
    juego: Lance
    punto: Lance


class _Hand(TypedDict, total=False):
    """The keys of a hand, shared by every body that carries one."""

    hands: Annotated[dict[Seat, str], Field(description="Each seat's four cards: \"R R 5 4\".")]
    jugadas: Annotated[dict[Seat, Jugada], Field(description="What a seat without cards had.")]
    winners: Annotated[dict[str, SideName], Field(
        description="The winner of each lance the missing cards leave open.")]
    declared: Annotated[dict[Seat, Declared], Field(
        description="What each seat said (pares sí/no, juego sí/no): a false sí is a lie "
                    "and loses the lance.")]
    lances: Lances


@with_config(_closed(**SOME_SEAT))
class HandRecordBody(_Hand, total=False):
    """A hand as a table plays it, without score and mano (a table or a vaca carries
    those). See docs/contract.md."""


@with_config(_closed(**SOME_SEAT, allOf=[MANO_OF_THE_RULES]))
class HandRecord(_Hand, total=False):
    """One hand record (docs/contract.md): the hand plus rules, mano, score (rules or
    score null: the default, as left out; mano a seat of the table's players). Each seat
    needs its cards (hands) or what it had (jugadas)."""

    rules: Rules | None
    mano: ManoSeat
    score: ScoreBefore | None


@with_config(CLOSED)
class PiedrasTap(TypedDict):
    """Piedras tapped by hand for a side (+1, +5, -1), as on paper."""

    side: SideName
    n: Taps


@with_config(CLOSED)
class PiedrasEntry(TypedDict):
    """Piedras tapped by hand for a side, standing among a vaca's hands (docs/contract.md,
    Piedras entries)."""

    piedras: PiedrasTap


@with_config(CLOSED)
class PereteNoted(TypedDict):
    """A perete (4 5 6 7) shown by a player of a side."""

    side: SideName


@with_config(CLOSED)
class PereteEntry(TypedDict):
    """A perete (4 5 6 7) shown by a player of a side: one piedra to it, scored like a tap
    of 1; only on a table whose rules have perete (docs/contract.md, Perete entries)."""

    perete: PereteNoted


#: A vaca's entry: a dealt hand, a piedras tap or a perete.
Entry = HandRecordBody | PiedrasEntry | PereteEntry


@with_config(_closed(allOf=[MANO_OF_THE_RULES]))
class Vaca(TypedDict):
    """A vaca to replay: its rules, its first mano, its entries in order."""

    rules: NotRequired[Rules | None]
    mano: NotRequired[ManoSeat]
    hands: list[Entry]


# -- a hand's result and a vaca's replay (score() and replay()) -----------------------------


class LanceResult(TypedDict):
    """The side credited in a lance and all it got there (None, 0: nothing credited)."""

    side: SideName | None
    points: int


class Premium(TypedDict):
    """A holder's premium in pares or juego: his seat, jugada and piedras."""

    seat: int
    jugada: str | int
    points: int


class Step(TypedDict):
    """One step of the recuento, with the score after it. ``lance`` is null for the one
    step of piedras tapped by hand or of a perete."""

    lance: LanceName | None
    side: SideName
    points: int
    why: Why
    score: Score
    premiums: NotRequired[list[Premium]]
    stake: NotRequired[int]
    liars: NotRequired[list[int]]


class OrdagoWon(TypedDict):
    """The accepted órdago that ended the juego: its lance, the side it won, the liars."""

    lance: str
    side: SideName
    lies: NotRequired[list[int]]


class Lie(TypedDict):
    """A declaration that was false: the seat, the lance, the seat's side."""

    seat: int
    lance: str
    side: SideName


class Result(TypedDict):
    """A hand's result (score()): the score after it, the juego's winner, how it ended,
    each lance's side and points, the recuento step by step."""

    score: Score
    winner: SideName | None
    ended_by: EndedBy | None
    lances: dict[str, LanceResult]
    recuento: list[Step]
    ordago: NotRequired[OrdagoWon]
    lies: NotRequired[list[Lie]]
    piedras: NotRequired[PiedrasTap]
    perete: NotRequired[PereteNoted]


class ReplayedEntry(TypedDict):
    """One entry of a replayed vaca: its mano and juego, the score after it, the juego's
    winner if it won one, its full result, and for a tap the piedras tapped."""

    mano: int
    juego: int
    score: Score
    winner: SideName | None
    # Always answered; left optional as the document always had it, so that its replay
    # example can leave each entry's long result out.
    result: NotRequired[Result]
    piedras: NotRequired[PiedrasTap]
    perete: NotRequired[PereteNoted]


class VacaResult(TypedDict):
    """replay()'s answer: the entries replayed, the juegos won, the vaca's winner, the
    score now and the next mano."""

    hands: list[ReplayedEntry]
    juegos: Score
    winner: SideName | None
    score: Score
    next_mano: int


class EveningVaca(VacaResult):
    """A vaca of a table: VacaResult plus the table-wide number of its first entry and its
    first mano."""

    first_hand: int
    mano: int


# -- a table --------------------------------------------------------------------------------


@with_config(CLOSED)
class VacaSummary(TypedDict):
    """A finished vaca without its hands: GET /tables/{table_id} answers these by default
    (finished=full gives each vaca whole)."""

    juegos: Score
    winner: SideName | None
    score: Score
    next_mano: int
    first_hand: int
    mano: int
    hand_count: int


class TableState(TypedDict):
    """A table: its names, options, the vaca being played (the replay of its hands, with
    first_hand and mano) and the vacas already won."""

    id: str
    players: list[str]
    rules: Rules
    current: EveningVaca
    finished: list[EveningVaca]
    revision: int


class TableSummary(TypedDict):
    """A table as GET /tables/{table_id} answers it by default: as TableState, but each
    vaca already won is a VacaSummary (no hands)."""

    id: str
    players: list[str]
    rules: Rules
    current: EveningVaca
    finished: list[VacaSummary]
    revision: int


#: A table as a GET or a write answers it: TableSummary (the finished vacas without their
#: hands) by default, TableState with finished=full.
TableAnswer = Union[TableSummary, TableState]  # noqa: UP007 (a name for the document)


class _Links(TypedDict):
    edit_key: str
    view_url: str
    edit_url: str


class CreatedSummary(TableSummary, _Links):
    """A new table (TableSummary) with its edit key, seen once, and its links."""


class CreatedState(TableState, _Links):
    """A new table (TableState, finished=full) with its edit key and its links."""


TableCreated = Union[CreatedSummary, CreatedState]  # noqa: UP007


@with_config(_closed(anyOf=SEATS_OF_A_NEW_TABLE))
class NewTable(TypedDict, total=False):
    """A new table: as many names as its players (rules.players; without it, 2 or 6 names
    make a table of 2 or 6, else 4), its mano one of their seats."""

    # null is the default, as the key left out (what POST /tables does with it).
    players: Annotated[list[Name | None] | None, Field(
        description="Names in speaking order (default A1, B1, A2, B2; a blank or null name "
                    "is its seat's default). Two seats of one name (case, accents and the "
                    "order of the words aside: 'Ana' and 'ana.') are refused: same_names.")]
    rules: Rules | None
    mano: ManoSeat | Literal["random"] | None


class Export(TypedDict):
    """An exported table: POST it to /tables/import to copy it."""

    format: Literal["muscore-table"]
    version: Literal[1]
    rules: Rules
    mano: int
    players: list[str]
    hands: list[Entry]


@with_config(_closed(anyOf=SEATS_OF_A_NEW_TABLE))
class ImportedTable(TypedDict, total=False):
    """An exported table (Export) to copy: a key left out or null is its default, as in
    POST /tables; mano is a seat (not "random")."""

    format: Literal["muscore-table"]
    version: Literal[1]
    rules: Rules | None
    mano: ManoSeat | None
    players: Annotated[list[Name | None] | None, Field(
        description="Names in speaking order, as in POST /tables: two seats of one name are "
                    "refused (same_names).")]
    hands: list[Entry]


class HandEntry(TypedDict):
    """One stored hand: its number and record, and how it replayed."""

    number: int
    record: Entry
    mano: NotRequired[int]
    juego: NotRequired[int]
    score: NotRequired[Score]
    winner: NotRequired[SideName | None]
    result: NotRequired[Result]
    piedras: NotRequired[PiedrasTap]
    perete: NotRequired[PereteNoted]


# -- the writes' bodies ---------------------------------------------------------------------


@with_config(_closed(**SOME_SEAT))
class AddHand(_Hand, total=False):
    """POST /tables/{table_id}/hands: the hand, and which hand it is and its client id
    (null: as left out)."""

    number: Annotated[int, Field(ge=1)] | None
    client_id: ClientId | None


@with_config(_closed(**SOME_SEAT))
class ReplaceHand(_Hand, total=False):
    """PUT /tables/{table_id}/hands/{number}: the hand, and the revision it was read at
    (null: as left out)."""

    revision: int | None


@with_config(CLOSED)
class PiedrasRequest(TypedDict):
    """POST /tables/{table_id}/piedras: the side and its piedras, a retry's client id and
    the board's revision."""

    side: SideName
    n: Taps
    client_id: NotRequired[ClientId | None]
    revision: NotRequired[int | None]


@with_config(CLOSED)
class PereteRequest(TypedDict):
    """POST /tables/{table_id}/perete: the side, a retry's client id and the board's
    revision."""

    side: SideName
    client_id: NotRequired[ClientId | None]
    revision: NotRequired[int | None]


# -- what is not a table --------------------------------------------------------------------


class Preparing(TypedDict):
    """A document not made yet: ask again after retry_after seconds."""

    preparing: bool
    importing: NotRequired[bool]
    message: NotRequired[str]
    retry_after: int


# -- a league (docs/league.md) ---------------------------------------------------------------

#: Two of a match's pairs (indices into the league's pairs), or their juegos, or tantos.
Two = Annotated[list[Count], Field(min_length=2, max_length=2)]


class LeagueMatch(TypedDict, total=False):
    """One vaca between two pairs (indices into pairs): its result is juegos (and tantos),
    a vaca's hands (export), a forfeit, or nothing yet. A knockout's game: `round` its
    tie's round, `tie` and `game` its place in the bracket."""

    round: Annotated[int, Field(ge=1)]
    tie: Annotated[int, Field(ge=1, description=(
        "Knockout only: the tie's place in its round, from 1 (in the last round 1 is the "
        "final, 2 the match for third place)."))]
    game: Annotated[int, Field(ge=1, description=(
        "Knockout only: the game's number in its tie, from 1."))]
    pairs: Required[Two]
    juegos: Two
    tantos: Two
    vaca: dict[str, object]
    forfeit: Count | Literal["both"]
    players: Annotated[list[list[str] | None], Field(min_length=2, max_length=2)]


class StandingsRow(TypedDict):
    """A pair's line of the standings."""

    position: int
    pair: int
    name: str
    played: int
    won: int
    lost: int
    forfeits: int
    points: int
    juegos_for: int
    juegos_against: int
    tantos_for: int
    tantos_against: int
    group: NotRequired[Annotated[str, Field(description="Groups + knockout only: the group.")]]


class LeagueFormat(TypedDict, total=False):
    """Groups, ceros and a knockout only (docs/league.md, the format): what kind of
    competition it is."""

    kind: Required[Literal["liguilla", "groups", "ceros", "knockout"]]
    groups: Literal[2, 4]
    ceros: Annotated[int, Field(ge=1, le=5)]
    best_of: Annotated[int, Field(ge=1, description=(
        "Knockout only: the games a tie is played to the best of (1, 3...)."))]
    third: Annotated[bool, Field(description="Knockout only: a match for third place.")]


class BracketTie(TypedDict):
    """A knockout's tie (docs/league.md, the knockout): its round and place, its two pairs
    (null: not known yet, or a bye's missing pair), the games each has won, the pair that
    went through (null: not decided yet)."""

    round: Annotated[int, Field(ge=1)]
    tie: Annotated[int, Field(ge=1)]
    pairs: Annotated[list[Count | None], Field(min_length=2, max_length=2)]
    wins: Two
    winner: Count | None


class LeaguePoints(TypedDict, total=False):
    """The points of a win, a loss and a forfeit."""

    win: int
    loss: int
    forfeit: int


class LeaguePair(TypedDict):
    """A pair: its name and its players."""

    name: str
    players: list[str]


class League(TypedDict):
    """A league as docs/league.md writes it."""

    name: str
    format: NotRequired[LeagueFormat]
    rules: Rules
    points: LeaguePoints
    legs: Literal[1, 2]
    draw: Annotated[list[Count | None], Field(description=(
        "The order of the draw (pair indices); a knockout's places in its bracket, null "
        "for a bye."))]
    pairs: list[LeaguePair]
    matches: list[LeagueMatch]
    standings: NotRequired[Annotated[list[StandingsRow], Field(description=(
        "The API's document, every kind but a knockout."))]]
    bracket: NotRequired[Annotated[list[BracketTie], Field(description=(
        "The API's document of a knockout, in place of standings: its ties in bracket "
        "order."))]]


class Championship(TypedDict):
    """A championship (its venues, quotas and phases, each competition in docs/league.md's
    form), a page of its venues at a time."""

    id: int
    name: str
    sedes: list[object]
    page: dict[str, object]
    phases: list[object]


class Error(TypedDict):
    """Every error: RFC 9457 problem details (application/problem+json) with the
    refusal's `code`, and `error`, its English words (a program matches `code`; `detail`
    says it in the language Accept-Language asks for, and so does `message` when that is
    not English). Some carry more: `hand` (409, the stored hand), `revision` (409, the
    table's current revision), `number` (400, the later hand a change would break),
    `retry_after` (429, seconds), `standings_csv`, `matches_csv` and `export` (409, a
    ceros tournament's documents)."""

    type: str
    title: str
    status: int
    detail: str
    code: str
    error: str
    message: NotRequired[str]
    hand: NotRequired[dict[str, object]]
    revision: NotRequired[int]
    number: NotRequired[int]
    retry_after: NotRequired[int]
    standings_csv: NotRequired[str]
    matches_csv: NotRequired[str]
    export: NotRequired[str]


# The types the document names, under the names it gives them.
NAMED: dict[str, object] = {
    "Error": Error,
    "Rules": Rules, "Lance": Lance, "HandRecordBody": HandRecordBody,
    "PiedrasEntry": PiedrasEntry, "PereteEntry": PereteEntry, "HandRecord": HandRecord,
    "Step": Step, "Result": Result, "Vaca": Vaca, "VacaResult": VacaResult,
    "TableState": TableState, "VacaSummary": VacaSummary, "TableSummary": TableSummary,
    "TableAnswer": TableAnswer, "TableCreated": TableCreated, "NewTable": NewTable,
    "Export": Export, "ImportedTable": ImportedTable, "HandEntry": HandEntry,
    "AddHand": AddHand, "ReplaceHand": ReplaceHand, "PiedrasRequest": PiedrasRequest,
    "PereteRequest": PereteRequest, "Preparing": Preparing, "League": League,
    "LeagueMatch": LeagueMatch, "StandingsRow": StandingsRow, "BracketTie": BracketTie,
    "Championship": Championship,
}
# The unions' descriptions (a TypedDict's is its docstring).
UNION_DESCRIPTIONS = {
    "TableAnswer": "A table as a GET or a write answers it: TableSummary (the finished vacas "
                   "without their hands) by default, TableState with finished=full.",
    "TableCreated": "A new table as POST /tables and /tables/import answer it: the table "
                    "with its edit key (seen once) and its links.",
}
REF = "#/components/schemas/{model}"


class _Document(GenerateJsonSchema):
    """pydantic's JSON Schema, as the document writes it: no titles (the component's name
    says it), a TypedDict's docstring as its description."""

    def field_title_should_be_set(self, schema: object) -> bool:
        return False

    def typed_dict_schema(self, schema: core_schema.TypedDictSchema) -> JsonSchemaValue:
        out = super().typed_dict_schema(schema)
        out.pop("title", None)
        if "description" in out:  # a docstring's lines, as one
            out["description"] = " ".join(out["description"].split())
        return out

    def dict_schema(self, schema: core_schema.DictSchema) -> JsonSchemaValue:
        # A dict keyed by seats: every key a seat (propertyNames), not only the keys that
        # are seats checked (patternProperties lets "9" through).
        out = super().dict_schema(schema)
        patterns = out.get("patternProperties")
        if isinstance(patterns, dict) and len(patterns) == 1:
            (pattern, values), = patterns.items()
            del out["patternProperties"]
            out["propertyNames"] = {"pattern": pattern}
            out["additionalProperties"] = values
        return out


@cache
def _adapter(kind: Any) -> TypeAdapter[object]:  # kind: a TypeForm (TypeAdapter's)
    return TypeAdapter(kind)


@cache
def _components() -> dict[str, JsonSchemaValue]:
    validation: JsonSchemaMode = "validation"
    inputs = [(name, validation, _adapter(kind)) for name, kind in NAMED.items()]
    tops, defs = TypeAdapter.json_schemas(inputs, ref_template=REF, schema_generator=_Document)
    schemas: dict[str, JsonSchemaValue] = dict(defs.get("$defs", {}))
    for (name, _mode), schema in tops.items():
        if schema.get("$ref") != REF.format(model=name):
            schemas[name] = {**schema, "description": UNION_DESCRIPTIONS[name]}
    for schema in schemas.values():
        schema.pop("title", None)
    return schemas


def components() -> dict[str, JsonSchemaValue]:
    """The document's component schemas, written by pydantic from the types above (a
    fresh copy: callers may change it)."""
    import copy

    return copy.deepcopy(_components())


# -- a request checked against its type ------------------------------------------------------


def refusals(kind: object, data: Mapping[str, object]) -> list[ErrorDetails]:
    """What the contract refuses in ``data`` read as ``kind`` (pydantic's errors, in
    strict mode: a JSON number with a fraction is no whole number, "3" is no number), or
    []. The caller says which it answers itself (muscore.api.tables.BadRequest) and which
    it leaves to the engine and the services, whose words a player reads."""
    try:
        _adapter(kind).validate_python(data, strict=True)
    except ValidationError as refused:
        return refused.errors(include_url=False)
    return []
