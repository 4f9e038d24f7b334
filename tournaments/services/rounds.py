"""Rounds: creation, the verifiable draw, publication, play, closing, and atomic corrections.

The draw itself is pure (``tournaments.seating``); this module is the bridge (Tabbycat's
``draw/manager.py``): it turns rows into the engine's plain input, stores the engine's tables and
report, and keeps the seed so that anyone can re-run the draw (``manage.py draw_verify``).
"""

from __future__ import annotations

import hashlib
import random
import secrets
import time
import uuid
from collections.abc import Callable, Sequence
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from tournaments import seating
from tournaments.errors import UserFacingError
from tournaments.families import domain_of_event as ui_of_event
from tournaments.models import AuditLogEntry, Avoidance, Entry, Event, Job, Round, Seat, Table
from tournaments.models.event import FoursRemainder, TableSizePolicy
from tournaments.seating.remainder import remainder_of, sitting_out_settled
from tournaments.seating.remainder import sitting_out as sitting_out_of
from tournaments.seating.remainder import substitutes as substitutes_of
from tournaments.services.audit import audit_log
from tournaments.services.events import event_table_policy
from tournaments.web_cache import versions as page_cache
from tournaments.web_cache import warm as page_warm

__all__ = [
    "ASYNC_DRAW_THRESHOLD",
    "DrawnMeanwhileError",
    "UnfinishedTablesError",
    "draw_in_background",
    "draw_input",
    "draw_job_queue",
    "draw_job_run",
    "draw_job_running",
    "round_close",
    "round_changed",
    "round_commit_seed",
    "round_create",
    "round_draw",
    "round_publish",
    "round_start",
    "seat_move",
    "seats_swap",
    "table_redraw",
    "schedule_ahead",
    "schedule_ahead_request",
    "schedule_ahead_run",
    "draw_job",
    "table_seat_as_drawn",
]

State = Round.State
#: Events with more entries than this draw in a Celery job with progress; smaller ones inline.
ASYNC_DRAW_THRESHOLD = 90
#: Seconds between two writes of a draw job's progress within one stage of the engine.
PROGRESS_EVERY = 1.0


def draw_in_background(event: Event) -> bool:
    """Whether a draw for ``event`` should run as a Celery job rather than inline.

    Large events, and events planning so many rounds that they come within
    four of the most a player count allows without repeats ((n − 1) / 2
    rounds at tables of three, (n − 1) / 3 at fours): there the engine may try
    several tabu starts and CP-SAT, which takes seconds rather than
    milliseconds.
    """
    present = event.entries.filter(status=Entry.Status.CHECKED_IN).count() or (
        event.entries.exclude(status=Entry.Status.WITHDRAWN).count()
    )  # who is drawn: those checked in, once anyone is (draw_input)
    fours = event_table_policy(event) in (TableSizePolicy.FOUR, TableSizePolicy.MIXED_PREFER_FOUR)
    bound = (present - 1) // (3 if fours else 2)
    return present > ASYNC_DRAW_THRESHOLD or event.rounds_planned >= bound - 3


def draw_job_running(round_: Round) -> bool:
    """Whether a draw job of ``round_`` is queued or running: its job row is (``jobs.outbox``;
    the sweep ends a job whose worker stopped renewing its lease, and the round can then be
    drawn again). A round whose job has no row (drawn before jobs had rows) falls back to the
    time a task may run (``CELERY_TASK_TIME_LIMIT``, and a minute to spare)."""
    if not round_.draw_job_id or round_.draw_job_started_at is None:
        return False
    job = Job.objects.filter(task_id=round_.draw_job_id).only("state").first()
    if job is not None:
        return job.active
    limit = timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + 60)
    return timezone.now() - round_.draw_job_started_at < limit


def draw_job(round_: Round) -> Job | None:
    """The job row of the round's draw job, if one is recorded."""
    if not round_.draw_job_id:
        return None
    return Job.objects.filter(task_id=round_.draw_job_id).first()


def draw_job_queue(
    *, round_: Round, by=None, method: str | None = None, seed: str | None = None
) -> str:
    """Draw ``round_`` in a Celery job (:func:`draw_job_run`); return the job's id.

    The round records the job until it ends, so its page shows that a draw is queued or
    running and offers no second one meanwhile; a job that fails leaves its message on the
    round. The job's row is written with the round's (``jobs.outbox``): when the broker
    cannot be reached the draw stays queued and starts once it is back.
    """
    from tournaments.jobs.outbox import job_enqueue, job_send

    with transaction.atomic():
        locked = _lock(round_)
        _require(locked, State.DRAFT, State.DRAWN)
        if draw_job_running(locked):
            raise UserFacingError(
                _("A draw of round %(n)d is already running (since %(time)s).")
                % {
                    "n": locked.number,
                    "time": timezone.localtime(locked.draw_job_started_at).strftime("%H:%M:%S"),
                },
                {"field": "draw"},
            )
        locked.draw_job_id = str(uuid.uuid4())
        locked.draw_job_started_at = timezone.now()
        locked.draw_job_error = ""
        locked.draw_job_progress = {}
        locked.save(
            update_fields=[
                "draw_job_id",
                "draw_job_started_at",
                "draw_job_error",
                "draw_job_progress",
            ]
        )
        job = job_enqueue(
            task="tournaments.round_draw",
            args=[locked.pk, getattr(by, "pk", None), method, seed],
            event_id=locked.event_id,
            task_id=locked.draw_job_id,
            send=False,
        )
    # run inline (eager) and refused: the job kept its message, the caller hears it
    job_send(job=job, raise_task_errors=True)
    return locked.draw_job_id


def draw_job_run(
    *,
    round_id: int,
    job_id: str | None,
    by_id: int | None = None,
    method: str | None = None,
    seed: str | None = None,
    on_progress: Callable[[dict[str, Any]], None] | None = None,
) -> Round:
    """The work of a draw job: :func:`round_draw`, then the job is cleared from the round; a
    failure is kept on the round (its message, for the round's page) and raised again.

    While the engine runs, the round holds how far it has gone (``draw_job_progress``, for
    the round's page), and ``on_progress`` hears the same (the Celery task's state, for
    ``/api/v1/jobs/<id>``); both at most once a second within a stage.
    """
    by = get_user_model().objects.filter(pk=by_id).first() if by_id else None
    mine = Round.objects.filter(pk=round_id, draw_job_id=job_id or "")
    progress = _JobProgress(mine, on_progress)
    try:
        round_ = Round.objects.get(pk=round_id)
        queued = round_.draw_job_started_at if job_id and round_.draw_job_id == job_id else None
        if queued is not None and round_.drawn_at is not None and round_.drawn_at >= queued:
            # drawn (inline, by another caller) after this job was asked for: that draw stands
            raise _drawn_meanwhile(round_)
        round_ = round_draw(
            round_=round_,
            by=by,
            method=method,
            seed=seed,
            progress=progress,
            job_id=job_id,
        )
    except Exception as exc:
        message = (
            exc.message if isinstance(exc, UserFacingError) else f"{type(exc).__name__}: {exc}"
        )
        mine.update(draw_job_id="", draw_job_error=message, draw_job_progress={})
        raise
    mine.update(draw_job_id="", draw_job_error="", draw_job_progress={})
    round_.refresh_from_db()
    return round_


class _JobProgress:
    """A draw job's reporter (:class:`seating.Reporter`): writes the engine's progress to the
    round at once when the stage or the tabu start changes, else at most every
    :data:`PROGRESS_EVERY` seconds."""

    def __init__(self, rounds, also: Callable[[dict[str, Any]], None] | None) -> None:
        self.rounds, self.also = rounds, also
        self.last: tuple[str, int] | None = None
        self.written = 0.0

    def __call__(self, progress: seating.Progress) -> None:
        now = time.monotonic()
        where = (str(progress.stage), progress.attempt)
        if where == self.last and now - self.written < PROGRESS_EVERY:
            return
        self.last, self.written = where, now
        data = {**progress.as_dict(), "at": timezone.now().isoformat(timespec="seconds")}
        self.rounds.update(draw_job_progress=data)
        if self.also is not None:
            self.also(data)


def _lock(round_: Round) -> Round:
    return Round.objects.select_for_update().select_related("event").get(pk=round_.pk)


def round_changed(round_: Round) -> None:
    """Record that what the round's public page shows has changed (a draw, a publication, the
    start or close, a correction to the seating): the page is cached under
    ``Round.public_version`` (views.caching), so the next request renders it again, and a
    phone's refresh with the old ETag gets the new page instead of a 304."""
    now = timezone.now()
    Round.objects.filter(pk=round_.pk).update(
        public_version=F("public_version") + 1, public_changed_at=now
    )
    round_.public_version = (round_.public_version or 0) + 1
    round_.public_changed_at = now
    page_cache.changed(event_id=round_.event_id)  # the anonymous viewers' pages, after commit


def _require(round_: Round, *states: str) -> None:
    if round_.state not in states:
        allowed = ", ".join(str(State(s).label) for s in states)
        raise UserFacingError(
            _("Round %(n)d is %(state)s; this needs it to be: %(allowed)s.")
            % {"n": round_.number, "state": round_.get_state_display(), "allowed": allowed},
            {"field": "state"},
        )


@transaction.atomic
def round_create(*, event: Event, by=None) -> Round:
    Event.objects.select_for_update().get(pk=event.pk)  # one new round at a time
    last = event.rounds.aggregate(n=Max("number"))["n"] or 0
    if last and event.rounds.get(number=last).state == State.DRAFT:
        raise UserFacingError(_("Round %(n)d is still a draft; draw it first.") % {"n": last})
    round_ = Round.objects.create(
        event=event, number=last + 1, draw_method=event.default_draw_method
    )
    audit_log(event=event, action="round.created", by=by, data={"round": round_.number})
    return round_


def seed_hash(seed: str) -> str:
    """The commitment published before the draw: sha256 of the seed (hex)."""
    return hashlib.sha256(seed.encode()).hexdigest()


@transaction.atomic
def round_commit_seed(*, round_: Round, by=None) -> Round:
    """Choose the draw's random seed and publish its hash before drawing (commit and reveal).

    The hash is public at once (the event's page, ``GET …/rounds/commitments``) and cannot be
    changed afterwards: a commitment that could be replaced would prove nothing.
    """
    round_ = _lock(round_)
    _require(round_, State.DRAFT)
    if round_.draw_seed_hash:
        raise UserFacingError(
            _("The hash of round %(n)d's seed is published already (sha256 %(hash)s).")
            % {"n": round_.number, "hash": round_.draw_seed_hash},
            {"field": "draw_seed_hash"},
        )
    round_.draw_seed = secrets.token_hex(16)
    round_.draw_seed_hash = seed_hash(round_.draw_seed)
    round_.draw_seed_committed_at = timezone.now()
    round_.save(update_fields=["draw_seed", "draw_seed_hash", "draw_seed_committed_at"])
    round_changed(round_)
    audit_log(
        event=round_.event,
        action="round.seed_committed",
        by=by,
        data={"round": round_.number, "sha256": round_.draw_seed_hash},
    )
    return round_


class SeedNeededError(Exception):
    """Who sits a round out depends on its seed, and the seed is not chosen yet (the rounds
    ahead stop there: :func:`_ahead_plan`)."""


def draw_input(
    round_: Round,
    *,
    method: str | None = None,
    seed: str | None = None,
    ahead: Sequence[dict[str, Any]] = (),
    seed_known: bool = True,
) -> dict[str, Any]:
    """The engine's complete input for this round, as JSON-safe data (stored with the draw).

    ``seed``: the draw's seed, which orders who sits out among those due (default: the round's
    own, as committed). ``ahead``: rounds not played yet taken as played before this one
    (``{"tables": [{"seats", "first_dealer"}], "sitting_out": [ids]}``, the rounds ahead).
    ``seed_known=False``: the round's seed is not chosen yet; if it decides who sits out,
    :class:`SeedNeededError`.
    """
    event = round_.event
    entries = (
        Entry.objects.filter(event=event)
        .exclude(status=Entry.Status.WITHDRAWN)
        .select_related("player")
        .order_by("pk")
    )
    entries = [e for e in entries if e.joined_round is None or e.joined_round <= round_.number]
    # Once the organiser checks players in, only those checked in are drawn: a registered
    # player who has not come is not seated (the round's page names them).
    not_checked_in: list[int] = []
    if any(e.status == Entry.Status.CHECKED_IN for e in entries):
        not_checked_in = [e.pk for e in entries if e.status != Entry.Status.CHECKED_IN]
        entries = [e for e in entries if e.status == Entry.Status.CHECKED_IN]
    history = []
    earlier = list(
        event.rounds.filter(number__lt=round_.number)
        .exclude(state=State.DRAFT)
        .prefetch_related("tables__seats")
        .order_by("number")
    )
    for past in earlier:
        history.append(
            [
                {
                    "seats": [s.entry_id for s in sorted(t.seats.all(), key=lambda s: s.position)],
                    "first_dealer": t.first_dealer,
                }
                for t in sorted(past.tables.all(), key=lambda t: t.number)
            ]
        )
    history += [list(r["tables"]) for r in ahead]
    policy = event_table_policy(event)  # the rule family's table sizes
    entries, sitting_out, remainder = _fours_remainder(
        round_,
        entries,
        earlier,
        policy,
        seed=round_.draw_seed if seed is None else seed,
        seed_known=seed_known,
        ahead=ahead,
    )
    avoid = [[a.first_id, a.second_id] for a in Avoidance.objects.filter(event=event)]
    if event.separate_clubs:
        by_club: dict[str, list[int]] = {}
        for e in entries:
            if e.player.club.strip():
                by_club.setdefault(e.player.club.strip().casefold(), []).append(e.pk)
        avoid += [
            [a, b] for ids in by_club.values() for i, a in enumerate(ids) for b in ids[i + 1 :]
        ]
    standings = _standings_for_draw(event)
    extra: dict[str, Any] = {}
    if policy == TableSizePolicy.FOUR and _plays_partnerships(event):
        extra["partnerships"] = True  # the draw spreads partners too (opposite seats, 004)
    return {
        **extra,
        "entries": [
            {"id": e.pk, "rating": e.player.rating, "club": e.player.club} for e in entries
        ],
        "history": history,
        "fixed_tables": {str(e.pk): e.fixed_table for e in entries if e.fixed_table},
        "avoid": avoid,
        "standings": standings,
        "method": method or round_.draw_method,
        "policy": policy,
        "round": round_.number,
        "rounds_planned": event.rounds_planned,
        "not_checked_in": not_checked_in,
        "sitting_out": sitting_out,
        "remainder": remainder,
    }


def _plays_partnerships(event: Event) -> bool:
    """Whether the event's rule family plays in partnerships (its UI adapter says so)."""
    from tournaments.families import domain_of_event as ui_of_event

    try:
        return ui_of_event(event).partnerships
    except (LookupError, ValueError):
        return False


def _fours_remainder(
    round_: Round,
    entries: list[Entry],
    earlier: list[Round],
    policy: str,
    *,
    seed: str,
    seed_known: bool = True,
    ahead: Sequence[dict[str, Any]] = (),
) -> tuple[list[Entry], list[int], dict[str, Any]]:
    """The entries the engine seats, those sitting the round out, and what the organiser chose
    for players beyond a multiple of four (:mod:`tournaments.seating.remainder`). Substitutes
    are seated only to fill tables of four under the event's ``substitute`` choice. Who sits
    out among those due is ordered by ``seed``, the draw's; ``ahead``: rounds taken as played
    before this one (the rounds ahead)."""
    event = round_.event
    regular = [e for e in entries if not e.substitute]
    available = [e for e in entries if e.substitute]
    choice = event.fours_remainder
    remainder: dict[str, Any] = {"choice": choice, "substitutes": [], "short": 0}
    extra = remainder_of(len(regular)) if policy == TableSizePolicy.FOUR else 0
    if not extra:
        return regular, [], remainder
    if choice == FoursRemainder.SIT_OUT:
        rounds_out: dict[int, int] = {}
        for sat in [past.sitting_out for past in earlier] + [r["sitting_out"] for r in ahead]:
            for entry in sat or []:
                rounds_out[entry] = rounds_out.get(entry, 0) + 1
        due = {
            "k": extra,
            "rounds_out": rounds_out,
            "fixed": [e.pk for e in regular if e.fixed_table],
        }
        # what the choice depends on besides the seed, as the draw sees it, so that
        # ``draw_verify`` re-checks who sits out (docs/draw-record.md): the earlier rounds out
        # of the players present (none: left out), and who of them is fixed at a table
        pool = {e.pk for e in regular}
        remainder["rounds_out"] = {
            str(e): n for e, n in sorted(rounds_out.items()) if e in pool and n
        }
        remainder["fixed"] = sorted(due["fixed"])
        if seed_known:
            out = sitting_out_of([e.pk for e in regular], seed=seed, **due)
        else:
            settled = sitting_out_settled([e.pk for e in regular], **due)
            if settled is None:
                raise SeedNeededError(round_.number)
            out = settled
        remainder["score"] = str(event.sit_out_score)
        return [e for e in regular if e.pk not in out], list(out), remainder
    if choice == FoursRemainder.SUBSTITUTE:
        need = 4 - extra
        played: dict[int, int] = {}
        seated = [
            [s.entry_id for s in t.seats.all()] for past in earlier for t in past.tables.all()
        ]
        seated += [t["seats"] for r in ahead for t in r["tables"]]
        for seats in seated:
            for entry in seats:
                played[entry] = played.get(entry, 0) + 1
        chosen = substitutes_of([e.pk for e in available], k=need, played=played)
        remainder.update(substitutes=list(chosen), short=need - len(chosen))
        return regular + [e for e in available if e.pk in chosen], [], remainder
    return regular, [], remainder


def _standings_for_draw(event: Event) -> dict[str, float]:
    """Current scores for a Swiss draw: the stored standings if there are any, else ratings."""
    try:
        from tournaments.selectors.standings import scores_for_draw
    except ImportError:
        scores_for_draw = None
    if scores_for_draw is not None:
        scores = scores_for_draw(event=event)
        if scores:
            return {str(k): float(v) for k, v in scores.items()}
    return {}


class DrawnMeanwhileError(UserFacingError):
    """A second draw of a round finished after (or was asked for before) another one stored
    its tables: nothing is stored, the first draw stands; ``extra`` says when and by whom."""


def _drawn_meanwhile(round_: Round) -> DrawnMeanwhileError:
    last = (
        AuditLogEntry.objects.filter(
            event=round_.event_id, action="round.drawn", data__round=round_.number
        )
        .select_related("user")
        .order_by("-created_at", "-id")
        .first()
    )
    who = last.user.get_username() if last is not None and last.user else None
    when = timezone.localtime(round_.drawn_at) if round_.drawn_at else None
    return DrawnMeanwhileError(
        _(
            "Round %(n)d was drawn meanwhile (at %(time)s, by %(who)s); that draw stands and "
            "nothing else was stored. Draw again only if you mean to replace it."
        )
        % {
            "n": round_.number,
            "time": when.strftime("%H:%M:%S") if when else "?",
            "who": who or _("another caller"),
        },
        {"field": "draw", "drawn_at": when.isoformat() if when else None, "drawn_by": who},
    )


def round_draw(
    *,
    round_: Round,
    method: str | None = None,
    seed: str | None = None,
    by=None,
    progress: seating.Reporter | None = None,
    job_id: str | None = None,
) -> Round:
    """Draw the round's tables (or draw them again while the round is not published).

    The engine runs outside any transaction: near the most rounds a player count allows it
    may take minutes, which no lock should last, and a job's ``progress`` must be seen
    meanwhile. The tables are stored under the round's lock, and only if nothing the draw
    read has changed since: the round's state and seed, the players present, the earlier
    rounds, the constraints (otherwise nothing is stored and the organiser draws again).
    """
    round_ = Round.objects.select_related("event").get(pk=round_.pk)
    _require(round_, State.DRAFT, State.DRAWN)
    if job_id is None and draw_job_running(round_):  # inline while a job draws it
        raise UserFacingError(
            _("A draw of round %(n)d is already running (since %(time)s).")
            % {
                "n": round_.number,
                "time": timezone.localtime(round_.draw_job_started_at).strftime("%H:%M:%S"),
            },
            {"field": "draw"},
        )
    # what the round was when this draw began: the draw it replaces (None: none yet) and the
    # seed; another draw stored meanwhile (same published seed or not) makes this one void
    committed = (round_.draw_seed, round_.draw_seed_hash, round_.drawn_at)
    if seed is None:
        seed = round_.draw_seed or secrets.token_hex(16)
    elif round_.draw_seed_hash and seed_hash(seed) != round_.draw_seed_hash:
        # commit and reveal: the seed drawn with must be the one whose hash was published
        raise UserFacingError(
            _(
                "The hash of another seed was published before this draw (sha256 %(hash)s); "
                "the draw must use that seed. Leave the seed out."
            )
            % {"hash": round_.draw_seed_hash},
            {"field": "seed"},
        )
    inputs = draw_input(round_, method=method, seed=seed)  # its seed orders who sits out
    if len(inputs["entries"]) < 3:
        message = _("A draw needs at least three players present.")
        if inputs["not_checked_in"]:
            message += " " + _(
                "Only %(n)d checked in: once anyone is checked in, only players checked in are "
                "drawn (%(m)d registered are not)."
            ) % {"n": len(inputs["entries"]), "m": len(inputs["not_checked_in"])}
        raise UserFacingError(message, {"field": "entries"})
    _check_draw_input(inputs)
    try:
        draw = run_engine(inputs, seed=seed, progress=progress)
    except seating.SeatingError as exc:
        raise UserFacingError(str(exc), {"field": "draw"}) from exc
    return _draw_store(round_, inputs, committed, seed, draw, by, method)


@transaction.atomic
def _draw_store(
    round_: Round,
    inputs: dict[str, Any],
    committed: tuple[str, str, Any],
    seed: str,
    draw: seating.Draw,
    by,
    method: str | None,
) -> Round:
    """Store ``draw`` (made from ``inputs``) as the round's tables, if they still hold."""
    round_ = _lock(round_)
    _require(round_, State.DRAFT, State.DRAWN)
    if round_.drawn_at != committed[2]:
        raise _drawn_meanwhile(round_)
    now = draw_input(round_, method=method, seed=seed)
    if (round_.draw_seed, round_.draw_seed_hash) != committed[:2] or _drawn_from(
        now
    ) != _drawn_from(inputs):
        raise UserFacingError(
            _(
                "While the draw ran, the players present, the earlier rounds, the draw "
                "constraints or the round's seed changed, so its tables no longer fit; nothing "
                "was stored. Draw again."
            ),
            {"field": "draw"},
        )
    inputs = {**inputs, "not_checked_in": now["not_checked_in"]}  # for the page; not drawn from
    round_.tables.all().delete()
    _store_tables(round_, draw.tables)
    round_.sitting_out = list(inputs.get("sitting_out", []))
    round_.draw_method = inputs["method"]
    round_.draw_seed = seed
    round_.draw_seed_hash = round_.draw_seed_hash or seed_hash(seed)
    round_.draw_params = {
        "input": inputs,
        "engine": draw.engine_version,
        "parameters": _json_safe(draw.parameters),
        "tables": tables_as_data(draw.tables),
    }
    round_.draw_report = report_as_data(draw)
    round_.state = State.DRAWN
    round_.drawn_at = timezone.now()
    round_.draw_job_error = ""
    round_.save()
    round_changed(round_)
    audit_log(
        event=round_.event,
        action="round.drawn",
        by=by,
        data={
            "round": round_.number,
            "method": inputs["method"],
            "seed": seed,
            "tables": len(draw.tables),
        },
    )
    return round_


def _drawn_from(inputs: dict[str, Any]) -> dict[str, Any]:
    """What the engine's tables depend on (:func:`run_engine`): the standings only for a
    Swiss draw, and never who is registered but not checked in."""
    used = {k: v for k, v in inputs.items() if k not in ("not_checked_in", "standings")}
    if inputs["method"] == "swiss":
        used["standings"] = inputs["standings"]
    return used


_POLICIES = {"3": "3", "4": "4", "mixed": "mixed", "mixed4": "mixed-4"}


def _check_draw_input(inputs: dict[str, Any]) -> None:
    """What the engine would refuse, said to the organiser with players' names and the rule:
    a count the table sizes cannot seat, a fixed table the round does not have, more players
    fixed at a table than it seats."""
    ids = [e["id"] for e in inputs["entries"]]
    remainder = inputs.get("remainder") or {}
    if inputs["policy"] == TableSizePolicy.FOUR and len(ids) % 4:
        if remainder.get("short"):
            raise UserFacingError.said(
                gettext_noop(
                    "%(n)d players present need %(k)d substitutes to fill tables of four, and "
                    "%(m)d are checked in: check substitutes in (an entry marked “substitute”), "
                    "or let players sit out in turn (the event's settings)."
                ),
                {
                    "n": len(ids) - len(remainder.get("substitutes", [])),
                    "k": len(remainder.get("substitutes", [])) + remainder["short"],
                    "m": len(remainder.get("substitutes", [])),
                },
                {"field": "fours_remainder"},
            )
        raise UserFacingError.said(
            gettext_noop(
                "%(n)d players present do not fill tables of four: choose in the event's "
                "settings whether players sit out in turn (with a stated score) or substitutes "
                "fill the last table, or check players in or out."
            ),
            {"n": len(ids)},
            {"field": "fours_remainder"},
        )
    try:
        sizes = seating.table_sizes(len(ids), seating.TablePolicy(_POLICIES[inputs["policy"]]))
    except seating.TableCountError as exc:
        raise UserFacingError(
            ngettext(
                "%(n)d player present cannot be seated as “%(policy)s” (001 §3.2.10): change "
                "the table sizes in the event's settings, or check players in or out.",
                "%(n)d players present cannot be seated as “%(policy)s” (001 §3.2.10): change "
                "the table sizes in the event's settings, or check players in or out.",
                len(ids),
            )
            % {"n": len(ids), "policy": TableSizePolicy(inputs["policy"]).label},
            {"field": "table_size_policy", "rule": "3.2.10"},
        ) from exc
    fixed = {int(k): t for k, t in inputs.get("fixed_tables", {}).items() if int(k) in set(ids)}
    names = dict(Entry.objects.filter(pk__in=fixed).values_list("pk", "player__name"))
    for entry, table in sorted(fixed.items(), key=lambda kv: (kv[1], names[kv[0]])):
        if table > len(sizes):
            raise UserFacingError(
                ngettext(
                    "%(name)s must sit at table %(t)d, but this round has %(n)d table.",
                    "%(name)s must sit at table %(t)d, but this round has %(n)d tables.",
                    len(sizes),
                )
                % {"name": names[entry], "t": table, "n": len(sizes)},
                {"field": "fixed_table"},
            )
    for table in sorted(set(fixed.values())):
        crowd = sorted(names[e] for e, t in fixed.items() if t == table)
        if len(crowd) > sizes[table - 1]:
            raise UserFacingError.said(
                gettext_noop("%(names)s must all sit at table %(t)d, which seats %(k)d."),
                {"names": ", ".join(crowd), "t": table, "k": sizes[table - 1]},
                {"field": "fixed_table"},
            )


def run_engine(
    inputs: dict[str, Any], *, seed: str, progress: seating.Reporter | None = None
) -> seating.Draw:
    """Run the pure draw engine on the stored input (also used by ``manage.py draw_verify``)."""
    entries = [
        seating.Entry(id=e["id"], rating=e.get("rating"), club=e.get("club") or None)
        for e in inputs["entries"]
    ]
    history = [
        seating.PastTable(
            round=number, seats=tuple(t["seats"]), first_dealer=t["first_dealer"], number=i
        )
        for number, tables in enumerate(inputs["history"], start=1)
        for i, t in enumerate(tables, start=1)
    ]
    constraints = seating.Constraints(
        must_sit={int(k): v for k, v in inputs.get("fixed_tables", {}).items()},
        must_not_meet=frozenset(frozenset(pair) for pair in inputs.get("avoid", [])),
    )
    method = seating.Method(inputs["method"])
    standings = {int(k): v for k, v in inputs.get("standings", {}).items()} or None
    if method is seating.Method.SWISS and standings is None:
        standings = {e.id: 0.0 for e in entries}  # the first round: everyone level, by rating
    return seating.draw_round(
        entries,
        history,
        method=method,
        policy=seating.TablePolicy.PARTNERSHIPS
        if inputs.get("partnerships") and inputs["policy"] == TableSizePolicy.FOUR
        else seating.TablePolicy(_POLICIES[inputs["policy"]]),
        constraints=constraints,
        seed=seed,
        standings=standings,
        round_number=inputs["round"],
        rounds_total=max(inputs["rounds_planned"], inputs["round"]),
        progress=progress,
    )


def tables_as_data(tables) -> list[dict[str, Any]]:
    return [{"seats": list(t.seats), "first_dealer": t.first_dealer} for t in tables]


def _json_safe(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_json_safe(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


def report_as_data(draw: seating.Draw) -> dict[str, Any]:
    """The engine's report as JSON for the round page: per player whom they met before and
    why the table is what it is."""
    report = draw.report
    players = []
    for p in report.players.values():
        players.append(
            {
                "id": p.entry,
                "table": p.table,
                "seat": p.seat,
                "met_before": [
                    [o, list(rounds)]
                    for o, rounds in sorted(p.met_before.items(), key=lambda kv: str(kv[0]))
                ],
                "repeats": [r.opponent for r in p.repeats],
                "why": "; ".join(f"{r.reason}" for r in p.repeats) or "; ".join(p.constraints),
                "seat_counts": [
                    p.seats_so_far.get(i, 0) for i in range(4 if p.four_table_count else 3)
                ],
                "first_dealer_count": p.first_dealer_count,
                "four_table_count": p.four_table_count,
                "left_neighbours": list(p.left_neighbours),
            }
        )
    return {
        "summary": {
            "repeated meetings": report.repeated_meetings,
            "repeated left neighbours": report.repeated_left_neighbours,
            "method": str(draw.method),
            "engine": draw.engine_version,
        },
        "notes": list(report.notes),
        "players": players,
    }


def _store_tables(round_: Round, tables) -> None:
    for table in tables:
        t = Table.objects.create(round=round_, number=table.number, first_dealer=table.first_dealer)
        Seat.objects.bulk_create(
            Seat(round=round_, table=t, position=pos, entry_id=entry_id)
            for pos, entry_id in enumerate(table.seats)
        )


def _transition(round_: Round, frm: tuple[str, ...], to: str, stamp: str, action: str, by) -> Round:
    round_ = _lock(round_)
    _require(round_, *frm)
    round_.state = to
    setattr(round_, stamp, timezone.now())
    round_.save(update_fields=["state", stamp])
    round_changed(round_)
    audit_log(event=round_.event, action=action, by=by, data={"round": round_.number})
    return round_


@transaction.atomic
def round_publish(*, round_: Round, by=None) -> Round:
    round_ = _transition(
        round_, (State.DRAWN,), State.PUBLISHED, "published_at", "round.published", by
    )
    # the hall opens the new seating at once: its pages rendered ahead after the commit
    page_warm.public_pages_warm_schedule(event_id=round_.event_id)
    return round_


@transaction.atomic
def round_start(*, round_: Round, by=None) -> Round:
    return _transition(round_, (State.PUBLISHED,), State.IN_PLAY, "started_at", "round.started", by)


class UnfinishedTablesError(UserFacingError):
    """Closing a round whose tables are not all approved needs a reason; ``extra["tables"]``
    lists them (number and state, :mod:`tournaments.selectors.desk`)."""


@transaction.atomic
def round_close(*, round_: Round, by=None, unfinished_reason: str = "") -> Round:
    """End play in ``round_``. Tables without an approved protocol are left without a result
    for this round (the standings say "no result" for their players): closing with such tables
    needs ``unfinished_reason``, and the log keeps the tables and the reason."""
    from tournaments.selectors.desk import unfinished_tables

    round_ = _lock(round_)
    _require(round_, State.IN_PLAY)
    unfinished = unfinished_tables(round_=round_)
    reason = (unfinished_reason or "").strip()
    if unfinished and not reason:
        raise UnfinishedTablesError(
            ngettext(
                "Table %(tables)s has no approved protocol; confirm and give a reason to close "
                "the round without its result.",
                "Tables %(tables)s have no approved protocol; confirm and give a reason to close "
                "the round without their results.",
                len(unfinished),
            )
            % {"tables": ", ".join(str(t.number) for t in unfinished)},
            {
                "field": "unfinished_reason",
                "tables": [{"table": t.number, "state": t.state} for t in unfinished],
            },
        )
    round_.state = State.CLOSED
    round_.closed_at = timezone.now()
    round_.save(update_fields=["state", "closed_at"])
    data: dict[str, Any] = {"round": round_.number}
    if unfinished:
        data["unfinished"] = [{"table": t.number, "state": t.state} for t in unfinished]
    audit_log(
        event=round_.event,
        action="round.closed",
        by=by,
        reason=reason if unfinished else "",
        data=data,
    )
    return round_


# --- corrections: atomic, with a reason, recorded -------------------------------------------

_CORRECTABLE = (State.DRAWN, State.PUBLISHED, State.IN_PLAY)


def _need_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise UserFacingError(_("A correction needs a reason."), {"field": "reason"})
    return reason


def _seat_of(round_: Round, entry_id: int) -> Seat:
    try:
        return (
            Seat.objects.select_for_update()
            .select_related("table", "entry__player")
            .get(round=round_, entry_id=entry_id)
        )
    except Seat.DoesNotExist:
        raise UserFacingError(
            _("That player has no seat in round %(n)d.") % {"n": round_.number}, {"field": "entry"}
        ) from None


@transaction.atomic
def seats_swap(*, round_: Round, first: int, second: int, reason: str, by=None) -> None:
    """Swap two players' seats (same or different tables)."""
    reason = _need_reason(reason)
    round_ = _lock(round_)
    _require(round_, *_CORRECTABLE)
    if first == second:
        raise UserFacingError(_("Choose two different players."), {"field": "second"})
    a, b = _seat_of(round_, first), _seat_of(round_, second)
    _reseat([(a, second), (b, first)])
    round_changed(round_)
    audit_log(
        event=round_.event,
        action="seats.swapped",
        by=by,
        reason=reason,
        data={
            "round": round_.number,
            "first": first,
            "second": second,
            "tables": [a.table.number, b.table.number],
        },
    )


@transaction.atomic
def seat_move(*, round_: Round, entry: int, table: int, reason: str, by=None) -> None:
    """Move a player to another table (e.g. from a table of four to a table of three)."""
    reason = _need_reason(reason)
    round_ = _lock(round_)
    _require(round_, *_CORRECTABLE)
    seat = _seat_of(round_, entry)
    target = _table(round_, table)
    source = seat.table
    if target.pk == source.pk:
        raise UserFacingError(
            _("The player already sits at table %(t)d.") % {"t": table}, {"field": "table"}
        )
    source_size, target_size = source.seats.count(), target.seats.count()
    if source_size - 1 < 3 or target_size + 1 > 4:
        raise UserFacingError(
            _(
                "Tables must keep 3 or 4 players: table %(a)d would have %(x)d, table %(b)d %(y)d "
                "(001 §3.2.10). Swap players instead."
            )
            % {"a": source.number, "x": source_size - 1, "b": target.number, "y": target_size + 1},
            {"field": "table", "rule": "3.2.10"},
        )
    seat.delete()
    _renumber(source)
    Seat.objects.create(round=round_, table=target, position=target_size, entry_id=entry)
    round_changed(round_)
    audit_log(
        event=round_.event,
        action="seat.moved",
        by=by,
        reason=reason,
        data={"round": round_.number, "entry": entry, "from": source.number, "to": table},
    )


def _reseat(changes: list[tuple[Seat, int]]) -> None:
    """Give seats new entries: delete and recreate the rows, so that the one-seat-per-round
    constraint never sees a half-done swap (on any database)."""
    rows = [
        Seat(round_id=s.round_id, table_id=s.table_id, position=s.position, entry_id=e)
        for s, e in changes
    ]
    Seat.objects.filter(pk__in=[s.pk for s, _e in changes]).delete()
    Seat.objects.bulk_create(rows)


def _table(round_: Round, number: int) -> Table:
    try:
        return Table.objects.select_for_update().get(round=round_, number=number)
    except Table.DoesNotExist:
        raise UserFacingError(
            _("There is no table %(t)d.") % {"t": number}, {"field": "table"}
        ) from None


def _seat_table(
    round_: Round,
    table: Table,
    seats: list[Seat],
    order: list[int],
    first_dealer: int,
    *,
    action: str,
    reason: str,
    by,
    **data,
) -> Table:
    """Seat ``order`` (entries, clockwise) at ``table`` with the first dealer at index
    ``first_dealer``, and log it as ``action`` with ``data``."""
    _reseat(list(zip(seats, order, strict=True)))
    table.first_dealer = first_dealer
    table.save(update_fields=["first_dealer"])
    round_changed(round_)
    audit_log(
        event=round_.event,
        action=action,
        by=by,
        reason=reason,
        data={
            "round": round_.number,
            "table": table.number,
            **data,
            "seats": order,
            "first_dealer": first_dealer,
        },
    )
    return table


def _renumber(table: Table) -> None:
    seats = list(table.seats.order_by("position"))
    for i, s in enumerate(seats):
        if s.position != i:
            Seat.objects.filter(pk=s.pk).update(position=i)
    if table.first_dealer >= len(seats):
        table.first_dealer = 0
        table.save(update_fields=["first_dealer"])


@transaction.atomic
def table_redraw(*, round_: Round, table: int, reason: str, by=None) -> Table:
    """Draw one table's seat order and first dealer again (001 §3.1.1, §3.2.1), same players."""
    reason = _need_reason(reason)
    round_ = _lock(round_)
    _require(round_, *_CORRECTABLE)
    t = _table(round_, table)
    seats = list(t.seats.order_by("position"))
    redraws = round_.draw_params.get("redraws", 0) + 1
    seed = f"{round_.draw_seed}/table-{table}/redraw-{redraws}"
    rng = random.Random(hashlib.sha256(seed.encode()).digest())
    order = [s.entry_id for s in seats]
    rng.shuffle(order)
    first_dealer = rng.randrange(len(order))
    round_.draw_params = {**round_.draw_params, "redraws": redraws}
    round_.save(update_fields=["draw_params"])
    return _seat_table(
        round_,
        t,
        seats,
        order,
        first_dealer,
        action="table.redrawn",
        reason=reason,
        by=by,
        seed=seed,
    )


def _cited(message: str, citation: str) -> str:
    """``message`` with the family's rule it rests on, when its seed has one."""
    return f"{message[:-1]} ({citation})." if citation else message


@transaction.atomic
def table_seat_as_drawn(
    *, round_: Round, table: int, order: list[int], first_dealer: int, reason: str, by=None
) -> Table:
    """The seats and the first dealer as the players drew them at the table (тираж, 001 §3.1.1,
    §3.2.1): ``order`` the table's entries clockwise from seat 1, ``first_dealer`` one of them."""
    reason = _need_reason(reason)
    round_ = _lock(round_)
    _require(round_, *_CORRECTABLE)
    t = _table(round_, table)
    seats = list(t.seats.order_by("position").select_related("entry__player"))
    at_table = sorted(s.entry_id for s in seats)
    if sorted(order) != at_table:
        names = ", ".join(s.entry.player.name for s in seats)
        family = ui_of_event(round_.event)
        raise UserFacingError(
            _cited(
                _("Seat each player of table %(t)d once: %(names)s.")
                % {"t": table, "names": names},
                family.seating_citation,
            ),
            {"field": "order", "rule": family.seating_rule},
        )
    if first_dealer not in order:
        family = ui_of_event(round_.event)
        raise UserFacingError(
            _cited(
                _("The first dealer must be a player of table %(t)d.") % {"t": table},
                family.first_dealer_citation,
            ),
            {"field": "first_dealer", "rule": family.first_dealer_rule},
        )
    before = {"seats": [s.entry_id for s in seats], "first_dealer": t.first_dealer}
    return _seat_table(
        round_,
        t,
        seats,
        order,
        order.index(first_dealer),
        action="table.seated_as_drawn",
        reason=reason,
        by=by,
        before=before,
    )


def _ahead_inputs(event: Event) -> tuple[int, dict[str, Any]] | None:
    """The first round ahead and the engine's input for it (what the plan is made from; who
    sits out is chosen round by round in :func:`_ahead_plan`), or None when nothing is ahead."""
    if event.default_draw_method not in ("no_repeats", "schedule"):
        return None
    drawn = event.rounds.exclude(state=State.DRAFT).order_by("-number").first()
    if drawn is None or drawn.number >= event.rounds_planned:
        return None
    inputs = draw_input(Round(event=event, number=drawn.number + 1), method="no_repeats")
    if len(inputs["entries"]) < 3:
        return None
    return drawn.number + 1, inputs


def _ahead_plan(event: Event, first: int, inputs: dict[str, Any]) -> dict[str, Any]:
    """The rounds ahead as the draw will make them: ``{"rounds": [{"round", "tables",
    "sitting_out"}], "unknown_from": n or None}``.

    Each round is planned as if the ones before it were played as planned: who sits it out
    (the players who sat out fewest, ordered by the round's seed) and the substitutes who fill
    its last table (those who played fewest) take their turns as in the real draws, and players
    join at their round. A round whose seed is not chosen yet, and whose sitters that seed would
    pick among more players due than places, cannot be known: the plan stops there
    (``unknown_from``), and says so."""
    _check_draw_input(inputs)
    seeds = dict(event.rounds.filter(number__gte=first).values_list("number", "draw_seed"))
    rounds: list[dict[str, Any]] = []
    played: list[dict[str, Any]] = []
    for number in range(first, event.rounds_planned + 1):
        seed = seeds.get(number) or ""
        try:
            inputs = draw_input(
                Round(event=event, number=number, draw_seed=seed),
                method="no_repeats",
                ahead=played,
                seed_known=bool(seed),
            )
        except SeedNeededError:
            return {"rounds": rounds, "unknown_from": number}
        _check_draw_input(inputs)
        tables = run_engine(inputs, seed=f"schedule ahead {number}").tables
        sitting_out = list(inputs.get("sitting_out", []))
        rounds.append(
            {
                "round": number,
                "tables": [sorted(t.seats) for t in tables],
                "sitting_out": sitting_out,
            }
        )
        played.append(
            {
                "tables": [
                    {"seats": list(t.seats), "first_dealer": t.first_dealer} for t in tables
                ],
                "sitting_out": sitting_out,
            }
        )
    return {"rounds": rounds, "unknown_from": None}


def _ahead_key(event: Event, found: tuple[int, dict[str, Any]] | None) -> str:
    """A fingerprint of everything the plan depends on (the engine's input, the rounds
    planned, the engine's version): equal keys, equal plans."""
    import json

    payload = {
        "found": found,
        # who sits a round ahead out follows its seed, once chosen (never shown: hashed)
        "seeds": sorted(event.rounds.exclude(draw_seed="").values_list("number", "draw_seed")),
        "planned": event.rounds_planned,
        "method": event.default_draw_method,
        "engine": getattr(seating, "ENGINE_VERSION", ""),
    }
    text = json.dumps(payload, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def schedule_ahead(*, event: Event) -> list[tuple[int, list[list[int]]]]:
    """The tables of the rounds not drawn yet, as the engine will draw them: each round's
    tables as lists of entry ids (the seats and first dealers are drawn with each round).

    Once round 1 is drawn, the ``no_repeats`` and ``schedule`` methods draw every later round
    from a plan made from the rounds played (``seating.engine._lookahead``), never from a later
    seed; so the rounds ahead are known, while the players present, the constraints and the
    played rounds stay as they are. Empty before round 1 is drawn, after the last round, or for
    the random and Swiss methods (their rounds depend on the seed or the standings).

    This runs the seating engine (seconds for a large event): pages and the API ask for it
    through :func:`schedule_ahead_request`, which runs it as a job and keeps the plan.
    """
    found = _ahead_inputs(event)
    if found is None:
        return []
    return [(r["round"], r["tables"]) for r in _ahead_plan(event, *found)["rounds"]]


AHEAD_TASK = "tournaments.schedule_ahead"


def schedule_ahead_request(*, event: Event) -> Job | None:
    """The job holding the plan of the rounds ahead for the event's current data: a finished
    one when the data have not changed since (the plan is kept on its row, ``result``), else
    a new job, queued (the engine never runs in the request). None: nothing is ahead.

    A finished job's ``result`` is ``{"rounds": [{"round": n, "tables": [[ids]]}]}``, or
    ``{"error": message, "field": ...}`` when the players present or the constraints make a
    draw impossible.
    """
    from tournaments.jobs.outbox import job_enqueue, job_send
    from tournaments.services.standings import jobs_queue

    found = _ahead_inputs(event)
    if found is None:
        return None
    key = _ahead_key(event, found)
    job = (
        Job.objects.filter(task=AHEAD_TASK, event=event, key=key)
        .exclude(state=Job.State.FAILED)
        .order_by("-created_at")
        .first()
    )
    if job is None:  # nothing else to write: the row commits alone, then it is sent
        job = job_enqueue(
            task=AHEAD_TASK,
            args=[event.pk],
            queue=jobs_queue(),
            event_id=event.pk,
            key=key,
            send=False,
        )
        job_send(job=job)
        job.refresh_from_db()  # the embedded default ran it already (eager)
    return job


def schedule_ahead_run(*, task_id: str, event_id: int) -> list[dict[str, Any]]:
    """The work of the rounds-ahead job: plan, and keep the plan (or why no draw is
    possible) on the job's row, under the key of the data it was computed from."""
    event = Event.objects.get(pk=event_id)
    found = _ahead_inputs(event)
    key = _ahead_key(event, found)
    rounds: list[dict[str, Any]] = []
    try:
        result: dict[str, Any] = {"rounds": [], "unknown_from": None}
        if found is not None:
            result = _ahead_plan(event, *found)
            rounds = result["rounds"]
    except UserFacingError as error:
        # the plan is shared by every reader of the same data: its error is said again in
        # each reader's language from its words (views.organiser.schedule)
        result = {"error": str(error.message), **(error.extra or {})}
        if error.words:
            result["error_words"] = error.words
    Job.objects.filter(task_id=task_id).update(result=result, key=key)
    return rounds
