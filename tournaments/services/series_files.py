"""A series' standings as a PDF (issue 39): asked for here, rendered by a job
(``tournaments.series_pdf_render``, ``pdf.series``), kept until the table or a name in it
changes."""

from __future__ import annotations

import hashlib
import json

from django.db import transaction

from tournaments.jobs.outbox import job_enqueue, jobs_queue
from tournaments.models import Series, SeriesFile
from tournaments.selectors.series import series_table

__all__ = ["TASK", "series_pdf_hash", "series_pdf_request"]

#: the Celery task that renders a series' PDF (its ``Job`` rows carry ``key`` "series-pdf:<id>")
TASK = "tournaments.series_pdf_render"
#: bumped when the PDF's template changes what it prints
TEMPLATE_VERSION = 1


def series_pdf_hash(*, series: Series, language: str, paper: str) -> str:
    """What the PDF prints: the table as the page shows it (names included), the language,
    the paper."""
    table = series_table(series=series)
    text = json.dumps(
        {
            "template": TEMPLATE_VERSION,
            "series": [series.name, series.season, series.organisation_id],
            "language": language,
            "paper": paper,
            "final": table["final"],
            "rules": table["rules"],
            "events": table["events"],
            "rows": [
                [r["place_label"], r["name"], r["club"], r["total"], r["cells"]]
                for r in table["rows"]
            ],
        },
        sort_keys=True,
        default=str,
    )
    return hashlib.sha256(text.encode()).hexdigest()


@transaction.atomic
def series_pdf_request(*, series: Series, language: str, paper: str = "A4") -> SeriesFile:
    """The PDF of the table as it stands: the stored one when it is up to date, else a new
    one whose rendering job runs after the commit."""
    digest = series_pdf_hash(series=series, language=language, paper=paper)
    found = (
        SeriesFile.objects.filter(series=series, inputs_hash=digest)
        .exclude(status=SeriesFile.Status.FAILED)
        .first()
    )
    if found is not None:
        return found
    f = SeriesFile.objects.create(series=series, language=language, paper=paper, inputs_hash=digest)
    job_enqueue(task=TASK, args=[f.pk], queue=jobs_queue(), key=f"series-pdf:{series.pk}")
    return f
