"""What goes wrong with a table: TableError and its kinds, in the player's words.

Each is muscore's coded error (a :class:`muscore.messages.WordedError`): str() is English
(the API, the logs), `page_message()` the page's language, `status` the API's answer
and `api_fields()` what its JSON body carries beside "error".
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import override

from muscore import rules as rules_engine
from muscore.messages import Message, WordedError
from muscore.tables.state import StoredHand


class TableError(WordedError):
    """Something about a table request is wrong; str() says what, for a player.

    Raised with a translatable (Spanish) template and its params: str() is English,
    the language of the JSON API and the logs; `page_message()` says it in the
    language of the page being answered (the catalogue in locale/).
    """

    family = "table"


class TableNotFound(TableError):
    code = "table_not_found"
    status = 404


class HandNotFound(TableError):
    code = "hand_not_found"
    status = 404


class HandConflict(TableError):
    """The hand number was already filled (by another phone). `hand` is the stored one."""

    code = "hand_conflict"
    status = 409

    def __init__(self, message: Message, hand: StoredHand, **params: Any) -> None:
        super().__init__(message, **params)
        self.hand = hand

    def api_fields(self) -> dict[str, Any]:
        return {"hand": self.hand}


class StaleEdit(TableError):
    """The change started from an older revision than the table's."""

    code = "stale_edit"
    status = 409

    def __init__(self, message: Message, revision: int, **params: Any) -> None:
        super().__init__(message, **params)
        self.revision = revision

    def api_fields(self) -> dict[str, Any]:
        return {"revision": self.revision}


class IdempotencyMismatch(TableError):
    """An Idempotency-Key (or client id) sent again with a different request."""

    code = "idempotency_mismatch"
    status = 422


class SameNames(TableError):
    """Two seats of one table named alike ("Ana" and "ana.", muscore.text.same_people):
    every line of the count would have to say which Ana (issue 38.9)."""

    code = "same_names"


class ResultSettled(TableError):
    """A change refused because what its vaca decided is final elsewhere (a league match's
    result): raised by a `signals.table_changing` receiver; a 409."""

    code = "result_settled"
    status = 409


class LaterHandInvalid(TableError):
    """A change would make a later stored hand break the rules."""

    code = "later_hand_invalid"

    def __init__(self, message: Message, number: int, **params: Any) -> None:
        super().__init__(message, **params)
        self.number = number

    def api_fields(self) -> dict[str, Any]:
        return {"number": self.number}


class UnreadableHand(rules_engine.RuleError):
    """A record the engine choked on (a TypeError, a KeyError...): still the record's
    fault, answered like any RuleError, never a crash. The engine's RuleError takes a
    code of its own catalogue; this one carries a translatable template instead."""

    def __init__(self, detail: str) -> None:
        self.code = "unreadable_hand"
        self.params = {"detail": detail}
        ValueError.__init__(self, self.message("en"))

    def message(self, language: str = "es") -> str:
        with override(language[:2]):
            return str(_("esta mano no se puede leer (%(detail)s)")) % self.params
