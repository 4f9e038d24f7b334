"""API routes: events, entries, rounds, draws, background jobs."""

from django.urls import path

from tournaments.api.views import audit, constraints, draw_reports, jobs, rounds
from tournaments.api.views import events as v

E = "events/<slug:slug>/"

urlpatterns = [
    path("events/", v.EventListApi.as_view(), name="event-list"),
    path(E, v.EventDetailApi.as_view(), name="event-detail"),
    path(E + "log", audit.AuditLogApi.as_view(), name="audit-log"),
    path(E + "entries/", v.EntryListApi.as_view(), name="entry-list"),
    path(E + "entries/register", v.EntryRegisterApi.as_view(), name="entry-register"),
    path(E + "entries/import", v.EntryImportApi.as_view(), name="entry-import"),
    path(E + "rounds/", rounds.RoundListApi.as_view(), name="round-list"),
    path(E + "rounds/ahead", rounds.RoundsAheadApi.as_view(), name="rounds-ahead"),
    path(E + "rounds/commitments", rounds.SeedCommitmentsApi.as_view(), name="rounds-commitments"),
    path(E + "rounds/<int:number>/", rounds.RoundDetailApi.as_view(), name="round-detail"),
    path(E + "rounds/<int:number>/draw", rounds.RoundDrawApi.as_view(), name="round-draw"),
    path(
        E + "rounds/<int:number>/draw-record",
        draw_reports.DrawRecordApi.as_view(),
        name="round-draw-record",
    ),
    path(
        E + "rounds/<int:number>/draw-report",
        draw_reports.DrawReportApi.as_view(),
        name="round-draw-report",
    ),
    path(E + "rounds/<int:number>/publish", rounds.RoundPublishApi.as_view(), name="round-publish"),
    path(
        E + "rounds/<int:number>/commit-seed",
        rounds.RoundCommitSeedApi.as_view(),
        name="round-commit-seed",
    ),
    path(E + "constraints/", constraints.ConstraintsApi.as_view(), name="constraints"),
    path(E + "constraints/apart", constraints.ApartAddApi.as_view(), name="constraints-apart"),
    path(
        E + "constraints/apart/<int:pair_id>",
        constraints.ApartRemoveApi.as_view(),
        name="constraints-apart-remove",
    ),
    path(
        E + "constraints/fixed-table",
        constraints.FixedTableApi.as_view(),
        name="constraints-fixed-table",
    ),
    path("jobs/<str:job_id>", jobs.JobStatusApi.as_view(), name="job-status"),
]
