"""The Celery application.

Configuration comes from Django settings (keys prefixed ``CELERY_``). With no broker configured
the settings switch Celery to eager mode, so the embedded default needs no services.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournaments.settings.base")

app = Celery("tournaments")
app.config_from_object("django.conf:settings", namespace="CELERY")
# the tasks live in tournaments/jobs/ (tasks.py imports result_tasks.py)
app.autodiscover_tasks(["tournaments.jobs"])
