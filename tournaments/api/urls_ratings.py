"""API routes: ratings (issue 41: ``/api/v1/ratings``)."""

from django.urls import path

from tournaments.api.views import ratings as v

urlpatterns = [
    path("ratings", v.RatingListsApi.as_view(), name="ratings-list"),
    path("ratings/<slug:slug>", v.RatingListApi.as_view(), name="rating"),
    path(
        "ratings/<slug:slug>/persons/<int:person_id>",
        v.RatingPersonApi.as_view(),
        name="rating-person",
    ),
    path(
        "ratings/<slug:slug>/events/<slug:event_slug>",
        v.RatingEventApi.as_view(),
        name="rating-event",
    ),
]
