"""Production logging: request ids on every line, and no edit key in any line.

Django's loggers (settings.LOGGING) and gunicorn's (muscore/gunicorn_conf.py) both
write through `KeyMaskingFormatter`, which replaces the secret part of an edit link
(`/t/<id>/k/<key>/` becomes `/t/<id>/k/***/`) in the whole formatted line: the
message, its arguments and any traceback. Logs are read by more people than the
players who hold the links, and whoever holds an edit link can change the table.

This module imports nothing from Django, so gunicorn's master process can load
`GunicornLogger` before the app exists.
"""

from __future__ import annotations

import logging
import re
import uuid
from contextvars import ContextVar
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


class GunicornLogger(_GunicornLogger):  # type: ignore[misc]
    """gunicorn's logger with every handler (access and error log) masking edit keys.

    gunicorn writes the raw request line, path and Referer to its access log, and
    the path of a request that broke a worker to its error log.
    """

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            for handler in log.handlers:
                if not isinstance(handler.formatter, KeyMaskingFormatter):
                    handler.setFormatter(KeyMaskingFormatter(inner=handler.formatter))
