"""The Celery task class of Pulka's jobs: runs a task under its outbox row's lease
(``tournaments.jobs.outbox``)."""

from __future__ import annotations

import contextlib
import traceback

from celery import Task
from celery.exceptions import Retry

from tournaments.errors import UserFacingError, error_words
from tournaments.jobs import outbox as jobs

__all__ = ["JobTask"]


class JobTask(Task):
    """Claims the job's row before the body runs, renews its heartbeat while it runs (on a
    worker), and records how it ended. A delivery of a job that has already ended (or that
    another worker holds) returns ``{"skipped": ...}`` without running the body: this is what
    makes a message delivered twice harmless."""

    abstract = True
    acks_late = True
    reject_on_worker_lost = True

    def __call__(self, *args, **kwargs):
        task_id = getattr(self.request, "id", None)
        if not task_id or getattr(self.request, "called_directly", True):
            return super().__call__(*args, **kwargs)
        job, run = jobs.job_start(task_id=task_id)
        if not run:
            return {"skipped": job.state if job else "unknown"}
        if job is None:
            return super().__call__(*args, **kwargs)
        beat = (
            contextlib.nullcontext() if self.request.is_eager else jobs.job_heartbeat(job_id=job.pk)
        )
        try:
            with beat:
                result = super().__call__(*args, **kwargs)
        except Retry:
            jobs.job_retrying(job_id=job.pk)
            raise
        except Exception as exc:
            if isinstance(exc, UserFacingError):
                error = str(exc.message)
            else:
                error = f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=8)}"
            jobs.job_end(job_id=job.pk, error=error, words=error_words(exc))
            raise
        jobs.job_end(job_id=job.pk)
        return result
