"""``/api/v1/`` routes."""

from django.urls import include, path

app_name = "api"

urlpatterns: list = [
    path("", include("tournaments.api.urls_events")),
    path("", include("tournaments.api.urls_protocols")),
    path("", include("tournaments.api.urls_standings")),
    path("", include("tournaments.api.urls_series")),
    path("", include("tournaments.api.urls_ratings")),
    path("", include("tournaments.api.urls_teams")),
    path("", include("tournaments.api.urls_duplicate")),
]
