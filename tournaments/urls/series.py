"""Leagues and cups (issue 39, see tournaments/urls/__init__.py): public under ``/s/<slug>/``
and ``/people/<id>/``, organisers under ``/o/<slug>/``, ``/s/<slug>/manage/`` and
``/e/<slug>/manage/persons/``."""

from django.urls import path

from tournaments.views import organisations as orgs
from tournaments.views import persons as people
from tournaments.views import series as v
from tournaments.views import series_archive as archive

urlpatterns = [
    path("s/<slug:slug>/", v.series_page, name="series"),
    path("s/<slug:slug>/standings.csv", v.series_csv, name="series-csv"),
    path("s/<slug:slug>/standings.pdf", v.series_pdf, name="series-pdf"),
    path("s/<slug:slug>/manage/", v.series_manage, name="series-manage"),
    path("s/<slug:slug>/manage/archive/", archive.series_archive_page, name="series-archive"),
    path(
        "s/<slug:slug>/manage/archive/<str:task_id>/archive.json",
        archive.series_archive_download,
        name="series-archive-file",
    ),
    path("s/<slug:slug>/manage/archive.json", archive.series_archive_old_address),
    path("people/<int:person_id>/", v.person_page, name="person"),
    path("people/<int:person_id>/manage/", people.person_manage, name="person-manage"),
    path("people/<int:person_id>/export.json", people.person_export, name="person-export"),
    path("manage/new-organisation/", orgs.organisation_new, name="organisation-new"),
    path("o/<slug:slug>/", v.organisation_page, name="organisation"),
    path("o/<slug:slug>/settings/", orgs.organisation_settings, name="organisation-settings"),
    path("o/<slug:slug>/staff/", orgs.organisation_staff, name="organisation-staff"),
    path("o/<slug:slug>/log/", orgs.organisation_log, name="organisation-log"),
    path("o/<slug:slug>/persons/merge/", v.persons_merge, name="persons-merge"),
    path("o/<slug:slug>/events/new/", v.organisation_event_new, name="organisation-event-new"),
    path(
        "o/<slug:slug>/import-series/",
        archive.organisation_import_series,
        name="organisation-import-series",
    ),
    path(
        "o/<slug:slug>/import-series/<str:task_id>/",
        archive.organisation_import_series_job,
        name="organisation-import-series-job",
    ),
    path("e/<slug:slug>/manage/persons/", v.event_persons, name="event-persons"),
]
