"""An archive uploaded on the import page, made a new event by a job (issue 25, item 12: an
import of 300 players × 6 rounds takes seconds, ``tests/bench/bench_archive.py``).

:func:`archive_import_request` checks in the request what costs little (the file is JSON, an
event archive of a version this Pulka reads, its short name free), so bad input is still
refused at once naming the field; it stores the file privately (``MEDIA_ROOT/imports/``, not
served: only the job reads it) and queues a :class:`~tournaments.models.Job`
(``tournaments.event_archive_import``, the outbox of ``tournaments.jobs.outbox``: lease,
sweep, the failure's reason on the row).

:func:`archive_import_run` is the job's body: the whole import in one transaction
(:func:`~tournaments.archive.load.event_archive_import`) that also writes the new event on the
job's row, under the row's lock. A second delivery of the job (a worker lost after the commit,
a send repeated by the sweep) finds the event on the row and imports nothing again; a failure
imports nothing and the row keeps the reason. ``manage.py archive_import`` still imports at
once, on the server.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import models, transaction
from django.utils.translation import gettext as _

from tournaments.archive.load import event_archive_import
from tournaments.archive.reading import archive_checked
from tournaments.archive.refs import ArchiveError
from tournaments.jobs.outbox import job_enqueue
from tournaments.models import Event, Job
from tournaments.services.standings import jobs_queue

__all__ = [
    "IMPORT_TASK",
    "archive_import_document",
    "archive_import_forget",
    "archive_import_once",
    "archive_import_progress",
    "archive_import_request",
    "archive_import_run",
    "archive_json_loaded",
    "archive_slug_checked",
    "archive_slug_free",
    "archive_upload_queued",
]

IMPORT_TASK = "tournaments.event_archive_import"
#: where uploaded archives wait for their job, in the default storage (never served)
UPLOADS = "imports"


def archive_import_document(text: str | bytes) -> dict[str, Any]:
    """The archive file's text parsed and its format and version checked (an older version
    migrated).

    :raises ArchiveError: not JSON, nested too deeply, not an event archive, or a newer one.
    """
    return archive_checked(archive_json_loaded(text))


def archive_json_loaded(text: str | bytes) -> Any:
    """An uploaded archive's text parsed as JSON (an event's or a series').

    :raises ArchiveError: not JSON, or nested too deeply.
    """
    try:
        return json.loads(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ArchiveError("$", _("not JSON (%(error)s)") % {"error": exc}) from None
    except RecursionError:  # deeper than the decoder goes (issue 25, item 7)
        raise ArchiveError("$", _("JSON nested too deeply to be an archive")) from None


def archive_slug_checked(model: type[models.Model], key: str, slug: str | None) -> None:
    """A short name given for the import (of ``model``, the archive's ``key``: ``event``,
    ``series``) checked as one.

    :raises ArchiveError: at ``$.<key>.slug``, saying why it cannot be one.
    """
    if slug:
        try:
            model._meta.get_field("slug").clean(slug, None)
        except ValidationError as exc:
            raise ArchiveError(f"$.{key}.slug", " ".join(exc.messages)) from None


def archive_slug_free(
    model: type[models.Model], key: str, slug: str | None, data: dict[str, Any], taken: str
) -> None:
    """The short name the import gives (``slug``, else the archive's ``data[key]["slug"]``)
    is no ``model``'s yet.

    :raises ArchiveError: at ``$.<key>.slug`` with ``taken`` (``%(slug)s``: the name).
    """
    found = data.get(key)
    wanted = slug or (found.get("slug") if isinstance(found, dict) else None)
    if isinstance(wanted, str) and model.objects.filter(slug=wanted).exists():
        raise ArchiveError(f"$.{key}.slug", taken % {"slug": wanted})


def archive_upload_queued(text: str | bytes, *, task: str, args: list[Any], key: str) -> Job:
    """Store an uploaded archive where only its job reads it and queue the job ``task`` with
    ``[stored name, *args]`` (sent to the broker after the commit; when the broker is down the
    row waits for the sweep). The file is deleted again when the queueing fails."""
    raw = text.encode() if isinstance(text, str) else text
    name = default_storage.save(f"{UPLOADS}/{uuid.uuid4().hex}.json", ContentFile(raw))
    try:
        with transaction.atomic():
            return job_enqueue(task=task, args=[name, *args], queue=jobs_queue(), key=key)
    except BaseException:
        default_storage.delete(name)
        raise


def archive_import_request(*, text: str | bytes, by, slug: str | None = None) -> Job:
    """Check the uploaded archive cheaply, store it and queue its import (sent to the broker
    after the commit; when the broker is down the row waits for the sweep).

    :raises ArchiveError: what can be told without importing: a short name that cannot be
        one, not JSON, not an archive, a newer version, the event's short name taken.
    """
    archive_slug_checked(Event, "event", slug)
    archive_slug_free(
        Event,
        "event",
        slug,
        archive_import_document(text),
        _("an event with the short name %(slug)s exists already: choose another"),
    )
    return archive_upload_queued(
        text,
        task=IMPORT_TASK,
        args=[getattr(by, "pk", None), slug or ""],
        key=f"import:{getattr(by, 'pk', '')}",
    )


def _progress_key(task_id: str) -> str:
    return f"pulka:archive-import:{task_id}"


def archive_import_progress(task_id: str) -> dict[str, int]:
    """How far a running import has got: ``{"done": steps, "total": steps}`` (empty when
    unknown). Kept in the cache: the import's own transaction holds the job's row."""
    try:
        value = cache.get(_progress_key(task_id))
    except Exception:  # the cache (Redis) is out: the page shows the state only
        return {}
    return value if isinstance(value, dict) else {}


def _progress_saver(task_id: str):
    def save(done: int, total: int) -> None:
        try:
            cache.set(_progress_key(task_id), {"done": done, "total": total}, 3600)
        except Exception:  # the cache is out: the import goes on, without progress shown
            pass

    return save


def archive_import_forget(name: str) -> None:
    """Delete an uploaded archive its job no longer needs."""
    if name.startswith(f"{UPLOADS}/") and default_storage.exists(name):
        default_storage.delete(name)


def archive_import_once(
    *, task_id: str, done: str, run: Callable[[Job, bytes], dict[str, Any]]
) -> dict[str, Any]:
    """The body shared by the import jobs: under the job row's lock, import the stored upload
    once with ``run(job, the file's bytes)`` and keep its result on the row in the import's
    transaction. A delivery after one that committed (the row's result has ``done``) returns
    that result and imports nothing; the upload is deleted once imported.

    :raises ArchiveError: the upload is gone, or anything ``run`` refuses; nothing is imported.
    """
    finished = False
    with transaction.atomic():
        # the row's lock serialises deliveries; the sweep skips a locked row (a live job)
        job = Job.objects.select_for_update().get(task_id=task_id)
        name = job.args[0]
        if isinstance(job.result, dict) and job.result.get(done):
            result = job.result
            finished = True
        else:
            try:
                with default_storage.open(name, "rb") as f:
                    text = f.read()
            except OSError:
                raise ArchiveError(
                    "$", _("the uploaded file is gone; upload the archive again")
                ) from None
            try:
                result = run(job, text)
            except RecursionError:  # decoded, but too deep to check or store
                raise ArchiveError("$", _("JSON nested too deeply to be an archive")) from None
            job.result = result
            job.save(update_fields=["result"])
    if not finished:
        archive_import_forget(name)
    return result


def archive_import_run(*, task_id: str) -> dict[str, Any]:
    """The job's body: import the stored archive as a new event, once.

    Returns (and keeps on the job's row, in the import's transaction) ``{"event": id, "slug",
    "name", "players", "rounds"}``. A delivery after one that committed returns that result
    and imports nothing.

    :raises ArchiveError: anything the import refuses; nothing is imported.
    """

    def run(job: Job, text: bytes) -> dict[str, Any]:
        _name, user_id, slug = job.args
        by = get_user_model().objects.filter(pk=user_id).first() if user_id else None
        event = event_archive_import(
            document=archive_import_document(text),
            by=by,
            slug=slug or None,
            on_progress=_progress_saver(task_id),
        )
        return {
            "event": event.pk,
            "slug": event.slug,
            "name": event.name,
            "players": event.entries.count(),
            "rounds": event.rounds.count(),
        }

    return archive_import_once(task_id=task_id, done="event", run=run)
