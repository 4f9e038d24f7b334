"""Organisers' and referees' pages: ``/e/<slug>/manage/…`` and ``/manage/new-event/``."""

from django.urls import path

from tournaments.views import jobs, organiser_rounds, organiser_teams
from tournaments.views import organiser as v

urlpatterns = [
    path("manage/new-event/", v.event_new, name="event-new"),
    path("e/<slug:slug>/manage/", v.dashboard, name="manage"),
    path("e/<slug:slug>/manage/settings/", v.event_settings, name="manage-settings"),
    path("e/<slug:slug>/manage/entries/", v.entries, name="manage-entries"),
    path("e/<slug:slug>/manage/entries/import/", v.entries_import, name="manage-entries-import"),
    path(
        "e/<slug:slug>/manage/entries/check-in-all/",
        v.entries_check_in_all,
        name="manage-entries-check-in-all",
    ),
    path("e/<slug:slug>/manage/constraints/", v.constraints, name="manage-constraints"),
    path("e/<slug:slug>/manage/teams/", organiser_teams.teams, name="manage-teams"),
    path("e/<slug:slug>/manage/staff/", v.staff, name="manage-staff"),
    path("e/<slug:slug>/manage/schedule/", v.schedule, name="manage-schedule"),
    path("e/<slug:slug>/manage/jobs/state", jobs.jobs_state, name="manage-jobs-state"),
    path(
        "e/<slug:slug>/manage/entries/<int:entry_id>/edit/",
        v.entry_edit,
        name="manage-entry-edit",
    ),
    path(
        "e/<slug:slug>/manage/entries/<int:entry_id>/<str:action>/",
        v.entry_action,
        name="manage-entry-action",
    ),
    path("e/<slug:slug>/manage/rounds/new/", organiser_rounds.round_new, name="manage-round-new"),
    path(
        "e/<slug:slug>/manage/rounds/<int:number>/",
        organiser_rounds.round_detail,
        name="manage-round",
    ),
    path(
        "e/<slug:slug>/manage/rounds/<int:number>/<str:action>/",
        organiser_rounds.round_action,
        name="manage-round-action",
    ),
    path("e/<slug:slug>/manage/log/", v.audit, name="manage-log"),
    path("e/<slug:slug>/manage/log/export/", v.audit_export, name="manage-log-export"),
]
