"""Test settings: real PostgreSQL and Redis (the test command starts them).

``DATABASE_URL`` and ``REDIS_URL`` default to the services on 127.0.0.1; under pytest-xdist each
worker has its own test database (pytest-django's ``_gw0`` … suffix) and its own Redis database
(below). Tasks run eagerly by default so that services can be tested inline; the worker tests
switch eager mode off for the duration of a test and run tasks through a real worker.
"""

import os
from urllib.parse import urlsplit, urlunsplit

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/pulka")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/15")
os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "true")


def _redis_of_worker(url: str, worker: str) -> str:
    """``url`` with the database of pytest-xdist's worker ``gwK``: ``(N - K) mod 16`` where
    ``url`` names database N (/15 by default: gw0 15, gw1 14, …). Each worker's tests then flush
    and count only their own keys (a Redis cache's ``clear()`` is FLUSHDB)."""
    parts = urlsplit(url)
    number = int(parts.path.strip("/") or 0)
    return urlunsplit(parts._replace(path=f"/{(number - int(worker[2:])) % 16}"))


# once per worker process: subprocesses inherit the worker's REDIS_URL (and this marker)
_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
if _worker.startswith("gw") and os.environ.get("PULKA_TEST_REDIS_WORKER") != _worker:
    os.environ["REDIS_URL"] = _redis_of_worker(os.environ["REDIS_URL"], _worker)
    os.environ["PULKA_TEST_REDIS_WORKER"] = _worker

from .base import *  # noqa: E402,F403
from .base import DATABASES  # noqa: E402

# the test database is named after DATABASE_URL's (test_pulka by default), so that runs with
# different DATABASE_URLs on one server never share one
DATABASES["default"]["TEST"] = {
    "NAME": os.environ.get("PULKA_TEST_DB_NAME", f"test_{DATABASES['default']['NAME']}")
}
# Django's test flush truncates every table: the audit log's TRUNCATE trigger lets a superuser's
# session that says so through (migration 0017; tests/tournaments/test_audit_log.py refuses it
# without the setting)
DATABASES["default"].setdefault("OPTIONS", {})["options"] = "-c pulka.audit_log_truncate=allowed"
# requests make no extra query for the jobs sweep (tests that count queries); the sweep's
# own test switches it on
PULKA_JOBS_SWEEP_ON_REQUEST = 0
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast logins in tests
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Lockout counts in the process's memory, cleared before each test (tests/conftest.py): a test's
# failed logins must not lock out the next test's client; tests/tournaments/test_lockout.py runs
# the policy on the Redis cache too.
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# The anonymous pages' cache (page_cache.py) is off: tests run in a transaction whose commit
# hooks, which replace the pages' versions, never run; tests/tournaments/views/test_fast_pages.py
# switches it on and runs the hooks (as a commit does).
PULKA_PAGE_CACHE = False
# Nor are pages rendered ahead after a change (tournaments/web_cache/warm.py): its tests switch it on.
PULKA_PAGE_WARM = False
