"""What the API tells a caller about the background job its write queued (issue 25, item 10).

An approval, a recomputation asked for and a document ordered each write a job row with the
change (``jobs.outbox``: an outbox). Their answers carry the job as :class:`JobQueuedOutput`:
its id, its state just after the commit (``queued``: the broker could not be reached, the job
waits for it and runs as soon as it is back; ``sent``; ``done`` / ``failed`` when it ran at
once), the URL of its state (``/api/v1/jobs/<job>``) and, when it waits for the broker, the
message the pages show. Additive: no field of the earlier answers changed.
"""

from __future__ import annotations

from django.db.models import Max
from django.urls import reverse
from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from tournaments.models import Job

__all__ = ["JobQueuedOutput", "job_mark", "job_output", "job_since"]


@extend_schema_serializer(component_name="JobQueued")
class JobQueuedOutput(serializers.Serializer):
    """The background job a write queued (issue 25, item 10)."""

    job = serializers.CharField(help_text="The job's id.")
    state = serializers.ChoiceField(
        choices=Job.State.choices,
        help_text=(
            "Just after the write committed: ``queued`` — the job queue (Redis) could not be "
            "reached; the write is kept and the job is sent as soon as the queue is back "
            "(nothing to do but wait); ``sent`` — a worker will run it; ``running``; ``done`` "
            "or ``failed`` when it already ran."
        ),
    )
    status_url = serializers.CharField(
        help_text="``/api/v1/jobs/<job>``: its state (200 done, 409 queued or running, 410 failed)."
    )
    message = serializers.CharField(
        allow_blank=True,
        help_text="For a person (translated): why it waits, when the queue is out; else empty.",
    )


def job_mark() -> int:
    """The newest job row's id now: the jobs a write queues after this are :func:`job_since`."""
    return Job.objects.aggregate(last=Max("pk"))["last"] or 0


def job_since(mark: int, *, task: str, event_id: int | None = None, key: str | None = None):
    """The newest job of ``task`` (of the event, of the key) written after ``mark``, or None."""
    jobs = Job.objects.filter(pk__gt=mark, task=task)
    if event_id is not None:
        jobs = jobs.filter(event_id=event_id)
    if key is not None:
        jobs = jobs.filter(key=key)
    return jobs.order_by("-pk").first()


def job_output(job: Job | None, *, queued_message: str = "") -> dict | None:
    """The answer's description of ``job`` (its row read again: the commit may have sent it)."""
    if job is None:
        return None
    job.refresh_from_db(fields=["state", "error"])
    waiting = job.state == Job.State.QUEUED and job.error.startswith("broker")
    return {
        "job": job.task_id,
        "state": job.state,
        "status_url": reverse("api:job-status", kwargs={"job_id": job.task_id}),
        "message": str(queued_message) if waiting else "",
    }
