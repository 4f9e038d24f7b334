"""Ratings (issue 41, see tournaments/urls/__init__.py): public under ``/ratings/``, the
organiser's switch under ``/e/<slug>/manage/rating/``."""

from django.urls import path

from tournaments.views import ratings as v

urlpatterns = [
    path("ratings/", v.ratings_index, name="ratings"),
    path("ratings/<slug:slug>/", v.rating_page, name="rating"),
    path("ratings/<slug:slug>/ratings.csv", v.rating_csv, name="rating-csv"),
    path("ratings/<slug:slug>/people/<int:person_id>/", v.rating_person, name="rating-person"),
    path("ratings/<slug:slug>/events/<slug:event_slug>/", v.rating_event, name="rating-event"),
    path("e/<slug:slug>/manage/rating/", v.event_rating_manage, name="event-rating-manage"),
]
