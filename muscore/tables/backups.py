"""What a backup holds, and how it is read as one snapshot and written whole.

Every model of every installed app is backed up, except the few named in `DERIVED`
with why: what migrate makes (content types, permissions), what restore makes again
(the stored vacas, a competition's prepared documents and their queue) and the
sessions (a session names its account by id, which a restore does not keep: everybody
signs in again). `tests/tables/test_backup_models.py` fails on a model of any app that
is in neither list, so a new app or model is backed up from the day it is added.

The rows are read in one read transaction (`snapshot`): REPEATABLE READ on PostgreSQL,
a deferred (read) transaction on SQLite, whose WAL keeps serving it the database as it
was when it began while writers go on. An account made during the backup is therefore
either in the file with its clubs or in neither.

A backup is read back one object at a time (`read`): a restore never holds the whole file
in memory (a 221 MB backup of the large club was parsed whole twice and took 2 GB).

The file is written beside its target under a temporary name and renamed once whole
(`AtomicFile`): on Linux as an unnamed file (O_TMPFILE), so even a backup killed with
SIGKILL leaves nothing; elsewhere a `.backup-*.json` that SIGTERM, SIGINT and SIGHUP
remove.

This module reads the models through Django's app registry and imports none of the
apps above the tables (`.importlinter`).
"""

from __future__ import annotations

import contextlib
import datetime
import json
import os
import signal
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import IO, Any, Protocol

from django.apps import AppConfig, apps
from django.core import serializers
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.db.models import Model

#: Models a backup leaves out, with why: each is made again (by migrate, by restore, by
#: the worker) or is not worth keeping across a restore.
DERIVED: dict[str, str] = {
    "contenttypes.contenttype": "made by migrate (rows name them by app and model)",
    "auth.permission": "made by migrate (groups and accounts name them by codename)",
    "sessions.session": "a login names its account by id, which a restore does not keep: "
                        "everybody signs in again",
    "tables.vacacheckpoint": "the stored vacas: restore replays them from the hands",
    "leagues.preparedpart": "a competition's prepared export: the worker makes it again",
    "leagues.documentbacklog": "the worker's queue of documents: restore queues every "
                               "competition",
    "django_tasks_database.dbtaskresult": "the workers' tasks: made again from the backlogs, the "
                                    "truth of what waits (muscore.leagues.tasks.dispatch)",
    "leagues.workerbeat": "the heartbeat of the workers running now, not of the restored site",
    "leagues.workclaim": "which running worker holds a piece of work: none after a restore",
}
#: The accounts: matched by username on restore, never deleted by it.
ACCOUNTS = ("auth.user", "auth.group")
CHUNK = 2000
#: How much of a backup is read at a time, and the longest one object of it may be.
READ_SIZE = 1 << 20
OBJECT_MAX = 64 << 20
_SPACE = " \t\n\r"


class Writer(Protocol):
    def write(self, text: str, /) -> object: ...


class ExactEncoder(DjangoJSONEncoder):
    """Times to the microsecond: Django's encoder cuts them to the millisecond, and a
    restored result or hand would then read differently (its time on the pages, the
    order of two writes in the same millisecond)."""

    def default(self, o: Any) -> Any:
        if isinstance(o, (datetime.datetime, datetime.time)):
            return o.isoformat()
        return super().default(o)


def backed_up_models() -> list[type[Model]]:
    """Every model a backup holds, in an order loaddata can follow (what is named by a
    natural key before what names it)."""
    app_list: list[tuple[AppConfig, list[type[Model]] | None]] = [
        (config, None) for config in apps.get_app_configs()]
    return [model for model in serializers.sort_dependencies(app_list, allow_cycles=True)
            if model._meta.label_lower not in DERIVED and not model._meta.proxy
            and model._meta.managed]


def restored_models() -> list[type[Model]]:
    """What restore empties first (or finds empty): every model a backup holds but the
    accounts, and the derived rows that hang on them (the stored vacas, the documents)."""
    keep = set(ACCOUNTS) | {"contenttypes.contenttype", "auth.permission", "sessions.session"}
    return [model for model in apps.get_models(include_auto_created=True)
            if model._meta.label_lower not in keep and model._meta.managed
            and not model._meta.proxy
            and not (model._meta.auto_created and _through_of_accounts(model))]


def _through_of_accounts(model: type[Model]) -> bool:
    """An account's groups and permissions (auth_user_groups...): they go with the account."""
    return model._meta.app_label == "auth"


@contextlib.contextmanager
def snapshot() -> Iterator[None]:
    """One read transaction: every query inside sees the database as it was at the first.

    PostgreSQL: REPEATABLE READ, READ ONLY. SQLite: a DEFERRED transaction (the site's are
    IMMEDIATE, which would take the write lock and hold up every writer for the whole
    backup); in WAL mode it is a read snapshot that writers do not wait for.
    """
    if connection.in_atomic_block:  # already one transaction (a test's): nothing to set
        with transaction.atomic():
            yield
        return
    if connection.vendor == "sqlite":
        connection.ensure_connection()
        mode = connection.transaction_mode  # type: ignore[attr-defined]
        connection.transaction_mode = "DEFERRED"  # type: ignore[attr-defined]
        try:
            with transaction.atomic():
                yield
        finally:
            connection.transaction_mode = mode  # type: ignore[attr-defined]
        return
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


def rows(model: type[Model]) -> Iterator[list[Model]]:
    """A model's rows by primary key, a chunk at a time."""
    chunk: list[Model] = []
    for row in model._default_manager.order_by(model._meta.pk.name).iterator(CHUNK):
        chunk.append(row)
        if len(chunk) == CHUNK:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def write(stream: Writer, *, with_passwords: bool) -> dict[str, int]:
    """Write every backed-up row to `stream` as Django's JSON fixture format, inside one
    snapshot; answer how many rows of each model were written."""
    counts: dict[str, int] = {}
    first = True
    stream.write("[")
    with snapshot():
        for model in backed_up_models():
            label = model._meta.label_lower
            counts[label] = 0
            for chunk in rows(model):
                for item in serializers.serialize(
                        "python", chunk, use_natural_foreign_keys=True,
                        use_natural_primary_keys=True):
                    if label == "auth.user" and not with_passwords:
                        item["fields"].pop("password", None)
                    stream.write(("\n" if first else ",\n")
                                 + json.dumps(item, cls=ExactEncoder, ensure_ascii=False))
                    first = False
                counts[label] += len(chunk)
    stream.write("\n]\n")
    return counts


def read(stream: IO[str]) -> Iterator[Any]:
    """The values of the JSON array ``stream`` holds, one at a time, read a megabyte at a
    time (any layout of white space: `write`'s, dumpdata's, one line). ValueError when it
    is not one JSON array, or holds a value longer than OBJECT_MAX characters."""
    reader = _Reader(stream)
    if reader.peek() != "[":
        reader.value()  # not JSON: its error; JSON: not an array
        raise NotAnArray("a JSON value that is not an array")
    reader.take()
    if reader.peek() == "]":
        reader.take()
    else:
        while True:
            yield reader.value()
            found = reader.take()
            if found == "]":
                break
            if found != ",":
                raise ValueError(f"Expecting ',' or ']', not {found or 'the end'!r}")
    if reader.peek():
        raise ValueError("Extra data after the array")


class NotAnArray(ValueError):
    """JSON, but not the array of objects a backup is."""


class _Reader:
    """A text stream read a chunk at a time, the unread rest of the last chunks kept."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.buffer = ""
        self.at = 0
        self.ended = False
        self.decoder = json.JSONDecoder()

    def more(self) -> bool:
        if self.ended:
            return False
        chunk = self.stream.read(READ_SIZE)
        self.ended = not chunk
        self.buffer, self.at = self.buffer[self.at:] + chunk, 0
        if len(self.buffer) > OBJECT_MAX:
            raise ValueError(f"a value of over {OBJECT_MAX} characters")
        return bool(chunk)

    def peek(self) -> str:
        """The next character that is not white space ("" at the end)."""
        while True:
            while self.at < len(self.buffer) and self.buffer[self.at] in _SPACE:
                self.at += 1
            if self.at < len(self.buffer):
                return self.buffer[self.at]
            if not self.more():
                return ""

    def take(self) -> str:
        found = self.peek()
        self.at += len(found)
        return found

    def value(self) -> Any:
        self.peek()
        while True:
            try:
                value, self.at = self.decoder.raw_decode(self.buffer, self.at)
                return value
            except json.JSONDecodeError:
                if not self.more():  # not a value cut by the chunk's end: a wrong one
                    raise


class AtomicFile:
    """A file that appears under its name whole or not at all.

    Written as an unnamed file in the target's folder where the system has them (Linux's
    O_TMPFILE: nothing to remove if the process is killed), else as `.backup-*.json`
    beside it, removed on SIGTERM, SIGINT and SIGHUP as on any error. `commit` links or
    renames it to the target.
    """

    SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)

    def __init__(self, target: Path) -> None:
        self.target = target
        self.temp: str | None = None
        self.fd = self._unnamed(target.parent)
        if self.fd is None:
            self.fd, self.temp = tempfile.mkstemp(
                prefix=".backup-", suffix=".json", dir=target.parent)
        self.stream = os.fdopen(self.fd, "w", encoding="utf-8")
        self.previous: dict[int, Any] = {}

    @staticmethod
    def _unnamed(folder: Path) -> int | None:
        flag = getattr(os, "O_TMPFILE", 0)
        if not flag or not Path("/proc/self/fd").is_dir():
            return None
        try:
            return os.open(folder, flag | os.O_WRONLY, 0o600)
        except OSError:  # the file system has none (some network and overlay ones)
            return None

    def __enter__(self) -> AtomicFile:
        if threading.current_thread() is not threading.main_thread():
            return self  # only the main thread may set handlers (a test's thread)
        for number in self.SIGNALS:
            self.previous[number] = signal.signal(number, self._killed)
        return self

    def _killed(self, number: int, frame: FrameType | None) -> None:
        self.discard()
        raise SystemExit(128 + number)

    def commit(self) -> None:
        self.stream.flush()
        os.fsync(self.stream.fileno())
        if self.temp is None:
            # An unnamed file gets a name of its own first: link() does not replace.
            fd, named = tempfile.mkstemp(prefix=".backup-", suffix=".json",
                                         dir=self.target.parent)
            os.close(fd)
            os.unlink(named)
            # linkat(2) through /proc, as open(2) says (os.link calls plain link(2), which
            # does not follow the magic link, unless given a folder's descriptor).
            proc = os.open("/proc/self/fd", os.O_RDONLY)
            try:
                os.link(str(self.stream.fileno()), named, src_dir_fd=proc,
                        follow_symlinks=True)
            finally:
                os.close(proc)
            self.temp = named
        os.chmod(self.temp, 0o600)
        os.replace(self.temp, self.target)
        self.temp = None

    def discard(self) -> None:
        if self.temp is not None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.temp)
            self.temp = None

    def __exit__(self, *exc: object) -> None:
        try:
            self.stream.close()
        finally:
            self.discard()
            for number, handler in self.previous.items():
                signal.signal(number, handler)
