"""A phone's server-sent events stream for the benchmarks: HTTP/1.1 on asyncio streams,
the chunked answer read event by event; what it heard goes into the phone's dict
("revision": the newest event's revision, "latencies" once "measure" is set and
"drawn", the server's share of each, "error", "events")."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any


def revision_of(etag: str) -> int:
    return int(etag.strip('"').lstrip("W/").strip('"')[1:].split("-", 1)[0])


async def stream(port: int, path: str, address: str, phone: dict[str, Any],
                  stop: asyncio.Event) -> None:
    """One phone's stream: the HTTP/1.1 chunked answer read event by event."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                  f"Accept: text/event-stream\r\nX-Forwarded-For: {address}\r\n\r\n").encode())
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    if status != 200:
        phone["error"] = f"HTTP {status}"
        writer.close()
        return
    phone["open"] = True
    buffer = b""
    try:
        while not stop.is_set():
            size = int((await reader.readuntil(b"\r\n")).strip() or b"0", 16)
            if size == 0:
                phone["error"] = "the stream ended"
                return
            buffer += await reader.readexactly(size + 2)
            buffer = buffer[:-2] if buffer.endswith(b"\r\n") else buffer
            while b"\n\n" in buffer:
                raw, buffer = buffer.split(b"\n\n", 1)
                event(raw.decode(), phone)
    finally:
        writer.close()


def event(raw: str, phone: dict[str, Any]) -> None:
    name, data = "", ""
    for line in raw.split("\n"):
        if line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: "):
            data = line[6:]
    if name != "change":
        return
    phone["events"] = phone.get("events", 0) + 1
    event = json.loads(data)
    phone["revision"] = max(phone.get("revision", 0), revision_of(event["etag"]))
    if event["published"] and phone.get("measure"):
        phone.setdefault("latencies", []).append(time.time() - event["published"])
        # The server's share: from the publish to the end of its drawing (heard on the
        # bus, waited for a drawing thread, drawn); the rest is the way to the phone.
        phone.setdefault("drawn", []).append(event["drawn"] - event["published"])
