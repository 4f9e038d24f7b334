"""The organiser's desk in words: counts that read plainly, with the plural forms of each
language (``ngettext``), and a link to where each thing is dealt with.

The reads are :mod:`tournaments.selectors.desk`; this module only words them.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.selectors.desk import (
    BOARDS,
    ERRORS,
    MISSING,
    SECOND,
    UNCONFIRMED,
    WAITING,
    DeskRound,
    EntryCounts,
    EventDesk,
    JobLine,
    TableState,
)

__all__ = [
    "Item",
    "entry_counts_text",
    "job_item",
    "round_items",
    "round_summary",
    "state_text",
]


@dataclass(frozen=True)
class Item:
    """One line of the desk: what it says and where to go."""

    text: str
    url: str = ""
    tone: str = ""  # "error" for what is broken, "" for work waiting


def entry_counts_text(counts: EntryCounts) -> str:
    """ "12 players, 12 checked in" (and ", 1 withdrawn" when someone has)."""
    parts = [
        ngettext("%(n)d player", "%(n)d players", counts.players) % {"n": counts.players},
        ngettext("%(n)d checked in", "%(n)d checked in", counts.checked_in)
        % {"n": counts.checked_in},
    ]
    if counts.withdrawn:
        parts.append(
            ngettext("%(n)d withdrawn", "%(n)d withdrawn", counts.withdrawn)
            % {"n": counts.withdrawn}
        )
    return ", ".join(parts)


def state_text(state: str, n: int) -> str:
    """How many tables are in ``state``, in words."""
    if state == BOARDS:
        return ngettext(
            "%(n)d table with a board without its result",
            "%(n)d tables with a board without its result",
            n,
        ) % {"n": n}
    if state == MISSING:
        return ngettext("%(n)d table without a protocol", "%(n)d tables without a protocol", n) % {
            "n": n
        }
    if state == ERRORS:
        return ngettext("%(n)d protocol with errors", "%(n)d protocols with errors", n) % {"n": n}
    if state == UNCONFIRMED:
        return ngettext(
            "%(n)d protocol not confirmed by every player",
            "%(n)d protocols not confirmed by every player",
            n,
        ) % {"n": n}
    if state == SECOND:
        return ngettext(
            "%(n)d protocol waiting for the referee's second entry",
            "%(n)d protocols waiting for the referee's second entry",
            n,
        ) % {"n": n}
    if state == WAITING:
        return ngettext(
            "%(n)d protocol waiting for approval", "%(n)d protocols waiting for approval", n
        ) % {"n": n}
    return state


def round_summary(desk_round: DeskRound) -> str:
    """ "3 of 5 tables approved"."""
    total = len(desk_round.tables)
    return ngettext(
        "%(approved)d of %(n)d table approved", "%(approved)d of %(n)d tables approved", total
    ) % {"approved": desk_round.approved, "n": total}


def table_label(table: TableState) -> str:
    names = ", ".join(table.players)
    label = _("Table %(n)d") % {"n": table.number}
    return f"{label} ({names})" if names else label


def round_items(event, desk_round: DeskRound) -> list[tuple[Item, list[Item]]]:
    """Each open state of the round's tables with a link to each table's protocol."""
    out = []
    for state, tables in desk_round.groups:
        links = [
            Item(
                table_label(t)
                + (
                    " — " + ngettext("%(n)d error", "%(n)d errors", t.errors) % {"n": t.errors}
                    if state == ERRORS
                    else ""
                )
                + (
                    " — " + _("%(c)d of %(n)d confirmed") % {"c": t.confirmed, "n": t.seats}
                    if state == UNCONFIRMED
                    else ""
                ),
                # a duplicate table's results are corrected on the boards' travellers
                reverse("duplicate", args=[event.slug])
                if state == BOARDS
                else reverse("protocol-referee", args=[event.slug, t.round, t.number]),
            )
            for t in tables
        ]
        out.append(
            (Item(state_text(state, len(tables)), tone="error" if state == ERRORS else ""), links)
        )
    return out


#: a table's state in a few words (the round's close lists the open tables with it)
def table_state_word(state: str) -> str:
    return {
        BOARDS: _("a board without its result"),
        MISSING: _("no protocol"),
        ERRORS: _("protocol with errors"),
        UNCONFIRMED: _("not confirmed by every player"),
        SECOND: _("the referee's second entry missing"),
        WAITING: _("waiting for approval"),
    }.get(state, state)


def unfinished_items(event, tables: list[TableState]) -> list[Item]:
    """The tables a round's close would leave without a result, each with its protocol's link."""
    return [
        Item(
            f"{table_label(t)}: {table_state_word(t.state)}",
            reverse("duplicate", args=[event.slug])
            if t.state == BOARDS
            else reverse("protocol-referee", args=[event.slug, t.round, t.number]),
            "error" if t.state in (MISSING, ERRORS) else "",
        )
        for t in tables
    ]


def job_item(event, job: JobLine) -> Item:
    """A job running or failed, with the page that shows it."""
    if job.kind == "draw":
        what = _("The draw of round %(n)s") % {"n": job.round or "?"}
        url = reverse("manage-round", args=[event.slug, job.round]) if job.round else ""
    elif job.kind == "standings":
        what = _("The standings' recomputation")
        url = reverse("standings-manage", args=[event.slug])
    elif job.kind == "document":
        what = _("The document %(name)s") % {"name": job.label} if job.label else _("A document")
        url = reverse("documents-manage", args=[event.slug])
    else:
        what = _("The plan of the rounds ahead")
        url = reverse("manage-schedule", args=[event.slug])
    if job.state == "running":
        since = timezone.localtime(job.since).strftime("%H:%M") if job.since else ""
        text = (
            _("%(what)s is running (since %(time)s).") % {"what": what, "time": since}
            if since
            else _("%(what)s is running.") % {"what": what}
        )
        return Item(text, url)
    text = _("%(what)s failed") % {"what": what}
    if job.error:
        text += f": {job.error}"
    return Item(text, url, "error")


def attention(event, desk: EventDesk) -> dict:
    """Everything the desk template shows, worded."""
    return {
        "counts": entry_counts_text(desk.counts),
        "rounds": [
            {
                "round": d.round,
                "summary": round_summary(d),
                "groups": round_items(event, d),
                "closed_open": d.round.state == "closed" and bool(d.open_tables),
            }
            for d in desk.rounds
        ],
        "next_steps": [
            Item(
                (
                    _("Round %(n)d is drawn: check the tables, then publish it.")
                    if r.state == "drawn"
                    else _("Round %(n)d is published: start play once the players are seated.")
                )
                % {"n": r.number},
                reverse("manage-round", args=[event.slug, r.number]),
            )
            for r in desk.next_steps
        ],
        "jobs": [job_item(event, j) for j in desk.jobs],
        "incidents": [
            Item(
                _("Round %(r)d, table %(t)d, %(time)s: %(what)s")
                % {
                    "r": i.table.round.number,
                    "t": i.table.number,
                    "time": timezone.localtime(i.occurred_at).strftime("%H:%M"),
                    "what": i.description if len(i.description) <= 80 else i.description[:79] + "…",
                },
                reverse(
                    "protocol-incidents", args=[event.slug, i.table.round.number, i.table.number]
                ),
            )
            for i in desk.incidents
        ],
        "incidents_heading": ngettext(
            "%(n)d incident without a ruling",
            "%(n)d incidents without a ruling",
            len(desk.incidents),
        )
        % {"n": len(desk.incidents)},
        "appeals": [
            Item(
                _("Round %(r)d, table %(t)d: appeal by %(who)s")
                % {
                    "r": a.ruling.incident.table.round.number,
                    "t": a.ruling.incident.table.number,
                    "who": a.filed_by_entry.player.name if a.filed_by_entry else _("a referee"),
                },
                reverse("protocol-appeals", args=[event.slug]) + f"#appeal-{a.pk}",
            )
            for a in desk.appeals
        ],
        "appeals_heading": ngettext(
            "%(n)d appeal to decide", "%(n)d appeals to decide", len(desk.appeals)
        )
        % {"n": len(desk.appeals)},
        "quiet": desk.quiet,
    }
