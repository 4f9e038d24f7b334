"""Settings: ``base`` reads the environment; ``test`` insists on PostgreSQL and Redis.

``DJANGO_SETTINGS_MODULE=tournaments.settings`` (the default of manage.py, WSGI and Celery) is
the base settings, driven entirely by environment variables (see README, "Configuration").
"""

from .base import *  # noqa: F403
