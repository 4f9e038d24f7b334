"""Template tags of Pulka's pages."""

from __future__ import annotations

from django import template

from tournaments import permissions
from tournaments.models import Event

register = template.Library()


@register.filter
def ruling_citation(ruling, event) -> str:
    """A ruling's rule as a reader looks it up: a penalty of the event's rule texts cited from
    its family's seed (``001 §3.8.5.1``; a family without penalties has none), one of the
    event's own penalties by the reference the organiser gave it (``reg. 5``)."""
    from tournaments.models import Ruling
    from tournaments.variants import ui_of_event

    rule = getattr(ruling, "rule", "") or ""
    if not rule or not isinstance(event, Event):
        return rule
    if ruling.kind in (Ruling.Kind.CATALOGUE, Ruling.Kind.ADJUSTED):
        return ui_of_event(event).cite(rule)
    return rule


@register.filter
def penalty_kind(penalty, family) -> str:
    """An event penalty's (or its definition's) kind in the family's words ("Fixed points" in
    a Balkan event, "Fixed whists" in a Russian one)."""
    label = penalty.get_kind_display()
    return family.penalty_kind_name(penalty.kind, label) if family else str(label)


@register.simple_tag
def can_manage(user, event) -> bool:
    """Whether ``user`` may open the event's desk (an organiser or a referee of it)."""
    return isinstance(event, Event) and permissions.can_referee(user, event)
