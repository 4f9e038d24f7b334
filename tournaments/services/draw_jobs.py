"""A draw as a background job: which events draw in one (:func:`draw_in_background`), asking
for it (:func:`draw_job_queue`, through the outbox: sent by task name after the commit) and the
job's work with its progress (:func:`draw_job_run`, what ``jobs.tasks.round_draw`` runs).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import seating
from tournaments.errors import UserFacingError, error_words
from tournaments.jobs.outbox import job_enqueue, job_send
from tournaments.models import Entry, Event, Round
from tournaments.models.event import TableSizePolicy
from tournaments.services.draw import _drawn_meanwhile, draw_job_running, round_draw
from tournaments.services.events import event_table_policy
from tournaments.services.round_states import _lock, _require

__all__ = [
    "ASYNC_DRAW_THRESHOLD",
    "draw_in_background",
    "draw_job_queue",
    "draw_job_run",
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


def draw_job_queue(
    *, round_: Round, by=None, method: str | None = None, seed: str | None = None
) -> str:
    """Draw ``round_`` in a Celery job (:func:`draw_job_run`); return the job's id.

    The round records the job until it ends, so its page shows that a draw is queued or
    running and offers no second one meanwhile; a job that fails leaves its message on the
    round. The job's row is written with the round's (``jobs.outbox``): when the broker
    cannot be reached the draw stays queued and starts once it is back.
    """
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
        mine.update(
            draw_job_id="",
            draw_job_error=message,
            draw_job_error_words=error_words(exc),
            draw_job_progress={},
        )
        raise
    mine.update(
        draw_job_id="", draw_job_error="", draw_job_error_words=None, draw_job_progress={}
    )
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
