"""The record of an event to take away: its full archive (organisers), the standings as CSV
and each approved protocol in the scoring module's JSON (public, as the pages are), and making
a new event of an archive (staff).

``/e/<slug>/manage/archive/`` (organisers), ``/manage/import-event/`` (staff),
``/e/<slug>/standings.csv`` (served by ``tournaments.views.standings``) and ``/e/<slug>/rounds/<n>/tables/<t>/protocol.json`` (public).
"""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournaments.access.permissions import ORGANISE
from tournaments.archive import ArchiveError
from tournaments.archive.files import archive_request
from tournaments.archive.imports import (
    IMPORT_TASK,
    archive_import_progress,
    archive_import_request,
)
from tournaments.errors import said_or_stored
from tournaments.jobs.outbox import DOCUMENT_QUEUED, jobs_waiting
from tournaments.models import Event, GeneratedFile, Job, Protocol
from tournaments.views.decorators import event_view


def import_max_bytes() -> int:
    """The largest archive file the import page takes: the request body limit
    (``MAX_REQUEST_BODY``, answered 413 above it before any view runs); the command line
    (``manage.py archive_import``) takes any."""
    return settings.MAX_REQUEST_BODY


def archive_upload_error(upload) -> str | None:
    """What is wrong with the uploaded archive file before it is read (none chosen, or larger
    than :func:`import_max_bytes`), or None."""
    if upload is None:
        return _("Choose the archive file (.json).")
    if upload.size > import_max_bytes():
        return _("The file is larger than %(mb)d MB: import it with manage.py archive_import.") % {
            "mb": import_max_bytes() // (1024 * 1024)
        }
    return None


@event_view(roles=ORGANISE)
@require_http_methods(["GET", "POST"])
def manage_archive(request, event):
    if request.method == "POST":
        f = archive_request(event=event, by=request.user)
        if f.status == GeneratedFile.Status.OK:
            messages.success(request, _("The archive is ready: %(name)s") % {"name": f.filename})
        elif jobs_waiting(event_id=event.pk, key=f"file:{f.pk}"):
            messages.warning(request, DOCUMENT_QUEUED)
        else:
            messages.success(
                request, _("The archive is being written; this page shows it when it is ready.")
            )
        return redirect("manage-archive", slug=event.slug)
    files = GeneratedFile.objects.filter(event=event, kind=GeneratedFile.Kind.ARCHIVE).order_by(
        "-created_at", "-pk"
    )
    return render(
        request,
        "tournaments/organiser/archive.html",
        {"event": event, "files": files, "pending": any(f.status == "pending" for f in files)},
    )


def _staff_only(request) -> None:
    if not (request.user.is_staff or request.user.is_superuser):
        raise PermissionDenied


@login_required
@require_http_methods(["GET", "POST"])
def import_event(request):
    """The upload: checked at once for what costs little (JSON, an archive of a version this
    Pulka reads, the short name free), then imported by a job (issue 25, item 12); the job's
    page follows it."""
    _staff_only(request)
    error = None
    if request.method == "POST":
        upload = request.FILES.get("archive")
        slug = request.POST.get("slug", "").strip() or None
        error = archive_upload_error(upload)
        if error is None:
            try:
                job = archive_import_request(text=upload.read(), by=request.user, slug=slug)
            except ArchiveError as exc:
                error = exc.message
            else:
                return redirect("event-import-job", task_id=job.task_id)
    return render(
        request,
        "tournaments/organiser/import_event.html",
        {"error": error, "limit": import_max_bytes()},
        status=400 if error else 200,
    )


@login_required
def import_event_job(request, task_id: str):
    """How an archive's import goes: waiting, importing, the new event linked, or why it
    failed (nothing imported)."""
    _staff_only(request)
    job = Job.objects.filter(task=IMPORT_TASK, task_id=task_id).first()
    if job is None:
        raise Http404
    event = None
    if job.state == Job.State.DONE and isinstance(job.result, dict):
        event = Event.objects.filter(pk=job.result.get("event")).first()
    said = said_or_stored(job.error_words, (job.error or "").strip())
    reason = said.splitlines()[0] if said else ""
    return render(
        request,
        "tournaments/organiser/import_event_job.html",
        {
            "job": job,
            "event": event,
            "result": job.result if isinstance(job.result, dict) else {},
            "reason": reason,
            "progress": archive_import_progress(job.task_id)
            if job.state == Job.State.RUNNING
            else {},
            "waiting_for_broker": job.state == Job.State.QUEUED and job.error.startswith("broker"),
        },
    )


@event_view()
def protocol_json(request, event, number: int, table_number: int):
    """A table's approved protocol as the scoring module writes it (``docs/protocol-format.md``
    and the families' formats): public once approved, like the results it makes."""
    protocol = (
        Protocol.objects.filter(
            table__round__event=event,
            table__round__number=number,
            table__number=table_number,
            approved=True,
        )
        .only("data")
        .first()
    )
    if protocol is None:
        raise Http404
    response = HttpResponse(
        json.dumps(protocol.data, ensure_ascii=False, indent=2),
        content_type="application/json; charset=utf-8",
    )
    filename = f"{event.slug}-r{number}-t{table_number}.json"
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response
