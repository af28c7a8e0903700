"""A competition's export and cards, made outside the request (issue 21: every request
bounded).

A large league's export (every hand of every table: 40 MB for the benchmark's 200 pairs)
and a night's card take seconds to make. Every change of a competition's revision
(`changes.bump`) adds it to `DocumentBacklog`, once; the worker (`manage.py
rating_worker`, beside gunicorn) takes it off and makes, for the revision it then reads,
the export (in pieces of about a megabyte, `PreparedPart`) and the card of the latest
night in every language of the site (a round's card is made in the request: a round is at
most one match per two pairs). A read then:

- finds the pieces of the current revision: served (the export streamed piece by piece);
- finds none, on a competition small enough (`INLINE_MATCHES`): makes it itself, as
  before (a few hundred milliseconds), and keeps it in the cache by revision;
- finds none on a large one: answers at once with the latest revision made, marked as
  being brought up to date (`Retry-After`, `X-Muscore-Revision` older than
  `X-Muscore-Current-Revision`), or, when none was ever made, 202 with `Retry-After`.

Why the rating worker's backlog and not a task library: it is already the one process
that runs beside gunicorn, its queue is a row of the same database (nothing lost when it
stops, nothing more to run or watch), and a competition's documents are one job whatever
the number of changes that queued it.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Iterator
from dataclasses import dataclass, fields
from json.encoder import encode_basestring
from typing import Any, TypeVar

from django.conf import settings
from django.db.models import QuerySet
from django.http import HttpResponseBase
from django.utils import translation

from muscore.leagues import card, documents, pacing
from muscore.leagues.compute.spreadsheet import SEPARATORS
from muscore.leagues.models import Competition, DocumentBacklog, Match, PreparedPart

logger = logging.getLogger("muscore.documents")

# A competition with at most this many matches has its export and cards made in the
# request when they are not ready (well under a second); a larger one waits for the worker.
INLINE_MATCHES = 600
# Bytes per stored piece of the export: one query each when it is streamed.
PART_BYTES = 1024 * 1024
# What a read not ready yet tells the client to wait, in seconds.
RETRY_AFTER = 5
EXPORT = "export"
# The SHA-256 of the export's pairs and matches (documents.document_fingerprint).
FINGERPRINT = "fingerprint"
# A large league's matches.csv (39,800 lines for the benchmark's: 0.9-2.2 s a request, four
# at once held the site; issue 28), one kind per separator; the ";" one in Spanish since
# issue 38.9 (a kind of its own, so no copy made before is served as it).
MATCHES_CSV = {sep: f"matches.csv{sep}" + ("es" if sep == ";" else "") for sep in SEPARATORS}


def night_kind(language: str) -> str:
    return f"night.{language}"


# --- the queue ------------------------------------------------------------------------------


def enqueue(competition_id: int) -> None:
    """Add a competition to the backlog (nothing if it is there already): one statement."""
    DocumentBacklog.add([competition_id])


def waiting(competition_id: int) -> bool:
    """Whether the competition's documents wait for the worker."""
    return DocumentBacklog.objects.filter(competition_id=competition_id).exists()


def small(competition: Competition) -> bool:
    """Whether the request may make this competition's documents itself when not ready."""
    return not Match.objects.filter(competition=competition)[INLINE_MATCHES:INLINE_MATCHES + 1
                                                            ].exists()


def small_night(competition: Competition, date: Any) -> bool:
    """Whether a night (the matches with a result on `date`) is small enough to draw in
    the request."""
    return not competition.matches.played().filter(result_at__date=date)[
        INLINE_MATCHES:INLINE_MATCHES + 1].exists()


def catch_up() -> int:
    """Make the documents of every competition in the backlog, oldest first, until none
    waits. Returns how many competitions were made. The worker's job; tests call it."""
    made = 0
    while True:
        row = DocumentBacklog.objects.order_by("queued_at", "competition_id").first()
        if row is None:
            return made
        # Taken off before the work: a change from now on adds it again, and of two workers
        # only the one whose delete took the row makes it.
        if not DocumentBacklog.objects.filter(pk=row.pk, queued_at=row.queued_at).delete()[0]:
            continue
        with contextlib.suppress(Competition.DoesNotExist):  # deleted meanwhile
            make(row.pk)
        made += 1


def make(competition_id: int) -> int:
    """Make and store a competition's export, matches.csv and cards for its current
    revision; returns that revision. Reads with no transaction open; each piece is its
    own short write.
    What is made already for that revision is not made again."""
    competition = Competition.objects.select_related("club").get(pk=competition_id)
    revision = competition.revision
    made = set(PreparedPart.objects.filter(competition_id=competition_id, revision=revision,
                                           part=0).values_list("kind", flat=True))
    wanted = {EXPORT, FINGERPRINT} - made
    if wanted:
        document = documents.league_document(competition, hands=True)
        if EXPORT in wanted:
            store(competition_id, EXPORT, revision, in_parts(indented_json(document).encode()))
        if FINGERPRINT in wanted:
            # Kept so that an import compares a document with this competition without
            # building its export in the request (imports._refuse_copy).
            store(competition_id, FINGERPRINT, revision,
                  [documents.document_fingerprint(document).encode()])
    for sep, kind in MATCHES_CSV.items():
        if kind not in made:
            store(competition_id, kind, revision,
                  in_parts(documents.matches_csv(competition, sep=sep).encode()))
    date = card.latest_night(competition)
    if date is None or {night_kind(code) for code, _name in settings.LANGUAGES} <= made:
        return revision
    # The night's matches read once (tens of thousands of rows in a large league's
    # season), drawn in each language: only the words differ.
    matches = card.night_matches(competition, date)
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            night = card.date_night(competition, date, matches)
            if night is not None:
                # Its fields as they are (plain strings, lists and dicts): asdict() would
                # deep-copy every row of a 39,800-match night for nothing.
                fields_of = {f.name: getattr(night, f.name) for f in fields(night)}
                store(competition_id, night_kind(language), revision,
                      in_parts(_night_json({"date": date.isoformat(), "night": fields_of})))
    return revision


def in_parts(text: bytes) -> list[bytes]:
    """A document in pieces of PART_BYTES, each written in its own transaction: a 6 MB
    card of a whole season in one row held SQLite's write lock 300 ms."""
    return [text[i:i + PART_BYTES] for i in range(0, len(text), PART_BYTES)] or [b""]


def _night_json(data: dict[str, Any]) -> bytes:
    return json.dumps(data, ensure_ascii=False).encode()


def indented_json(value: object) -> str:
    """`json.dumps(value, ensure_ascii=False, indent=1)`, the same text, about twice as
    fast: with an indent the standard library encodes in Python, a generator per level,
    and a large league's export is 33 MB of it. Anything but str, int, float, bool, None,
    list, tuple and dict with str keys is left to json.dumps itself (its subtree)."""
    out: list[str] = []
    _indented(value, 0, out)
    return "".join(out)


_SCALARS: dict[Any, str] = {True: "true", False: "false", None: "null"}


def _indented(value: Any, level: int, out: list[str]) -> None:
    kind = type(value)
    if kind is str:
        out.append(encode_basestring(value))
    elif value is None or kind is bool:
        out.append(_SCALARS[value])
    elif kind is int:
        out.append(int.__repr__(value))
    elif kind is dict and all(type(key) is str for key in value):
        _members(((encode_basestring(key) + ": ", item) for key, item in value.items()),
                  "{", "}", level, out)
    elif kind is list or kind is tuple:
        _members((("", item) for item in value), "[", "]", level, out)
    else:  # floats (NaN, Infinity), subclasses, other keys: json's own text, indented
        text = json.dumps(value, ensure_ascii=False, indent=1)
        out.append(text.replace("\n", "\n" + " " * level))


def _members(members: Iterator[tuple[str, Any]], opening: str, closing: str, level: int,
             out: list[str]) -> None:
    """A dict's or a list's members (each its key and ": ", or "" in a list), one a line."""
    inner = "\n" + " " * (level + 1)
    separator = opening + inner
    for head, item in members:
        out.append(separator + head)
        _indented(item, level + 1, out)
        separator = "," + inner
    # Nothing written: empty, "{}" or "[]" as json writes it.
    out.append(opening + closing if separator == opening + inner
               else "\n" + " " * level + closing)


def store(competition_id: int, kind: str, revision: int, pieces: list[bytes]) -> None:
    """Write a document's pieces (1..n), each in its own transaction, then piece 0 (how many
    and how long: the document is finished), then drop what is older than the revision
    served before it (a stream that began on that one may still be reading it). A worker
    asked to stop leaves before it begins (pacing.Stopped): the documents made stay."""
    pacing.hand_back_if_stopping()
    _drop(PreparedPart.objects.filter(competition_id=competition_id, kind=kind,
                                      revision=revision))
    for number, piece in enumerate(pieces, 1):
        with pacing.short_transaction("a document's piece"):
            PreparedPart.objects.create(competition_id=competition_id, kind=kind,
                                        revision=revision, part=number, body=piece)
    head = json.dumps({"parts": len(pieces), "bytes": sum(map(len, pieces))}).encode()
    PreparedPart.objects.create(competition_id=competition_id, kind=kind, revision=revision,
                                part=0, body=head)
    finished = list(PreparedPart.objects.filter(
        competition_id=competition_id, kind=kind, part=0).order_by("-revision")
        .values_list("revision", flat=True)[:2])
    _drop(PreparedPart.objects.filter(competition_id=competition_id, kind=kind,
                                      revision__lt=finished[-1]))


def _drop(parts: QuerySet[PreparedPart]) -> None:
    """Delete stored pieces one by one, each its own short write: a document's 33 MB in one
    DELETE would hold SQLite's write lock as long as writing them did."""
    for pk in list(parts.values_list("pk", flat=True)):
        with pacing.short_transaction("an old piece dropped"):
            PreparedPart.objects.filter(pk=pk).delete()


# --- reading --------------------------------------------------------------------------------


@dataclass
class Prepared:
    """A finished document: of which revision, in how many pieces, how many bytes."""

    competition_id: int
    kind: str
    revision: int
    parts: int
    size: int

    def pieces(self) -> Iterator[bytes]:
        """The document piece by piece, one query each (a stream never holds it whole)."""
        for number in range(1, self.parts + 1):
            body = PreparedPart.objects.filter(
                competition_id=self.competition_id, kind=self.kind, revision=self.revision,
                part=number).values_list("body", flat=True).first()
            if body is None:  # dropped under the stream: two newer revisions were made
                raise RuntimeError(f"{self.kind} of {self.competition_id} at "
                                   f"{self.revision} was replaced while being read")
            yield bytes(body)

    def read(self) -> bytes:
        return b"".join(self.pieces())

    def json(self) -> Any:
        return json.loads(self.read())


def latest(competition_id: int, kind: str) -> Prepared | None:
    """The latest finished revision of a document (None: never made)."""
    row = PreparedPart.objects.filter(competition_id=competition_id, kind=kind, part=0
                                      ).order_by("-revision").values_list("revision", "body"
                                                                          ).first()
    if row is None:
        return None
    head = json.loads(bytes(row[1]))
    return Prepared(competition_id, kind, row[0], head["parts"], head["bytes"])


def night_of(prepared: Prepared) -> tuple[dict[str, Any], card.Night]:
    """A stored card's night, and the date it was of."""
    data = prepared.json()
    return data, card.Night(**data["night"])


Response = TypeVar("Response", bound=HttpResponseBase)


def stale_headers(response: Response, served: int, current: int) -> Response:
    """Mark a response with the revision it shows, and, when that is not the current one,
    that it is being brought up to date (ask again in RETRY_AFTER seconds)."""
    response["X-Muscore-Revision"] = str(served)
    response["X-Muscore-Current-Revision"] = str(current)
    if served != current:
        response["Retry-After"] = str(RETRY_AFTER)
    return response
