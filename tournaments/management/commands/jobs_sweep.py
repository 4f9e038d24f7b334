"""``manage.py jobs_sweep``: send the jobs written while the broker was down, send again what
it lost, end the jobs whose worker is gone (what Celery beat runs every
``PULKA_JOBS_SWEEP_EVERY`` seconds; for a deployment without beat, run it from cron)."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand

from tournaments.jobs.outbox import jobs_sweep


class Command(BaseCommand):
    help = "Send queued background jobs and end those whose worker is gone (jobs.outbox)."

    def handle(self, *args, **options) -> None:
        self.stdout.write(json.dumps(jobs_sweep(), sort_keys=True))
