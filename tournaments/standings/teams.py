"""Team standings (issue 40): the teams ranked by their members' results, beside the
individual standings.

A team's score in a round is the sum of its best ``scoring_members`` members' results in that
round: their round scores as the individual standings count them (the event's round score:
whists, capped, place points …), or their place points at their tables
(:func:`.scores.place_points`, whatever the event's round score). A team with fewer members
playing a round counts those it has. Only approved results count (001 §4.1.3); a round still
open shows the provisional total beside the counted one, as the individual standings do.

Ties are broken by the team's best member (the better individual place of its best-placed
member), then head to head: among the teams still tied, the sum of their members' results
against the members of the others at the tables where they met (the pairwise settlement the
individual head-to-head tie-break uses, 001 §4.2.14 variant 1). Teams equal on all of these
share the place.

Nothing here knows a rule family: the rows are the individual standings' cells, whatever family
made them. Pure: plain rows in, plain rows out.

>>> from fractions import Fraction as F
>>> rows = [
...     MemberRound(1, 1, 10, F(30), F(30)), MemberRound(2, 1, 10, F(-10), F(-10)),
...     MemberRound(3, 1, 10, F(-20), F(-20)), MemberRound(4, 1, 11, F(5), F(5)),
...     MemberRound(5, 1, 11, F(0), F(0)), MemberRound(6, 1, 11, F(-5), F(-5)),
... ]
>>> s = team_standings(rows, {"A": (1, 4), "B": (2, 5), "C": (3, 6)}, TeamConfig(scoring_members=2))
>>> [(r.team, r.place, r.total) for r in s.rows]
[('A', 1, Fraction(35, 1)), ('B', 2, Fraction(-10, 1)), ('C', 3, Fraction(-25, 1))]
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .scores import place_points

__all__ = ["COUNTS", "MemberRound", "TeamConfig", "TeamRound", "TeamRow", "TeamStandings"]
__all__ += ["team_standings"]

#: what a team's round score sums: the members' round scores, or their place points
COUNTS = ("results", "places")


@dataclass(frozen=True, slots=True)
class MemberRound:
    """One player's cell of the individual standings: ``score`` the round score the event
    counts, ``whists`` the result as settled (what place points are drawn from), ``versus``
    the result against each opponent at the table; ``final`` False for a provisional one."""

    entry: int
    round: int
    table: int
    score: Fraction
    whists: Fraction
    final: bool = True
    versus: Mapping[int, Fraction] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class TeamConfig:
    """How a team scores: ``scoring_members`` best members a round (1–5), summing their
    ``counts``: "results" (round scores) or "places" (place points at their tables)."""

    scoring_members: int = 3
    counts: str = "results"

    def __post_init__(self) -> None:
        if not 1 <= self.scoring_members <= 5:
            raise ValueError(
                f"scoring_members: {self.scoring_members}; from 1 to 5 members score a round"
            )
        if self.counts not in COUNTS:
            raise ValueError(f"counts: {self.counts!r}; one of {', '.join(COUNTS)}")


@dataclass(frozen=True, slots=True)
class TeamRound:
    """A team's round: its score, the members whose results counted, and whether every
    result in it is approved."""

    score: Fraction
    counted: tuple[int, ...]
    played: tuple[int, ...]
    final: bool


@dataclass(frozen=True, slots=True)
class TeamRow:
    team: str
    place: int
    shared: bool
    place_label: str
    total: Fraction  #: approved results only
    provisional_total: Fraction  #: with the results of rounds still open
    has_provisional: bool
    rounds: Mapping[int, TeamRound]
    best_member: int | None  #: the member placed best in the individual standings
    best_place: int | None
    head_to_head: Fraction | None  #: against the teams tied with it (None: not tied)
    decided_by: str | None  #: "total", "best_member", "head_to_head" or None (shared, first)


@dataclass(frozen=True, slots=True)
class TeamStandings:
    config: TeamConfig
    rows: tuple[TeamRow, ...]
    rounds: tuple[int, ...]

    def as_json(self) -> dict[str, Any]:
        return {
            "version": 1,
            "scoring_members": self.config.scoring_members,
            "counts": self.config.counts,
            "rounds": list(self.rounds),
            "rows": [
                {
                    "team": r.team,
                    "place": r.place,
                    "place_label": r.place_label,
                    "shared": r.shared,
                    "total": _num(r.total),
                    "provisional_total": _num(r.provisional_total),
                    "has_provisional": r.has_provisional,
                    "rounds": {
                        str(n): {
                            "score": _num(t.score),
                            "counted": list(t.counted),
                            "played": list(t.played),
                            "final": t.final,
                        }
                        for n, t in sorted(r.rounds.items())
                    },
                    "best_member": r.best_member,
                    "best_place": r.best_place,
                    "head_to_head": None if r.head_to_head is None else _num(r.head_to_head),
                    "decided_by": r.decided_by,
                }
                for r in self.rows
            ],
        }


def _num(x: Fraction) -> int | float:
    return int(x) if x.denominator == 1 else round(x.numerator / x.denominator, 2)


def _values(rows: Sequence[MemberRound], counts: str) -> dict[tuple[int, int], Fraction]:
    """(entry, round) → what the member's cell is worth to the team."""
    if counts == "results":
        return {(r.entry, r.round): r.score for r in rows}
    tables: dict[tuple[int, int], list[MemberRound]] = defaultdict(list)
    for r in rows:
        tables[(r.round, r.table)].append(r)
    out = {}
    for seated in tables.values():
        for r, p in zip(seated, place_points([r.whists for r in seated]), strict=True):
            out[(r.entry, r.round)] = p
    return out


def _round(
    cells: Sequence[MemberRound], values: Mapping[tuple[int, int], Fraction], k: int
) -> TeamRound:
    ordered = sorted(cells, key=lambda c: (-values[(c.entry, c.round)], c.entry))
    counted = ordered[:k]
    return TeamRound(
        score=sum((values[(c.entry, c.round)] for c in counted), Fraction(0)),
        counted=tuple(c.entry for c in counted),
        played=tuple(sorted(c.entry for c in cells)),
        final=all(c.final for c in cells),
    )


def team_standings(
    rows: Iterable[MemberRound],
    teams: Mapping[str, Sequence[int]],
    config: TeamConfig | None = None,
    individual_places: Mapping[int, int] | None = None,
) -> TeamStandings:
    """Rank ``teams`` (name → member entries) by their members' cells in ``rows`` (every
    player's, so that place points see whole tables); ``individual_places``: entry → place in
    the individual standings (the best-member tie-break; without it, none).

    :raises ValueError: a member in two teams, or two cells of one player in one round.
    """
    config = config or TeamConfig()
    rows = tuple(rows)
    seen: set[tuple[int, int]] = set()
    for r in rows:
        if (r.entry, r.round) in seen:
            raise ValueError(f"entry {r.entry} has two results in round {r.round}")
        seen.add((r.entry, r.round))
    team_of: dict[int, str] = {}
    for name, members in teams.items():
        for e in members:
            if e in team_of:
                raise ValueError(f"entry {e} is in teams {team_of[e]!r} and {name!r}")
            team_of[e] = name
    final_values = _values([r for r in rows if r.final], config.counts)
    all_values = _values(rows, config.counts)
    places = individual_places or {}
    cells: dict[str, dict[int, list[MemberRound]]] = {t: defaultdict(list) for t in teams}
    for r in rows:
        if r.entry in team_of:
            cells[team_of[r.entry]][r.round].append(r)
    data = {}
    for name in teams:
        rounds: dict[int, TeamRound] = {}
        total = provisional = Fraction(0)
        for n, in_round in sorted(cells[name].items()):
            final = [c for c in in_round if c.final]
            shown = _round(in_round, all_values, config.scoring_members)
            counted = _round(final, final_values, config.scoring_members) if final else None
            rounds[n] = shown
            total += counted.score if counted is not None else 0
            provisional += shown.score
        placed = [(places[e], e) for e in teams[name] if e in places]
        best_place, best = min(placed) if placed else (None, None)
        data[name] = {
            "rounds": rounds,
            "total": total,
            "provisional": provisional,
            "has_provisional": any(not c.final for cs in cells[name].values() for c in cs),
            "best": best,
            "best_place": best_place,
            "played": any(c.final for cs in cells[name].values() for c in cs),
        }

    def key(name: str) -> tuple[Fraction, float]:
        d = data[name]
        return (-d["total"], d["best_place"] if d["best_place"] is not None else math.inf)

    ranked_names = sorted((t for t in teams if data[t]["played"]), key=lambda t: (key(t), t))
    unplayed = sorted(t for t in teams if not data[t]["played"])
    h2h: dict[str, Fraction | None] = {t: None for t in teams}
    groups: list[list[str]] = []
    for name in ranked_names:
        if groups and key(groups[-1][0]) == key(name):
            groups[-1].append(name)
        else:
            groups.append([name])
    ordered: list[str] = []
    for group in groups:
        if len(group) > 1:
            for name in group:
                h2h[name] = _head_to_head(name, set(group), cells, team_of)
            group.sort(key=lambda t: (-(h2h[t] or 0), t))
        ordered += group
    out: list[TeamRow] = []
    full_key = {t: (*key(t), -(h2h[t] or 0)) for t in ranked_names}
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and full_key[ordered[j + 1]] == full_key[ordered[i]]:
            j += 1
        for name in ordered[i : j + 1]:
            decided = _decided(name, ordered, full_key)
            out.append(_row(name, data[name], i + 1, j > i, h2h[name], decided))
        i = j + 1
    for name in unplayed:  # no approved result yet: after every ranked team, without a place
        out.append(_row(name, data[name], len(ordered) + 1, len(unplayed) > 1, None, None, "—"))
    rounds_all = tuple(sorted({r.round for r in rows if r.entry in team_of}))
    return TeamStandings(config, tuple(out), rounds_all)


def _row(
    name: str,
    d: dict[str, Any],
    place: int,
    shared: bool,
    h2h: Fraction | None,
    decided: str | None,
    label: str | None = None,
) -> TeamRow:
    return TeamRow(
        team=name,
        place=place,
        shared=shared,
        place_label=label or (f"{place}=" if shared else str(place)),
        total=d["total"],
        provisional_total=d["provisional"],
        has_provisional=d["has_provisional"],
        rounds=d["rounds"],
        best_member=d["best"],
        best_place=d["best_place"],
        head_to_head=h2h,
        decided_by=decided,
    )


CRITERIA = ("total", "best_member", "head_to_head")


def _decided(name: str, ordered: list[str], full_key: Mapping[str, tuple]) -> str | None:
    """The last criterion needed to part the team from its neighbours (the one above and the
    one below): "total", "best_member" or "head_to_head"; None where one of them is equal on
    all (the place is shared) or the team is alone."""
    at = ordered.index(name)
    mine = full_key[name]
    needed = None
    for k in (at - 1, at + 1):
        if not 0 <= k < len(ordered):
            continue
        theirs = full_key[ordered[k]]
        if theirs == mine:
            return None  # shared
        first = next(i for i, (a, b) in enumerate(zip(mine, theirs, strict=True)) if a != b)
        needed = first if needed is None else max(needed, first)
    return None if needed is None else CRITERIA[needed]


def _head_to_head(
    name: str,
    group: set[str],
    cells: Mapping[str, Mapping[int, Sequence[MemberRound]]],
    team_of: Mapping[int, str],
) -> Fraction:
    """The team's members' approved results against members of the other teams of
    ``group`` at the tables where they met."""
    total = Fraction(0)
    for in_round in cells[name].values():
        for c in in_round:
            if not c.final:
                continue
            for opponent, result in c.versus.items():
                other = team_of.get(opponent)
                if other is not None and other != name and other in group:
                    total += result
    return total
