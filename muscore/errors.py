"""The one coded error of muscore: every family of refusals subclasses :class:`MuscoreError`.

A refusal is

- a ``code``: what kind of mistake, one word, meaningful within its ``family``
  (``"rules"``, ``"league"``, ``"table"``...);
- its ``params``: the details (seats, numbers, the values found; no words of any
  language, so a program can react to them);
- its English message, ``str(error)``: for the JSON API, the command line and the logs;
- the HTTP ``status`` an answer to it carries (a 4xx), and :meth:`MuscoreError.api_fields`,
  what the API's JSON body carries beside ``"error"``;
- the page's wording, in the page's language: :meth:`MuscoreError.page_message`, which
  asks the one Django-side catalogue, :mod:`muscore.messages` (gettext messages keyed by
  family and code), once Django has loaded it.

This module is the standard library only: the pure layers (``muscore.rules``,
``muscore.leagues.compute``) raise its errors without importing Django (.importlinter's
``errors-pure`` contract). How to add an error: docs/architecture.md, "Errors".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

#: Words an error in the page's language: installed by :mod:`muscore.messages` when it
#: is imported (the Django side); until then a page gets the English message.
_page_wording: list[Callable[[MuscoreError], str]] = []


def install_page_wording(wording: Callable[[MuscoreError], str]) -> None:
    """Make ``wording`` the page's wording of every error (called by muscore.messages)."""
    _page_wording[:] = [wording]


class MuscoreError(ValueError):
    """A refusal of muscore: ``code``, ``params``, English ``str()``, ``status``.

    A family subclasses it with its ``family`` name, its English templates in
    ``MESSAGES`` (``str.format`` placeholders named after the params) and, when the
    answer is not a 400, its ``status``. It stays a ``ValueError`` so that code catching
    one keeps catching it.
    """

    #: The family's name: where muscore.messages finds the page's wording of its codes.
    family: ClassVar[str] = "muscore"
    #: The HTTP status of an answer to this error.
    status: ClassVar[int] = 400
    #: The English template of each code of the family.
    MESSAGES: ClassVar[Mapping[str, str]] = {}

    code: str
    params: dict[str, Any]

    def __init__(self, code: str, /, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(self.message())

    def english_params(self) -> dict[str, Any]:
        """The params with the English words the family's templates need added."""
        return dict(self.params)

    def message(self, language: str = "en") -> str:
        """The error in English (the page's languages: :meth:`page_message`). A code
        without a template says itself with its params, never nothing."""
        template = self.MESSAGES.get(self.code)
        if template is None:
            details = ", ".join(f"{key}={value!r}" for key, value in self.params.items())
            return f"{self.code}: {details}" if details else self.code
        return template.format(**self.english_params())

    def api_fields(self) -> dict[str, Any]:
        """What the API's JSON answer carries beside ``"error"`` (none by default)."""
        return {}

    def page_message(self) -> str:
        """The error in the page's language (muscore.messages), or in English when the
        Django side is not loaded (the command line)."""
        for wording in _page_wording:
            return wording(self)
        return str(self)
