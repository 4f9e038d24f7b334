"""Template tags of Pulka's pages."""

from __future__ import annotations

from django import template

from tournaments import permissions
from tournaments.models import Event

register = template.Library()


@register.simple_tag
def can_manage(user, event) -> bool:
    """Whether ``user`` may open the event's desk (an organiser or a referee of it)."""
    return isinstance(event, Event) and permissions.can_referee(user, event)
