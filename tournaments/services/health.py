"""Health of the services Pulka depends on: the database and the Celery broker."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from django.conf import settings
from django.db import connections

from tournaments.celery import app

__all__ = ["ServiceHealth", "health_check"]


@dataclass(frozen=True)
class ServiceHealth:
    name: str
    ok: bool
    detail: str

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


def _database() -> ServiceHealth:
    conn = connections["default"]
    try:
        with conn.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any driver error means "unreachable"
        return ServiceHealth("database", False, f"{conn.vendor}: {exc.__class__.__name__}: {exc}")
    return ServiceHealth("database", True, conn.vendor)


def _broker(timeout: float) -> ServiceHealth:
    url = settings.CELERY_BROKER_URL
    if not url:
        return ServiceHealth(
            "broker", True, "none configured: tasks run eagerly in the web process"
        )
    try:
        with app.connection_for_write(url) as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, timeout=timeout)
    except Exception as exc:
        return ServiceHealth("broker", False, f"{exc.__class__.__name__}: {exc}")
    return ServiceHealth("broker", True, app.connection_for_write(url).as_uri())


def health_check(*, timeout: float = 2.0) -> list[ServiceHealth]:
    """Check the database and the broker; a configured service that is unreachable fails."""
    return [_database(), _broker(timeout)]
