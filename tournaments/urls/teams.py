"""A team event's public pages (issue 40): ``/e/<slug>/teams/`` and its CSV."""

from django.urls import path

from tournaments.views import teams as v

urlpatterns = [
    path("e/<slug:slug>/teams/", v.team_standings, name="team-standings"),
    path("e/<slug:slug>/teams.csv", v.team_standings_csv, name="team-standings-csv"),
]
