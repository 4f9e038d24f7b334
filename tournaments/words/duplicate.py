"""A duplicate board's double-dummy count in words, for its hand record (the traveller page and
the boards' PDF): the denominations in the reader's language and a row of tricks for each
declarer's seat. The count is read from the board (written by the job
``tournaments.duplicate_board_makeable``), never made here.

Players read this (the traveller, the hand records): its strings are translated into every
language.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import pgettext_lazy

from scoring.duplicate.double_dummy import DENOMINATIONS

__all__ = ["makeable_table"]

#: the denominations as the count's headings say them, in the order of ``DENOMINATIONS``
_WORDS = {
    "S": ("♠", pgettext_lazy("trump suit", "spades")),
    "D": ("♦", pgettext_lazy("trump suit", "diamonds")),
    "H": ("♥", pgettext_lazy("trump suit", "hearts")),
    "C": ("♣", pgettext_lazy("trump suit", "clubs")),
    "NT": ("", pgettext_lazy("a contract's denomination", "no trump")),
}


def makeable_table(counts: object) -> dict[str, Any] | None:
    """The headings and rows of a board's count (``Board.makeable``), or ``None`` while it is
    not counted (or holds anything but three rows of five counts)."""
    if not (
        isinstance(counts, list)
        and len(counts) == 3
        and all(
            isinstance(row, list) and len(row) == len(DENOMINATIONS)
            and all(isinstance(v, int) for v in row)
            for row in counts
        )
    ):
        return None
    return {
        "headings": [{"symbol": _WORDS[d][0], "word": _WORDS[d][1]} for d in DENOMINATIONS],
        "rows": [{"seat": k + 1, "tricks": list(row)} for k, row in enumerate(counts)],
    }
