"""API routes: a team event's team standings (``/api/v1/events/<slug>/team-standings``)."""

from django.urls import path

from tournaments.api.views import teams as v
from tournaments.views.caching import public_page
from tournaments.web_cache.versions import EVENT, STANDINGS

E = "events/<slug:slug>"

urlpatterns = [
    path(
        f"{E}/team-standings",
        public_page(EVENT, STANDINGS, api=True)(v.TeamStandingsApi.as_view()),
        name="team-standings",
    ),
]
