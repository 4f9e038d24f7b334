"""API routes: standings and documents (``/api/v1/events/<slug>/standings``, ``…/documents``)."""

from django.urls import path

from tournaments.api.views import standings as v
from tournaments.views.caching import public_page
from tournaments.web_cache.versions import EVENT, STANDINGS

E = "events/<slug:slug>"

urlpatterns = [
    # an anonymous client's JSON (the whole list or a page) from the cache, without the
    # database (views.caching)
    path(
        f"{E}/standings",
        public_page(EVENT, STANDINGS, query=("page", "page_size"), api=True)(
            v.StandingsListApi.as_view()
        ),
        name="standings",
    ),
    path(f"{E}/standings/status", v.StandingsStatusApi.as_view(), name="standings-status"),
    path(f"{E}/standings/recompute", v.StandingsRecomputeApi.as_view(), name="standings-recompute"),
    path(f"{E}/documents", v.DocumentCreateApi.as_view(), name="documents"),
    path(f"{E}/documents/<int:file_id>", v.DocumentDetailApi.as_view(), name="document"),
]
