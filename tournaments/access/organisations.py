"""Per-organisation permissions (issue 39): an organisation's organisers write its series and
the persons of its events, as an event's organisers write the event. A superuser may do
everything."""

from __future__ import annotations

from tournaments.models import EventRole, Organisation, OrganisationRole, Person, Series

__all__ = ["can_organise_organisation", "can_organise_series", "can_edit_person"]


def can_organise_organisation(user, organisation: Organisation) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser:
        return True
    return OrganisationRole.objects.filter(
        organisation=organisation, user=user, role=OrganisationRole.Role.ORGANISER
    ).exists()


def can_organise_series(user, series: Series) -> bool:
    return can_organise_organisation(user, series.organisation)


def can_edit_person(user, person: Person) -> bool:
    """An organiser of an event the person entered, or of an organisation that runs one."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser:
        return True
    events = person.entries.values("event_id")
    return (
        EventRole.objects.filter(
            user=user, role=EventRole.Role.ORGANISER, event_id__in=events
        ).exists()
        or OrganisationRole.objects.filter(
            user=user,
            role=OrganisationRole.Role.ORGANISER,
            organisation__events__in=events,
        ).exists()
    )
