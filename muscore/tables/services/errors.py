"""What goes wrong with a table: TableError and its kinds, in the player's words.

str() of each is English (the API, the logs); `page_message()` is the page's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import override

from muscore import rules as rules_engine
from muscore.messages import rule_message
from muscore.tables.state import (
    StoredHand,
)


class _InLanguage:
    """A message rendered in the active language when str() is taken (an engine error)."""

    def __init__(self, error: Exception) -> None:
        self.error = error

    def __str__(self) -> str:
        return rule_message(self.error)


def _fill(template: Any, params: Mapping[str, Any]) -> str:
    text = str(template)
    return text % {k: str(v) for k, v in params.items()} if params else text


class TableError(ValueError):
    """Something about a table request is wrong; str() says what, for a player.

    Raised with a translatable (Spanish) template and its params: str() is English,
    the language of the JSON API and the logs; `page_message()` says it in the
    language of the page being answered (the catalogue in locale/).
    """

    def __init__(self, message: Any, **params: Any) -> None:
        self.template = message
        self.params = params
        with override("en"):
            english = _fill(message, params)
        super().__init__(english)

    def page_message(self) -> str:
        return _fill(self.template, self.params)


class TableNotFound(TableError):
    pass


class HandNotFound(TableError):
    pass


class HandConflict(TableError):
    """The hand number was already filled (by another phone). `hand` is the stored one."""

    def __init__(self, message: Any, hand: StoredHand, **params: Any) -> None:
        super().__init__(message, **params)
        self.hand = hand


class StaleEdit(TableError):
    """The change started from an older revision than the table's."""

    def __init__(self, message: Any, revision: int, **params: Any) -> None:
        super().__init__(message, **params)
        self.revision = revision


class IdempotencyMismatch(TableError):
    """An Idempotency-Key (or client id) sent again with a different request."""


class ResultSettled(TableError):
    """A change refused because what its vaca decided is final elsewhere (a league match's
    result): raised by a `signals.table_changing` receiver; a 409."""


class LaterHandInvalid(TableError):
    """A change would make a later stored hand break the rules."""

    def __init__(self, message: Any, number: int, **params: Any) -> None:
        super().__init__(message, **params)
        self.number = number


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
            return _fill(_("esta mano no se puede leer (%(detail)s)"), self.params)


class _BadHand(Exception):
    def __init__(self, number: int, error: rules_engine.RuleError) -> None:
        super().__init__(str(error))
        self.number = number
        self.error = error
