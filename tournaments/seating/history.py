"""What earlier rounds tell the draw: meetings, left neighbours, seats, dealers.

History may name entries no longer present (withdrawals) and miss entries
that joined late; both are fine, the counts are simply per entry id.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from .model import EntryId, PastTable

__all__ = ["HistoryStats", "summarise"]


@dataclass
class HistoryStats:
    meetings: dict[frozenset[EntryId], list[int]] = field(default_factory=lambda: defaultdict(list))
    #: (player, left neighbour) → rounds; the left neighbour is the next seat clockwise
    left: dict[tuple[EntryId, EntryId], list[int]] = field(
        default_factory=lambda: defaultdict(list)
    )
    #: partners at 4-tables (opposite seats, Priffe 004) → rounds
    opposite: dict[frozenset[EntryId], list[int]] = field(default_factory=lambda: defaultdict(list))
    seats: dict[EntryId, Counter[int]] = field(default_factory=lambda: defaultdict(Counter))
    dealer: Counter[EntryId] = field(default_factory=Counter)
    fours: Counter[EntryId] = field(default_factory=Counter)
    left_sequence: dict[EntryId, list[EntryId]] = field(default_factory=lambda: defaultdict(list))
    rounds: set[int] = field(default_factory=set)

    def met(self, a: EntryId, b: EntryId) -> int:
        return len(self.meetings.get(frozenset((a, b)), ()))

    def add(self, table: PastTable) -> None:
        seats, k, rnd = table.seats, len(table.seats), table.round
        self.rounds.add(rnd)
        for i, a in enumerate(seats):
            self.seats[a][i] += 1
            if k > 1:
                self.left[(a, seats[(i + 1) % k])].append(rnd)
                self.left_sequence[a].append(seats[(i + 1) % k])
            if k == 4:
                self.fours[a] += 1
            for b in seats[i + 1 :]:
                self.meetings[frozenset((a, b))].append(rnd)
        if k == 4:
            self.opposite[frozenset((seats[0], seats[2]))].append(rnd)
            self.opposite[frozenset((seats[1], seats[3]))].append(rnd)
        if k:
            self.dealer[seats[table.first_dealer]] += 1


def summarise(history: Iterable[PastTable]) -> HistoryStats:
    """Fold the tables of earlier rounds (in round order) into counts.

    >>> s = summarise([PastTable(1, ("a", "b", "c"), first_dealer=2)])
    >>> s.met("a", "c"), s.left[("c", "a")], s.dealer["c"], s.seats["b"][1]
    (1, [1], 1, 1)
    """
    stats = HistoryStats()
    for table in sorted(history, key=lambda t: t.round):
        stats.add(table)
    return stats
