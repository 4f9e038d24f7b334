"""Per-event permissions (Tabbycat's lesson #131: per event from day one).

A superuser may do everything. Otherwise a user's ``EventRole`` rows in an event decide.
"""

from __future__ import annotations

from tournaments.models import Event, EventRole

Role = EventRole.Role

#: What each permission needs: any of these roles.
ORGANISE = frozenset({Role.ORGANISER})
REFEREE = frozenset({Role.ORGANISER, Role.CHIEF_REFEREE, Role.REFEREE})
CHIEF_REFEREE = frozenset({Role.ORGANISER, Role.CHIEF_REFEREE})
APPEALS = frozenset({Role.ORGANISER, Role.APPEALS})


def has_event_role(user, event: Event, roles: frozenset[str]) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser:
        return True
    return EventRole.objects.filter(event=event, user=user, role__in=roles).exists()


def can_organise(user, event: Event) -> bool:
    return has_event_role(user, event, ORGANISE)


def can_referee(user, event: Event) -> bool:
    return has_event_role(user, event, REFEREE)


def can_chief_referee(user, event: Event) -> bool:
    return has_event_role(user, event, CHIEF_REFEREE)
