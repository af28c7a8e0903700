"""A server-sent events client for the tests: one stream over real HTTP, read event by
event with a deadline (http.client, as a phone's EventSource reads it)."""

from __future__ import annotations

import http.client
import json
import time
import urllib.parse
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Event:
    name: str
    data: str
    id: str = ""
    retry: int | None = None

    def json(self) -> Any:
        return json.loads(self.data)


@dataclass
class Stream:
    """``GET /events/`` on ``base`` for the screen polled at ``url``."""

    base: str
    url: str
    language: str = "es"
    etag: str = ""
    last_event_id: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    status: int = 0
    response_headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""

    def __post_init__(self) -> None:
        parts = urllib.parse.urlsplit(self.base)
        self.connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
        query = urllib.parse.urlencode({"u": self.url, "lang": self.language,
                                        "etag": self.etag})
        headers = {"Accept": "text/event-stream", **self.headers}
        if self.last_event_id:
            headers["Last-Event-ID"] = self.last_event_id
        self.connection.request("GET", f"/events/?{query}", headers=headers)
        self.response = self.connection.getresponse()
        self.status = self.response.status
        self.response_headers = {k.lower(): v for k, v in self.response.getheaders()}
        if self.status != 200:
            self.body = self.response.read()
        self.buffer = b""
        self.comments = 0

    def next(self, timeout: float = 10) -> Event | None:
        """The next event within ``timeout`` seconds (heartbeats counted, not returned);
        None when the stream ended or nothing came."""
        deadline = time.monotonic() + timeout
        while True:
            if b"\n\n" in self.buffer:
                raw, self.buffer = self.buffer.split(b"\n\n", 1)
                event = self._parse(raw.decode())
                if event is not None:
                    return event
                continue
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            sock = self.connection.sock
            if sock is None:
                return None
            sock.settimeout(left)
            try:
                chunk = self.response.read1(65536)
            except TimeoutError:
                return None
            except (http.client.IncompleteRead, ValueError, ConnectionError):
                return None  # the server went away mid-stream
            if not chunk:
                return None
            self.buffer += chunk

    def until(self, name: str, timeout: float = 10) -> Event | None:
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            event = self.next(left)
            if event is None:
                return None
            if event.name == name:
                return event
        return None

    def _parse(self, raw: str) -> Event | None:
        name, data, event_id, retry = "message", [], "", None
        lines = raw.split("\n")
        if all(line.startswith(":") for line in lines if line):
            self.comments += 1
        for line in lines:
            key, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if key == "event":
                name = value
            elif key == "data":
                data.append(value)
            elif key == "id":
                event_id = value
            elif key == "retry":
                retry = int(value)
        if not data:
            return None
        return Event(name, "\n".join(data), event_id, retry)

    def close(self) -> None:
        self.connection.close()
