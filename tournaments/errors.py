"""Errors the Django side raises (HackSoft ``core/exceptions.py``, Tabbycat's draw errors).

``UserFacingError`` is what a user did wrong or cannot do now: its message is translated and
shown, and ``extra`` names the field and the rule. Raised with :meth:`ApplicationError.said`, it
also keeps its untranslated template and parameters (:attr:`ApplicationError.words`), so that a
message stored with a record (a finding) can be said again in a later reader's language.
An error of the pure packages (the seating engine, the standings, the conventions of
``rules``) may carry its words for people beside its English message: ``text`` (a
``gettext_noop`` template) and ``params``, ``entries`` naming the params that are entry ids;
:meth:`ApplicationError.of` says it in the reader's language (:func:`said_error`), its English
message staying with the exception for the API, the command line and the logs.
``InvariantError`` is a bug or a broken invariant: it is logged, not shown in detail.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tournaments import rule_sources

__all__ = [
    "ApplicationError",
    "BIGINT_MAX",
    "INT_MAX",
    "INT_MIN",
    "InvariantError",
    "UserFacingError",
    "error_words",
    "said_error",
    "said_or_stored",
    "say",
    "whole_number",
]


class ApplicationError(Exception):
    def __init__(
        self,
        message: str,
        extra: dict[str, Any] | None = None,
        *,
        text: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = str(message)
        self.extra = extra or {}
        #: the message's untranslated template (``%(name)s`` placeholders) and its parameters
        self.text = text
        self.params = dict(params or {})

    @classmethod
    def said(
        cls, text: str, params: dict[str, Any] | None = None, extra: dict[str, Any] | None = None
    ):
        """The error whose message is ``text`` (marked with ``gettext_noop``) translated into
        the active language and filled with ``params``; the template is kept (:attr:`words`)."""
        message = _(text) % params if params else _(text)
        return cls(message, extra, text=text, params=params)

    @classmethod
    def of(
        cls,
        exc: BaseException,
        extra: dict[str, Any] | None = None,
        names: Mapping[Any, str] | None = None,
    ):
        """The error saying ``exc`` (an error of a pure package) in the active language, its
        template and values kept (:attr:`words`) when it has them (:func:`said_error`); its
        English message, a rule cited as people know it (:func:`tournaments.rule_sources.
        cited_in`), when it has none."""
        text, params = _error_words(exc, names)
        if text is None:
            return cls(rule_sources.cited_in(str(exc)), extra)
        return cls(_(text) % params if params else _(text), extra, text=text, params=params)

    @property
    def words(self) -> dict[str, Any] | None:
        """``{"text": template, "params": {...}}`` (JSON) to say the message again in another
        language (:func:`say`); ``None`` when the error was raised with its message only."""
        if not self.text:
            return None
        return {"text": self.text, "params": {k: _plain(v) for k, v in self.params.items()}}

    def as_dict(self) -> dict[str, Any]:
        return {"message": self.message, "extra": self.extra}


class UserFacingError(ApplicationError):
    """Bad input or a forbidden step; the message is for the user (translated)."""


class InvariantError(ApplicationError):
    """Something that must never happen happened; not the user's fault."""


def _error_words(
    exc: BaseException, names: Mapping[Any, str] | None
) -> tuple[str | None, dict[str, Any]]:
    text = getattr(exc, "text", None)
    if not text:
        return None, {}
    params = {k: _said_param(v) for k, v in (getattr(exc, "params", None) or {}).items()}
    for key in getattr(exc, "entries", ()) or ():
        value = params.get(key)
        ids = value if isinstance(value, (list, tuple)) else [value]
        said = [str((names or {}).get(x, x)) for x in ids]
        params[key] = ", ".join(said)
    return str(text), params


def _said_param(value: Any) -> Any:
    """A parameter that is words itself (what a notation's line expected, the rules' refusal
    inside a notation error: an object with its own ``text`` and ``params``) said in the
    active language; any other value as it is."""
    text = getattr(value, "text", None)
    if isinstance(text, str) and text:
        inner = {k: _said_param(v) for k, v in (getattr(value, "params", None) or {}).items()}
        return _(text) % inner if inner else _(text)
    if isinstance(value, BaseException):
        return rule_sources.cited_in(str(value))
    return value


def said_error(exc: BaseException, names: Mapping[Any, str] | None = None) -> str:
    """An error of a pure package in the active language: its template (``text``, marked with
    ``gettext_noop``) translated and filled with its ``params``, entry ids named by ``names``;
    its English message when it carries no template (an older error, a library's)."""
    text, params = _error_words(exc, names)
    if text is None:
        return rule_sources.cited_in(str(exc))
    return _(text) % params if params else _(text)


def error_words(exc: BaseException) -> dict[str, Any] | None:
    """What a background job stores beside an error's English text, to say it again in a later
    reader's language (:func:`said_or_stored`): a user-facing error's own words, a pure
    package's template and values, else a sentence around the exception's own text (a bug's
    text stays as Python wrote it: it is for whoever reads the log). ``None`` for a
    user-facing error raised with its message only (its text is shown as stored)."""
    if isinstance(exc, ApplicationError):
        return exc.words
    text, params = _error_words(exc, None)
    if text is not None:
        return {"text": text, "params": {k: _plain(v) for k, v in params.items()}}
    return {
        "text": gettext_noop("Stopped by an error in Pulka (%(error)s); the log has the details."),
        "params": {"error": f"{type(exc).__name__}: {exc}"[:300]},
    }


def said_or_stored(words: Any, stored: str) -> str:
    """Stored ``words`` (``{"text", "params"}``) in the active language; ``stored`` (the text
    saved beside them, an older row's only text) when there are none or they do not fit."""
    if not isinstance(words, dict) or not words.get("text"):
        return stored
    try:
        return say(words)
    except (KeyError, TypeError, ValueError):
        return stored


def _plain(value: Any) -> Any:
    return value if isinstance(value, (str, int, float, bool)) or value is None else str(value)


def say(words: dict[str, Any], said_again: Callable[[Any], str] | None = None) -> str:
    """A message stored as words (:attr:`ApplicationError.words`) in the active language:
    ``{"text": template, "params": {...}}`` translated and filled (``%(name)s``), with
    ``"param_words"`` parameters that are words themselves (said with ``said_again``, by default
    this function).
    A template without parameters may be an English message, translated where the catalogues
    have it.

    :raises KeyError, TypeError, ValueError: the stored words do not fit the template.
    """
    text = str(words["text"])
    params = dict(words.get("params") or {})
    for name, inner in (words.get("param_words") or {}).items():
        params[name] = (said_again or say)(inner)
    template = _(text)
    return template % params if params else template


#: the range of a database integer column (PostgreSQL ``integer``), the default bounds of a
#: form's whole number; a row's id (``bigint``) is read with ``high=BIGINT_MAX``
INT_MIN, INT_MAX = -(2**31), 2**31 - 1
BIGINT_MAX = 2**63 - 1


def whole_number(
    value: Any, field: str | None = None, *, low: int = INT_MIN, high: int = INT_MAX
) -> int | None:
    """A form's whole number: ``None`` when blank, else the integer between ``low`` and
    ``high`` (by default a database integer's range, issue 38); anything else is a
    :class:`UserFacingError` naming ``field`` (when given), never a 500."""
    text = "" if value is None else str(value).strip()
    if not text:
        return None
    where = {"field": field} if field else None
    if len(text) > 30:  # int() of a very long text is slow; no bound needs more digits
        raise UserFacingError(
            _("%(value)s… is not a whole number between %(low)d and %(high)d.")
            % {"value": text[:12], "low": low, "high": high},
            where,
        )
    try:
        number = int(text)
    except ValueError:
        raise UserFacingError(
            _("%(value)r is not a whole number.") % {"value": text},
            where,
        ) from None
    if not low <= number <= high:
        raise UserFacingError(
            _("%(value)d is out of range: give a whole number between %(low)d and %(high)d.")
            % {"value": number, "low": low, "high": high},
            where,
        )
    return number
