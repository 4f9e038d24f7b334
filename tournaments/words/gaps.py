"""A round's tables left without a result, in words, for the round's results page (public: why
in a word or two) and the organiser's round page (the desk's words, with a link to each table's
protocol). The reads are :func:`tournaments.selectors.desk.round_gaps`.

Players read this (the results page): its strings are translated into every language
(``locale_build.PLAYER_FACING``), the staff's words come from :mod:`tournaments.words.desk`.
"""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.selectors.desk import BOARDS, ERRORS, MISSING, RoundGaps
from tournaments.words import desk as desk_text

__all__ = ["gap_items"]


def gap_items(event, gaps: RoundGaps | None, *, staff: bool) -> dict | None:
    """A round's tables left without a result, for its results page and the organiser's round
    page: each table with its players and why (no protocol; a protocol not approved, which a
    referee reads in the desk's words with a link to it), and the reason of the round's close.
    None when every table has its result (or the round is not in play yet)."""
    if gaps is None or not gaps.tables:
        return None
    items = []
    for t in gaps.tables:
        if staff:
            why = desk_text.table_state_word(t.state)
            url = reverse("protocol-referee", args=[event.slug, t.round, t.number])
        else:
            why = (
                _("no protocol") if t.state == MISSING
                else _("a board without its result") if t.state == BOARDS
                else _("protocol not approved")
            )  # fmt: skip
            url = ""
        label = _("Table %(n)d") % {"n": t.number}
        if t.players:
            label = f"{label} ({', '.join(t.players)})"
        items.append(desk_text.Item(f"{label}: {why}", url, "error" if t.state == ERRORS else ""))
    n = len(items)
    if gaps.closed:
        heading = ngettext(
            "The round was closed without a result for %(n)d table",
            "The round was closed without a result for %(n)d tables",
            n,
        ) % {"n": n}
    else:
        heading = ngettext(
            "%(n)d table has no approved result yet",
            "%(n)d tables have no approved result yet",
            n,
        ) % {"n": n}
    return {"heading": heading, "items": items, "closed": gaps.closed, "reason": gaps.reason}
