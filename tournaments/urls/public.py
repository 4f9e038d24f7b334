"""Public pages: ``/`` and ``/e/<slug>/…`` for published events."""

from django.urls import path

from tournaments.views import public

urlpatterns = [
    path("", public.home, name="home"),
    path("e/<slug:slug>/", public.event_detail, name="event"),
    path("e/<slug:slug>/rounds/<int:number>/", public.round_seating, name="round-seating"),
]
