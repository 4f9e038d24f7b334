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


@shared_task(name="tournaments.round_draw", bind=True, acks_late=True)
def round_draw(
    self,
    round_id: int,
    user_id: int | None = None,
    method: str | None = None,
    seed: str | None = None,
) -> dict[str, object]:
    """Draw a round in the background (large events); progress is reported to the caller."""
    from django.contrib.auth import get_user_model

    from tournaments.models import Round
    from tournaments.services.rounds import round_draw as round_draw_service

    self.update_state(state="PROGRESS", meta={"step": "drawing"})
    user = get_user_model().objects.filter(pk=user_id).first() if user_id else None
    round_ = Round.objects.select_related("event").get(pk=round_id)
    kwargs = {k: v for k, v in (("method", method), ("seed", seed)) if v}
    round_ = round_draw_service(round_=round_, by=user, **kwargs)
    return {
        "round": round_.number,
        "tables": round_.tables.count(),
        "summary": (round_.draw_report or {}).get("summary", {}),
    }
