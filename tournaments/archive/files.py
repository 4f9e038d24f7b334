"""The archive as a file an organiser downloads: written by a job (``tournaments.jobs.outbox``;
issue 25, item 12), kept as a
:class:`~tournaments.models.GeneratedFile` of kind ``archive`` (organisers only)."""

from __future__ import annotations

from django.conf import settings
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone

from tournaments.archive.export import event_archive_json
from tournaments.jobs.outbox import job_enqueue
from tournaments.models import AuditLogEntry, Event, GeneratedFile, Protocol
from tournaments.services.audit import audit_log
from tournaments.services.standings import jobs_queue

__all__ = ["ARCHIVES_KEPT", "archive_request", "archive_render", "archive_size"]

#: archives kept per event (the older ones are deleted when a new one is written)
ARCHIVES_KEPT = 3


def inline_limit() -> int:
    """Up to this many protocol versions and log entries the archive is written in the
    request (``PULKA_ARCHIVE_INLINE_LIMIT``); above, by a job. 0 by default: always a job
    (issue 25, item 12; a 600-version archive takes 1.85 s, ``tests/bench/bench_archive.py``,
    which is not a web request's work). A deployment may set a small limit back."""
    return int(getattr(settings, "PULKA_ARCHIVE_INLINE_LIMIT", 0))


def archive_size(event: Event) -> int:
    """What the archive's size goes with: the protocol versions and the log's entries."""
    return (
        Protocol.objects.filter(table__round__event=event).count()
        + AuditLogEntry.objects.filter(event=event).count()
    )


@transaction.atomic
def archive_request(*, event: Event, by) -> GeneratedFile:
    """A new archive of ``event``: pending, its job queued (sent after the commit); ready when
    this returns only within ``PULKA_ARCHIVE_INLINE_LIMIT``."""
    size = archive_size(event)
    audit_log(event=event, action="event.exported", by=by, data={"size": size})
    f = GeneratedFile.objects.create(
        event=event,
        kind=GeneratedFile.Kind.ARCHIVE,
        paper="",
        content_type="application/json",
        status=GeneratedFile.Status.PENDING,
    )
    if size <= inline_limit() and inline_limit() > 0:
        return archive_render(file_id=f.pk)
    job_enqueue(
        task="tournaments.event_archive_export",
        args=[f.pk],
        queue=jobs_queue(),
        event_id=event.pk,
        key=f"file:{f.pk}",
    )
    return f


def archive_render(*, file_id: int) -> GeneratedFile:
    """Write the archive into its file (the job's body; idempotent)."""
    with transaction.atomic():
        f = (
            GeneratedFile.objects.select_for_update(of=("self",))
            .select_related("event")
            .get(pk=file_id)
        )
        if f.status == GeneratedFile.Status.OK and f.file:
            return f
        data = event_archive_json(event=f.event)
        name = f"{f.event.slug}-archive-{timezone.now():%Y%m%d-%H%M%S}.json"
        f.file.save(name, ContentFile(data), save=False)
        f.filename = name
        f.status = GeneratedFile.Status.OK
        f.error = ""
        f.rendered_at = timezone.now()
        f.save()
        older = GeneratedFile.objects.filter(
            event=f.event, kind=GeneratedFile.Kind.ARCHIVE, status=GeneratedFile.Status.OK
        ).order_by("-created_at", "-pk")[ARCHIVES_KEPT:]
        for o in older:
            if o.file:
                o.file.delete(save=False)
            o.delete()
    return f
