"""Test settings: real PostgreSQL and Redis (the test command starts them).

``DATABASE_URL`` and ``REDIS_URL`` default to the services on 127.0.0.1. Tasks run eagerly by
default so that services can be tested inline; the worker tests switch eager mode off for the
duration of a test and run tasks through a real worker.
"""

import os

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/pulka")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/15")
os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "true")

from .base import *  # noqa: E402,F403
from .base import DATABASES  # noqa: E402

# the test database is named after DATABASE_URL's (test_pulka by default), so that runs with
# different DATABASE_URLs on one server never share one
DATABASES["default"]["TEST"] = {
    "NAME": os.environ.get("PULKA_TEST_DB_NAME", f"test_{DATABASES['default']['NAME']}")
}
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
