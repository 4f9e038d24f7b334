"""Standings jobs of one event are merged (issue 28): a burst of requests runs one
recomputation, a request that joined a job a worker started meanwhile gets a new one after its
commit, and a request no job carries (the process stopped after its commit) is asked for again
by the sweep."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.db import transaction
from django.utils import timezone

from tests.tournaments.standings.factories import make_event, play_round
from tournaments.jobs import outbox as jobs
from tournaments.models import Job, StandingsSnapshot
from tournaments.services.standings import TASK, standings_schedule

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    event, entries = make_event(players=9)
    rng = random.Random(3)
    for n in (1, 2):
        play_round(event, entries, n, rng=rng)
    return event


def standings_jobs(event):
    return Job.objects.filter(task=TASK, event=event)


def test_a_burst_of_requests_writes_one_job_and_runs_one_recomputation(
    event, django_capture_on_commit_callbacks
):
    # requests in the test's transaction: the first job is written, not sent yet (it is sent
    # after the commit), so every later request joins it
    first = standings_schedule(event_id=event.pk)
    joined = [standings_schedule(event_id=event.pk) for _ in range(29)]
    assert {j.pk for j in joined} == {first.pk}
    assert standings_jobs(event).count() == 1
    snapshot = StandingsSnapshot.objects.get(event=event)
    assert snapshot.requested == 30 and snapshot.pending
    with django_capture_on_commit_callbacks(execute=True):
        jobs.job_send(job=first)  # the broker hands it to a worker (eager: it runs here)
    snapshot.refresh_from_db()
    assert snapshot.status == "ok" and snapshot.computed == 30 and not snapshot.pending
    assert [r["outcome"] for r in snapshot.runs] == ["computed"]  # one recomputation
    assert list(standings_jobs(event).values_list("state", flat=True)) == ["done"]


def test_a_request_made_while_the_job_waits_on_the_broker_joins_it(
    event, django_capture_on_commit_callbacks
):
    job = Job.objects.create(task=TASK, args=[event.pk], event=event, state="sent")
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with transaction.atomic():
            assert standings_schedule(event_id=event.pk).pk == job.pk
    # after the commit the job still waits for a worker: it reads this request's data when it
    # starts, and nothing else is written
    assert len(callbacks) == 1 and standings_jobs(event).count() == 1


def test_a_request_whose_job_started_before_its_commit_gets_a_new_job(
    event, django_capture_on_commit_callbacks
):
    job = Job.objects.create(task=TASK, args=[event.pk], event=event, state="sent")
    with django_capture_on_commit_callbacks(execute=True):
        with transaction.atomic():
            assert standings_schedule(event_id=event.pk).pk == job.pk
            # a worker starts the joined job before this commit: it may read the data without
            # this request's change
            Job.objects.filter(pk=job.pk).update(state="running", started_at=timezone.now())
    newer = standings_jobs(event).exclude(pk=job.pk).get()
    assert newer.state == "done"  # written after the commit and run (eager)
    snapshot = StandingsSnapshot.objects.get(event=event)
    assert snapshot.computed == snapshot.requested == 1 and snapshot.status == "ok"


def test_no_new_job_when_a_computation_already_counted_the_request(
    event, django_capture_on_commit_callbacks
):
    job = Job.objects.create(task=TASK, args=[event.pk], event=event, state="sent")
    with django_capture_on_commit_callbacks(execute=True):
        with transaction.atomic():
            standings_schedule(event_id=event.pk)
            Job.objects.filter(pk=job.pk).update(state="done")
            StandingsSnapshot.objects.filter(event=event).update(computed=1)
    assert standings_jobs(event).count() == 1


def test_the_sweep_asks_again_for_a_request_no_job_carries(
    event, django_capture_on_commit_callbacks
):
    standings_schedule(event_id=event.pk)
    # the process stopped after the commit: the request is counted, its job is gone
    standings_jobs(event).delete()
    snapshot = StandingsSnapshot.objects.get(event=event)
    assert snapshot.requested == 1 and snapshot.computed == 0
    assert jobs.jobs_sweep()["standings"] == 0  # too recent: its job may be on its way
    later = timezone.now() + dt.timedelta(minutes=2)
    with django_capture_on_commit_callbacks(execute=True):
        assert jobs.jobs_sweep(now=later)["standings"] == 1
    snapshot.refresh_from_db()
    assert snapshot.status == "ok" and snapshot.computed == 1
    # nothing left to ask for: the next sweep writes no job
    assert jobs.jobs_sweep(now=later)["standings"] == 0
    # a failed recomputation is not asked for again by the sweep (the organiser sees it)
    StandingsSnapshot.objects.filter(event=event).update(requested=5, status="failed")
    assert jobs.jobs_sweep(now=later)["standings"] == 0
