"""Per-event API permissions: the event comes from the ``slug`` URL kwarg."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from rest_framework.permissions import BasePermission

from tournaments.access import permissions
from tournaments.models import Event


def event_from(view) -> Event:
    if not hasattr(view, "_event"):
        view._event = get_object_or_404(Event, slug=view.kwargs["slug"])
    return view._event


class EventVisible(BasePermission):
    """Published events are public; unpublished ones only for their staff."""

    def has_permission(self, request, view):
        event = event_from(view)
        return event.published or permissions.can_referee(request.user, event)


class EventOrganiser(BasePermission):
    def has_permission(self, request, view):
        return permissions.can_organise(request.user, event_from(view))


class EventReferee(BasePermission):
    def has_permission(self, request, view):
        return permissions.can_referee(request.user, event_from(view))


class EventChiefReferee(BasePermission):
    """Organisers and chief referees (who read the event's log)."""

    def has_permission(self, request, view):
        return permissions.can_chief_referee(request.user, event_from(view))
