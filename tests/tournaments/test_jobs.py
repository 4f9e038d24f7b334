"""Jobs nothing can lose (issue 25, items 10-12): a write that asks for a job commits and tells
the user when the broker is down, the job is sent once it is back (a transactional outbox swept
by beat, a command and requests), a job whose worker died is ended or sent again, a message
delivered twice does no harm, and the rounds ahead are planned by a job, never in a request."""

from __future__ import annotations

import datetime as dt
import time

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from tests.conftest import broker_down
from tests.factories import EntryFactory, EventFactory, UserFactory
from tests.tournaments.protocols.conftest import make_table
from tests.tournaments.protocols.test_protocol_services import closed_protocol, save
from tournaments.jobs import outbox as jobs
from tournaments.models import GeneratedFile, Job, Protocol, StandingsSnapshot
from tournaments.services.protocols import protocol_approve
from tournaments.services.rounds import draw_job_running, round_create, round_draw
from tournaments.services.standings import standings_schedule

pytestmark = pytest.mark.django_db

LATER = dt.timedelta(seconds=30)


def sweep_later(**kw):
    return jobs.jobs_sweep(now=timezone.now() + LATER, **kw)


# --- item 10: the broker is down --------------------------------------------------------------


def test_approving_while_the_broker_is_down_commits_and_the_standings_catch_up(
    client, django_capture_on_commit_callbacks
):
    setup = make_table()
    save(setup, closed_protocol(setup), None)
    version = Protocol.objects.get(table=setup.table)
    with broker_down(), django_capture_on_commit_callbacks(execute=True):
        protocol_approve(protocol=version, by=setup.referee, confirm_missing=True)
    assert Protocol.objects.get(table=setup.table, approved=True).version == version.version
    job = Job.objects.filter(task="tournaments.standings_recompute").latest("created_at")
    assert job.state == "queued" and job.event_id == setup.event.pk
    assert jobs.jobs_waiting(event_id=setup.event.pk)
    snapshot = StandingsSnapshot.objects.get(event=setup.event)
    assert snapshot.pending
    # the referee's pages say so
    client.force_login(setup.chief)
    page = client.get(reverse("standings-manage", args=[setup.event.slug])).content.decode()
    assert 'id="standings-queued"' in page
    # the broker is back: the sweep sends the job (eager here: it runs), nothing stays pending
    with django_capture_on_commit_callbacks(execute=True):
        counts = sweep_later()
    assert counts["sent"] >= 1
    assert not Job.objects.filter(state__in=["queued", "sent", "running"]).exists()
    snapshot.refresh_from_db()
    assert snapshot.status == "ok" and not snapshot.pending
    assert len(snapshot.data["rows"]) == 3


def test_the_approve_page_tells_the_referee_the_recomputation_is_queued(
    client, django_capture_on_commit_callbacks
):
    setup = make_table()
    save(setup, closed_protocol(setup), None)
    client.force_login(setup.referee)
    url = reverse("protocol-action", args=[setup.event.slug, 1, 1, "approve"])
    with broker_down(), django_capture_on_commit_callbacks(execute=True):
        r = client.post(url, {"version": "1", "confirm_missing": "on"}, follow=True)
    assert r.status_code == 200
    assert "standings recomputation is queued" in r.content.decode()
    assert Protocol.objects.filter(table=setup.table, approved=True).exists()


def test_recompute_and_a_document_ordered_while_the_broker_is_down(
    client, django_capture_on_commit_callbacks
):
    setup = make_table()
    client.force_login(setup.chief)
    with broker_down(), django_capture_on_commit_callbacks(execute=True):
        r = client.post(
            reverse("standings-manage", args=[setup.event.slug]),
            {"action": "recompute"},
            follow=True,
        )
        assert r.status_code == 200 and "recomputation is queued" in r.content.decode()
        r = client.post(
            reverse("documents-manage", args=[setup.event.slug]),
            {"kind": "seating", "round": "1", "paper": "A4"},
            follow=True,
        )
        assert r.status_code == 200 and "The document is queued" in r.content.decode()
    document = GeneratedFile.objects.get(event=setup.event, kind="seating")
    assert document.status == "pending"
    with django_capture_on_commit_callbacks(execute=True):
        sweep_later()
    document.refresh_from_db()
    assert document.status == "ok" and document.file
    assert StandingsSnapshot.objects.get(event=setup.event).status == "ok"


def test_a_request_sweeps_when_no_beat_runs(client, settings):
    """The embedded default runs no beat: a job whose sending was interrupted (the process
    stopped between the commit and the send) is sent by the next request."""
    setup = make_table()
    job = Job.objects.create(
        task="tournaments.standings_recompute", args=[setup.event.pk], event=setup.event
    )
    Job.objects.filter(pk=job.pk).update(created_at=timezone.now() - dt.timedelta(minutes=5))
    assert client.get("/").status_code == 200
    assert Job.objects.get(pk=job.pk).state == "queued"  # the test settings: no sweep
    settings.PULKA_JOBS_SWEEP_ON_REQUEST = 0.001
    time.sleep(0.01)
    assert client.get("/").status_code == 200
    job.refresh_from_db()
    assert job.state == "done"


def test_the_sweep_command_reports_what_it_did(capsys):
    setup = make_table()
    job = Job.objects.create(
        task="tournaments.standings_recompute", args=[setup.event.pk], event=setup.event
    )
    Job.objects.filter(pk=job.pk).update(created_at=timezone.now() - dt.timedelta(minutes=5))
    call_command("jobs_sweep")
    assert '"sent": 1' in capsys.readouterr().out
    assert Job.objects.get(pk=job.pk).state == "done"


def test_a_job_the_broker_lost_is_sent_again(settings):
    """A Redis restarted without its data forgets the messages it held: a job sent longer
    ago than ``PULKA_JOB_RESEND_AFTER`` that no worker started is sent again."""
    setup = make_table()
    long_ago = timezone.now() - dt.timedelta(seconds=settings.PULKA_JOB_RESEND_AFTER + 5)
    job = Job.objects.create(
        task="tournaments.standings_recompute",
        args=[setup.event.pk],
        event=setup.event,
        state="sent",
        sent_at=long_ago,
        sends=1,
    )
    assert jobs.jobs_sweep()["resent"] == 1
    job.refresh_from_db()
    assert job.state == "done" and job.sends == 2


# --- item 11: a worker dies mid-job -----------------------------------------------------------


def running_job(task, args, *, event, task_id=None, beat_ago=600, attempts=1):
    seen = timezone.now() - dt.timedelta(seconds=beat_ago)
    return Job.objects.create(
        task=task,
        args=args,
        event=event,
        state="running",
        started_at=seen,
        heartbeat_at=seen,
        attempts=attempts,
        worker="gone-host:4242",
        **({"task_id": task_id} if task_id else {}),
    )


def test_a_draw_whose_worker_died_is_marked_failed_and_the_round_can_be_drawn(client):
    event = EventFactory(table_size_policy="3")
    for _ in range(9):
        EntryFactory(event=event)
    round_ = round_create(event=event)
    round_.draw_job_id = "dead-draw-job"
    round_.draw_job_started_at = timezone.now() - dt.timedelta(minutes=2)
    round_.save()
    job = running_job(
        "tournaments.round_draw",
        [round_.pk, None, None, None],
        event=event,
        task_id="dead-draw-job",
    )
    assert draw_job_running(round_)  # its heartbeat is old, but the sweep has not seen it yet
    counts = jobs.jobs_sweep()
    assert counts["failed"] == 1
    job.refresh_from_db()
    round_.refresh_from_db()
    assert job.state == "failed" and "worker running this job stopped" in job.error
    assert round_.draw_job_id == "" and "gone-host:4242" in round_.draw_job_error
    assert not draw_job_running(round_) and round_.state == "draft"
    client.force_login(UserFactory(is_superuser=True))
    page = client.get(reverse("manage-round", args=[event.slug, 1])).content.decode()
    assert 'id="draw-failed"' in page and "worker running this job stopped" in page
    assert 'name="method"' in page  # the draw form is back
    # the message Redis hands out again after its visibility timeout does nothing
    from tournaments.jobs.tasks import round_draw as task

    assert task.apply(args=[round_.pk, None, None, None], task_id="dead-draw-job").get() == {
        "skipped": "failed"
    }
    round_.refresh_from_db()
    assert round_.state == "draft" and not round_.tables.exists()


def test_a_fresh_heartbeat_is_not_a_lost_worker():
    setup = make_table()
    job = running_job(
        "tournaments.standings_recompute", [setup.event.pk], event=setup.event, beat_ago=1
    )
    assert jobs.jobs_sweep()["lost"] == 0
    job.refresh_from_db()
    assert job.state == "running"


def test_a_recomputation_whose_worker_died_runs_again_then_gives_up_visibly():
    setup = make_table()
    standings_schedule(event_id=setup.event.pk)
    job = running_job("tournaments.standings_recompute", [setup.event.pk], event=setup.event)
    assert jobs.jobs_sweep()["lost"] == 1
    job.refresh_from_db()
    assert job.state == "done" and job.attempts == 2  # sent again (eager: ran)
    assert StandingsSnapshot.objects.get(event=setup.event).status == "ok"
    # a job whose workers died under every attempt ends, and the standings page says why
    again = running_job(
        "tournaments.standings_recompute",
        [setup.event.pk],
        event=setup.event,
        attempts=jobs.MAX_ATTEMPTS,
    )
    assert jobs.jobs_sweep()["failed"] == 1
    again.refresh_from_db()
    snapshot = StandingsSnapshot.objects.get(event=setup.event)
    assert again.state == "failed" and snapshot.status == "failed"
    assert "worker running this job stopped" in snapshot.error


def test_a_job_delivered_twice_runs_once():
    setup = make_table()
    from tournaments.jobs.result_tasks import standings_recompute as task

    job = Job.objects.create(
        task="tournaments.standings_recompute",
        args=[setup.event.pk],
        event=setup.event,
        state="sent",
    )
    first = task.apply(args=[setup.event.pk], task_id=job.task_id).get()
    runs = len(StandingsSnapshot.objects.get(event=setup.event).runs)
    second = task.apply(args=[setup.event.pk], task_id=job.task_id).get()
    assert "skipped" not in first and second == {"skipped": "done"}
    assert len(StandingsSnapshot.objects.get(event=setup.event).runs) == runs


def test_redis_hands_a_dead_workers_job_back_within_the_task_limit(settings):
    """Late acknowledgement: a job is acknowledged after it ran, a lost worker's job goes back
    to the queue, and Redis hands it out again after the visibility timeout, sized just above
    the hard time limit (not Redis' default hour)."""
    from tournaments.celery import app

    assert app.conf.task_acks_late and app.conf.task_reject_on_worker_lost
    timeout = app.conf.broker_transport_options["visibility_timeout"]
    assert settings.CELERY_TASK_TIME_LIMIT < timeout <= settings.CELERY_TASK_TIME_LIMIT + 120
    assert "tournaments.jobs_sweep" in {entry["task"] for entry in app.conf.beat_schedule.values()}
    for name in jobs.LOST:
        assert app.tasks[name].acks_late and app.tasks[name].reject_on_worker_lost


# --- item 12: the rounds ahead are planned by a job -------------------------------------------


def test_the_rounds_ahead_never_run_the_engine_in_a_request(client, monkeypatch):
    from rest_framework.test import APIClient

    from tournaments.services import rounds_ahead as rounds

    event = EventFactory(table_size_policy="3", rounds_planned=3)
    for _ in range(9):
        EntryFactory(event=event)
    round_draw(round_=round_create(event=event))
    real_engine = rounds.run_engine

    def engine_in_request(*args, **kwargs):
        raise AssertionError("the seating engine ran in a request")

    monkeypatch.setattr(rounds, "run_engine", engine_in_request)
    user = UserFactory(is_superuser=True)
    client.force_login(user)
    page_url = reverse("manage-schedule", args=[event.slug])
    api = APIClient()
    api.force_authenticate(user)
    api_url = f"/api/v1/events/{event.slug}/rounds/ahead"
    with broker_down():  # a worker would plan it; none can be reached
        page = client.get(page_url).content.decode()
        assert 'id="plan-computing"' in page and "Round 2" not in page
        r = api.get(api_url)
        assert r.status_code == 202 and r["Location"] == r.json()["status_url"]
        status = api.get(r.json()["status_url"])
        assert status.status_code == 409 and status.json()["extra"]["state"] == "QUEUED"
    assert Job.objects.filter(task="tournaments.schedule_ahead").count() == 1  # one plan
    monkeypatch.setattr(rounds, "run_engine", real_engine)
    sweep_later()  # the job runs (eager here)
    job = Job.objects.get(task="tournaments.schedule_ahead")
    assert job.state == "done" and [r["round"] for r in job.result["rounds"]] == [2, 3]
    monkeypatch.setattr(rounds, "run_engine", engine_in_request)
    body = api.get(api_url).json()  # the kept plan: no engine, no new job
    assert body == job.result["rounds"]
    assert "Round 3" in client.get(page_url).content.decode()
    assert Job.objects.filter(task="tournaments.schedule_ahead").count() == 1
    assert api.get(f"/api/v1/jobs/{job.task_id}").status_code == 200
    # a change to what the plan depends on makes a new plan
    monkeypatch.setattr(rounds, "run_engine", real_engine)
    EntryFactory(event=event)  # ten players cannot sit at tables of three: said, not run
    r = api.get(api_url)
    assert r.status_code == 400 and r.json()["message"]
    assert Job.objects.filter(task="tournaments.schedule_ahead").count() == 2
    for _ in range(2):
        EntryFactory(event=event)
    assert [r["round"] for r in api.get(api_url).json()] == [2, 3]
    assert Job.objects.filter(task="tournaments.schedule_ahead").count() == 3
