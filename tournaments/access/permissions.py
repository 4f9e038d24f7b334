"""Per-event permissions (Tabbycat's lesson #131: per event from day one).

A superuser may do everything. Otherwise a user's ``EventRole`` rows in an event decide.
"""

from __future__ import annotations

from tournaments.models import Event, EventRole, GeneratedFile

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


Kind = GeneratedFile.Kind

#: documents anyone who sees the event may download
PUBLIC_DOCUMENTS = frozenset(
    {Kind.SEATING, Kind.STANDINGS, Kind.FILLED_PROTOCOL, Kind.EVENT_PROTOCOLS}
)
#: documents only organisers may ask for and download: each player's private link, the
#: event's full archive
ORGANISER_DOCUMENTS = frozenset({Kind.PLAYER_LINKS, Kind.ARCHIVE})


def readable_documents(user, event: Event) -> frozenset[str]:
    """The kinds of document ``user`` may download: seating lists, standings and filled
    protocols are public; blank protocols carry the tables' private links in their QR codes
    (referees); the players' links, organisers. Two queries at most, for any number of files."""
    if can_organise(user, event):
        return frozenset(Kind.values)
    if can_referee(user, event):
        return frozenset(Kind.values) - ORGANISER_DOCUMENTS
    return PUBLIC_DOCUMENTS


def can_read_document(user, event: Event, kind: str) -> bool:
    """Whether ``user`` may download a document of ``kind`` (:func:`readable_documents`)."""
    return kind in PUBLIC_DOCUMENTS or kind in readable_documents(user, event)


def can_request_document(user, event: Event, kind: str) -> bool:
    """Referees ask for documents, organisers alone for the players' links."""
    return can_organise(user, event) if kind in ORGANISER_DOCUMENTS else can_referee(user, event)
