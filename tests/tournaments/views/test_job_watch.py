"""Issue 29: the staff's pages follow the event's background jobs by themselves (the desk, a
round being drawn, documents rendering, the standings, the plan of the rounds ahead), asking a
small versioned state (``/e/<slug>/manage/jobs/state``) only while a job runs. The browser side
(no reload while a form is being filled in) is ``tests/browser/test_job_watch.py``."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import EventFactory, UserFactory
from tournaments.models import EventRole, GeneratedFile, Job, Round
from tournaments.selectors.desk import job_watch

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    return EventFactory(name="Club Night", slug="club-night")


@pytest.fixture
def organiser(client, event):
    user = UserFactory()
    EventRole.objects.create(event=event, user=user, role=EventRole.Role.ORGANISER)
    client.force_login(user)
    return user


def state(client, event, version=""):
    response = client.get(reverse("manage-jobs-state", args=[event.slug]), {"v": version})
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    return response.json()


def test_the_version_follows_jobs_documents_and_draws(event, django_assert_max_num_queries):
    with django_assert_max_num_queries(3):
        quiet = job_watch(event=event)
    assert not quiet.running
    job = Job.objects.create(task="tournaments.standings_recompute", event=event, state="queued")
    queued = job_watch(event=event)
    assert queued.running and queued.version != quiet.version
    job.state = "running"
    job.save()
    running = job_watch(event=event)
    assert running.running and running.version not in (quiet.version, queued.version)
    assert job_watch(event=event) == running  # nothing moved: the same version
    job.state = "done"
    job.save()
    assert job_watch(event=event) == quiet
    # a document rendering, table by table
    f = GeneratedFile.objects.create(
        event=event, kind="filled", status="pending", progress={"done": 1, "total": 4}
    )
    first = job_watch(event=event)
    assert first.running
    f.progress = {"done": 2, "total": 4}
    f.save()
    assert job_watch(event=event).version != first.version
    f.status, f.progress = "ok", {}
    f.save()
    assert job_watch(event=event) == quiet
    # a draw's progress moves the version; another event's job does not
    round_ = Round.objects.create(
        event=event, number=1, draw_job_id="abc", draw_job_progress={"stage": "start"}
    )
    drawing = job_watch(event=event).version
    round_.draw_job_progress = {"stage": "search", "step": 5, "steps": 100}
    round_.save()
    assert job_watch(event=event).version != drawing
    Job.objects.create(
        task="tournaments.standings_recompute", event=EventFactory(), state="running"
    )
    assert not job_watch(event=event).running


def test_the_state_answers_staff_only(client, event):
    url = reverse("manage-jobs-state", args=[event.slug])
    assert client.get(url).status_code == 302  # to the login page
    client.force_login(UserFactory())
    assert client.get(url).status_code == 403
    referee = UserFactory()
    EventRole.objects.create(event=event, user=referee, role=EventRole.Role.REFEREE)
    client.force_login(referee)
    assert client.get(url).status_code == 200


def test_the_state_says_whether_the_version_changed(client, organiser, event):
    first = state(client, event)
    assert first["running"] is False
    assert state(client, event, first["version"])["changed"] is False
    Job.objects.create(task="tournaments.round_draw", event=event, args=[1], state="running")
    now = state(client, event, first["version"])
    assert now["running"] is True and now["changed"] is True
    assert now["version"] != first["version"]


PAGES = [
    ("manage", []),
    ("standings-manage", []),
    ("documents-manage", []),
    ("manage-schedule", []),
]


@pytest.mark.parametrize(("name", "args"), PAGES)
def test_staff_pages_follow_a_running_job_and_only_then(client, organiser, event, name, args):
    url = reverse(name, args=[event.slug, *args])
    page = client.get(url).content.decode()
    # the watcher is there (it restores the scroll after a reload) but does not ask
    assert 'id="job-watch"' in page and 'data-running="0"' in page
    assert 'http-equiv="refresh"' not in page
    job = Job.objects.create(task="tournaments.standings_recompute", event=event, state="running")
    page = client.get(url).content.decode()
    assert 'data-running="1"' in page
    assert reverse("manage-jobs-state", args=[event.slug]) in page
    assert f'data-version="{job_watch(event=event).version}"' in page
    # without JavaScript, a plain refresh does it
    assert '<noscript><meta http-equiv="refresh"' in page
    job.state = "done"
    job.save()
    page = client.get(url).content.decode()
    assert 'data-running="0"' in page and 'http-equiv="refresh"' not in page


def test_the_round_page_follows_its_draw(client, organiser, event):
    Round.objects.create(event=event, number=1)
    url = reverse("manage-round", args=[event.slug, 1])
    assert 'data-running="0"' in client.get(url).content.decode()
    Job.objects.create(task="tournaments.round_draw", event=event, args=[1], state="sent")
    assert 'data-running="1"' in client.get(url).content.decode()


def test_the_watchers_words_are_translated(client, organiser, event):
    Job.objects.create(task="tournaments.standings_recompute", event=event, state="running")
    page = client.get("/ru" + reverse("manage", args=[event.slug])).content.decode()
    assert "A background job has moved on" not in page
    assert 'data-reload="Reload"' not in page
