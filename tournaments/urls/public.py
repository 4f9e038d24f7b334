"""Public pages: ``/`` and ``/e/<slug>/…`` for published events."""

from django.urls import path

from tournaments.views import public

urlpatterns = [
    path("", public.home, name="home"),
]
