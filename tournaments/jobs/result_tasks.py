"""Celery tasks for standings and PDFs: thin wrappers around the services (STYLE.md).

A failed recomputation is retried with a back-off; every failed attempt is recorded on the
snapshot (shown on the organiser's pages) and the last one marks it failed.
"""

from __future__ import annotations

import traceback

from celery import shared_task

from tournaments.archive.files import archive_render
from tournaments.archive.imports import archive_import_forget, archive_import_run
from tournaments.errors import UserFacingError, error_words
from tournaments.jobs.base import JobTask
from tournaments.jobs.outbox import lost_words, on_lost
from tournaments.models import GeneratedFile, Job
from tournaments.pdf.files import generated_file_mark_failed
from tournaments.pdf.files import generated_file_render as render
from tournaments.services import standings as service
from tournaments.services.duplicate import board_count_makeable, board_rescore
from tournaments.services.standings import standings_mark_failed
from tournaments.web_cache.warm import public_pages_warm as warm

__all__ = [
    "standings_recompute",
    "generated_file_render",
    "event_archive_export",
    "event_archive_import",
    "public_pages_warm",
    "duplicate_board_rescore",
    "duplicate_board_makeable",
]

MAX_RETRIES = 3


# --- what giving up on a job means (the outbox's sweep calls these: ``jobs.outbox.on_lost``) --


@on_lost("tournaments.standings_recompute")
def _standings_lost(job: Job, reason: str) -> None:
    if job.event_id:
        standings_mark_failed(
            event_id=job.event_id, error=reason, final=True, words=lost_words(job)
        )


@on_lost("tournaments.generated_file_render", "tournaments.event_archive_export")
def _document_lost(job: Job, reason: str) -> None:
    if job.args:
        generated_file_mark_failed(
            file_id=int(job.args[0]), error=reason, words=lost_words(job)
        )


@on_lost("tournaments.event_archive_import")
def _import_lost(job: Job, reason: str) -> None:
    """Given up on an archive's import: nothing of it was stored; its upload goes."""
    if job.args:
        archive_import_forget(str(job.args[0]))


@shared_task(
    base=JobTask,
    name="tournaments.standings_recompute",
    bind=True,
    ignore_result=True,  # its state is on its Job row and the snapshot: no result store
    acks_late=True,
    max_retries=MAX_RETRIES,
    throws=(UserFacingError,),
)
def standings_recompute(self, event_id: int) -> dict[str, object]:
    try:
        snapshot = service.standings_recompute(event_id=event_id)
    except Exception as exc:
        final = self.request.retries >= MAX_RETRIES or self.request.is_eager
        service.standings_mark_failed(
            event_id=event_id,
            error=f"{exc.__class__.__name__}: {exc}\n{traceback.format_exc()}",
            final=final,
            words=error_words(exc),
        )
        if final:
            raise
        raise self.retry(exc=exc, countdown=2**self.request.retries) from exc
    return {
        "event": event_id,
        "status": snapshot.status,
        "computed": snapshot.computed,
        "hash": snapshot.inputs_hash,
    }


@shared_task(
    base=JobTask,
    name="tournaments.generated_file_render",
    bind=True,
    ignore_result=True,  # its state is on its Job row and the GeneratedFile
    acks_late=True,
    max_retries=2,
    throws=(UserFacingError,),
)
def generated_file_render(self, file_id: int) -> int | None:
    try:
        return render(file_id=file_id).pk
    except GeneratedFile.DoesNotExist:  # superseded by a newer rendering meanwhile
        return None
    except UserFacingError:
        raise
    except Exception as exc:
        if self.request.retries >= 2 or self.request.is_eager:
            generated_file_mark_failed(
                file_id=file_id,
                error=f"{exc.__class__.__name__}: {exc}",
                words=error_words(exc),
            )
            raise
        raise self.retry(exc=exc, countdown=2) from exc


@shared_task(
    base=JobTask,
    name="tournaments.event_archive_export",
    bind=True,
    ignore_result=True,  # its state is on its Job row and the GeneratedFile
    acks_late=True,
    throws=(UserFacingError,),
)
def event_archive_export(self, file_id: int) -> int:
    """Write an event's archive (large events): ``tournaments.archive.files.archive_render``."""
    try:
        return archive_render(file_id=file_id).pk
    except Exception as exc:
        generated_file_mark_failed(
            file_id=file_id, error=f"{exc.__class__.__name__}: {exc}", words=error_words(exc)
        )
        raise


@shared_task(
    base=JobTask,
    name="tournaments.event_archive_import",
    bind=True,
    ignore_result=True,  # its state and the new event are on its Job row
    acks_late=True,
    throws=(UserFacingError,),
)
def event_archive_import(self, name: str, user_id: int | None, slug: str) -> dict[str, object]:
    """Make a new event of an uploaded archive, once:
    ``tournaments.archive.imports.archive_import_run``. A failure imports nothing; the upload
    is deleted (a failed job is not run again)."""
    try:
        return archive_import_run(task_id=self.request.id)
    except Exception:
        archive_import_forget(name)
        raise


@shared_task(name="tournaments.public_pages_warm", ignore_result=True)
def public_pages_warm(event_id: int) -> dict[str, object]:
    """Render ahead the public pages a hall opens first, after the standings or a round's
    publication changed (issue 28): ``tournaments.web_cache.warm.public_pages_warm`` (it logs its
    errors and never raises; a lost job only leaves the pages to the first viewers)."""
    return warm(event_id=event_id)


@shared_task(
    base=JobTask,
    name="tournaments.duplicate_board_rescore",
    bind=True,
    ignore_result=True,
    acks_late=True,
)
def duplicate_board_rescore(self, board_id: int) -> int:
    """Re-score one duplicate board's comparison everywhere (``services.duplicate.board_rescore``;
    idempotent: it writes the board's scores afresh)."""
    return board_rescore(board_id)


@shared_task(
    base=JobTask,
    name="tournaments.duplicate_board_makeable",
    bind=True,
    ignore_result=True,
    acks_late=True,
)
def duplicate_board_makeable(self, board_id: int) -> bool:
    """Count one duplicate board's makeable contracts double dummy
    (``services.duplicate.board_count_makeable``; idempotent: it writes the board's count
    afresh)."""
    return board_count_makeable(board_id)
