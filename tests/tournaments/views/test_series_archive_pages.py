"""A series' archive from Pulka's own pages (issue 39): its organisers export it by a job on the
series' archive page and download the file there when it is written; an organisation's
organisers upload one, imported by a job as a new series of theirs (a person matched by his
federation id) whose page shows the new series, or why nothing was imported naming the place
at fault; nobody else does either; the pages' words in every language. Jobs run eagerly in the
tests, when the commit hands them over."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone, translation

from tests.factories import UserFactory
from tests.tournaments.archive.test_series_archive import (  # noqa: F401
    computed,
    league_season,
    table,
)
from tournaments.archive.series import series_archive
from tournaments.archive.series_jobs import EXPORT_TASK, EXPORTS_KEPT, IMPORT_TASK
from tournaments.models import Event, Job, Organisation, OrganisationRole, Person, Series

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


def organiser_of(organisation: Organisation):
    user = UserFactory()
    OrganisationRole.objects.create(organisation=organisation, user=user, role="organiser")
    return user


def upload(data: bytes, name: str = "liga.json") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="application/json")


def stored(media, folder: str) -> list:
    where = media / folder
    return sorted(where.iterdir()) if where.exists() else []


@pytest.fixture
def series(client, league_season):  # noqa: F811
    """The league's series, an organiser of its organisation logged in."""
    client.force_login(organiser_of(league_season.organisation))
    return league_season


def exported(client, series, capture) -> Job:
    """Export the series' archive on its page, the job run at the commit."""
    with capture(execute=True):
        response = client.post(reverse("series-archive", args=[series.slug]))
    assert response.status_code == 302
    return Job.objects.filter(task=EXPORT_TASK).order_by("-pk").first()


def import_posted(client, organisation, data: bytes, slug: str, suffix: str, capture):
    """Upload ``data`` on the organisation's import page, the job run at the commit."""
    with capture(execute=True):
        return client.post(
            reverse("organisation-import-series", args=[organisation.slug]),
            {"archive": upload(data), "slug": slug, "event_suffix": suffix},
        )


def test_the_archive_is_exported_by_a_job_and_downloaded_when_written(
    client,
    league_season,  # noqa: F811
    media,
    django_capture_on_commit_callbacks,
):
    series = league_season
    organiser = organiser_of(series.organisation)
    client.force_login(organiser)
    manage = client.get(reverse("series-manage", args=[series.slug])).content.decode()
    assert f'href="{reverse("series-archive", args=[series.slug])}"' in manage
    page_url = reverse("series-archive", args=[series.slug])
    assert "No archive yet." in client.get(page_url).content.decode()

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = client.post(page_url)
    assert response.status_code == 302 and response["Location"] == page_url
    job = Job.objects.get(task=EXPORT_TASK)
    # queued, nothing written in the request
    assert job.state == "queued" and job.result is None and stored(media, "series-archives") == []
    page = client.get(page_url).content.decode()
    assert 'http-equiv="refresh"' in page and "archive.json" not in page
    for callback in callbacks:  # the commit hands the job over (eager in the tests: it runs)
        callback()
    job.refresh_from_db()
    assert job.state == "done" and job.result["filename"].startswith("liga-series-archive-")
    assert len(stored(media, "series-archives")) == 1
    page = client.get(page_url).content.decode()
    file_url = reverse("series-archive-file", args=[series.slug, job.task_id])
    assert f'href="{file_url}"' in page and job.result["filename"] in page
    assert 'http-equiv="refresh"' not in page
    download = client.get(file_url)
    assert download.status_code == 200
    assert download["Content-Disposition"].startswith('attachment; filename="liga-series-archive-')
    document = json.loads(b"".join(download.streaming_content))
    assert document["format"] == "pulka-series-archive" and len(document["events"]) == 2
    assert document["exported_by"] == organiser.get_username()

    # the old download address leads to the page
    old = client.get(f"/s/{series.slug}/manage/archive.json")
    assert old.status_code == 302 and old["Location"] == page_url
    # nobody else downloads it, even with its address; an unknown job is not found
    client.force_login(UserFactory())
    assert client.get(file_url).status_code == 403
    client.logout()
    assert client.get(file_url).status_code == 302  # to the login
    client.force_login(organiser_of(series.organisation))
    assert client.get(reverse("series-archive-file", args=[series.slug, "nope"])).status_code == 404


def test_a_large_series_is_exported_too_without_a_limit_on_the_page(
    client,
    series,
    settings,
    django_capture_on_commit_callbacks,
):
    """The page no longer refuses a series by its size: the job writes any."""
    settings.PULKA_SERIES_ARCHIVE_WEB_LIMIT = 1  # the old setting is read no more
    job = exported(client, series, django_capture_on_commit_callbacks)
    assert job.state == "done"
    file_url = reverse("series-archive-file", args=[series.slug, job.task_id])
    document = json.loads(b"".join(client.get(file_url).streaming_content))
    assert len(document["events"]) == 2


def test_only_the_newest_archives_are_kept(
    client,
    series,
    media,
    django_capture_on_commit_callbacks,
):
    jobs = [exported(client, series, django_capture_on_commit_callbacks) for _ in range(4)]
    assert len(stored(media, "series-archives")) == EXPORTS_KEPT
    first = reverse("series-archive-file", args=[series.slug, jobs[0].task_id])
    last = reverse("series-archive-file", args=[series.slug, jobs[-1].task_id])
    assert client.get(first).status_code == 404 and client.get(last).status_code == 200


def test_an_upload_is_imported_by_a_job_whose_page_shows_the_new_series(
    client,
    league_season,  # noqa: F811
    media,
    django_capture_on_commit_callbacks,
):
    series = league_season
    data = json.dumps(series_archive(series=series)).encode()
    club = Organisation.objects.create(slug="klub", name="Šahovski klub")
    client.force_login(organiser_of(club))
    page = client.get(reverse("organisation", args=["klub"])).content.decode()
    assert reverse("organisation-import-series", args=["klub"]) in page
    persons_before = Person.objects.count()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = client.post(
            reverse("organisation-import-series", args=["klub"]),
            {"archive": upload(data), "slug": "liga-kopija", "event_suffix": "-k"},
        )
    job = Job.objects.get(task=IMPORT_TASK)
    assert response.status_code == 302
    assert response["Location"] == reverse(
        "organisation-import-series-job", args=["klub", job.task_id]
    )
    # checked, stored, queued: nothing imported yet
    assert job.state == "queued" and not Series.objects.filter(slug="liga-kopija").exists()
    assert len(stored(media, "imports")) == 1 and job.args[0].startswith("imports/")
    page = client.get(response["Location"]).content.decode()
    assert "waits for a worker" in page and 'http-equiv="refresh"' in page
    for callback in callbacks:  # the commit sends the job (eager in the tests: it runs)
        callback()
    job.refresh_from_db()
    copy = Series.objects.get(slug="liga-kopija")
    assert job.state == "done" and job.result["series"] == copy.pk
    page = client.get(response["Location"]).content.decode()
    assert f'href="{reverse("series-manage", args=["liga-kopija"])}"' in page
    assert "2 events, 6 persons" in page and 'http-equiv="refresh"' not in page
    assert stored(media, "imports") == []  # the upload is not kept
    assert copy.organisation == club
    assert set(copy.events.values_list("organisation_id", flat=True)) == {club.pk}
    assert sorted(copy.events.values_list("slug", flat=True)) == ["vecer-1-k", "vecer-2-k"]
    # the persons with a federation id are the same persons, the others new ones
    assert Person.objects.count() == persons_before + 3
    computed(copy)
    assert table(copy) == table(series)


def test_a_bad_archive_is_refused_at_once_naming_the_place(
    client,
    series,
    media,
):
    """What costs little is checked in the request: nothing stored, no job."""
    document = series_archive(series=series)
    url = reverse("organisation-import-series", args=[series.organisation.slug])
    events_before, series_before = Event.objects.count(), Series.objects.count()

    taken = client.post(url, {"archive": upload(json.dumps(document).encode())})
    assert taken.status_code == 400
    assert "$.series.slug" in taken.content.decode() and "liga" in taken.content.decode()
    not_json = client.post(url, {"archive": upload(b"{nope")})
    assert not_json.status_code == 400 and "not JSON" in not_json.content.decode()
    assert "Nothing was imported." in not_json.content.decode()
    other = client.post(url, {"archive": upload(json.dumps({"format": "x"}).encode())})
    assert other.status_code == 400 and "$.format" in other.content.decode()
    newer = client.post(
        url, {"archive": upload(json.dumps({**document, "version": 9}).encode()), "slug": "n"}
    )
    assert newer.status_code == 400 and "$.version" in newer.content.decode()
    bad_slug = client.post(url, {"archive": upload(b"{}"), "slug": "a b"})
    assert bad_slug.status_code == 400 and "$.series.slug" in bad_slug.content.decode()
    missing = client.post(url, {})
    assert missing.status_code == 400 and "Choose the archive file" in missing.content.decode()
    assert not Job.objects.filter(task=IMPORT_TASK).exists() and stored(media, "imports") == []
    assert (Event.objects.count(), Series.objects.count()) == (events_before, series_before)


def test_the_upload_is_bounded_by_the_request_body_limit_the_page_says(
    client,
    series,
    settings,
):
    """The upload's limit stays (``MAX_REQUEST_BODY``, said on the page before the upload; a
    larger file is answered 413 naming it); the download has none."""
    settings.MAX_REQUEST_BODY = 10_000
    url = reverse("organisation-import-series", args=[series.organisation.slug])
    page = client.get(url).content.decode()
    assert "At most 9.8\xa0KB through this page" in page and "manage.py archive_import" in page
    data = json.dumps(series_archive(series=series)).encode()
    assert len(data) > 10_000
    refused = client.post(url, {"archive": upload(data), "slug": "velika", "event_suffix": "-v"})
    assert refused.status_code == 413 and "at most 10000 bytes" in refused.content.decode()
    assert not Job.objects.filter(task=IMPORT_TASK).exists()
    assert not Series.objects.filter(slug="velika").exists()


def test_a_file_wrong_deep_inside_fails_in_the_job_naming_the_field_nothing_imported(
    client,
    series,
    media,
    django_capture_on_commit_callbacks,
):
    document = series_archive(series=series)
    document["events"][1]["archive"]["players"][0]["name"] = 7
    counts = (Event.objects.count(), Series.objects.count(), Person.objects.count())
    response = import_posted(
        client,
        series.organisation,
        json.dumps(document).encode(),
        "nova",
        "-n",
        django_capture_on_commit_callbacks,
    )
    job = Job.objects.get(task=IMPORT_TASK)
    assert job.state == "failed" and "$.events[1].archive.players[0].name" in job.error
    page = client.get(response["Location"]).content.decode()
    assert "The import failed; nothing was imported." in page
    assert "$.events[1].archive.players[0].name" in page and "Traceback" not in page
    assert 'http-equiv="refresh"' not in page
    assert reverse("organisation-import-series", args=[series.organisation.slug]) in page
    assert (Event.objects.count(), Series.objects.count(), Person.objects.count()) == counts
    assert not Series.objects.filter(slug="nova").exists()
    assert stored(media, "imports") == []


def test_an_import_job_delivered_twice_imports_once(
    client,
    series,
    django_capture_on_commit_callbacks,
):
    from tournaments.archive.series_jobs import series_archive_import_run  # the job's body

    data = json.dumps(series_archive(series=series)).encode()
    import_posted(
        client, series.organisation, data, "jednom", "-j", django_capture_on_commit_callbacks
    )
    job = Job.objects.get(task=IMPORT_TASK)
    events = Event.objects.count()
    assert series_archive_import_run(task_id=job.task_id) == job.result
    assert Event.objects.count() == events and Series.objects.filter(slug="jednom").count() == 1


def test_a_failed_export_says_why_on_the_page(
    client,
    series,
    monkeypatch,
    django_capture_on_commit_callbacks,
):
    from tournaments.archive import series_jobs  # the job's body, made to fail

    def broken(**kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(series_jobs, "series_archive_json", broken)
    job = exported(client, series, django_capture_on_commit_callbacks)
    assert job.state == "failed" and job.result is None
    page = client.get(reverse("series-archive", args=[series.slug])).content.decode()
    assert "disk full" in page and "Traceback" not in page
    assert 'http-equiv="refresh"' not in page and "archive.json" not in page
    file_url = reverse("series-archive-file", args=[series.slug, job.task_id])
    assert client.get(file_url).status_code == 404


def test_an_import_whose_worker_is_lost_is_sent_again_then_given_up_visibly(
    client,
    series,
    media,
    django_capture_on_commit_callbacks,
):
    """A job whose worker stopped is sent again (it is safe to run twice); one that lost its
    worker on every start fails with the reason, imports nothing, and its upload is deleted."""
    from tournaments.jobs import outbox as jobs  # the sweep, as Celery beat runs it

    data = json.dumps(series_archive(series=series)).encode()
    url = reverse("organisation-import-series", args=[series.organisation.slug])
    for slug in ("lost-once", "lost-always"):
        with django_capture_on_commit_callbacks(execute=False):  # never handed to the broker
            client.post(url, {"archive": upload(data), "slug": slug, "event_suffix": f"-{slug}"})
    once, always = Job.objects.filter(task=IMPORT_TASK).order_by("pk")
    stale = timezone.now() - dt.timedelta(hours=1)
    Job.objects.filter(pk=once.pk).update(state="running", heartbeat_at=stale, attempts=1)
    Job.objects.filter(pk=always.pk).update(
        state="running", heartbeat_at=stale, attempts=jobs.MAX_ATTEMPTS
    )
    with django_capture_on_commit_callbacks(execute=True):
        counts = jobs.jobs_sweep(now=timezone.now() + dt.timedelta(minutes=5))
    assert counts["lost"] == 1 and counts["failed"] == 1
    once.refresh_from_db()
    always.refresh_from_db()
    assert once.state == "done" and Series.objects.filter(slug="lost-once").exists()
    assert always.state == "failed" and "worker running this job stopped" in always.error
    assert not Series.objects.filter(slug="lost-always").exists()
    assert stored(media, "imports") == []
    page = client.get(
        reverse("organisation-import-series-job", args=[series.organisation.slug, always.task_id])
    ).content.decode()
    assert "The import failed; nothing was imported." in page and "stopped" in page


def test_only_the_organisations_organisers_export_download_or_import(
    client,
    league_season,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    series = league_season
    organiser = organiser_of(series.organisation)
    client.force_login(organiser)
    job = exported(client, series, django_capture_on_commit_callbacks)
    data = json.dumps(series_archive(series=series)).encode()
    imported = import_posted(
        client, series.organisation, data, "druga", "-d", django_capture_on_commit_callbacks
    )
    urls = [
        reverse("series-archive", args=[series.slug]),
        reverse("series-archive-file", args=[series.slug, job.task_id]),
        reverse("organisation-import-series", args=[series.organisation.slug]),
        imported["Location"],
    ]
    client.logout()
    assert [client.get(url).status_code for url in urls] == [302] * 4  # to the login
    client.force_login(UserFactory())
    assert [client.get(url).status_code for url in urls] == [403] * 4
    assert client.post(urls[0]).status_code == 403
    assert client.post(urls[2], {"archive": upload(b"{}")}).status_code == 403
    # another organisation's organisers do not see this one's import
    other = Organisation.objects.create(slug="drugi", name="Drugi klub")
    client.force_login(organiser_of(other))
    task_id = imported["Location"].rstrip("/").rsplit("/", 1)[1]
    elsewhere = reverse("organisation-import-series-job", args=["drugi", task_id])
    assert client.get(elsewhere).status_code == 404
    assert Job.objects.filter(task=EXPORT_TASK).count() == 1


@pytest.mark.parametrize(
    "language, words",
    [
        ("hr", "Uvezi"),
        ("sr-latn", "Uvezi"),
        ("ru", "Импорт"),
        ("de", "Import"),
        ("sv", "Importera"),
    ],
)
def test_the_archive_pages_in_every_language(
    client,
    series,
    language,
    words,
    django_capture_on_commit_callbacks,
):
    document = series_archive(series=series)
    document["events"][0]["archive"]["players"][0]["name"] = 7
    with translation.override("en"):  # the paths without a language
        import_url = reverse("organisation-import-series", args=[series.organisation.slug])
        manage_url = reverse("series-manage", args=[series.slug])
        archive_url = reverse("series-archive", args=[series.slug])
    with django_capture_on_commit_callbacks(execute=True):
        failed = client.post(
            f"/{language}{import_url}",
            {"archive": upload(json.dumps(document).encode()), "slug": "x", "event_suffix": "-x"},
        )
    job = Job.objects.get(task=IMPORT_TASK)
    with translation.override("en"):
        job_url = reverse(
            "organisation-import-series-job", args=[series.organisation.slug, job.task_id]
        )
    page = client.get(f"/{language}{import_url}").content.decode()
    manage = client.get(f"/{language}{manage_url}").content.decode()
    archive = client.get(f"/{language}{archive_url}").content.decode()
    failed_page = client.get(f"/{language}{job_url}").content.decode()
    assert failed.status_code == 302
    with translation.override(language):
        heading = translation.gettext("Import a series from its archive")
        link = translation.gettext("Export and download the series' archive (.json)")
        title = translation.gettext("The series' archive")
        nothing = translation.gettext("The import failed; nothing was imported.")
    assert heading != "Import a series from its archive" and heading in page
    assert words in page
    assert link != "Export and download the series' archive (.json)"
    assert link.replace("'", "&#x27;") in manage
    assert title != "The series' archive" and title.replace("'", "&#x27;") in archive
    assert nothing in failed_page and "$.events[0].archive.players[0].name" in failed_page
