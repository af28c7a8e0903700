"""A hand record carried whole in a URL: /calculadora/?h=<code>.

The code is the record's compact JSON, deflated and written in base64url without
padding, so a permalink needs no database and opens the same answer on any phone.
Decoding is defensive: the code comes from anyone's address bar.
"""

from __future__ import annotations

import base64
import binascii
import json
import zlib
from typing import Any

#: A hand record is a few hundred bytes; anything far larger is not one.
MAX_CODE = 4000
MAX_JSON = 20_000


class PermalinkError(ValueError):
    """The code in a permalink cannot be read back into a hand record."""


def encode(record: dict[str, Any]) -> str:
    """The URL-safe code of a record (JSON -> deflate -> base64url, no padding)."""
    text = json.dumps(record, separators=(",", ":"), ensure_ascii=False)
    packed = zlib.compress(text.encode(), 9)
    return base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")


def decode(code: str) -> dict[str, Any]:
    """The record a code carries; PermalinkError when it is damaged or not a record."""
    code = code.strip()
    if not code or len(code) > MAX_CODE:
        raise PermalinkError("length")
    try:
        packed = base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))
        # Bounded inflate: a small code must not expand into megabytes (a zip bomb).
        inflater = zlib.decompressobj()
        raw = inflater.decompress(packed, MAX_JSON)
        if inflater.unconsumed_tail or not inflater.eof:
            raise PermalinkError("size")
        record = json.loads(raw.decode())
    except (binascii.Error, ValueError, zlib.error, UnicodeDecodeError, RecursionError) as exc:
        if isinstance(exc, PermalinkError):
            raise
        raise PermalinkError("damaged") from None
    if not isinstance(record, dict):
        raise PermalinkError("not a record")
    return record
