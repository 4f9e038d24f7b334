"""API routes: series and persons (issue 39: ``/api/v1/series``, ``/api/v1/persons/<id>``)."""

from django.urls import path

from tournaments.api.views import series as v

urlpatterns = [
    path("series", v.SeriesListApi.as_view(), name="series-list"),
    path("series/<slug:slug>", v.SeriesDetailApi.as_view(), name="series"),
    path("series/<slug:slug>/standings", v.SeriesStandingsApi.as_view(), name="series-standings"),
    path("persons/<int:person_id>", v.PersonDetailApi.as_view(), name="person"),
]
