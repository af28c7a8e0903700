"""Form fields that choose rows by id and refuse an id no database column can hold.

Django's ModelChoiceField and ModelMultipleChoiceField turn a posted "99999...9" (30
digits) into a query: SQLite raises OverflowError and PostgreSQL a DataError while it
runs, and the page was a 500 (issue 21's repeat probe, the new competition's pairs). Here
such an id is the field's own "not one of the choices" error, before any query.
"""

from __future__ import annotations

from typing import Any

from django import forms

# A 64-bit signed integer: the widest id column on SQLite and PostgreSQL.
ID_MIN, ID_MAX = -(2**63), 2**63 - 1


def fits(value: object) -> bool:
    """False for a whole number out of an id column's range; anything else (text that is
    no number) is left to Django's own checks."""
    try:
        number = int(str(value).strip())
    except ValueError:
        return True
    return ID_MIN <= number <= ID_MAX


class IdChoiceField(forms.ModelChoiceField):  # type: ignore[type-arg]
    """ModelChoiceField refusing an out-of-range id as an invalid choice."""

    def to_python(self, value: Any) -> Any:
        if value not in self.empty_values and not fits(value):
            raise forms.ValidationError(
                self.error_messages["invalid_choice"], code="invalid_choice"
            )
        return super().to_python(value)


class IdMultipleChoiceField(forms.ModelMultipleChoiceField):  # type: ignore[type-arg]
    """ModelMultipleChoiceField refusing an out-of-range id as an invalid choice."""

    def _check_values(self, value: Any) -> Any:
        for pk in value if isinstance(value, list | tuple) else []:
            if not fits(pk):
                raise forms.ValidationError(
                    self.error_messages["invalid_choice"],
                    code="invalid_choice",
                    params={"value": str(pk)[:30]},
                )
        return super()._check_values(value)  # type: ignore[misc]
