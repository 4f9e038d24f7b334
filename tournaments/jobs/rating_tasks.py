"""Celery tasks of the ratings (issue 41): a thin wrapper around
``services.ratings.ratings_recompute``.

A failed recomputation is retried with a back-off; the last failure is recorded on the rating
list (shown to its organisers). The app loads this module with ``jobs.tasks``.
"""

from __future__ import annotations

import traceback

from celery import shared_task

from tournaments.errors import UserFacingError
from tournaments.jobs.base import JobTask
from tournaments.jobs.outbox import on_lost
from tournaments.models import Job
from tournaments.services import ratings as service

__all__ = ["ratings_recompute"]

MAX_RETRIES = 3


@on_lost(service.TASK)
def _ratings_lost(job: Job, reason: str) -> None:
    if job.args:
        service.ratings_mark_failed(list_id=int(job.args[0]), error=reason)


@shared_task(
    base=JobTask,
    name=service.TASK,
    bind=True,
    ignore_result=True,  # its state is on its Job row and the rating list
    acks_late=True,
    max_retries=MAX_RETRIES,
    throws=(UserFacingError,),
)
def ratings_recompute(self, list_id: int) -> dict[str, object]:
    try:
        row = service.ratings_recompute(list_id=list_id)
    except Exception as exc:
        final = self.request.retries >= MAX_RETRIES or self.request.is_eager
        if final:
            service.ratings_mark_failed(
                list_id=list_id,
                error=f"{exc.__class__.__name__}: {exc}\n{traceback.format_exc()}",
            )
            raise
        raise self.retry(exc=exc, countdown=2**self.request.retries) from exc
    return {"rating": list_id, "status": row.status, "computed": row.computed}
