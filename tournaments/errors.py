"""Errors the Django side raises (HackSoft ``core/exceptions.py``, Tabbycat's draw errors).

``UserFacingError`` is what a user did wrong or cannot do now: its message is translated and
shown, and ``extra`` names the field and the rule. ``InvariantError`` is a bug or a broken
invariant: it is logged, not shown in detail.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

__all__ = ["ApplicationError", "InvariantError", "UserFacingError", "whole_number"]


class ApplicationError(Exception):
    def __init__(self, message: str, extra: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = str(message)
        self.extra = extra or {}

    def as_dict(self) -> dict[str, Any]:
        return {"message": self.message, "extra": self.extra}


class UserFacingError(ApplicationError):
    """Bad input or a forbidden step; the message is for the user (translated)."""


class InvariantError(ApplicationError):
    """Something that must never happen happened; not the user's fault."""


def whole_number(value: Any, field: str | None = None) -> int | None:
    """A form's whole number: ``None`` when blank, else the integer; anything else is a
    :class:`UserFacingError` naming ``field`` (when given), never a 500."""
    text = "" if value is None else str(value).strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise UserFacingError(
            _("%(value)r is not a whole number.") % {"value": text},
            {"field": field} if field else None,
        ) from None
