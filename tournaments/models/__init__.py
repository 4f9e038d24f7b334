"""Pulka's models, one module per concept (pretix ``base/models/``)."""

from .audit import AuditLogEntry, AuditLogIsAppendOnly, OrganisationLogEntry
from .event import Event, EventRole
from .incident import Appeal, EventPenalty, Incident, PenaltyDefinition, PenaltyKind, Ruling
from .job import Job
from .player import Avoidance, Entry, Player
from .protocol import EntryKind, Protocol, ProtocolConfirmation
from .rating import PersonEventRating, PersonRating, RatingList, UnratedEvent
from .round import Round, Seat, Table
from .series import (
    Organisation,
    OrganisationRole,
    Person,
    PersonLogEntry,
    Series,
    SeriesEvent,
    SeriesFile,
    SeriesStandingsRow,
    SeriesStandingsSnapshot,
)
from .standings import GeneratedFile, ProtocolStats, StandingsPart, StandingsSnapshot
from .team import Team, TeamLineUp, TeamMember, TeamRules

__all__ = [
    "AuditLogEntry",
    "AuditLogIsAppendOnly",
    "OrganisationLogEntry",
    "Avoidance",
    "Entry",
    "Event",
    "EventRole",
    "Player",
    "Round",
    "Seat",
    "Table",
]
__all__ += ["GeneratedFile", "ProtocolStats", "StandingsPart", "StandingsSnapshot"]
__all__ += ["Appeal", "EventPenalty", "Incident", "PenaltyDefinition", "PenaltyKind", "Ruling"]
__all__ += ["EntryKind", "Protocol", "ProtocolConfirmation"]
__all__ += ["Job"]
__all__ += [
    "Organisation",
    "OrganisationRole",
    "Person",
    "PersonLogEntry",
    "Series",
    "SeriesEvent",
    "SeriesFile",
    "SeriesStandingsRow",
    "SeriesStandingsSnapshot",
]
__all__ += ["Team", "TeamLineUp", "TeamMember", "TeamRules"]
__all__ += ["PersonEventRating", "PersonRating", "RatingList", "UnratedEvent"]
from .duplicate import Board, BoardResult, BoardScore, DuplicateEvent  # noqa: E402

__all__ += ["Board", "BoardResult", "BoardScore", "DuplicateEvent"]
