"""Reads for the organiser's desk: what needs attention now, round by round and event-wide.

The desk (``views.organiser.dashboard``) and the round's close (``services.rounds.round_close``)
read the state of each table's record from :func:`table_states`: a few queries for every table of
the rounds asked for, whatever their number (no query per table).

A table's record is, in the order a referee works through it:

``missing``      no protocol entered yet;
``errors``       the current version has errors (the check's findings);
``unconfirmed``  error-free, but not every player has confirmed it;
``second``       every player confirmed, but the referee's second entry (double entry) is missing;
``waiting``      ready for the referee's approval;
``approved``     approved: it counts in the standings.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, OuterRef, Q, Subquery, Sum
from django.utils import timezone

from tournaments.errors import said_or_stored
from tournaments.models import (
    Appeal,
    AuditLogEntry,
    Entry,
    EntryKind,
    Event,
    GeneratedFile,
    Incident,
    Job,
    Protocol,
    ProtocolConfirmation,
    Round,
    Seat,
    StandingsSnapshot,
    Table,
)
from tournaments.models.round import without_draw_record
from tournaments.selectors.duplicate import duplicate_of, tables_missing_results

__all__ = [
    "DeskRound",
    "EntryCounts",
    "EventDesk",
    "JobLine",
    "JobWatch",
    "RoundGaps",
    "gaps_annotations",
    "gaps_version",
    "TableState",
    "desk_for_event",
    "entry_counts",
    "job_watch",
    "round_gaps",
    "table_states",
    "unfinished_tables",
]

MISSING, ERRORS, UNCONFIRMED, SECOND, WAITING, APPROVED = (
    "missing",
    "errors",
    "unconfirmed",
    "second",
    "waiting",
    "approved",
)
#: a duplicate round's table with a board still without its result (it has no pulka protocol)
BOARDS = "boards"
#: the states a referee still has to act on, in the order of the work
OPEN_STATES = (BOARDS, MISSING, ERRORS, UNCONFIRMED, SECOND, WAITING)


@dataclass(frozen=True)
class TableState:
    """One table of a round and the state of its record."""

    round: int
    number: int
    players: tuple[str, ...]
    state: str
    errors: int = 0
    confirmed: int = 0

    @property
    def seats(self) -> int:
        return len(self.players)


def table_states(*, rounds) -> dict[int, list[TableState]]:
    """Each table of ``rounds`` (a queryset of one event's rounds) with its record's state, by
    round number, tables in order. Four queries."""
    tables = list(
        Table.objects.filter(round__in=rounds)
        .order_by("round__number", "number")
        .values_list("id", "round__number", "number", "round__event__double_entry")
    )
    players: dict[int, list[str]] = defaultdict(list)
    for table_id, name in (
        Seat.objects.filter(table__round__in=rounds)
        .order_by("table_id", "position")
        .values_list("table_id", "entry__player__name")
    ):
        players[table_id].append(name)
    current: dict[int, dict[str, Any]] = {}
    second: set[int] = set()
    approved: set[int] = set()
    for p in (
        Protocol.objects.filter(table__round__in=rounds)
        .filter(Q(is_current=True) | Q(approved=True))
        .annotate(confirmed=Count("confirmations"))
        .values("table_id", "entry_kind", "is_current", "approved", "error_count", "confirmed")
    ):
        if p["approved"]:
            approved.add(p["table_id"])
        if p["is_current"] and p["entry_kind"] == EntryKind.TABLE:
            current[p["table_id"]] = p
        elif p["is_current"] and p["entry_kind"] == EntryKind.REFEREE:
            second.add(p["table_id"])
    out: dict[int, list[TableState]] = defaultdict(list)
    for table_id, round_number, number, double_entry in tables:
        names = tuple(players.get(table_id, ()))
        p = current.get(table_id)
        errors = p["error_count"] if p else 0
        confirmed = p["confirmed"] if p else 0
        if table_id in approved:
            state = APPROVED
        elif p is None:
            state = MISSING
        elif errors:
            state = ERRORS
        elif confirmed < len(names):
            state = UNCONFIRMED
        elif double_entry and table_id not in second:
            state = SECOND
        else:
            state = WAITING
        out[round_number].append(TableState(round_number, number, names, state, errors, confirmed))
    return dict(out)


def unfinished_tables(*, round_: Round) -> list[TableState]:
    """The tables of ``round_`` without an approved protocol: what closing it leaves without a
    result in the standings."""
    if duplicate_of(round_.event) is not None:  # a duplicate round: a board without its result
        return [
            TableState(round_.number, n, players, BOARDS)
            for n, players in tables_missing_results(round_)
        ]
    states = table_states(rounds=Round.objects.filter(pk=round_.pk))
    return [t for t in states.get(round_.number, []) if t.state != APPROVED]


@dataclass(frozen=True)
class RoundGaps:
    """The tables of a round in play or closed that have no approved protocol, so no result in
    the standings, and, once the round is closed without them, the reason the organiser gave."""

    tables: list[TableState]
    closed: bool
    reason: str = ""


def _last_id(qs) -> Subquery:
    return Subquery(qs.order_by("-id").values("id")[:1])


def _per_round(qs, group: str, value) -> Subquery:
    return Subquery(qs.order_by().values(group).annotate(v=value).values("v")[:1])


def gaps_annotations() -> dict[str, Any]:
    """What the round's tables without a result depend on, as annotations of the round's own
    query (no query more): its protocols' last version, approvals and errors, its last
    confirmation. A page listing them puts :func:`gaps_version` in its ETag, so a refresh is
    a 304 until one of them changes."""
    protocols = Protocol.objects.filter(table__round=OuterRef("pk"))
    confirmations = ProtocolConfirmation.objects.filter(protocol__table__round=OuterRef("pk"))
    return {
        "gaps_tables": _per_round(Table.objects.filter(round=OuterRef("pk")), "round", Count("id")),
        "gaps_last_protocol": _last_id(protocols),
        "gaps_approved": _per_round(protocols.filter(approved=True), "table__round", Count("id")),
        "gaps_errors": _per_round(
            protocols.filter(is_current=True), "table__round", Sum("error_count")
        ),
        "gaps_last_confirmation": _last_id(confirmations),
        "gaps_confirmations": _per_round(confirmations, "protocol__table__round", Count("id")),
    }


def gaps_version(round_: Round) -> str:
    """The version of a round's tables without a result (a round read with
    :func:`gaps_annotations`), with its state and close."""
    parts = [round_.state, round_.closed_at.timestamp() if round_.closed_at else ""]
    parts += [getattr(round_, name) for name in gaps_annotations()]
    return ".".join(map(str, parts))


def round_gaps(*, round_: Round) -> RoundGaps | None:
    """The round's tables left without a result (:func:`unfinished_tables`) and the reason of
    its close (the log's ``round.closed``); None for a round not in play yet. Three or four
    queries; none for a round read with :func:`gaps_annotations` whose every table has its
    approved protocol (one per table)."""
    if round_.state not in (Round.State.IN_PLAY, Round.State.CLOSED):
        return None
    tables = getattr(round_, "gaps_tables", None)
    if tables is not None and (tables or 0) == (round_.gaps_approved or 0):
        return RoundGaps([], round_.state == Round.State.CLOSED)
    tables = unfinished_tables(round_=round_)
    closed = round_.state == Round.State.CLOSED
    reason = ""
    if closed and tables:
        reason = (
            AuditLogEntry.objects.filter(
                event_id=round_.event_id, action="round.closed", data__round=round_.number
            )
            .order_by("-pk")
            .values_list("reason", flat=True)
            .first()
            or ""
        )
    return RoundGaps(tables, closed, reason)


@dataclass(frozen=True)
class EntryCounts:
    """The event's players: those who play (registered or checked in), of them checked in, and
    those withdrawn."""

    players: int
    checked_in: int
    withdrawn: int

    @property
    def not_checked_in(self) -> int:
        return self.players - self.checked_in


def entry_counts(*, event: Event) -> EntryCounts:
    counts = dict(
        event.entries.order_by().values("status").annotate(n=Count("id")).values_list("status", "n")
    )
    checked_in = counts.get(Entry.Status.CHECKED_IN, 0)
    return EntryCounts(
        checked_in + counts.get(Entry.Status.REGISTERED, 0),
        checked_in,
        counts.get(Entry.Status.WITHDRAWN, 0),
    )


@dataclass
class DeskRound:
    """A round on the desk: its tables grouped by state."""

    round: Round
    tables: list[TableState]
    by_state: dict[str, list[TableState]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for t in self.tables:
            self.by_state.setdefault(t.state, []).append(t)

    def of(self, state: str) -> list[TableState]:
        return self.by_state.get(state, [])

    @property
    def open_tables(self) -> list[TableState]:
        return [t for t in self.tables if t.state != APPROVED]

    @property
    def approved(self) -> int:
        return len(self.of(APPROVED))

    @property
    def groups(self) -> list[tuple[str, list[TableState]]]:
        """The states with tables in them, in the order of the referee's work."""
        return [(s, self.of(s)) for s in OPEN_STATES if self.of(s)]


@dataclass(frozen=True)
class JobLine:
    """A background job the desk shows: what it does, its state, where to look."""

    kind: str  # draw / standings / document / schedule
    state: str  # running (queued, sent or running) / failed
    round: int | None
    since: Any
    error: str = ""
    label: str = ""


@dataclass
class EventDesk:
    counts: EntryCounts
    rounds: list[DeskRound]
    jobs: list[JobLine]
    incidents: list[Incident]
    appeals: list[Appeal]
    #: rounds drawn or published, waiting for the organiser's next step (publish, start play)
    next_steps: list[Round] = field(default_factory=list)

    @property
    def quiet(self) -> bool:
        """Nothing waits for anyone."""
        return (
            not any(r.open_tables for r in self.rounds)
            and not self.jobs
            and not self.incidents
            and not self.appeals
            and not self.next_steps
        )


_JOB_KINDS = {
    "tournaments.round_draw": "draw",
    "tournaments.standings_recompute": "standings",
    "tournaments.generated_file_render": "document",
    "tournaments.schedule_ahead": "schedule",
}
#: how far back a failure stays on the desk (a later success of the same work clears it sooner)
FAILED_SHOWN_FOR = dt.timedelta(hours=24)


def _first_line(words: Any, stored: str) -> str:
    """A job's stored error as the desk shows it: its words in the reader's language, else the
    first line of the text stored (an older row: as it was stored)."""
    said = said_or_stored(words, (stored or "").strip())
    return said.splitlines()[0] if said else ""


def _jobs(event: Event, round_numbers: dict[int, int]) -> list[JobLine]:
    """Jobs running now and the latest failure of each piece of work not done again since."""
    since = timezone.now() - FAILED_SHOWN_FOR
    lines: list[JobLine] = []
    latest: dict[tuple[str, str], Job] = {}
    for job in (
        Job.objects.filter(event=event)
        .filter(
            Q(state__in=(Job.State.QUEUED, Job.State.SENT, Job.State.RUNNING))
            | Q(created_at__gte=since)
        )
        .order_by("created_at", "id")
    ):
        # the same piece of work: a round's draw (whatever its method), a file, a plan
        args = job.args[:1] if job.task == "tournaments.round_draw" else job.args
        what = (job.task, job.key or str(args))
        latest[what] = job
    for job in latest.values():
        kind = _JOB_KINDS.get(job.task)
        if kind is None or not (job.active or job.state == Job.State.FAILED):
            continue
        number = None
        if kind == "draw" and job.args:
            number = round_numbers.get(job.args[0])
        lines.append(
            JobLine(
                kind,
                "running" if job.active else "failed",
                number,
                job.started_at or job.created_at,
                _first_line(job.error_words, job.error),
            )
        )
    snapshot = (
        StandingsSnapshot.objects.filter(event=event).only("status", "error", "error_words").first()
    )
    if snapshot is not None and snapshot.status == StandingsSnapshot.Status.FAILED:
        if not any(j.kind == "standings" and j.state == "failed" for j in lines):
            first = _first_line(snapshot.error_words, snapshot.error)
            lines.append(JobLine("standings", "failed", None, None, first))
    seen: set[tuple[str, int | None]] = set()
    for f in (
        GeneratedFile.objects.filter(event=event, created_at__gte=since)
        .select_related("round")
        .defer(*without_draw_record("round"))
        .order_by("-created_at")
    ):
        what = (f.kind, f.round_id)
        if what in seen:
            continue
        seen.add(what)
        if f.status == GeneratedFile.Status.FAILED and not any(
            j.kind == "document" and j.state == "failed" for j in lines
        ):
            first = _first_line(f.error_words, f.error)
            lines.append(
                JobLine(
                    "document",
                    "failed",
                    f.round.number if f.round else None,
                    f.created_at,
                    first,
                    str(f.get_kind_display()),
                )
            )
    return sorted(lines, key=lambda j: (j.state != "failed", j.kind, j.round or 0))


def desk_for_event(*, event: Event) -> EventDesk:
    """What the event's desk shows: the players' counts; each round in play, or closed with
    tables still open, with its tables by state; rounds drawn or published waiting for the next
    step; jobs running or failed; incidents without a ruling; appeals not decided."""
    rounds = list(event.rounds.order_by("number"))
    shown = [r for r in rounds if r.state == Round.State.IN_PLAY]
    closed = [r for r in rounds if r.state == Round.State.CLOSED]
    states = table_states(rounds=event.rounds.filter(pk__in=[r.pk for r in shown + closed]))
    if duplicate_of(event) is not None:  # a table's record is its boards' results, not a protocol
        for r in shown + closed:
            missing = {n for n, _players in tables_missing_results(r)}
            states[r.number] = [
                TableState(t.round, t.number, t.players, BOARDS if t.number in missing else APPROVED)
                for t in states.get(r.number, [])
            ]
    desk_rounds = [DeskRound(r, states.get(r.number, [])) for r in shown]
    desk_rounds += [
        d for d in (DeskRound(r, states.get(r.number, [])) for r in closed) if d.open_tables
    ]
    desk_rounds.sort(key=lambda d: d.round.number)
    incidents = list(
        Incident.objects.filter(event=event, rulings__isnull=True)
        .select_related("table__round")
        .defer(*without_draw_record("table__round"))
        .order_by("occurred_at", "id")
    )
    appeals = list(
        Appeal.objects.filter(ruling__incident__event=event, status=Appeal.Status.PENDING)
        .select_related("ruling__incident__table__round", "filed_by_entry__player")
        .defer(*without_draw_record("ruling__incident__table__round"))
        .order_by("filed_at", "id")
    )
    return EventDesk(
        entry_counts(event=event),
        desk_rounds,
        _jobs(event, {r.pk: r.number for r in rounds}),
        incidents,
        appeals,
        [r for r in rounds if r.state in (Round.State.DRAWN, Round.State.PUBLISHED)],
    )


@dataclass(frozen=True)
class JobWatch:
    """Whether a background job of the event runs now, and a version of what the staff's pages
    show of it: the page that follows the jobs (``static/tournaments/job-watch.js``) reloads when
    the version changes and stops asking once nothing runs."""

    running: bool
    version: str


def job_watch(*, event: Event) -> JobWatch:
    """The event's jobs as the pages that follow them see them: the jobs queued, sent or running
    (id and state), the documents still rendering (id and how far they got) and each round
    with a draw in the works (its state, job and progress; also a draw sent before jobs had
    rows). Three small queries."""
    active = list(
        Job.objects.filter(
            event=event, state__in=(Job.State.QUEUED, Job.State.SENT, Job.State.RUNNING)
        )
        .order_by("id")
        .values_list("id", "state")
    )
    files = list(
        GeneratedFile.objects.filter(event=event, status=GeneratedFile.Status.PENDING)
        .order_by("id")
        .values_list("id", "progress")
    )
    # a round's draw in the works (its job id set until it ends), how far it got
    draws = list(
        Round.objects.filter(event=event)
        .exclude(draw_job_id="")
        .order_by("pk")
        .values_list("pk", "state", "draw_job_id", "draw_job_progress")
    )
    parts = [
        ";".join(f"{i}:{state}" for i, state in active),
        ";".join(f"{i}:{sorted((p or {}).items())}" for i, p in files),
        ";".join(f"{i}:{st}:{job}:{sorted((p or {}).items())}" for i, st, job, p in draws),
    ]
    version = hashlib.sha256("|".join(parts).encode()).hexdigest()[:16]
    return JobWatch(bool(active or files), version)
