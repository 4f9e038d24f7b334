"""The archive page (organisers only), the import page (staff), the standings as CSV and an
approved protocol's JSON (public)."""

from __future__ import annotations

import csv
import io
import json
import random

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.factories import UserFactory
from tests.tournaments.standings.factories import make_event, play_round
from tournaments.archive.export import event_archive
from tournaments.models import Event, EventRole, GeneratedFile, Job
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


def test_a_small_event_is_exported_at_once_and_downloaded(client, event):
    _client_of(client, event, EventRole.Role.ORGANISER)
    response = client.post(reverse("manage-archive", args=[event.slug]), follow=True)
    f = GeneratedFile.objects.get(event=event, kind="archive")
    assert f.status == "ok" and f.filename in response.content.decode()
    assert not Job.objects.filter(task="tournaments.event_archive_export").exists()
    download = client.get(reverse("document", args=[event.slug, f.pk]))
    document = json.loads(b"".join(download.streaming_content))
    assert document["format"] == "pulka-event-archive" and len(document["players"]) == 9
    assert document["audit_log"][-1]["action"] == "event.exported"
    # and nobody else may download it, even with its address
    client.logout()
    assert client.get(reverse("document", args=[event.slug, f.pk])).status_code == 404
    _client_of(client, event, EventRole.Role.REFEREE)
    assert client.get(reverse("document", args=[event.slug, f.pk])).status_code == 404


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


def test_import_page_makes_a_new_event_or_says_what_is_wrong(client, event):
    staff = UserFactory(is_staff=True)
    client.force_login(staff)
    document = event_archive(event=event)
    upload = SimpleUploadedFile("a.json", json.dumps(document).encode(), "application/json")
    response = client.post(reverse("event-import"), {"archive": upload, "slug": "copied"})
    copied = Event.objects.get(slug="copied")
    assert response.status_code == 302 and response["Location"].endswith("/e/copied/manage/")
    assert EventRole.objects.filter(event=copied, user=staff, role="organiser").exists()
    document["version"] = 7
    upload = SimpleUploadedFile("b.json", json.dumps(document).encode(), "application/json")
    response = client.post(reverse("event-import"), {"archive": upload, "slug": "newer"})
    assert response.status_code == 400 and "version 7" in response.content.decode()
    assert not Event.objects.filter(slug="newer").exists()


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
