"""Background jobs: a transactional outbox (the row is written in the transaction that asks for
the job, and handed to the broker after the commit or by the sweep) and a lease on the job while
a worker runs it (``tournaments.jobs.outbox``)."""

from __future__ import annotations

import uuid

from django.db import models
from django.utils.translation import gettext_lazy as _

__all__ = ["Job"]


def new_task_id() -> str:
    return str(uuid.uuid4())


class Job(models.Model):
    """One background job, from the write that asks for it to its end.

    ``queued``: committed, not yet handed to the broker (it was down); ``sent``: on the broker;
    ``running``: a worker holds it and renews ``heartbeat_at``; ``done`` / ``failed``: ended,
    ``error`` says why. The sweep (``jobs.outbox.jobs_sweep``) sends the queued ones, sends
    again those the broker lost, and ends the ones whose worker is gone.
    """

    class State(models.TextChoices):
        QUEUED = "queued", _("Queued")
        SENT = "sent", _("Sent to a worker")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    task = models.CharField(max_length=100)
    args = models.JSONField(default=list, blank=True)
    queue = models.CharField(max_length=100, blank=True)
    task_id = models.CharField(max_length=64, unique=True, default=new_task_id)
    event = models.ForeignKey(
        "tournaments.Event", on_delete=models.CASCADE, null=True, blank=True, related_name="jobs"
    )
    # what the job computes from (the rounds-ahead plan: a hash of its inputs); its result
    key = models.CharField(max_length=64, blank=True)
    result = models.JSONField(null=True, blank=True)
    state = models.CharField(max_length=8, choices=State.choices, default=State.QUEUED)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    sends = models.PositiveSmallIntegerField(default=0)
    attempts = models.PositiveSmallIntegerField(default=0)  # deliveries a worker started
    worker = models.CharField(max_length=200, blank=True)  # host:pid of the last one
    error = models.TextField(blank=True)
    #: the error as words said again in the reader's language (``{"text", "params"}``,
    #: :func:`tournaments.errors.said_or_stored`); the text above stays the English line for the
    #: API and the logs, and is shown as it is where there are no words (older rows)
    error_words = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["state", "created_at"]),
            models.Index(fields=["task", "key"]),
        ]

    def __str__(self) -> str:
        return f"{self.task} {self.task_id} ({self.state})"

    @property
    def active(self) -> bool:
        return self.state in (self.State.QUEUED, self.State.SENT, self.State.RUNNING)
