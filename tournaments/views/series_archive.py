"""A series' archive on the web (issue 39): its organisers download it from the series' page
(``/s/<slug>/manage/archive.json``), an organisation's organisers import one
(``/o/<slug>/import-series/``) — the series with its events and persons
(``tournaments.archive.series``, ``docs/archive-format.md``, "The series archive"), as
``manage.py archive_export --series`` and ``archive_import`` do on the server.

Both run in the request, unlike the event archive's pages (a job writes and reads those), so
both are bounded: the upload by the request body limit, as the event import page's, and the
download by :func:`web_limit` (protocol versions and log entries of the series' events; a
larger series is exported with ``manage.py``). Anything wrong in an uploaded file is said
naming its place (``$.events[0].archive.players[2].name``), nothing imported.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournaments.access.organisations import can_organise_organisation, can_organise_series
from tournaments.archive import ArchiveError
from tournaments.archive.files import archive_size
from tournaments.archive.series import series_archive_import_json, series_archive_json
from tournaments.models import Organisation, Series
from tournaments.views.archive import import_max_bytes


def web_limit() -> int:
    """The largest series the page exports, in protocol versions and log entries of its events
    together (``PULKA_SERIES_ARCHIVE_WEB_LIMIT``, 1,500 by default: the event archive's
    benchmark wrote 600 versions in 1.85 s, ``tests/bench/bench_archive.py``)."""
    return int(getattr(settings, "PULKA_SERIES_ARCHIVE_WEB_LIMIT", 1500))


@require_http_methods(["GET"])
def series_archive_download(request, slug: str):
    """The series' archive as a JSON file (its organisers only)."""
    series = get_object_or_404(Series.objects.select_related("organisation"), slug=slug)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not can_organise_series(request.user, series):
        raise PermissionDenied
    size = sum(archive_size(event) for event in series.events.all())
    if size > web_limit():
        messages.error(
            request,
            _(
                "The series is too large to export on this page (%(size)d protocol versions "
                "and log entries): export it on the server with manage.py archive_export "
                "%(slug)s --series."
            )
            % {"size": size, "slug": series.slug},
        )
        return redirect("series-manage", slug=series.slug)
    response = HttpResponse(
        series_archive_json(series=series, exported_by=request.user),
        content_type="application/json; charset=utf-8",
    )
    name = f"{series.slug}-series-archive-{timezone.now():%Y%m%d-%H%M%S}.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _checked_slug(value: str, path: str) -> str | None:
    """A short name typed on the page, checked as a short name (``None``: the archive's)."""
    value = value.strip()
    if not value:
        return None
    try:
        Series._meta.get_field("slug").clean(value, None)
    except ValidationError as exc:
        raise ArchiveError(path, " ".join(exc.messages)) from None
    return value


@require_http_methods(["GET", "POST"])
def organisation_import_series(request, slug: str):
    """An archive of a series made a new series of this organisation, with its events and
    persons (a person matched by his federation id)."""
    organisation = get_object_or_404(Organisation, slug=slug)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not can_organise_organisation(request.user, organisation):
        raise PermissionDenied
    error = None
    if request.method == "POST":
        upload = request.FILES.get("archive")
        if upload is None:
            error = _("Choose the archive file (.json).")
        elif upload.size > import_max_bytes():
            error = _(
                "The file is larger than %(mb)d MB: import it with manage.py archive_import."
            ) % {"mb": import_max_bytes() // (1024 * 1024)}
        else:
            try:
                series = series_archive_import_json(
                    text=upload.read(),
                    by=request.user,
                    slug=_checked_slug(request.POST.get("slug", ""), "$.series.slug"),
                    event_suffix=request.POST.get("event_suffix", "").strip(),
                    organisation=organisation,
                )
            except ArchiveError as exc:
                error = exc.message
            else:
                return redirect("series-manage", slug=series.slug)
    return render(
        request,
        "tournaments/series/import.html",
        {"organisation": organisation, "error": error, "limit": import_max_bytes()},
        status=400 if error else 200,
    )
