"""A series' standings PDF (issue 39): the table as its page shows it, rendered by
WeasyPrint in a job (``jobs.series_tasks``)."""

from __future__ import annotations

from django.core.files.base import ContentFile
from django.db import transaction

from tournaments.models import SeriesFile
from tournaments.selectors.series import series_table

__all__ = ["series_pdf_mark_failed", "series_pdf_render"]


def series_pdf_render(*, file_id: int) -> SeriesFile:
    """Render and store the file (idempotent: a file already rendered is returned)."""
    # WeasyPrint loads in about 2 s: only the job that renders a PDF pays for it
    from tournaments.pdf.render import render_pdf

    f = SeriesFile.objects.select_related("series__organisation").get(pk=file_id)
    if f.status == SeriesFile.Status.OK and f.file:
        return f
    series = f.series
    table = series_table(series=series)
    context = {
        **table,
        "series": series,
        # the page's footer names the event; a series' PDF names the series there
        "event": {"name": series.name, "slug": series.slug},
    }
    data = render_pdf("pdf/series.html", context, paper=f.paper, language=f.language)
    with transaction.atomic():
        f = SeriesFile.objects.select_for_update().get(pk=file_id)
        if f.status == SeriesFile.Status.OK and f.file:
            return f
        f.filename = f"{series.slug}-standings.pdf"
        f.file.save(f.filename, ContentFile(data), save=False)
        f.status = SeriesFile.Status.OK
        f.error = ""
        f.save()
    return f


def series_pdf_mark_failed(*, file_id: int, error: str) -> None:
    SeriesFile.objects.filter(pk=file_id).update(
        status=SeriesFile.Status.FAILED, error=error[:4000]
    )
