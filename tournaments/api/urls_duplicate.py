"""API routes: a duplicate event (``/api/v1/events/<slug>/duplicate``) and its boards."""

from django.urls import path

from tournaments.api.views import duplicate as v

E = "events/<slug:slug>"

urlpatterns = [
    path(f"{E}/duplicate", v.DuplicateApi.as_view(), name="duplicate"),
    path(f"{E}/duplicate/boards/<int:number>", v.DuplicateBoardApi.as_view(), name="duplicate-board"),
]
