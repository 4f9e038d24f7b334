"""Standings jobs on a real Celery worker over Redis: scheduling, the per-event row lock that
keeps two recomputations of one event from interleaving, and retries that end visibly."""

from __future__ import annotations

import datetime as dt
import os
import random
import threading
import time

import pytest
from django.db import close_old_connections, connection, transaction
from django.utils import timezone

from tests.conftest import eager_off
from tests.tournaments.standings.factories import make_event, play_round
from tournaments.models import StandingsSnapshot
from tournaments.services.standings import snapshot_for, standings_recompute, standings_schedule

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def on_worker(celery_worker_process, settings):
    settings.PULKA_JOBS_QUEUE = celery_worker_process
    with eager_off():
        yield celery_worker_process


def wait_for(predicate, timeout=60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError("timed out")


def snapshot(event):
    return StandingsSnapshot.objects.get(event=event)


def played_event(players=12, rounds=3, slug="cup"):
    event, entries = make_event(players=players, slug=slug)
    rng = random.Random(11)
    for n in range(1, rounds + 1):
        play_round(event, entries, n, rng=rng)
    return event


def test_scheduled_recomputation_runs_on_the_worker(on_worker):
    event = played_event()
    standings_schedule(event_id=event.pk)
    done = wait_for(lambda: (s := snapshot(event)).status == "ok" and s)
    assert done.runs[-1]["pid"] != os.getpid(), "ran in the test process, not on the worker"
    assert len(done.data["rows"]) == 12 and not done.pending
    # idempotent through the worker too: a second job stores the same rows
    standings_schedule(event_id=event.pk)
    again = wait_for(lambda: (s := snapshot(event)).computed == 2 and s.status == "ok" and s)
    assert again.data == done.data and again.runs[-1]["outcome"] == "unchanged"


def test_a_recomputation_waits_for_the_lock_of_another_and_scheduling_does_not(on_worker):
    event = played_event()
    snapshot_for(event_id=event.pk)
    from tournaments.jobs.result_tasks import standings_recompute as task
    from tournaments.services.standings import LOCK_CLASS

    with transaction.atomic():  # as a recomputation in another process does: hold the lock
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [LOCK_CLASS, event.pk])
        task.apply_async(args=(event.pk,), queue=on_worker)
        time.sleep(3)
        # a protocol approved meanwhile schedules a recomputation without waiting (in a
        # separate connection: the approving request)
        took = []

        def approve():
            t0 = time.monotonic()
            standings_schedule(event_id=event.pk)
            took.append(time.monotonic() - t0)
            connection.close()

        thread = threading.Thread(target=approve)
        thread.start()
        thread.join(20)
        assert took and took[0] < 2, took
        released = timezone.now()
    runs = wait_for(lambda: (s := snapshot(event)).status == "ok" and s.computed == 1 and s.runs)
    assert dt.datetime.fromisoformat(runs[0]["started"]) >= released, (
        "the worker computed while another run held the lock"
    )
    assert runs[0]["pid"] != os.getpid()


def test_two_concurrent_recomputations_never_interleave(on_worker):
    event = played_event(players=60, rounds=4)
    errors = []

    def inline():
        try:
            standings_recompute(event_id=event.pk)
        except Exception as exc:  # reported below
            errors.append(exc)
        finally:
            close_old_connections()
            connection.close()

    standings_schedule(event_id=event.pk)
    thread = threading.Thread(target=inline)
    thread.start()
    thread.join(60)
    runs = wait_for(lambda: len((s := snapshot(event)).runs) == 2 and s.status == "ok" and s.runs)
    assert not errors
    assert {r["pid"] == os.getpid() for r in runs} == {True, False}  # one here, one on the worker
    first, second = sorted(runs, key=lambda r: r["started"])
    assert first["finished"] <= second["started"], runs
    assert sorted(r["outcome"] for r in runs) == ["computed", "unchanged"]


def test_a_failing_job_is_retried_then_shown_as_failed(on_worker):
    event = played_event(players=6, rounds=1)
    event.tiebreaks = ["most_luck"]
    event.save()
    standings_schedule(event_id=event.pk)
    failed = wait_for(lambda: (s := snapshot(event)).status == "failed" and s, timeout=90)
    assert failed.attempts == 4  # the first run and three retries
    assert "most_luck" in failed.error and failed.pending
    # fixed by the organiser: the next job succeeds and clears the error
    event.tiebreaks = ["remizes"]
    event.save()
    standings_schedule(event_id=event.pk)
    ok = wait_for(lambda: (s := snapshot(event)).status == "ok" and s)
    assert ok.error == "" and not ok.pending and ok.attempts == 0


def test_a_pdf_is_rendered_by_the_worker(on_worker):
    from tournaments.models import GeneratedFile, Round
    from tournaments.pdf.files import generated_file_request

    event = played_event(players=6, rounds=1)
    f = generated_file_request(event=event, kind="seating", round_=Round.objects.get(event=event))
    assert f.status == "pending"
    done = wait_for(lambda: (g := GeneratedFile.objects.get(pk=f.pk)).status != "pending" and g)
    try:
        assert done.status == "ok", done.error
        assert done.file.read()[:4] == b"%PDF"
    finally:
        done.file.delete(save=False)
