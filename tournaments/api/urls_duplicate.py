"""API routes: a duplicate event (``/api/v1/events/<slug>/duplicate``) and its boards."""

from django.urls import path

from tournaments.api.views import duplicate as v
from tournaments.views.caching import public_page
from tournaments.web_cache.versions import DUPLICATE, EVENT

E = "events/<slug:slug>"

urlpatterns = [
    # served from the page cache to anonymous readers, as the standings API (docs/page-cache.md)
    path(
        f"{E}/duplicate",
        public_page(EVENT, DUPLICATE, api=True)(v.DuplicateApi.as_view()),
        name="duplicate",
    ),
    path(
        f"{E}/duplicate/boards/<int:number>",
        public_page(EVENT, DUPLICATE, api=True)(v.DuplicateBoardApi.as_view()),
        name="duplicate-board",
    ),
    path(
        "events/<slug:slug>/rounds/<int:number>/tables/<int:table_number>/boards/<int:board>",
        v.DuplicateBoardResultApi.as_view(),
        name="duplicate-board-result",
    ),
]
