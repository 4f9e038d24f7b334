"""Celery tasks: thin wrappers that load by id and call one plain function (STYLE.md).

The app's ``ready`` imports this module (and with it :mod:`.result_tasks`): every task is
registered when the app loads, and so is what the outbox's sweep asks of the layers above
(``jobs.outbox.SWEEPS``, ``jobs.outbox.on_lost``); the services send jobs by task name.
"""

from __future__ import annotations

import os
import socket

from celery import shared_task
from django.contrib.auth import get_user_model
from django.db import connection

from tournaments.errors import UserFacingError
from tournaments.jobs import (
    outbox,
    rating_tasks,  # noqa: F401  (the ratings, issue 41)
    result_tasks,  # noqa: F401  (the standings and PDF jobs, issue 6)
    series_tasks,  # noqa: F401  (the series' tables, issue 39)
)
from tournaments.jobs.base import JobTask
from tournaments.jobs.outbox import jobs_sweep as sweep
from tournaments.services.draw_jobs import draw_job_run
from tournaments.services.rounds_ahead import schedule_ahead_run
from tournaments.services.standings import standings_sweep

# the job sweep also asks again for the standings no job carries (``jobs.outbox.jobs_sweep``)
outbox.SWEEPS["standings"] = standings_sweep


@shared_task(name="tournaments.system_ping", acks_late=True)
def system_ping() -> dict[str, object]:
    """Report where the task ran and which database it sees (used by ``/healthz`` tests and
    ``manage.py check_worker``)."""
    return {
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "database": connection.settings_dict["NAME"],
        "vendor": connection.vendor,
        "users": get_user_model().objects.count(),
    }


@shared_task(
    base=JobTask,
    name="tournaments.round_draw",
    bind=True,
    acks_late=True,
    throws=(UserFacingError,),
)
def round_draw(
    self,
    round_id: int,
    user_id: int | None = None,
    method: str | None = None,
    seed: str | None = None,
) -> dict[str, object]:
    """Draw a round in the background (large events): ``services.draw_jobs.draw_job_run``. Its
    state is ``PROGRESS`` while the engine runs: meta ``{"step": "drawing", "progress":
    {...}}``, the engine's stage and how far it has gone (``seating.Progress``); the round's
    page and ``/api/v1/jobs/<id>`` show it."""

    def progress(meta: dict[str, object]) -> None:
        self.update_state(state="PROGRESS", meta={"step": "drawing", "progress": meta})

    self.update_state(state="PROGRESS", meta={"step": "drawing"})
    round_ = draw_job_run(
        round_id=round_id,
        job_id=self.request.id,
        by_id=user_id,
        method=method,
        seed=seed,
        on_progress=progress,
    )
    return {
        "round": round_.number,
        "tables": round_.tables.count(),
        "summary": (round_.draw_report or {}).get("summary", {}),
    }


@shared_task(name="tournaments.jobs_sweep", ignore_result=True)
def jobs_sweep() -> dict[str, int]:
    """Send the jobs the broker missed and end those whose worker is gone (Celery beat,
    ``PULKA_JOBS_SWEEP_EVERY`` seconds): ``jobs.outbox.jobs_sweep``."""
    return sweep()


@shared_task(
    base=JobTask,
    name="tournaments.schedule_ahead",
    bind=True,
    ignore_result=True,  # the plan is kept on its Job row
    acks_late=True,
    throws=(UserFacingError,),
)
def schedule_ahead(self, event_id: int) -> dict[str, object]:
    """Plan the rounds ahead (the seating engine) and keep the plan on the job's row:
    ``services.rounds_ahead.schedule_ahead_run``."""
    return {"rounds": len(schedule_ahead_run(task_id=self.request.id, event_id=event_id))}
