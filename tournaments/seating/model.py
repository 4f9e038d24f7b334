"""Plain value types of the seating draw: what goes in and what comes out.

Seats are numbered clockwise from 0; the *left neighbour* of the player in
seat ``i`` is the player in seat ``i + 1`` (mod table size): play and the deal
pass to the left, i.e. clockwise (001 §3.2.2). ``first_dealer`` is the seat
index of the player who deals first (001 §3.2.1, drawn like the "тираж" of
§3.1.1). At a 4-player table the dealer sits out each deal (001 §3.2.10); in
Priffe partnerships (seed 004) partners sit opposite: seats 0 & 2 and 1 & 3.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from rules.worded import WordedError, gettext_noop

__all__ = [
    "ENGINE_VERSION",
    "EntryId",
    "Entry",
    "PastTable",
    "TablePolicy",
    "Method",
    "Constraints",
    "Table",
    "Repeat",
    "PlayerReport",
    "DrawReport",
    "Draw",
    "SeatingError",
    "TableCountError",
    "ConstraintError",
    "sort_key",
    "gettext_noop",  # the engine's modules mark their texts with it
]

#: 1.1: more designs, tabu restarts and CP-SAT; later rounds follow plans made from the history
#: 1.2: symmetric and developed schedules, mixed first rounds, schedules found offline
#: 1.3: sizes proved offline to need a repeat skip the searches that cannot succeed
#: 1.4: 19 players over 8 rounds or more (mixed tables) are among them
#: 1.5: schedules found offline for 23 × 9, 31 × 14 and 41–91 players (mixed tables)
#: 1.6: schedules found offline for 29 × 12, 92–100 players (mixed), threes only at 69–90
#:      and 52 × 16 at fours
#: 1.7: resolvable designs of fours for 52, 64, 76, 88 and 100 players, all (v - 1) / 3 rounds
#:      (built at the draw up to 64, found offline above); the 52 × 16 entry is gone; Kirkman
#:      triple systems with a multiplier or a turn of the levels (75, 87, 93, 99) before the search
#: 1.8: designs of fours at the counting bound for v ≡ 0 and 8 (mod 12): 48 built at the draw,
#:      56, 60, 72, 84 and 96 found offline
#: 1.9: nearly Kirkman triple systems of 72, 90 and 96 (and 120, 150, …) from four or five
#:      groups: a 3-RGDD of type 6^4 or 6^5 inflated, an NKTS in each group (the NKTS(90) entry
#:      is gone); tried before the tabu search up to 96;
#:      the turned search of designs of fours with μ ≠ 1 mended (44 and 56 built at the draw,
#:      80 found offline; the 44 × 13 and 56 entries are gone)
#: 1.10: 92 at fours up to 29 rounds: a turned base round and one round more of the pairs its
#:      shifts leave (the 92 × 28 entry is gone); 97 × 46 (mixed) the same way
#: 1.11: 92, 94, 95, 97, 98 and 100 players (mixed) at the counting bound: one base round over
#:      Z_R × 2 each, replacing the entries one or two rounds under it (the 97 × 46 one too)
#: 1.12: where repeats remain and a schedule without one exists for a round fewer (a design, the
#:      catalogue or a developed base round), that schedule and a last round searched given it,
#:      when that leaves fewer repeats (68 × 22: 142 → 49, 92 × 30: 254 → 67 at fours;
#:      77 × 36: 82 → 30, 91 × 44: 113 → 40 mixed; 14 × 5: 3 → 2)
#: 1.13: teams (issue 40): never two members of one team at a table, and the teams' meetings
#:      spread as evenly as the rounds allow; draws without teams seat as 1.12 did
ENGINE_VERSION = "pulka-seating 1.13"

EntryId = int | str


def sort_key(entry_id: EntryId) -> tuple[str, Any]:
    """Total order on mixed int/str ids, so every draw is deterministic."""
    return (type(entry_id).__name__, entry_id)


class SeatingError(WordedError):
    """Bad input to the draw; the message names the field and the rule, in English (for the
    API, ``manage.py draw_verify`` and the logs), and for people as a template said in the
    reader's language by the Django side (``tournaments.errors.said_error``); ``entries``: the
    params that are entry ids (or lists of them), to be said as players' names."""


class TableCountError(SeatingError):
    """The players present cannot be split into tables under the policy."""


class ConstraintError(SeatingError):
    """A fixed constraint cannot be met (unknown id, full table, clash)."""


class TablePolicy(StrEnum):
    """Table sizes of the event (the variant decides: Priffe is 4 with partners)."""

    THREES = "3"  #: tables of three only
    FOURS = "4"  #: tables of four only (dealer sits out, 001 §3.2.10)
    MIXED = "mixed"  #: threes, with as few fours as the count requires
    MIXED_PREFER_FOURS = "mixed-4"  #: fours, with as few threes as the count requires
    PARTNERSHIPS = "partnerships"  #: Priffe: fours, partners opposite (004)


class Method(StrEnum):
    RANDOM = "random"  #: the referees' draw of 001 note 8, seeded
    NO_REPEATS = "no_repeats"  #: minimise repeats, left neighbours, seat/dealer imbalance, 4-duty
    SWISS = "swiss"  #: tables by current standings, repeats minimised inside them
    SCHEDULE = "schedule"  #: all rounds computed at once (a resolvable design where one exists)


@dataclass(frozen=True)
class Entry:
    """A player (or entry) present for the draw."""

    id: EntryId
    rating: float | None = None
    club: str | None = None


@dataclass(frozen=True)
class PastTable:
    """A table of an earlier round: ``seats`` in clockwise order."""

    round: int
    seats: tuple[EntryId, ...]
    first_dealer: int = 0
    number: int | None = None

    def __post_init__(self) -> None:
        if len(set(self.seats)) != len(self.seats):
            raise SeatingError(f"history round {self.round}: table {self.seats!r} repeats a player")
        if not 0 <= self.first_dealer < max(len(self.seats), 1):
            raise SeatingError(
                f"history round {self.round}: first_dealer {self.first_dealer} is not a seat"
            )


@dataclass(frozen=True)
class Constraints:
    """Fixed constraints set by the organiser.

    * ``must_sit``: entry id → table number (1-based), e.g. a player in a
      wheelchair at table 1.
    * ``must_not_meet``: pairs who must not share a table (family, same club).
    * ``partners``: fixed Priffe partnerships (seed 004) that sit opposite.
    * ``teams``: entry id → its team's name, for a team event (issue 40): two members of one
      team never sit at one table, and the teams meet one another as evenly as the rounds
      allow (the draw report's ``team_meetings``). A team with more members present than the
      round has tables cannot be seated so and is refused with :class:`ConstraintError`.
    """

    must_sit: Mapping[EntryId, int] = field(default_factory=dict)
    must_not_meet: frozenset[frozenset[EntryId]] = frozenset()
    partners: tuple[tuple[EntryId, EntryId], ...] = ()
    teams: Mapping[EntryId, str] = field(default_factory=dict)

    @staticmethod
    def same_club(entries: list[Entry] | tuple[Entry, ...]) -> frozenset[frozenset[EntryId]]:
        """``must_not_meet`` pairs for players of the same club (if the organiser asks)."""
        return frozenset(
            frozenset((a.id, b.id))
            for i, a in enumerate(entries)
            for b in entries[i + 1 :]
            if a.club and a.club == b.club
        )


@dataclass(frozen=True)
class Table:
    number: int  #: 1-based
    seats: tuple[EntryId, ...]  #: clockwise
    first_dealer: int  #: seat index


@dataclass(frozen=True)
class Repeat:
    """One repeated meeting at a table, and why the engine accepted it."""

    opponent: EntryId
    earlier_rounds: tuple[int, ...]
    reason: str  #: one of the reasons in :mod:`.report` ("unavoidable: …", "not avoided: …", …)


@dataclass(frozen=True)
class PlayerReport:
    """Why a player sits where they sit: plain data for the referee's screen."""

    entry: EntryId
    table: int
    seat: int
    met_before: Mapping[EntryId, tuple[int, ...]]  #: everyone met earlier → rounds
    repeats: tuple[Repeat, ...]
    seats_so_far: Mapping[int, int]  #: seat index → times, including this draw
    left_neighbours: tuple[EntryId, ...]  #: earlier left neighbours, oldest first, then this one
    first_dealer_count: int  #: including this draw
    four_table_count: int  #: including this draw
    constraints: tuple[str, ...]  #: constraints that applied to this player


@dataclass(frozen=True)
class DrawReport:
    players: Mapping[EntryId, PlayerReport]
    repeated_meetings: int  #: pairs at this round's tables who met before
    repeated_left_neighbours: int
    notes: tuple[str, ...] = ()
    #: a team event's meetings matrix: (team, other team), the names in order → how many
    #: times a member of one sat at a table with a member of the other, this round included;
    #: every pair of the teams present, met or not (empty without teams)
    team_meetings: Mapping[tuple[str, str], int] = field(default_factory=dict)


@dataclass(frozen=True)
class Draw:
    """One drawn round, with everything needed to re-run and explain it."""

    round: int
    tables: tuple[Table, ...]
    method: Method
    policy: TablePolicy
    seed: str
    seed_commitment: str
    engine_version: str
    parameters: Mapping[str, Any]
    report: DrawReport
