"""Celery tasks of the series (issue 39): thin wrappers around ``services.series``.

A failed recomputation is retried with a back-off; the last failure is recorded on the series'
snapshot (shown on the organiser's page). The app loads this module with ``jobs.tasks``.
"""

from __future__ import annotations

import traceback

from celery import shared_task

from tournaments.archive.imports import archive_import_forget
from tournaments.archive.series_jobs import (
    EXPORT_TASK,
    IMPORT_TASK,
    series_archive_export_run,
    series_archive_import_run,
)
from tournaments.errors import UserFacingError
from tournaments.jobs.base import JobTask
from tournaments.jobs.outbox import on_lost
from tournaments.models import Job
from tournaments.pdf.series import series_pdf_mark_failed, series_pdf_render
from tournaments.services import series as service
from tournaments.services import series_files

__all__ = [
    "series_archive_export",
    "series_archive_import",
    "series_pdf",
    "series_standings_recompute",
]

MAX_RETRIES = 3


@on_lost(service.TASK)
def _series_lost(job: Job, reason: str) -> None:
    if job.args:
        service.series_mark_failed(series_id=int(job.args[0]), error=reason)


@shared_task(
    base=JobTask,
    name=service.TASK,
    bind=True,
    ignore_result=True,  # its state is on its Job row and the series' snapshot
    acks_late=True,
    max_retries=MAX_RETRIES,
    throws=(UserFacingError,),
)
def series_standings_recompute(self, series_id: int) -> dict[str, object]:
    try:
        snapshot = service.series_standings_recompute(series_id=series_id)
    except Exception as exc:
        final = self.request.retries >= MAX_RETRIES or self.request.is_eager
        if final:
            service.series_mark_failed(
                series_id=series_id,
                error=f"{exc.__class__.__name__}: {exc}\n{traceback.format_exc()}",
            )
            raise
        raise self.retry(exc=exc, countdown=2**self.request.retries) from exc
    return {"series": series_id, "status": snapshot.status, "computed": snapshot.computed}


@on_lost(series_files.TASK)
def _series_pdf_lost(job: Job, reason: str) -> None:
    if job.args:
        series_pdf_mark_failed(file_id=int(job.args[0]), error=reason)


@shared_task(
    base=JobTask,
    name=series_files.TASK,
    bind=True,
    ignore_result=True,  # its state is on its Job row and the SeriesFile
    acks_late=True,
    max_retries=2,
    throws=(UserFacingError,),
)
def series_pdf(self, file_id: int) -> int:
    """Render a series' standings PDF: ``pdf.series.series_pdf_render``."""
    try:
        return series_pdf_render(file_id=file_id).pk
    except Exception as exc:
        if self.request.retries >= 2 or self.request.is_eager:
            series_pdf_mark_failed(file_id=file_id, error=f"{exc.__class__.__name__}: {exc}")
            raise
        raise self.retry(exc=exc, countdown=2) from exc


@shared_task(
    base=JobTask,
    name=EXPORT_TASK,
    bind=True,
    ignore_result=True,  # its state and the file's name are on its Job row
    acks_late=True,
    throws=(UserFacingError,),
)
def series_archive_export(self, series_id: int, user_id: int | None) -> dict[str, object]:
    """Write a series' archive for its organiser to download:
    ``tournaments.archive.series_jobs.series_archive_export_run``."""
    return series_archive_export_run(task_id=self.request.id)


@on_lost(IMPORT_TASK)
def _series_import_lost(job: Job, reason: str) -> None:
    """Given up on a series archive's import: nothing of it was stored; its upload goes."""
    if job.args:
        archive_import_forget(str(job.args[0]))


@shared_task(
    base=JobTask,
    name=IMPORT_TASK,
    bind=True,
    ignore_result=True,  # its state and the new series are on its Job row
    acks_late=True,
    throws=(UserFacingError,),
)
def series_archive_import(
    self,
    name: str,
    user_id: int | None,
    organisation_id: int,
    slug: str,
    event_suffix: str,
) -> dict[str, object]:
    """Make a new series of an uploaded archive, once:
    ``tournaments.archive.series_jobs.series_archive_import_run``. A failure imports nothing;
    the upload is deleted (a failed job is not run again)."""
    try:
        return series_archive_import_run(task_id=self.request.id)
    except Exception:
        archive_import_forget(name)
        raise
