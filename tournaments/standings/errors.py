"""The standings' errors: an English message (for the API, the command line and the logs) and
the same for people as a template with values, said in the reader's language by the Django
side (``tournaments.services.events``)."""

from __future__ import annotations

from typing import Any

from rules.worded import WordedError, gettext_noop

__all__ = ["StandingsConfigError", "gettext_noop"]


class StandingsConfigError(WordedError):
    """A tie-break chain or round score that cannot be used. ``text``: a :func:`gettext_noop`
    template (``%(name)s``) with ``params``; ``entries``: the params that are tie-break keys (or
    lists of them), ``scores``: those that are round score keys, to be said by their names."""

    def __init__(
        self,
        message: str,
        text: str | None = None,
        params: dict[str, Any] | None = None,
        entries: tuple[str, ...] = (),
        scores: tuple[str, ...] = (),
    ) -> None:
        super().__init__(message, text, params, entries)
        self.scores = scores
