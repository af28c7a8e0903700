"""How many pairs each venue (sede) sends on to a championship's next phase.

The contract is championship.md (docs/championship.md says how muscore reads it): every
venue first gets ``min_per_sede`` seats (all its pairs if it has fewer), then the seats
left are shared in proportion to each venue's entered pairs by the largest remainder, in
exact integers. No Django import
here, like :mod:`muscore.rules`; the app and ``python -m muscore.leagues quotas`` both
ask :func:`compute_quotas`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeGuard

from muscore.errors import MuscoreError

#: The English template of each error code; the web app words them with gettext.
MESSAGES: dict[str, str] = {
    "not_object": "The quota document must be a JSON object, not {got}.",
    "no_sedes": "'sedes' must be a list of one venue or more, not {got}.",
    "sede_not_object": "Venue {sede} must be an object with a name and its pairs, not {got}.",
    "sede_name": "Venue {sede} needs a name (a non-empty string), not {got}.",
    "sede_pairs": "Venue {sede} ({name}): 'pairs' must be a whole number, 0 or more, not {got}.",
    "seats": "'seats' must be a whole number, 1 or more, not {got}.",
    "seats_too_many": "'seats' is {seats}, but only {total} pairs entered in all the venues.",
    "min_per_sede": "'min_per_sede' must be a whole number, 0 or more, not {got}.",
    "minimums": "The minimums alone need {needed} seats ({minimum} per venue, all the pairs of "
                "a smaller venue), more than the {seats} seats.",
}


class QuotaError(MuscoreError):
    """A quota document breaks the contract: ``code`` says what, ``params`` its details.

    ``str(error)`` is English (the command line, the API, the logs).
    """

    family = "quota"
    MESSAGES = MESSAGES


@dataclass(frozen=True)
class Sede:
    """A venue as the quotas see it: its name and the pairs entered there."""

    name: str
    pairs: int


@dataclass(frozen=True)
class Quota:
    """One venue's seats and how they were worked out (shown on the championship page).

    ``minimum`` seats first; ``share`` = floor(left * pairs / total) more (capped at its
    pairs), ``remainder`` = (left * pairs) mod total; ``extra`` seats from the remainders.
    """

    sede: int
    name: str
    pairs: int
    minimum: int
    share: int
    remainder: int
    extra: int

    @property
    def seats(self) -> int:
        """The pairs this venue sends on."""
        return self.minimum + self.share + self.extra

    def as_json(self) -> dict[str, Any]:
        """The contract's answer row."""
        return {"sede": self.sede, "name": self.name, "pairs": self.pairs, "seats": self.seats}


@dataclass(frozen=True)
class Quotas:
    """The whole answer: the venues' quotas in their order, and the figures behind them."""

    seats: int
    min_per_sede: int
    total: int
    left: int
    rows: tuple[Quota, ...]

    def as_json(self) -> dict[str, Any]:
        """``{"quotas": [...]}`` as the contract answers."""
        return {"quotas": [row.as_json() for row in self.rows]}


def _whole(value: object, least: int) -> TypeGuard[int]:
    # ``true`` is an int in Python but not a number in the contract.
    return isinstance(value, int) and not isinstance(value, bool) and value >= least


def _shown(value: object) -> str:
    text = repr(value) if not isinstance(value, str) else f'"{value}"'
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif value is None:
        text = "null"
    return text if len(text) <= 40 else text[:37] + "..."


def compute_quotas(seats: int, sedes: list[Sede], min_per_sede: int = 1) -> Quotas:
    """Share ``seats`` among ``sedes`` (the contract's rule); raises :class:`QuotaError`.

    Minimums first, then the seats left in proportion to each venue's pairs (all of
    them), the largest remainders taking the seats still left, ties to the venue with
    more pairs and then the one listed first, a venue that sends all its pairs skipped.
    """
    if not sedes:
        raise QuotaError("no_sedes", got="[]")
    if not _whole(seats, 1):
        raise QuotaError("seats", got=_shown(seats))
    if not _whole(min_per_sede, 0):
        raise QuotaError("min_per_sede", got=_shown(min_per_sede))
    total = sum(sede.pairs for sede in sedes)
    if seats > total:
        raise QuotaError("seats_too_many", seats=seats, total=total)
    minimums = [min(min_per_sede, sede.pairs) for sede in sedes]
    needed = sum(minimums)
    if needed > seats:
        raise QuotaError("minimums", needed=needed, minimum=min_per_sede, seats=seats)
    left = seats - needed
    shares, remainders = [], []
    for sede, minimum in zip(sedes, minimums, strict=True):
        whole, remainder = divmod(left * sede.pairs, total)
        shares.append(min(whole, sede.pairs - minimum))
        remainders.append(remainder)
    extras = [0] * len(sedes)
    still = left - sum(shares)
    order = sorted(range(len(sedes)),
                   key=lambda i: (-remainders[i], -sedes[i].pairs, i))
    while still > 0:  # seats <= total, so a venue with room is always found
        for i in order:
            if still == 0:
                break
            if minimums[i] + shares[i] + extras[i] < sedes[i].pairs:
                extras[i] += 1
                still -= 1
    rows = tuple(
        Quota(sede=i, name=sede.name, pairs=sede.pairs, minimum=minimums[i], share=shares[i],
              remainder=remainders[i], extra=extras[i])
        for i, sede in enumerate(sedes))
    return Quotas(seats=seats, min_per_sede=min_per_sede, total=total, left=left, rows=rows)


def read_quotas(data: object) -> tuple[Any, list[Sede], Any]:
    """The seats, venues and minimum of a quota document, or :class:`QuotaError`
    (the seats and minimum as found: :func:`compute_quotas` checks them)."""
    if not isinstance(data, dict):
        raise QuotaError("not_object", got=_shown(data))
    raw = data.get("sedes")
    if not isinstance(raw, list) or not raw:
        raise QuotaError("no_sedes", got=_shown(raw))
    sedes = []
    for index, item in enumerate(raw):
        if not isinstance(item, dict):
            raise QuotaError("sede_not_object", sede=index, got=_shown(item))
        name = item.get("name")
        if not isinstance(name, str) or not name.strip():
            raise QuotaError("sede_name", sede=index, got=_shown(name))
        pairs = item.get("pairs")
        if not _whole(pairs, 0):
            raise QuotaError("sede_pairs", sede=index, name=name, got=_shown(pairs))
        sedes.append(Sede(name=name, pairs=pairs))
    return data.get("seats"), sedes, data.get("min_per_sede", 1)


def quotas_json(data: Any) -> dict[str, Any]:
    """The contract's answer to a quota document (``python -m muscore.leagues quotas``)."""
    seats, sedes, min_per_sede = read_quotas(data)
    return compute_quotas(seats, sedes, min_per_sede).as_json()
