"""Private links: ``/p/<key>/`` for a player (tables have ``/t/<key>/`` in protocols)."""

from django.urls import path

from tournaments.views import private

urlpatterns = [
    path("p/<str:key>/", private.player_home, name="player-home"),
]
