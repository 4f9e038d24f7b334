"""The archive page (organisers only), the import page (staff), the standings as CSV and an
approved protocol's JSON (public)."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import random

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from tests.factories import UserFactory
from tests.tournaments.standings.factories import make_event, play_round
from tournaments.archive.export import event_archive
from tournaments.models import Event, EventRole, GeneratedFile, Job, Player
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    event, entries = make_event(players=9)
    rng = random.Random(5)
    play_round(event, entries, 1, rng=rng)
    play_round(event, entries, 2, rng=rng, approve=False)
    standings_recompute(event_id=event.pk)
    return event


def _client_of(client, event, role):
    user = UserFactory()
    EventRole.objects.create(event=event, user=user, role=role)
    client.force_login(user)
    return client


def test_the_archive_is_for_organisers_only(client, event):
    url = reverse("manage-archive", args=[event.slug])
    assert client.get(url).status_code == 302  # to the login
    _client_of(client, event, EventRole.Role.CHIEF_REFEREE)
    assert client.get(url).status_code == 403
    assert client.post(url).status_code == 403
    assert not GeneratedFile.objects.filter(kind="archive").exists()


def test_an_archive_is_exported_by_a_job_and_downloaded(
    client, event, django_capture_on_commit_callbacks
):
    """Issue 25, item 12: even a small event's archive is written by a job, never in the
    request (``PULKA_ARCHIVE_INLINE_LIMIT`` is 0 by default)."""
    _client_of(client, event, EventRole.Role.ORGANISER)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        client.post(reverse("manage-archive", args=[event.slug]))
    f = GeneratedFile.objects.get(event=event, kind="archive")
    job = Job.objects.get(task="tournaments.event_archive_export")
    assert f.status == "pending" and not f.file and job.args == [f.pk] and job.state == "queued"
    page = client.get(reverse("manage-archive", args=[event.slug])).content.decode()
    assert 'http-equiv="refresh"' in page  # the page follows the job
    for callback in callbacks:  # the commit hands the job over (eager in the tests: it runs)
        callback()
    f.refresh_from_db()
    job.refresh_from_db()
    assert f.status == "ok" and job.state == "done"
    response = client.get(reverse("manage-archive", args=[event.slug]))
    assert f.filename in response.content.decode()
    assert 'http-equiv="refresh"' not in response.content.decode()
    download = client.get(reverse("document", args=[event.slug, f.pk]))
    document = json.loads(b"".join(download.streaming_content))
    assert document["format"] == "pulka-event-archive" and len(document["players"]) == 9
    assert document["audit_log"][-1]["action"] == "event.exported"
    # and nobody else may download it, even with its address
    client.logout()
    assert client.get(reverse("document", args=[event.slug, f.pk])).status_code == 404
    _client_of(client, event, EventRole.Role.REFEREE)
    assert client.get(reverse("document", args=[event.slug, f.pk])).status_code == 404


def test_a_deployment_may_keep_a_small_inline_limit(client, event, settings):
    settings.PULKA_ARCHIVE_INLINE_LIMIT = 10_000
    _client_of(client, event, EventRole.Role.ORGANISER)
    response = client.post(reverse("manage-archive", args=[event.slug]), follow=True)
    f = GeneratedFile.objects.get(event=event, kind="archive")
    assert f.status == "ok" and f.filename in response.content.decode()
    assert not Job.objects.filter(task="tournaments.event_archive_export").exists()


def test_a_large_event_is_exported_by_a_job(
    client, event, settings, django_capture_on_commit_callbacks
):
    settings.PULKA_ARCHIVE_INLINE_LIMIT = 2  # this event counts as large
    _client_of(client, event, EventRole.Role.ORGANISER)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("manage-archive", args=[event.slug]))
    job = Job.objects.get(task="tournaments.event_archive_export")
    f = GeneratedFile.objects.get(event=event, kind="archive")
    assert job.args == [f.pk] and job.state == "done"  # eager in the tests: sent at the commit, ran
    assert f.status == "ok" and json.loads(f.file.read())["event"]["slug"] == event.slug


def _upload(document, name="a.json"):
    text = document if isinstance(document, bytes) else json.dumps(document).encode()
    return SimpleUploadedFile(name, text, "application/json")


def _uploads(settings):
    folder = settings.MEDIA_ROOT / "imports"
    return sorted(folder.iterdir()) if folder.exists() else []


def test_import_page_queues_a_job_that_makes_the_new_event(
    client, event, settings, django_capture_on_commit_callbacks
):
    """Issue 25, item 12: the upload is checked and stored in the request, the import runs as
    a job; the job's page links the new event."""
    staff = UserFactory(is_staff=True)
    client.force_login(staff)
    document = event_archive(event=event)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = client.post(
            reverse("event-import"), {"archive": _upload(document), "slug": "copied"}
        )
    job = Job.objects.get(task="tournaments.event_archive_import")
    assert response.status_code == 302
    assert response["Location"] == reverse("event-import-job", args=[job.task_id])
    # stored, queued, nothing imported yet
    assert job.state == "queued" and not Event.objects.filter(slug="copied").exists()
    assert len(_uploads(settings)) == 1 and job.args[0].startswith("imports/")
    page = client.get(response["Location"]).content.decode()
    assert "waits for a worker" in page and 'http-equiv="refresh"' in page
    for callback in callbacks:  # the commit sends the job (eager in the tests: it runs)
        callback()
    job.refresh_from_db()
    copied = Event.objects.get(slug="copied")
    assert job.state == "done" and job.result["event"] == copied.pk
    assert EventRole.objects.filter(event=copied, user=staff, role="organiser").exists()
    page = client.get(response["Location"]).content.decode()
    assert f'href="{reverse("manage", args=["copied"])}"' in page
    assert "9 players, 2 rounds" in page and 'http-equiv="refresh"' not in page
    assert _uploads(settings) == []  # the upload is not kept
    # the job's page is for staff
    client.force_login(UserFactory())
    assert client.get(response["Location"]).status_code == 403


@pytest.mark.parametrize(
    "change, expected",
    [
        (lambda d: b"{not json", "not JSON"),
        (lambda d: b"[" * 100_000, "nested too deeply"),
        (lambda d: {**d, "format": "other"}, "$.format"),
        (lambda d: {**d, "version": 7}, "version 7"),
        (lambda d: {**d, "version": "one"}, "$.version"),
    ],
)
def test_a_malformed_archive_is_refused_at_once_naming_the_field(
    client, event, settings, change, expected
):
    client.force_login(UserFactory(is_staff=True))
    document = change(event_archive(event=event))
    response = client.post(reverse("event-import"), {"archive": _upload(document), "slug": "x"})
    assert response.status_code == 400 and expected in response.content.decode()
    assert "Nothing was imported" in response.content.decode()
    assert not Job.objects.exists() and _uploads(settings) == []
    assert not Event.objects.filter(slug="x").exists()


def test_a_taken_or_malformed_short_name_is_refused_at_once(client, event, settings):
    client.force_login(UserFactory(is_staff=True))
    document = event_archive(event=event)
    response = client.post(reverse("event-import"), {"archive": _upload(document)})
    assert response.status_code == 400 and "$.event.slug" in response.content.decode()
    assert "exists already" in response.content.decode()
    for slug in ("not a slug", "x" * 61):
        response = client.post(
            reverse("event-import"), {"archive": _upload(document), "slug": slug}
        )
        assert response.status_code == 400 and "$.event.slug" in response.content.decode()
    assert not Job.objects.exists() and _uploads(settings) == []


def test_a_failed_import_job_imports_nothing_and_shows_the_reason(
    client, event, settings, django_capture_on_commit_callbacks
):
    """Wrong deep inside (a seat of a player the archive does not hold): the cheap check in
    the request passes, the job refuses it, nothing of it is stored."""
    client.force_login(UserFactory(is_staff=True))
    document = event_archive(event=event)
    document["rounds"][0]["tables"][0]["seats"][1]["player"] = 4000
    events, players = Event.objects.count(), Player.objects.count()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("event-import"), {"archive": _upload(document), "slug": "broken"}
        )
    job = Job.objects.get(task="tournaments.event_archive_import")
    assert job.state == "failed" and "$.rounds[0].tables[0].seats[1].player" in job.error
    page = client.get(response["Location"]).content.decode()
    assert "The import failed; nothing was imported." in page
    assert "$.rounds[0].tables[0].seats[1].player" in page and "Traceback" not in page
    assert Event.objects.count() == events and Player.objects.count() == players
    assert _uploads(settings) == []


def test_an_import_job_delivered_twice_imports_once(
    client, event, settings, django_capture_on_commit_callbacks
):
    """A second delivery (a worker lost after the commit, a repeated send) finds the event on
    the job's row and imports nothing again."""
    from tournaments.archive.imports import archive_import_run
    from tournaments.jobs import outbox as jobs

    client.force_login(UserFactory(is_staff=True))
    document = event_archive(event=event)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("event-import"), {"archive": _upload(document), "slug": "once"})
    job = Job.objects.get(task="tournaments.event_archive_import")
    assert job.state == "done"
    events, entries = Event.objects.count(), event.entries.count()
    # the job's body run again (as after a worker lost between its commit and its end)
    again = archive_import_run(task_id=job.task_id)
    assert again["event"] == job.result["event"] and Event.objects.count() == events
    # the message delivered again to the task: skipped, the row unchanged
    Job.objects.filter(pk=job.pk).update(state="sent")
    assert jobs.job_send(job=Job.objects.get(pk=job.pk), resend=True)
    assert Event.objects.filter(slug="once").count() == 1 and Event.objects.count() == events
    assert Event.objects.get(slug="once").entries.count() == entries


def test_an_import_queued_while_the_broker_is_down_runs_when_it_is_back(
    client, event, settings, django_capture_on_commit_callbacks
):
    from tests.conftest import broker_down
    from tournaments.jobs import outbox as jobs

    client.force_login(UserFactory(is_staff=True))
    document = event_archive(event=event)
    with broker_down(), django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("event-import"), {"archive": _upload(document), "slug": "later"}
        )
    assert "job queue cannot be reached" in client.get(response["Location"]).content.decode()
    assert not Event.objects.filter(slug="later").exists()
    with django_capture_on_commit_callbacks(execute=True):
        jobs.jobs_sweep(now=timezone.now() + dt.timedelta(minutes=5))
    assert Event.objects.filter(slug="later").exists()
    assert Job.objects.get(task="tournaments.event_archive_import").state == "done"


def test_the_import_page_says_its_limit_and_the_command_for_larger_archives(
    client, event, settings
):
    """The page takes what the request body limit lets through (MAX_REQUEST_BODY, issue 25
    item 7) and says so before the upload; a larger file is answered 413 naming the limit."""
    settings.MAX_REQUEST_BODY = 20_000
    client.force_login(UserFactory(is_staff=True))
    page = client.get(reverse("event-import")).content.decode()
    assert "At most 19.5\xa0KB through this page" in page and "manage.py archive_import" in page
    document = event_archive(event=event)
    upload = SimpleUploadedFile("big.json", json.dumps(document).encode(), "application/json")
    assert upload.size > 20_000
    response = client.post(reverse("event-import"), {"archive": upload, "slug": "big"})
    assert response.status_code == 413 and "at most 20000 bytes" in response.content.decode()
    assert not Event.objects.filter(slug="big").exists()


def test_import_page_is_for_staff(client, event):
    client.force_login(UserFactory())
    assert client.get(reverse("event-import")).status_code == 403


def test_standings_csv_is_public_and_in_place_order(client, event):
    response = client.get(reverse("standings-csv", args=[event.slug]))
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0][:5] == ["Place", "Player", "Club", "City", "Rounds"]
    assert len(rows) == 10
    assert [r[0] for r in rows[1:]][0] in ("1", "1–2", "1-2")
    names = {e.player.name for e in event.entries.all()}
    assert {r[1] for r in rows[1:]} == names
    event.published = False
    event.save()
    assert client.get(reverse("standings-csv", args=[event.slug])).status_code == 404


def test_an_approved_protocol_is_public_as_json_an_unapproved_one_is_not(client, event):
    approved = reverse("protocol-json", args=[event.slug, 1, 1])
    document = client.get(approved).json()
    assert document["format"] == "pulka-protocol" and len(document["players"]) in (3, 4)
    assert client.get(reverse("protocol-json", args=[event.slug, 2, 1])).status_code == 404


def test_the_import_jobs_page_shows_how_far_a_running_import_has_got(
    client, event, settings, django_capture_on_commit_callbacks
):
    """The import reports a step after each part (each round's protocols one); the page of a
    running job shows the last one reported (kept in the cache: the import's transaction
    holds the job's row)."""
    from tournaments.archive.imports import archive_import_progress

    client.force_login(UserFactory(is_staff=True))
    document = event_archive(event=event)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("event-import"), {"archive": _upload(document), "slug": "steps"}
        )
    job = Job.objects.get(task="tournaments.event_archive_import")
    assert archive_import_progress(job.task_id) == {"done": 8, "total": 8}  # 2 rounds: 6 + 2
    Job.objects.filter(pk=job.pk).update(state="running", result=None)  # as while it ran
    page = client.get(response["Location"]).content.decode()
    assert '<progress value="8" max="8">' in page and "Step 8 of 8" in page


def test_an_import_whose_worker_is_lost_is_sent_again_then_given_up_visibly(
    client, event, settings, django_capture_on_commit_callbacks
):
    """Issue 25, item 11 for the import: a job whose worker stopped is sent again (it is safe
    to run twice); one that lost its worker on every start fails with the reason, imports
    nothing, and its upload is deleted."""
    from tournaments.jobs import outbox as jobs

    client.force_login(UserFactory(is_staff=True))
    document = event_archive(event=event)
    later = timezone.now() + dt.timedelta(minutes=5)
    for slug in ("lost-once", "lost-always"):
        with django_capture_on_commit_callbacks(execute=False):  # never handed to the broker
            client.post(reverse("event-import"), {"archive": _upload(document), "slug": slug})
    once, always = Job.objects.filter(task="tournaments.event_archive_import").order_by("pk")
    stale = timezone.now() - dt.timedelta(hours=1)
    Job.objects.filter(pk=once.pk).update(state="running", heartbeat_at=stale, attempts=1)
    Job.objects.filter(pk=always.pk).update(
        state="running", heartbeat_at=stale, attempts=jobs.MAX_ATTEMPTS
    )
    with django_capture_on_commit_callbacks(execute=True):
        counts = jobs.jobs_sweep(now=later)
    assert counts["lost"] == 1 and counts["failed"] == 1
    once.refresh_from_db()
    always.refresh_from_db()
    assert once.state == "done" and Event.objects.filter(slug="lost-once").exists()
    assert always.state == "failed" and "worker running this job stopped" in always.error
    assert not Event.objects.filter(slug="lost-always").exists()
    assert _uploads(settings) == []
    page = client.get(reverse("event-import-job", args=[always.task_id])).content.decode()
    assert "The import failed; nothing was imported." in page and "stopped" in page
