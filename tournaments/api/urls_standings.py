"""API routes: standings and documents (``/api/v1/events/<slug>/standings``, ``…/documents``)."""

from django.urls import path

from tournaments.api.views import standings as v

E = "events/<slug:slug>"

urlpatterns = [
    path(f"{E}/standings", v.StandingsListApi.as_view(), name="standings"),
    path(f"{E}/standings/status", v.StandingsStatusApi.as_view(), name="standings-status"),
    path(f"{E}/standings/recompute", v.StandingsRecomputeApi.as_view(), name="standings-recompute"),
    path(f"{E}/documents", v.DocumentCreateApi.as_view(), name="documents"),
    path(f"{E}/documents/<int:file_id>", v.DocumentDetailApi.as_view(), name="document"),
]
