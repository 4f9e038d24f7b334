"""API routes: events, entries, rounds, draws, background jobs."""

from django.urls import path

from tournaments.api.views import audit
from tournaments.api.views import events as v

E = "events/<slug:slug>/"

urlpatterns = [
    path("events/", v.EventListApi.as_view(), name="event-list"),
    path(E, v.EventDetailApi.as_view(), name="event-detail"),
    path(E + "log", audit.AuditLogApi.as_view(), name="audit-log"),
    path(E + "entries/", v.EntryListApi.as_view(), name="entry-list"),
    path(E + "entries/register", v.EntryRegisterApi.as_view(), name="entry-register"),
    path(E + "entries/import", v.EntryImportApi.as_view(), name="entry-import"),
    path(E + "rounds/", v.RoundListApi.as_view(), name="round-list"),
    path(E + "rounds/ahead", v.RoundsAheadApi.as_view(), name="rounds-ahead"),
    path(E + "rounds/commitments", v.SeedCommitmentsApi.as_view(), name="rounds-commitments"),
    path(E + "rounds/<int:number>/", v.RoundDetailApi.as_view(), name="round-detail"),
    path(E + "rounds/<int:number>/draw", v.RoundDrawApi.as_view(), name="round-draw"),
    path(
        E + "rounds/<int:number>/draw-record", v.DrawRecordApi.as_view(), name="round-draw-record"
    ),
    path(
        E + "rounds/<int:number>/draw-report", v.DrawReportApi.as_view(), name="round-draw-report"
    ),
    path(E + "rounds/<int:number>/publish", v.RoundPublishApi.as_view(), name="round-publish"),
    path(
        E + "rounds/<int:number>/commit-seed",
        v.RoundCommitSeedApi.as_view(),
        name="round-commit-seed",
    ),
    path(E + "constraints/", v.ConstraintsApi.as_view(), name="constraints"),
    path(E + "constraints/apart", v.ApartAddApi.as_view(), name="constraints-apart"),
    path(
        E + "constraints/apart/<int:pair_id>",
        v.ApartRemoveApi.as_view(),
        name="constraints-apart-remove",
    ),
    path(E + "constraints/fixed-table", v.FixedTableApi.as_view(), name="constraints-fixed-table"),
    path("jobs/<str:job_id>", v.JobStatusApi.as_view(), name="job-status"),
]
