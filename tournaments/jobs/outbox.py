"""Background jobs nothing can lose: a transactional outbox, a lease, and a sweep.

* :func:`job_enqueue` writes a :class:`~tournaments.models.Job` row in the caller's transaction
  (the approval, the recomputation asked for, the document ordered) and hands it to the broker
  after the commit. When the broker cannot be reached the write still commits, the row stays
  ``queued`` and the caller tells the user the job is queued; nothing raises.
* A worker runs the job under a lease: :class:`tournaments.jobs.base.JobTask` marks it
  ``running`` and renews ``heartbeat_at`` every :func:`heartbeat_every` seconds from a thread.
  A delivery of a job that has already ended is skipped, so a message delivered twice (late
  acknowledgement after a lost worker, or a send repeated by the sweep) does no harm.
* :func:`jobs_sweep` (Celery beat every ``PULKA_JOBS_SWEEP_EVERY`` seconds, ``manage.py
  jobs_sweep``, and at most once a minute on a web request, :class:`JobsSweepMiddleware`) sends
  the ``queued`` rows once the broker is back, sends again a job the broker has held longer
  than ``PULKA_JOB_RESEND_AFTER`` without a worker starting it (a broker restarted without its
  data loses messages), and ends the ``running`` jobs whose heartbeat stopped: a job that is
  safe to run again is sent again (up to :data:`MAX_ATTEMPTS` starts), a draw is marked failed
  with the reason and its round can be drawn again. It also asks again for a standings
  recomputation that a request asked for but no job carries (``standings_sweep``).
* Standings jobs of one event are merged: a request made while one waits joins it
  (``services.standings.standings_schedule``).

This is the transactional-outbox pattern (the job is part of the write), with at-least-once
delivery made harmless by idempotent jobs.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from tournaments.celery import app
from tournaments.models import Job, Round

__all__ = [
    "DOCUMENT_QUEUED",
    "STANDINGS_QUEUED",
    "MAX_ATTEMPTS",
    "JobsSweepMiddleware",
    "job_end",
    "lost_words",
    "job_enqueue",
    "job_heartbeat",
    "job_retrying",
    "job_send",
    "job_start",
    "jobs_queue",
    "jobs_sweep",
    "jobs_waiting",
    "on_lost",
]

log = logging.getLogger(__name__)
State = Job.State

#: what the pages say when a job waits for the broker
STANDINGS_QUEUED = _(
    "Saved. The standings recomputation is queued: the job queue cannot be reached just now, "
    "and the standings catch up by themselves as soon as it is back."
)
DOCUMENT_QUEUED = _(
    "The document is queued: the job queue cannot be reached just now, and it is rendered as "
    "soon as it is back."
)

#: starts of one job before the sweep gives up on it (a worker died under each)
MAX_ATTEMPTS = 3
#: how many rows one sweep handles per step (every loop is bounded)
SWEEP_BATCH = 200
#: a queued row younger than this is left to the sender its commit started
SEND_GRACE = timedelta(seconds=5)


def heartbeat_every() -> float:
    return float(getattr(settings, "PULKA_JOB_HEARTBEAT", 10))


def lease() -> timedelta:
    """A running job whose heartbeat is older than this has lost its worker."""
    return timedelta(seconds=float(getattr(settings, "PULKA_JOB_LEASE", 60)))


def resend_after() -> timedelta:
    return timedelta(seconds=float(getattr(settings, "PULKA_JOB_RESEND_AFTER", 120)))


def jobs_queue() -> str | None:
    """The Celery queue of the standings and PDF jobs (``PULKA_JOBS_QUEUE``; None: the
    default queue). The worker tests point it at their own worker."""
    return getattr(settings, "PULKA_JOBS_QUEUE", None) or None


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


# --- what a lost job means, per task ------------------------------------------------------


def _draw_lost(job: Job, reason: str) -> None:
    """A draw is never run again behind the organiser's back: the round becomes drawable and
    its page shows why the draw stopped."""
    Round.objects.filter(draw_job_id=job.task_id).update(
        draw_job_id="",
        draw_job_error=reason,
        draw_job_error_words=lost_words(job),
        draw_job_progress={},
    )


#: task → (sent again when its worker is lost, what giving up on it means); the tasks whose
#: failure the layers above record (a snapshot, a document, an upload) get their handler from
#: them when the app loads (:func:`on_lost`, ``jobs.result_tasks``): the outbox imports no layer
#: above the models
LOST: dict[str, tuple[bool, Callable[[Job, str], None] | None]] = {
    "tournaments.round_draw": (False, _draw_lost),
    "tournaments.standings_recompute": (True, None),
    "tournaments.generated_file_render": (True, None),
    "tournaments.event_archive_export": (True, None),
    # safe to run again: the import commits the new event on the job's row (archive.imports)
    "tournaments.event_archive_import": (True, None),
    "tournaments.schedule_ahead": (True, None),
    # the series archive (issue 39): a file written again, an import committed with its row
    "tournaments.series_archive_export": (True, None),
    "tournaments.series_archive_import": (True, None),
}


def on_lost(*tasks: str) -> Callable[[Callable[[Job, str], None]], Callable[[Job, str], None]]:
    """Register the decorated ``handler(job, reason)`` as what giving up on each of ``tasks``
    means (whether it is sent again stays as :data:`LOST` says)."""

    def register(handler: Callable[[Job, str], None]) -> Callable[[Job, str], None]:
        for task in tasks:
            LOST[task] = (LOST.get(task, (True, None))[0], handler)
        return handler

    return register


#: what else a sweep does, by the name of its count: ``sweep(now=...) -> int``, registered by
#: the layers above when the app loads (``jobs.tasks``: the standings' own sweep)
SWEEPS: dict[str, Callable[..., int]] = {}


#: why a job was given up, said again in the reader's language (:func:`lost_words`)
LOST_TEXT = gettext_noop(
    "The worker running this job stopped (last heard from %(worker)s at %(when)s); nothing it "
    "had not finished was stored."
)


def lost_words(job: Job) -> dict[str, Any]:
    seen = job.heartbeat_at or job.started_at
    when = timezone.localtime(seen).strftime("%H:%M:%S") if seen else "?"
    return {"text": LOST_TEXT, "params": {"worker": job.worker or "?", "when": when}}


def _lost_reason(job: Job) -> str:
    """Why a job was given up, in English (the job's ``error``, for the API and the logs)."""
    return LOST_TEXT % lost_words(job)["params"]


# --- enqueue and send ------------------------------------------------------------------------


def job_enqueue(
    *,
    task: str,
    args: list[Any] | tuple[Any, ...] = (),
    queue: str | None = None,
    event_id: int | None = None,
    key: str = "",
    task_id: str | None = None,
    send: bool = True,
) -> Job:
    """Write the job in the current transaction; it is sent to the broker after the commit
    (``send=False``: the caller sends it, :func:`job_send`). Never raises for the broker."""
    fields: dict[str, Any] = {
        "task": task,
        "args": list(args),
        "queue": queue or "",
        "event_id": event_id,
        "key": key,
    }
    if task_id:
        fields["task_id"] = task_id
    job = Job.objects.create(**fields)
    if send:
        transaction.on_commit(lambda: job_send(job=job))
    return job


def job_send(*, job: Job, raise_task_errors: bool = False, resend: bool = False) -> bool:
    """Hand ``job`` to the broker; True when it was sent (or, eager, ran).

    The row is marked ``sent`` first (a worker may start it at once) and put back to
    ``queued`` when the broker cannot be reached. In eager mode the job runs here; its
    errors are recorded on the row and raised only with ``raise_task_errors``.
    """
    now = timezone.now()
    claim = Job.objects.filter(pk=job.pk)
    if resend:
        claim = claim.filter(state=job.state, sent_at=job.sent_at)
    else:
        claim = claim.filter(state=State.QUEUED)
    if not claim.update(state=State.SENT, sent_at=now, sends=F("sends") + 1):
        return False  # another sender took it, or it has run
    eager = bool(app.conf.task_always_eager)
    try:
        app.tasks[job.task].apply_async(
            args=list(job.args),
            task_id=job.task_id,
            queue=job.queue or None,
            retry=False,
        )
    except Exception as exc:
        if eager:
            if raise_task_errors:
                raise
            log.warning("job %s failed inline: %s", job.task_id, exc)
            return True
        Job.objects.filter(pk=job.pk, state=State.SENT, sent_at=now).update(
            state=State.QUEUED, error=f"broker: {type(exc).__name__}: {exc}"[:2000]
        )
        log.warning("job %s stays queued, the broker is unreachable: %s", job.task_id, exc)
        return False
    return True


def jobs_waiting(*, event_id: int, task: str | None = None, key: str | None = None) -> bool:
    """Whether jobs of the event wait for the broker (written, not sent yet: it was down)."""
    waiting = Job.objects.filter(event_id=event_id, state=State.QUEUED)
    if task:
        waiting = waiting.filter(task=task)
    if key is not None:
        waiting = waiting.filter(key=key)
    return waiting.exists()


# --- the worker's side -----------------------------------------------------------------------


def job_start(*, task_id: str) -> tuple[Job | None, bool]:
    """Claim the job for this delivery: ``(job, run)``. ``job`` is None for a task sent
    without an outbox row (it runs). ``run`` is False for a delivery of a job that has ended,
    or that another worker holds with a live heartbeat."""
    now = timezone.now()
    with transaction.atomic():
        job = Job.objects.select_for_update().filter(task_id=task_id).first()
        if job is None:
            return None, True
        if job.state in (State.DONE, State.FAILED):
            return job, False
        if job.state == State.RUNNING:
            if job.heartbeat_at and now - job.heartbeat_at < lease():
                return job, False  # another delivery holds it; the sweep watches its lease
            retry, _ = LOST.get(job.task, (True, None))
            if not retry or job.attempts >= MAX_ATTEMPTS:
                _give_up(job, _lost_reason(job))
                return job, False
        job.state = State.RUNNING
        job.started_at = job.heartbeat_at = now
        job.attempts += 1
        job.worker = worker_name()
        job.save(update_fields=["state", "started_at", "heartbeat_at", "attempts", "worker"])
    return job, True


def job_end(*, job_id: int, error: str = "", words: dict[str, Any] | None = None) -> None:
    """The job ended: done, or failed with ``error`` (English, for the API and the logs) and its
    ``words`` (said again in the reader's language: :func:`tournaments.errors.error_words`)."""
    Job.objects.filter(pk=job_id).update(
        state=State.FAILED if error else State.DONE,
        finished_at=timezone.now(),
        error=error[:4000],
        error_words=words if error else None,
    )


def job_retrying(*, job_id: int) -> None:
    """The task asked Celery for a retry (a new message with the same id): it is on the
    broker again."""
    Job.objects.filter(pk=job_id, state=State.RUNNING).update(
        state=State.SENT, sent_at=timezone.now()
    )


@contextlib.contextmanager
def job_heartbeat(*, job_id: int) -> Iterator[None]:
    """Renew the job's lease from a thread while the block runs (its own connection)."""
    stop = threading.Event()

    def beat() -> None:
        try:
            while not stop.wait(heartbeat_every()):
                Job.objects.filter(pk=job_id, state=State.RUNNING).update(
                    heartbeat_at=timezone.now()
                )
        except Exception:  # the database went away: the lease lapses, the sweep decides
            log.exception("job heartbeat stopped")
        finally:
            connection.close()

    thread = threading.Thread(target=beat, name=f"job-heartbeat-{job_id}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=10)


# --- the sweep -------------------------------------------------------------------------------


def _give_up(job: Job, reason: str) -> None:
    Job.objects.filter(pk=job.pk).update(
        state=State.FAILED, finished_at=timezone.now(), error=reason, error_words=lost_words(job)
    )
    _, handler = LOST.get(job.task, (True, None))
    if handler is not None:
        handler(job, reason)


def jobs_sweep(*, now=None) -> dict[str, int]:
    """Send what the broker missed, and end what lost its worker; returns the counts."""
    now = now or timezone.now()
    counts = {
        "sent": 0,
        "resent": 0,
        "lost": 0,
        "failed": 0,
        "unreachable": 0,
        "standings": 0,
        "purged": 0,
    }
    for job in Job.objects.filter(state=State.QUEUED, created_at__lt=now - SEND_GRACE).order_by(
        "created_at"
    )[:SWEEP_BATCH]:
        if job_send(job=job):
            counts["sent"] += 1
        elif Job.objects.filter(pk=job.pk, state=State.QUEUED).exists():
            counts["unreachable"] += 1
            break  # the broker is down: try again at the next sweep
    for job in Job.objects.filter(state=State.SENT, sent_at__lt=now - resend_after()).order_by(
        "sent_at"
    )[:SWEEP_BATCH]:
        if job_send(job=job, resend=True):
            counts["resent"] += 1
    stale = Q(heartbeat_at__lt=now - lease()) | Q(heartbeat_at__isnull=True)
    for job in Job.objects.filter(stale, state=State.RUNNING)[:SWEEP_BATCH]:
        with transaction.atomic():
            locked = (
                Job.objects.select_for_update(skip_locked=True)
                .filter(stale, pk=job.pk, state=State.RUNNING)
                .first()
            )
            if locked is None:
                continue
            retry, _ = LOST.get(locked.task, (True, None))
            reason = _lost_reason(locked)
            if retry and locked.attempts < MAX_ATTEMPTS:
                locked.state = State.SENT  # sent again below, as a repeated send
                locked.error = reason
                locked.error_words = lost_words(locked)
                locked.save(update_fields=["state", "error", "error_words"])
                counts["lost"] += 1
            else:
                _give_up(locked, reason)
                counts["failed"] += 1
                continue
        job_send(job=Job.objects.get(pk=locked.pk), resend=True)
    for name, sweep in SWEEPS.items():
        counts[name] = sweep(now=now)
    keep = timedelta(days=float(getattr(settings, "PULKA_JOBS_KEEP_DAYS", 7)))
    old = Job.objects.filter(
        state__in=(State.DONE, State.FAILED), finished_at__lt=now - keep
    ).values_list("pk", flat=True)[:SWEEP_BATCH]
    counts["purged"] = Job.objects.filter(pk__in=list(old)).delete()[0]
    return counts


class JobsSweepMiddleware:
    """Sweep on a web request at most every ``PULKA_JOBS_SWEEP_ON_REQUEST`` seconds per
    process (0: never), when jobs wait to be sent: with no beat running (the embedded eager
    default, a deployment without ``beat``) a job whose sending was interrupted is still
    sent."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response
        self.next = 0.0
        self.lock = threading.Lock()

    def __call__(self, request):
        response = self.get_response(request)
        every = float(getattr(settings, "PULKA_JOBS_SWEEP_ON_REQUEST", 60))
        now = time.monotonic()
        if every > 0 and now >= self.next and self.lock.acquire(blocking=False):
            try:
                self.next = now + every
                waiting = Job.objects.filter(
                    state=State.QUEUED, created_at__lt=timezone.now() - SEND_GRACE * 6
                ).exists()
                if waiting:
                    jobs_sweep()
            except Exception:
                log.exception("jobs sweep on a request failed")
            finally:
                self.lock.release()
        return response
