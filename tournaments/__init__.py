"""Pulka's Django project and app: events, draws, protocols, penalties, standings, API, PDF.

The Celery app is imported here so that ``@shared_task`` uses it (Celery's Django recipe).
Importing this package configures nothing: settings are read lazily.
"""

from .celery import app as celery_app

__all__ = ["celery_app"]
