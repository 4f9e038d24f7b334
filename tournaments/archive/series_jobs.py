"""A series' archive on the web, written and read by jobs (issue 39), as the event archive's
pages are (``.files``, ``.imports``): never inside a web request.

Export: :func:`series_archive_export_request` queues a :class:`~tournaments.models.Job`
(``tournaments.series_archive_export``, key ``series-archive:<series id>``);
:func:`series_archive_export_run`, the job's body, writes the file privately in the default
storage (``MEDIA_ROOT/series-archives/``, never served: the organiser's download view reads it)
and keeps its name on the job's row. The newest :data:`EXPORTS_KEPT` of a series are kept.

Import: :func:`series_archive_import_request` checks in the request what costs little (a short
name that can be one, JSON, a series archive of a version this Pulka reads, its short name
free), stores the upload where only the job reads it (``MEDIA_ROOT/imports/``) and queues
``tournaments.series_archive_import``; :func:`series_archive_import_run` imports it in one
transaction that also writes the new series on the job's row (a second delivery imports
nothing again; a failure imports nothing and the row keeps the reason, naming the field).
"""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.archive.imports import (
    archive_import_once,
    archive_json_loaded,
    archive_slug_checked,
    archive_slug_free,
    archive_upload_queued,
)
from tournaments.archive.series import (
    series_archive_checked,
    series_archive_import,
    series_archive_json,
)
from tournaments.jobs.outbox import job_enqueue
from tournaments.models import Job, Organisation, Series
from tournaments.services.standings import jobs_queue

__all__ = [
    "EXPORT_TASK",
    "EXPORTS_KEPT",
    "IMPORT_TASK",
    "series_archive_export_file",
    "series_archive_export_request",
    "series_archive_export_run",
    "series_archive_import_request",
    "series_archive_import_run",
]

EXPORT_TASK = "tournaments.series_archive_export"
IMPORT_TASK = "tournaments.series_archive_import"
#: where written series archives wait for their download, in the default storage (never served)
EXPORTS = "series-archives"
#: written archives kept per series (the older files are deleted when a new one is written)
EXPORTS_KEPT = 3


def export_key(series: Series | int) -> str:
    return f"series-archive:{getattr(series, 'pk', series)}"


def series_archive_export_request(*, series: Series, by) -> Job:
    """Queue the writing of ``series``' archive (sent to the broker after the commit; when the
    broker is down the row waits for the sweep)."""
    with transaction.atomic():
        return job_enqueue(
            task=EXPORT_TASK,
            args=[series.pk, getattr(by, "pk", None)],
            queue=jobs_queue(),
            key=export_key(series),
        )


def series_archive_export_run(*, task_id: str) -> dict[str, Any]:
    """The job's body: write the series' archive once; returns (and keeps on the job's row)
    ``{"series": id, "file": storage name, "filename": the download's name, "events": n}``."""
    with transaction.atomic():
        job = Job.objects.select_for_update().get(task_id=task_id)
        if isinstance(job.result, dict) and job.result.get("file"):
            return job.result
        series_id, user_id = job.args
        series = Series.objects.get(pk=series_id)
        by = get_user_model().objects.filter(pk=user_id).first() if user_id else None
        data = series_archive_json(series=series, exported_by=by)
        name = default_storage.save(f"{EXPORTS}/{uuid.uuid4().hex}.json", ContentFile(data))
        result = {
            "series": series.pk,
            "file": name,
            "filename": f"{series.slug}-series-archive-{timezone.now():%Y%m%d-%H%M%S}.json",
            "events": series.events.count(),
            "size": len(data),
        }
        job.result = result
        job.save(update_fields=["result"])
        transaction.on_commit(lambda: _forget_older(series.pk))
    return result


def _forget_older(series_id: int) -> None:
    """Delete the files of the series' archives older than the newest :data:`EXPORTS_KEPT`."""
    done = Job.objects.filter(
        task=EXPORT_TASK, key=export_key(series_id), result__file__isnull=False
    ).order_by("-created_at", "-pk")
    for job in done[EXPORTS_KEPT:]:
        name = str((job.result or {}).get("file") or "")
        if not name:  # forgotten already
            continue
        if name.startswith(f"{EXPORTS}/") and default_storage.exists(name):
            default_storage.delete(name)
        job.result = {**(job.result or {}), "file": None}
        job.save(update_fields=["result"])


def series_archive_export_file(job: Job) -> str | None:
    """The stored file of a finished export, or None (not written yet, failed, or replaced by
    newer ones)."""
    if job.task != EXPORT_TASK or job.state != Job.State.DONE or not isinstance(job.result, dict):
        return None
    name = job.result.get("file")
    if not isinstance(name, str) or not default_storage.exists(name):
        return None
    return name


def _document(text: str | bytes) -> dict[str, Any]:
    return series_archive_checked(archive_json_loaded(text))


def _checked_slug(value: str | None) -> str | None:
    """A short name typed on the page, checked as a short name (``None``: the archive's)."""
    value = (value or "").strip() or None
    archive_slug_checked(Series, "series", value)
    return value


def series_archive_import_request(
    *,
    text: str | bytes,
    by,
    organisation: Organisation,
    slug: str | None = None,
    event_suffix: str = "",
) -> Job:
    """Check the uploaded series archive cheaply, store it and queue its import.

    :raises ArchiveError: what can be told without importing: a short name that cannot be one,
        not JSON, not a series archive, a newer version, the series' short name taken.
    """
    slug = _checked_slug(slug)
    archive_slug_free(
        Series,
        "series",
        slug,
        _document(text),
        _("a series with the short name %(slug)s exists already: choose another"),
    )
    return archive_upload_queued(
        text,
        task=IMPORT_TASK,
        args=[getattr(by, "pk", None), organisation.pk, slug or "", event_suffix],
        key=f"series-import:{organisation.pk}",
    )


def series_archive_import_run(*, task_id: str) -> dict[str, Any]:
    """The job's body: import the stored archive as a new series of the organisation, once.

    Returns (and keeps on the job's row, in the import's transaction) ``{"series": id,
    "slug", "name", "events", "persons"}``. A delivery after one that committed returns that
    result and imports nothing.

    :raises ArchiveError: anything the import refuses, naming the field; nothing is imported.
    """

    def run(job: Job, text: bytes) -> dict[str, Any]:
        _name, user_id, organisation_id, slug, event_suffix = job.args
        by = get_user_model().objects.filter(pk=user_id).first() if user_id else None
        series = series_archive_import(
            document=_document(text),
            by=by,
            slug=slug or None,
            event_suffix=event_suffix,
            organisation=Organisation.objects.get(pk=organisation_id),
        )
        return {
            "series": series.pk,
            "slug": series.slug,
            "name": series.name,
            "events": series.events.count(),
            "persons": series.events.filter(entries__person__isnull=False)
            .values("entries__person")
            .distinct()
            .count(),
        }

    return archive_import_once(task_id=task_id, done="series", run=run)
