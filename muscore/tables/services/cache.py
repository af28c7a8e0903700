"""The state's JSON text, read from the stored vacas without parsing them, and kept in
Django's cache per (table, revision, epoch): a restore changes the epoch.

The reads (`read_state`, `board_state`, `table_state`) take it from the cache or the
stored vacas; a write answers `stored_text` of the vacas it stored, inside its lock,
and keeps it for the next read (`keep_text`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Literal, cast

from django.core.cache import cache
from django.db import transaction

from muscore.tables.models import Table, VacaCheckpoint
from muscore.tables.services.reads import current_rows, table_revision
from muscore.tables.services.replay import summary_of
from muscore.tables.services.stored import lock_table
from muscore.tables.state import (
    BoardState,
    TableState,
)

# The state cache (Django's "default" cache) keeps a state's JSON text for a while, and
# only a text up to this size: a longer table is read from its stored vacas, which
# costs one query and no replay. The cache's own limits bound the total.
STATE_CACHE_SECONDS = 600
STATE_CACHE_MAX_CHARS = 64 * 1024


def _state_text(table: Table, texts: list[str]) -> str:
    """The state's JSON text from the stored vacas' texts, none of them parsed again.

    The same text as json.dumps of {"id", "players", "rules", "current", "finished",
    "revision"}: what JsonResponse would send."""
    head = json.dumps({"id": table.id, "players": list(table.players), "rules": dict(table.rules)})
    finished = ", ".join(texts[:-1])
    return (
        f'{head[:-1]}, "current": {texts[-1]}, "finished": [{finished}], '
        f'"revision": {int(table.revision)}}}'
    )


def _texts(table: Table) -> list[str]:
    return list(
        VacaCheckpoint.objects.filter(table_id=table.pk)
        .order_by("index")
        .values_list("result", flat=True)
    )


# What a read gives, each cached under its own key: the whole state ("state", the API's
# ?finished=full and the pages that list every hand), the API's default read ("summary":
# the finished vacas without their hands) and the board's ("board": the same, plus the
# last finished vaca whole when the board shows its end).
READ_KINDS = ("state", "summary", "board")
# How a write answers: the whole state ("full", the Python API's default) or the API's
# default read ("summary": no hands of the finished vacas, so a write on a full table
# answers what one on a short table does).
Finished = Literal["summary", "full"]
# Which read a write's answer is, and the cache entry it fills.
ANSWER_KIND: dict[Finished, str] = {"full": "state", "summary": "summary"}


@dataclass(frozen=True)
class StateText:
    """A table's state as the API sends it: its JSON text (built from the stored vacas'
    texts, cached per revision, never parsed to be sent) and its revision (the ETag).

    `state` parses the text at the first look, for a caller that reads inside it."""

    text: str
    revision: int

    @cached_property
    def state(self) -> TableState:
        return cast(TableState, json.loads(self.text))


def cache_key(table: Table, kind: str = "state") -> str:
    """Where read `kind` of the table's revision is cached."""
    # The epoch changes at a restore: a state cached before it is never read again.
    name = "table-state" if kind == "state" else f"table-{kind}"
    return f"muscore:{name}:{table.pk}:{table.revision}:{table.epoch}"


def keep_text(table: Table, text: str, kind: str = "state") -> None:
    """Cache `text` as read `kind` of the table's revision, if it is short enough."""
    # Bounded per entry: a long table's state is read from its stored vacas instead.
    if len(text) <= STATE_CACHE_MAX_CHARS:
        cache.set(cache_key(table, kind), text, STATE_CACHE_SECONDS)


def _summary_text(table: Table, *, board: bool) -> str | None:
    """The state's JSON text with each finished vaca's summary instead of the vaca (and,
    for the board, "last_finished"), from the stored vacas: two queries whatever the
    table's length. The hands of a finished vaca are read only when the board shows
    its end (the current vaca has no hands yet). None when nothing is stored."""
    rows = list(
        VacaCheckpoint.objects.filter(table_id=table.pk)
        .order_by("index")
        .values_list("index", "hand_count", "summary")
    )
    if not rows:
        return None
    current = rows[-1][0]
    shows_end = rows[-1][1] == 0 and len(rows) > 1
    last = rows[-2][0] if shows_end and board else None
    # A row stored before the summary column (and not yet filled) gives it from its vaca.
    wanted = {current, *(index for index, _count, text in rows[:-1] if not text)}
    if last is not None:
        wanted.add(last)
    texts = dict(
        VacaCheckpoint.objects.filter(table_id=table.pk, index__in=wanted).values_list(
            "index", "result"
        )
    )
    summaries = ", ".join(
        text or json.dumps(summary_of(json.loads(texts[index])))
        for index, _count, text in rows[:-1]
    )
    head = json.dumps({"id": table.id, "players": list(table.players), "rules": dict(table.rules)})
    extra = ""
    if board:
        extra = f', "last_finished": {texts[last] if last is not None else "null"}'
    return (
        f'{head[:-1]}, "current": {texts[current]}, "finished": [{summaries}]{extra}, '
        f'"revision": {int(table.revision)}}}'
    )


def _board_from_summary(table: Table) -> str | None:
    """The board's text from the API's default read of the same revision, when cached (a
    write leaves its answer there, so the first drawing of a live board after a save reads
    no stored vaca): the same text with "last_finished", null while the board shows no
    vaca's end. None when it is not cached, or the board shows an end (the last finished
    vaca is needed whole)."""
    text = cache.get(cache_key(table, "summary"))
    if not isinstance(text, str):
        return None
    state = json.loads(text)
    if state["finished"] and not state["current"]["hands"]:
        return None
    at = text.rindex(', "revision": ')
    return f'{text[:at]}, "last_finished": null{text[at:]}'


# Each read built from the stored vacas (None: nothing stored yet).
_BUILD: dict[str, Callable[[Table], str | None]] = {
    "state": lambda t: _state_text(t, texts) if (texts := _texts(t)) else None,
    "summary": lambda t: _summary_text(t, board=False),
    "board": lambda t: _board_from_summary(t) or _summary_text(t, board=True),
}


def stored_text(table: Table, kind: str) -> str:
    """Read `kind` of a table whose stored vacas are current (inside its write lock),
    built from them: what a write answers."""
    text = _BUILD[kind](table)
    assert text is not None, "the write lock made the stored vacas current"
    return text


def _read(table: Table, kind: str, fresh: bool = False) -> StateText:
    """A read (`kind` of READ_KINDS), from the cache or the stored vacas: no replay, and the
    revision checked again after reading so that a write landing in between is never
    half seen. ``fresh``: ``table`` was read just now, its row is not read again first."""
    for row in current_rows(table, fresh):
        text = cache.get(cache_key(row, kind))
        if isinstance(text, str):
            return StateText(text, row.revision)
        text = _BUILD[kind](row)
        if text is None:
            break
        if table_revision(row.pk) == row.revision:
            keep_text(row, text, kind)
            return StateText(text, row.revision)
    # Vacas to replay first, or a storm of writes: read inside the lock, always consistent.
    with transaction.atomic():
        row = lock_table(table.pk)
        text = stored_text(row, kind)
    keep_text(row, text, kind)
    return StateText(text, row.revision)


def read_state(table: Table, finished: Finished = "full") -> StateText:
    """The table's state as the API sends it, from the cache or the stored vacas: no replay,
    no parsing. "full": every hand of every vaca (table_state's shape); "summary" (the
    API's default read): each finished vaca's summary (VacaSummary: no hands) in
    "finished", a cost that does not grow with the hands of the finished vacas."""
    return _read(table, ANSWER_KIND[finished])


def board_state(table: Table, fresh: bool = False) -> BoardState:
    """What the board draws (BoardState): the current vaca, the finished vacas' summaries,
    and the last finished vaca whole only when the board shows its end. Never replays,
    and never reads the hands of the other finished vacas. ``fresh``: ``table`` was read
    just now (a live screen's drawing), its row is not read again."""
    return cast(BoardState, json.loads(_read(table, "board", fresh).text))


def table_state(table: Table) -> TableState:
    """The API's GET shape: {"id","players","rules","current","finished","revision"}.

    Each vaca is muscore.rules.replay's output plus "first_hand" (the table-wide
    number of its first hand) and "mano" (its first mano). The hand at index i
    of a vaca is table-wide hand number first_hand + i.
    """
    return read_state(table).state
