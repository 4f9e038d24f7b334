"""Celery tasks: thin wrappers that load by id and call one plain function (STYLE.md)."""

from __future__ import annotations

import os
import socket

from celery import shared_task
from django.db import connection


@shared_task(name="tournaments.system_ping", acks_late=True)
def system_ping() -> dict[str, object]:
    """Report where the task ran and which database it sees (used by ``/healthz`` tests and
    ``manage.py check_worker``)."""
    from django.contrib.auth import get_user_model

    return {
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "database": connection.settings_dict["NAME"],
        "vendor": connection.vendor,
        "users": get_user_model().objects.count(),
    }
from tournaments import tasks_standings  # noqa: E402,F401  (standings and PDF jobs, issue 6)
