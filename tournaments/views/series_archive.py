"""A series' archive on the web (issue 39): its organisers export it on the series' archive
page (``/s/<slug>/manage/archive/``) and download the file there, an organisation's organisers
import one (``/o/<slug>/import-series/``) — the series with its events and persons
(``tournaments.archive.series``, ``docs/archive-format.md``, "The series archive"), as
``manage.py archive_export --series`` and ``archive_import`` do on the server.

As the event archive's pages, neither runs in the request: a job writes the archive
(``tournaments.archive.series_jobs``) and the page, which follows it, then offers the file; the
upload is checked for what costs little, kept privately and imported by a job whose page shows
the new series or why nothing was imported (naming the place: ``$.events[0].archive.players[2]
.name``). Only the upload is bounded (the request body limit, as the event import page's).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.files.storage import default_storage
from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournaments.access.organisations import can_organise_organisation, can_organise_series
from tournaments.archive import ArchiveError
from tournaments.archive.series_jobs import (
    EXPORT_TASK,
    IMPORT_TASK,
    export_key,
    series_archive_export_file,
    series_archive_export_request,
    series_archive_import_request,
)
from tournaments.errors import said_or_stored
from tournaments.models import Job, Organisation, Series
from tournaments.views.archive import archive_upload_error, import_max_bytes

#: the exports the archive page lists, newest first
EXPORTS_SHOWN = 5


def _organised(request, thing, can_organise):
    """``thing`` if the user organises it (``can_organise(user, thing)``); :class:`_Login`
    when a login is needed, else PermissionDenied."""
    if not request.user.is_authenticated:
        raise _Login
    if not can_organise(request.user, thing):
        raise PermissionDenied
    return thing


def _series_of_organiser(request, slug: str) -> Series:
    series = get_object_or_404(Series.objects.select_related("organisation"), slug=slug)
    return _organised(request, series, can_organise_series)


class _Login(Exception):
    """Not logged in: the page answers with the login's redirect."""


def _reason(job: Job) -> str:
    said = said_or_stored(job.error_words, (job.error or "").strip())
    return said.splitlines()[0] if said else ""


@require_http_methods(["GET", "POST"])
def series_archive_page(request, slug: str):
    """The series' archives: export one (a job writes it; the page refreshes itself while one
    is being written) and download the ones written (its organisers only)."""
    try:
        series = _series_of_organiser(request, slug)
    except _Login:
        return redirect_to_login(request.get_full_path())
    if request.method == "POST":
        series_archive_export_request(series=series, by=request.user)
        messages.success(
            request, _("The archive is being written; this page shows it when it is ready.")
        )
        return redirect("series-archive", slug=series.slug)
    jobs = list(
        Job.objects.filter(task=EXPORT_TASK, key=export_key(series)).order_by("-created_at", "-pk")[
            :EXPORTS_SHOWN
        ]
    )
    exports = [
        {
            "job": job,
            "file": series_archive_export_file(job),
            "filename": (job.result or {}).get("filename") if isinstance(job.result, dict) else "",
            "reason": _reason(job) if job.state == Job.State.FAILED else "",
        }
        for job in jobs
    ]
    return render(
        request,
        "tournaments/series/archive.html",
        {"series": series, "exports": exports, "pending": any(j.active for j in jobs)},
    )


def series_archive_old_address(request, slug: str):
    """The download's address before the archive was written by a job: its page now."""
    return redirect("series-archive", slug=slug)


@require_http_methods(["GET"])
def series_archive_download(request, slug: str, task_id: str):
    """A written archive of the series as a JSON file (its organisers only)."""
    try:
        series = _series_of_organiser(request, slug)
    except _Login:
        return redirect_to_login(request.get_full_path())
    job = Job.objects.filter(task=EXPORT_TASK, key=export_key(series), task_id=task_id).first()
    name = series_archive_export_file(job) if job is not None else None
    if name is None:
        raise Http404
    return FileResponse(
        default_storage.open(name, "rb"),
        as_attachment=True,
        filename=job.result.get("filename") or f"{series.slug}-series-archive.json",
        content_type="application/json; charset=utf-8",
    )


def _organisation_of_organiser(request, slug: str) -> Organisation:
    organisation = get_object_or_404(Organisation, slug=slug)
    return _organised(request, organisation, can_organise_organisation)


@require_http_methods(["GET", "POST"])
def organisation_import_series(request, slug: str):
    """An archive of a series made a new series of this organisation, with its events and
    persons (a person matched by his federation id): checked at once for what costs little,
    then imported by a job whose page follows it."""
    try:
        organisation = _organisation_of_organiser(request, slug)
    except _Login:
        return redirect_to_login(request.get_full_path())
    error = None
    if request.method == "POST":
        upload = request.FILES.get("archive")
        error = archive_upload_error(upload)
        if error is None:
            try:
                job = series_archive_import_request(
                    text=upload.read(),
                    by=request.user,
                    organisation=organisation,
                    slug=request.POST.get("slug", ""),
                    event_suffix=request.POST.get("event_suffix", "").strip(),
                )
            except ArchiveError as exc:
                error = exc.message
            else:
                return redirect(
                    "organisation-import-series-job", slug=organisation.slug, task_id=job.task_id
                )
    return render(
        request,
        "tournaments/series/import.html",
        {"organisation": organisation, "error": error, "limit": import_max_bytes()},
        status=400 if error else 200,
    )


@require_http_methods(["GET"])
def organisation_import_series_job(request, slug: str, task_id: str):
    """How a series archive's import goes: waiting, importing, the new series linked, or why
    nothing was imported (the place in the file named)."""
    try:
        organisation = _organisation_of_organiser(request, slug)
    except _Login:
        return redirect_to_login(request.get_full_path())
    job = Job.objects.filter(
        task=IMPORT_TASK, key=f"series-import:{organisation.pk}", task_id=task_id
    ).first()
    if job is None:
        raise Http404
    series = None
    if job.state == Job.State.DONE and isinstance(job.result, dict):
        series = Series.objects.filter(pk=job.result.get("series")).first()
    return render(
        request,
        "tournaments/series/import_job.html",
        {
            "organisation": organisation,
            "job": job,
            "series": series,
            "result": job.result if isinstance(job.result, dict) else {},
            "reason": _reason(job),
            "waiting_for_broker": job.state == Job.State.QUEUED and job.error.startswith("broker"),
        },
    )
