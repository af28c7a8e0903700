"""Production logging: one line format the operator chooses, every time in UTC with its
offset, the request's id or the worker's on every line, and no edit key in any line.

`LOG_FORMAT=text` (the default): `2026-12-07T02:36:54.327+00:00 WARNING [rid] logger: message`
for Django's lines, the workers' (`[worker:ID]`), uvicorn's and gunicorn's own; gunicorn's
access lines in Apache's combined format with their time in UTC (`+0000`), the time taken
and `rid=<id>`. `LOG_FORMAT=json`: one JSON object a line for all of them (`time`, `level`,
`logger`, `message`, `request_id` or `worker`, `exception`; an access line's fields by
name), for a log shipper that reads JSON.

Django's loggers (settings.LOGGING) and gunicorn's (muscore/gunicorn_conf.py) both
write through a `KeyMaskingFormatter`, which replaces the secret part of an edit link
(`/t/<id>/k/<key>/` becomes `/t/<id>/k/***/`) in the whole formatted line: the
message, its arguments and any traceback. Logs are read by more people than the
players who hold the links, and whoever holds an edit link can change the table.

This module imports nothing from Django, so gunicorn's master process can load
`GunicornLogger` before the app exists.
"""

from __future__ import annotations

import json
import logging
import os
import re
import time
import uuid
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

from gunicorn.glogging import Logger as _GunicornLogger

# The secret is everything between /k/ and the next slash (or the end of the path).
EDIT_KEY_IN_PATH = re.compile(r"(/t/[^/\s?#\"']+/k/)[^/\s?#\"']+")
# An organiser's invitation or new-password link (muscore.clubs): whoever holds its token
# sets the password, so it is a secret as much as an edit key.
PASSWORD_TOKEN_IN_PATH = re.compile(r"(/cuentas/clave/[^/\s?#\"']+/)[^/\s?#\"']+")
# A pair's link to a league match (muscore.leagues.confirmations): it enters and confirms
# the match's result.
PAIR_KEY_IN_PATH = re.compile(r"(/partida/\d+/resultado/)[^/\s?#\"']+")
# A championship entry's confirmation link (muscore.championships.confirm): it confirms
# the pair's entry and takes a seat.
ENTRY_KEY_IN_PATH = re.compile(r"(/campeonatos/\d+/confirmar/\d+/)[^/\s?#\"']+")
MASK = "***"

# A request id sent by the proxy (nginx's $request_id, a load balancer's trace id) is
# kept only if it is short and plain, so that a client cannot write into the logs.
REQUEST_ID_HEADER = "X-Request-ID"
VALID_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")

request_id: ContextVar[str] = ContextVar("muscore_request_id", default="-")
# A background worker's id (manage.py rating_worker sets it): on each of its lines, where a
# request's lines carry the request's id.
_worker = ""


def set_worker(worker_id: str) -> None:
    """Name this process's worker on every log line it writes from now on."""
    global _worker
    _worker = worker_id


def worker() -> str:
    return _worker


def mask_keys(text: str) -> str:
    """`text` with the edit key of every table link (and the token of every new-password
    link, the key of every pair's link to a match) in it replaced by ***."""
    text = EDIT_KEY_IN_PATH.sub(rf"\g<1>{MASK}", text)
    text = PAIR_KEY_IN_PATH.sub(rf"\g<1>{MASK}", text)
    text = ENTRY_KEY_IN_PATH.sub(rf"\g<1>{MASK}", text)
    return PASSWORD_TOKEN_IN_PATH.sub(rf"\g<1>{MASK}", text)


def incoming_or_new_request_id(value: str | None) -> str:
    """The proxy's request id when it is a plain token, else a new random one."""
    if value and VALID_REQUEST_ID.fullmatch(value):
        return value
    return uuid.uuid4().hex


class RequestIdFilter(logging.Filter):
    """Gives every record the id of the request being answered ("-" outside one).

    Django's django.request lines for a 4xx (and a 5xx) are written once the response has
    left every middleware, the context's id already reset: they carry the request, and
    RequestIdMiddleware wrote the id on it too.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            rid = request_id.get()
            if rid == "-":
                rid = getattr(getattr(record, "request", None), "muscore_request_id", "-")
            if rid == "-" and _worker:
                rid = f"worker:{_worker}"
            record.request_id = rid
        return True


class KeyMaskingFormatter(logging.Formatter):
    """A formatter whose output never holds an edit key.

    With `inner` it masks what that formatter writes (gunicorn's own formats);
    otherwise it formats as logging.Formatter does, then masks.
    """

    def __init__(self, *args: Any, inner: logging.Formatter | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.inner = inner

    def format(self, record: logging.LogRecord) -> str:
        text = self.inner.format(record) if self.inner else super().format(record)
        return mask_keys(text)


LOG_FORMATS = ("text", "json")
TEXT_FORMAT = "%(asctime)s %(levelname)s [%(request_id)s] %(name)s: %(message)s"


def log_format() -> str:
    """The operator's choice of LOG_FORMAT (settings.py refuses any other value)."""
    value = os.environ.get("LOG_FORMAT", "text").strip().lower()
    return value if value in LOG_FORMATS else "text"


def utc(created: float) -> str:
    """A record's time in UTC with its offset, to the millisecond (ISO 8601)."""
    return datetime.fromtimestamp(created, UTC).isoformat(timespec="milliseconds")


class TextFormatter(KeyMaskingFormatter):
    """LOG_FORMAT=text: TEXT_FORMAT, its time in UTC with the offset."""

    def __init__(self, fmt: str | None = TEXT_FORMAT, *args: Any, **kwargs: Any) -> None:
        super().__init__(fmt, *args, **kwargs)

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        return utc(record.created)


class JsonFormatter(KeyMaskingFormatter):
    """LOG_FORMAT=json: one object a line. A request's lines carry `request_id`, a worker's
    `worker`; gunicorn's access lines their fields by name (`access`)."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {"time": utc(record.created), "level": record.levelname,
                                "logger": record.name, "message": record.getMessage()}
        rid = getattr(record, "request_id", "-")
        if rid.startswith("worker:"):
            line["worker"] = rid.removeprefix("worker:")
        elif rid != "-":
            line["request_id"] = rid
        line.update(getattr(record, "access", {}))
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return mask_keys(json.dumps(line, ensure_ascii=False, default=str))


def line_formatter() -> KeyMaskingFormatter:
    return JsonFormatter() if log_format() == "json" else TextFormatter()


class GunicornLogger(_GunicornLogger):  # type: ignore[misc]
    """gunicorn's logger in the site's format (LOG_FORMAT), in UTC, masking edit keys.

    gunicorn writes the raw request line, path and Referer to its access log, and
    the path of a request that broke a worker to its error log; its own lines are written
    like the app's (with the request's id when one is being answered), and its access
    lines in Apache's combined format (text) or as JSON.
    """

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        for handler in self.error_log.handlers:
            handler.setFormatter(line_formatter())
            if not any(isinstance(f, RequestIdFilter) for f in handler.filters):
                handler.addFilter(RequestIdFilter())
        for handler in self.access_log.handlers:
            handler.setFormatter(JsonFormatter() if log_format() == "json"
                                 else KeyMaskingFormatter("%(message)s"))

    def now(self) -> str:
        """The access line's time (Apache's `%t`), in UTC."""
        return time.strftime("[%d/%b/%Y:%H:%M:%S +0000]", time.gmtime())

    def access(self, resp: Any, req: Any, environ: Any, request_time: Any) -> None:
        if log_format() != "json":
            super().access(resp, req, environ, request_time)
            return
        if not self.access_log_enabled:
            return
        atoms = self.atoms(resp, req, environ, request_time)
        rid = atoms.get("{x-request-id}o", "-")
        fields = {"remote": atoms["h"], "method": atoms["m"], "path": environ.get("RAW_URI"),
                  "protocol": atoms["H"], "status": int(atoms["s"]), "bytes": atoms["B"],
                  "referer": atoms["f"], "user_agent": atoms["a"], "duration_ms": atoms["M"]}
        self.access_log.info("%s %s", atoms["r"], atoms["s"],
                             extra={"access": fields, "request_id": rid})
