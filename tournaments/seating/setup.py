"""Validated input of a draw: entries, table sizes, constraints, grouping units.

The search works on *units* (player indices, or fixed Priffe partnerships of
two, seed 004) and knows nothing of entry ids; this module makes the bridge.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .history import HistoryStats
from .model import (
    ConstraintError,
    Constraints,
    Entry,
    EntryId,
    SeatingError,
    Table,
    TablePolicy,
    gettext_noop,
    sort_key,
)
from .search import TEAM, Problem
from .sizes import table_sizes

__all__ = [
    "Setup",
    "prepare",
    "build_problem",
    "check_apart",
    "fixed_units",
    "team_units",
    "team_meetings",
]


@dataclass(frozen=True)
class Setup:
    ids: tuple[EntryId, ...]
    sizes: tuple[int, ...]
    constraints: Constraints  #: restricted to the entries present
    units: tuple[tuple[EntryId, ...], ...]  #: grouping units: players, or fixed partners
    unit_sizes: tuple[int, ...]
    notes: tuple[str, ...]
    #: a team event's teams present, by name (index = the team's number in the search)
    team_names: tuple[str, ...] = ()
    #: unit → index of its team in ``team_names``; -1 for a unit of no team, or of a fixed
    #: partnership of two teams (whose meetings the search does not spread)
    unit_team: tuple[int, ...] = ()

    def unit_of(self) -> dict[EntryId, int]:
        """Entry → index of its unit."""
        return {x: u for u, unit in enumerate(self.units) for x in unit}


def prepare(entries: Sequence[Entry], policy: TablePolicy, constraints: Constraints) -> Setup:
    ids = [e.id for e in entries]
    seen: set[EntryId] = set()
    for x in ids:
        if x in seen:
            raise SeatingError(
                f"entries: id {x!r} appears twice",
                gettext_noop("%(entry)s is entered twice."),
                {"entry": x},
                ("entry",),
            )
        seen.add(x)
    ids.sort(key=sort_key)
    sizes = table_sizes(len(ids), TablePolicy(policy))
    notes: list[str] = []
    must_sit: dict[EntryId, int] = {}
    for x, number in constraints.must_sit.items():
        if x not in seen:
            notes.append(f"must_sit for {x!r} ignored: not present this round")
            continue
        if not 1 <= number <= len(sizes):
            raise ConstraintError(
                f"must_sit: entry {x!r} at table {number}, but this round has tables 1–{len(sizes)}",
                gettext_noop(
                    "%(entry)s must sit at table %(table)s, but this round has tables 1–%(tables)s."
                ),
                {"entry": x, "table": number, "tables": len(sizes)},
                ("entry",),
            )
        must_sit[x] = number
    for number in set(must_sit.values()):
        crowd = sorted((x for x, t in must_sit.items() if t == number), key=sort_key)
        if len(crowd) > sizes[number - 1]:
            raise ConstraintError(
                f"must_sit: {crowd!r} all at table {number}, which seats {sizes[number - 1]}",
                gettext_noop("%(entries)s must all sit at table %(table)s, which seats %(size)s."),
                {"entries": crowd, "table": number, "size": sizes[number - 1]},
                ("entries",),
            )
    must_not = frozenset(p for p in constraints.must_not_meet if len(p) == 2 and p <= seen)
    for pair in constraints.must_not_meet:
        if len(pair) != 2:
            raise ConstraintError(f"must_not_meet: {sorted(pair, key=sort_key)!r} is not a pair")
        a, b = sorted(pair, key=sort_key)
        if must_sit.get(a) is not None and must_sit.get(a) == must_sit.get(b):
            raise ConstraintError(
                f"must_not_meet: {a!r} and {b!r} must both sit at table {must_sit[a]}",
                gettext_noop(
                    "%(first)s and %(second)s are kept apart, but both must sit at table %(table)s."
                ),
                {"first": a, "second": b, "table": must_sit[a]},
                ("first", "second"),
            )
    teams = _teams_present(constraints, seen, sizes, must_sit)
    units: list[tuple[EntryId, ...]] = [(x,) for x in ids]
    unit_sizes = sizes
    partners = tuple(p for p in constraints.partners if p[0] in seen or p[1] in seen)
    if partners:
        if policy is not TablePolicy.PARTNERSHIPS:
            raise ConstraintError(
                "partners: fixed partnerships need the Priffe partnerships policy (004)",
                gettext_noop("Fixed partnerships need tables of two partnerships."),
            )
        paired: dict[EntryId, EntryId] = {}
        for a, b in partners:
            for x in (a, b):
                if x not in seen:
                    raise ConstraintError(
                        f"partners: {x!r} (partner of {a if x == b else b!r}) is not present",
                        gettext_noop("%(entry)s (the partner of %(partner)s) is not present."),
                        {"entry": x, "partner": a if x == b else b},
                        ("entry", "partner"),
                    )
                if x in paired or a == b:
                    raise ConstraintError(
                        f"partners: {x!r} is in two partnerships",
                        gettext_noop("%(entry)s is in two partnerships."),
                        {"entry": x},
                        ("entry",),
                    )
            paired[a], paired[b] = b, a
        alone = [x for x in ids if x not in paired]
        if alone:
            raise ConstraintError(
                f"partners: {alone!r} have no partner; pair every entry or none",
                gettext_noop("%(entries)s have no partner: pair every player or none."),
                {"entries": alone},
                ("entries",),
            )
        for a, b in partners:
            if must_sit.get(a) and must_sit.get(b) and must_sit[a] != must_sit[b]:
                raise ConstraintError(
                    f"partners: {a!r} and {b!r} must sit at different tables",
                    gettext_noop(
                        "The partners %(first)s and %(second)s are fixed at different tables."
                    ),
                    {"first": a, "second": b},
                    ("first", "second"),
                )
            if frozenset((a, b)) in must_not:
                raise ConstraintError(
                    f"partners: {a!r} and {b!r} must not meet",
                    gettext_noop("The partners %(first)s and %(second)s are kept apart."),
                    {"first": a, "second": b},
                    ("first", "second"),
                )
            if teams.get(a) is not None and teams.get(a) == teams.get(b):
                raise ConstraintError(
                    f"partners: {a!r} and {b!r} are both of team {teams[a]!r}, and members of "
                    "one team never sit at one table"
                )
        units = sorted(
            (tuple(sorted(p, key=sort_key)) for p in partners), key=lambda u: sort_key(u[0])
        )
        unit_sizes = tuple(2 for _ in sizes)
    team_names = tuple(sorted(set(teams.values())))
    number = {name: i for i, name in enumerate(team_names)}
    unit_team = []
    for unit in units:
        of = {teams[x] for x in unit if x in teams}
        unit_team.append(number[of.pop()] if len(of) == 1 else -1)
    return Setup(
        ids=tuple(ids),
        sizes=sizes,
        constraints=Constraints(
            must_sit=must_sit, must_not_meet=must_not, partners=partners, teams=teams
        ),
        units=tuple(units),
        unit_sizes=unit_sizes,
        notes=tuple(notes),
        team_names=team_names if teams else (),
        unit_team=tuple(unit_team) if teams else (),
    )


def _teams_present(
    constraints: Constraints,
    present: set[EntryId],
    sizes: tuple[int, ...],
    must_sit: dict[EntryId, int],
) -> dict[EntryId, str]:
    """``constraints.teams`` restricted to the entries present, checked: a team's name is a
    text, no team has more members present than the round has tables, and no two members of
    one team must sit at the same table (issue 40: never two members of a team at a table).
    A member not present (a team of five of whom three play) is simply not seated."""
    teams: dict[EntryId, str] = {}
    for x, team in constraints.teams.items():
        if not isinstance(team, str) or not team.strip():
            raise ConstraintError(
                f"teams: entry {x!r} has team {team!r}; a team is named by a non-empty text"
            )
        if x in present:
            teams[x] = team
    members: dict[str, list[EntryId]] = {}
    for x, team in teams.items():
        members.setdefault(team, []).append(x)
    for team in sorted(members):
        xs = sorted(members[team], key=sort_key)
        if len(xs) > len(sizes):
            raise ConstraintError(
                f"teams: team {team!r} has {len(xs)} players present, but this round has "
                f"{len(sizes)} tables, and members of one team never sit at one table"
            )
        fixed = {}
        for x in xs:
            if x in must_sit:
                if must_sit[x] in fixed:
                    raise ConstraintError(
                        f"teams: {fixed[must_sit[x]]!r} and {x!r} of team {team!r} must both "
                        f"sit at table {must_sit[x]}, and members of one team never sit at one "
                        "table"
                    )
                fixed[must_sit[x]] = x
    return teams


def build_problem(
    setup: Setup,
    stats: HistoryStats,
    rounds: int,
    *,
    repeat_weight: int,
    four_weight: int,
    team_weight: int = TEAM,
) -> Problem:
    """The search's problem over the units; ``team_weight`` spreads the teams' meetings (0:
    teams are only kept apart, as the referees' random draw does)."""
    index = setup.unit_of()
    n = len(setup.units)
    meet = [[0] * n for _ in range(n)]
    for pair, met in stats.meetings.items():
        a, b = tuple(pair)
        if a in index and b in index and index[a] != index[b]:
            meet[index[a]][index[b]] += len(met)
            meet[index[b]][index[a]] += len(met)
    forbid: set[int] = set()
    for pair in setup.constraints.must_not_meet:
        a, b = (index[x] for x in pair)
        forbid.update((a * n + b, b * n + a))
    for pair in team_units(setup):
        a, b = pair
        forbid.update((a * n + b, b * n + a))
    team: list[int] | None = None
    team_meet: list[list[int]] | None = None
    if setup.team_names:
        team = list(setup.unit_team)
        team_meet = team_meetings(setup, stats)
    fixed = {index[x]: t - 1 for x, t in setup.constraints.must_sit.items()}
    fours = [stats.fours.get(unit[0], 0) for unit in setup.units]
    return Problem(
        n=n,
        sizes=setup.unit_sizes,
        rounds=rounds,
        meet=meet,
        fours=fours,
        forbid=forbid,
        fixed=fixed,
        repeat_weight=repeat_weight,
        four_weight=four_weight if len(set(setup.sizes)) > 1 else 0,
        team=team,
        team_meet=team_meet,
        team_weight=team_weight,
    )


def check_apart(tables: Sequence[Table], constraints: Constraints, rnd: int) -> None:
    """A must-not-meet pair, or two members of one team, at one table is an error, never a
    silent result."""
    for t in tables:
        seen: dict[str, EntryId] = {}
        for x in t.seats:
            team = constraints.teams.get(x)
            if team is None:
                continue
            if team in seen:
                raise ConstraintError(
                    f"teams: no draw found for round {rnd} that keeps the members of team "
                    f"{team!r} apart ({seen[team]!r} and {x!r} at table {t.number}); relax a "
                    "constraint"
                )
            seen[team] = x
        for pair in constraints.must_not_meet:
            if pair <= set(t.seats):
                a, b = sorted(pair, key=sort_key)
                raise ConstraintError(
                    f"must_not_meet: no draw found for round {rnd} that keeps {a!r} and {b!r} "
                    f"apart (table {t.number}); relax a constraint",
                    gettext_noop(
                        "No draw of round %(round)s keeps %(first)s and %(second)s apart (table "
                        "%(table)s): relax a constraint."
                    ),
                    {"round": rnd, "first": a, "second": b, "table": t.number},
                    ("first", "second"),
                )


def apart_units(setup: Setup) -> frozenset[frozenset[int]]:
    """must_not_meet, and members of one team, as pairs of unit indices."""
    index = setup.unit_of()
    pairs = {frozenset(index[x] for x in pair) for pair in setup.constraints.must_not_meet}
    return frozenset(pairs | {frozenset(p) for p in team_units(setup)})


def team_units(setup: Setup) -> list[tuple[int, int]]:
    """Pairs of units (``a < b``) with a member of one team each: they never share a table."""
    teams = setup.constraints.teams
    if not teams:
        return []
    of = [{teams[x] for x in unit if x in teams} for unit in setup.units]
    return [(a, b) for a in range(len(of)) if of[a] for b in range(a + 1, len(of)) if of[a] & of[b]]


def team_meetings(setup: Setup, stats: HistoryStats) -> list[list[int]]:
    """Team × team (indices of ``setup.team_names``): how often members of the two met in the
    history, counting the players present."""
    teams = setup.constraints.teams
    number = {name: i for i, name in enumerate(setup.team_names)}
    k = len(setup.team_names)
    meet = [[0] * k for _ in range(k)]
    for pair, rounds in stats.meetings.items():
        a, b = tuple(pair)
        if a in teams and b in teams and teams[a] != teams[b]:
            i, j = number[teams[a]], number[teams[b]]
            meet[i][j] += len(rounds)
            meet[j][i] += len(rounds)
    return meet


def fixed_units(setup: Setup) -> dict[int, int]:
    """must_sit as unit index → table index."""
    return {
        u: setup.constraints.must_sit[x] - 1
        for u, unit in enumerate(setup.units)
        for x in unit
        if x in setup.constraints.must_sit
    }
