"""Errors said twice: in English for the API, the command line and the logs (the exception's
message), and for people as a template with its values, which the Django side says in the
reader's language (``tournaments.errors``, ``tournaments.convention_labels``).

The pure packages (``rules``, ``scoring``, ``tournaments.seating``, ``tournaments.standings``)
raise them; this module imports nothing, so any of them may import it.
"""

from __future__ import annotations

__all__ = ["WordedError", "gettext_noop"]


def gettext_noop(text: str) -> str:
    """Mark ``text`` for the translators' catalogue and return it unchanged (the name Django's
    ``makemessages`` looks for; nothing here imports Django)."""
    return text


class WordedError(ValueError):
    """``message``: in English, quoting the bad input. ``text`` and ``params``: the same for
    people, a :func:`gettext_noop` template (``%(name)s``) with its values; ``entries``: the
    params that stand for people (0-based seats or entry ids, or lists of them), to be said by
    their names. Subclasses say what their params hold."""

    def __init__(
        self,
        message: str,
        text: str | None = None,
        params: dict[str, object] | None = None,
        entries: tuple[str, ...] = (),
    ) -> None:
        super().__init__(message)
        self.text = text
        self.params = dict(params or {})
        self.entries = entries
