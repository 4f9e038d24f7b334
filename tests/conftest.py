"""Shared fixtures. Pure tests (tests/scoring, tests/rules, tests/tournaments/seating) use none.

``celery_worker_process`` starts a real Celery worker in another process, on Redis, seeing the
test database; tests that use it need ``django_db(transaction=True)`` so the worker sees their
rows (platform.md).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

import pytest
from hypothesis import settings as hypothesis_settings

# Property tests never fail on time (CONTRIBUTING.md: speed targets live in tests/bench/): on a
# loaded machine a generous example can exceed hypothesis' 200 ms deadline and fail for nothing.
hypothesis_settings.register_profile("pulka", deadline=None)
hypothesis_settings.load_profile("pulka")

ROOT = Path(__file__).resolve().parent.parent
T = TypeVar("T")


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups (--dist loadgroup)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-xdist the load scenarios run on one worker, one after another: each starts a
    stack of servers (gunicorn, Celery workers, redis-server) that wants the machine's cores."""
    if not config.pluginmanager.hasplugin("xdist"):
        return
    for item in items:
        if item.get_closest_marker("load"):
            item.add_marker(pytest.mark.xdist_group("load"))


@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    """Each test starts in the default language: a request to /ru/… leaves Russian active in the
    thread, and reverse() would then build /ru/ URLs in the next test."""
    from django.conf import settings

    if not settings.configured:  # pure tests run without the Django plugin too
        yield
        return
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    """Each test starts with an empty cache (the process's memory in the test settings): one
    test's failed logins must not lock out the next test's client (tournaments/access/lockout.py)."""
    from django.conf import settings

    if settings.configured:
        from django.core.cache import cache

        cache.clear()
    yield


def kept_for_the_module(django_db_blocker, build: Callable[[], T]) -> Iterator[T]:
    """For a module-scoped fixture (``yield from kept_for_the_module(django_db_blocker, build)``)
    that builds something expensive once for its module's tests, as Django's ``setUpTestData``
    does: ``build()`` writes its rows in a transaction that each test's own (a savepoint inside
    it) rolls back to, and that is rolled back after the module. Only for modules without
    ``transaction=True`` tests; ``build`` returns keys, and each test reads fresh instances by
    them, so that no test sees another's changes to an object in memory."""
    from django.db import transaction

    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            value = build()
        except BaseException:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
            raise
    try:
        yield value
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


def _database_url_of(settings_dict: dict) -> str:
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or 5432
    user = settings_dict.get("USER") or "postgres"
    password = settings_dict.get("PASSWORD") or ""
    auth = f"{user}:{password}" if password else user
    return f"postgres://{auth}@{host}:{port}/{settings_dict['NAME']}"


@contextmanager
def eager_off(queue: str | None = None) -> Iterator[None]:
    """Send tasks to the broker for the duration of the block (and restore eager mode after);
    with ``queue``, tasks sent without an explicit queue go there (a test worker's queue)."""
    from tournaments.celery import app

    before = app.conf.task_always_eager, app.conf.task_default_queue
    app.conf.task_always_eager = False
    if queue:
        app.conf.task_default_queue = queue
    try:
        yield
    finally:
        app.conf.task_always_eager, app.conf.task_default_queue = before


@contextmanager
def broker_down() -> Iterator[None]:
    """Send tasks to a broker nobody listens on (port 1 of loopback) for the block: what a
    Redis outage looks like to the web processes; eager mode is off meanwhile."""
    from tournaments.celery import app

    before = app.conf.broker_url, app.conf.broker_transport_options
    app.conf.broker_url = "redis://127.0.0.1:1/0"
    app.conf.broker_transport_options = {"max_retries": 0}
    app._pool = app.amqp._producer_pool = None  # the next message connects to the new URL
    try:
        with eager_off():
            yield
    finally:
        app.conf.broker_url, app.conf.broker_transport_options = before
        app._pool = app.amqp._producer_pool = None


@pytest.fixture
def celery_worker_process(django_db_blocker) -> Iterator[str]:
    """A real ``celery worker`` subprocess on Redis and the test database; yields its queue."""
    from django.conf import settings
    from django.db import connection

    queue = f"pulka-test-{uuid.uuid4().hex[:8]}"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tournaments.settings.base",
        "DATABASE_URL": _database_url_of(connection.settings_dict),
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        # the jobs the worker itself sends (a render ahead after a recomputation) come back to it
        "PULKA_JOBS_QUEUE": queue,
        "PYTHONPATH": str(ROOT),
    }
    log = (
        open(ROOT / "var" / f"{queue}.log", "w") if (ROOT / "var").is_dir() else subprocess.DEVNULL
    )
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "tournaments",
            "worker",
            "--pool=solo",
            "-Q",
            queue,
            "-n",
            f"{queue}@%h",
            "--loglevel=INFO",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        from tournaments.celery import app

        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert proc.poll() is None, "the celery worker exited during start-up"
            replies = app.control.ping(destination=[f"{queue}@{os.uname().nodename}"], timeout=0.5)
            if replies:
                break
        else:
            raise AssertionError("the celery worker did not answer a ping within 60 s")
        yield queue
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        if log is not subprocess.DEVNULL:
            log.close()
