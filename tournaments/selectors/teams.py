"""A team event's teams and team standings (issue 40), read for the pages, the CSV and the API.

The team standings are computed from the stored individual standings (the snapshot the
event's standings job writes, :mod:`tournaments.selectors.standings`) by the pure
:func:`tournaments.standings.teams.team_standings`: they follow every recomputation of the
individual standings, provisional while a round is open as those are, and need no store of
their own. Every rule family's standings have the same cells, so nothing here asks which
family the event plays.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from tournaments.models import Entry, Event, Team, TeamLineUp, TeamRules
from tournaments.selectors import standings as sel
from tournaments.standings.teams import MemberRound, TeamConfig, team_standings

__all__ = ["event_teams", "is_team_event", "team_standings_view"]


def is_team_event(*, event: Event) -> bool:
    return TeamRules.objects.filter(event=event).exists()


def event_teams(*, event: Event) -> list[dict[str, Any]]:
    """The event's teams with their members (name, whether withdrawn, captain) and the
    line-ups entered, by round; in the teams' order by name."""
    teams = list(
        Team.objects.filter(event=event)
        .select_related("captain__player")
        .prefetch_related("members__entry__player")
    )
    line_ups: dict[int, dict[int, list[int]]] = {}
    for team_id, number, entry_id in TeamLineUp.objects.filter(team__event=event).values_list(
        "team_id", "round_number", "entries"
    ):
        ids = line_ups.setdefault(team_id, {}).setdefault(number, [])
        if entry_id is not None:
            ids.append(entry_id)
    out = []
    for team in teams:
        members = sorted((m.entry for m in team.members.all()), key=lambda e: e.player.name)
        out.append(
            {
                "id": team.pk,
                "name": team.name,
                "withdrawn": team.withdrawn,
                "captain": team.captain_id,
                "members": [
                    {
                        "entry": e.pk,
                        "name": e.player.name,
                        "captain": e.pk == team.captain_id,
                        "withdrawn": e.status == Entry.Status.WITHDRAWN,
                    }
                    for e in members
                ],
                "line_ups": {
                    n: sorted(ids) for n, ids in sorted(line_ups.get(team.pk, {}).items())
                },
            }
        )
    return out


def _fraction(value: Any) -> Fraction:
    """A stored number (an int, or a float rounded to two decimals) as the Fraction it shows."""
    return Fraction(str(value))


def team_standings_view(*, event: Event) -> dict[str, Any] | None:
    """The team standings (``standings.teams.TeamStandings.as_json``) with each team's members
    and names for the pages; None for an event without teams."""
    rules = TeamRules.objects.filter(event=event).first()
    if rules is None:
        return None
    teams = event_teams(event=event)
    snapshot = sel.standings_header(event=event)
    data = sel.snapshot_data(snapshot) if snapshot is not None else {"rows": []}
    cells, places = [], {}
    for row in data.get("rows", []):
        entry = row["entry"]
        if not row.get("no_result"):
            places[entry] = row["place"]
        for number, c in (row.get("rounds") or {}).items():
            cells.append(
                MemberRound(
                    entry=entry,
                    round=int(number),
                    table=c["table"],
                    score=_fraction(c["score"]),
                    whists=_fraction(c["whists"]),
                    final=bool(c["final"]),
                    versus={int(k): _fraction(v) for k, v in (c.get("versus") or {}).items()},
                )
            )
    computed = team_standings(
        cells,
        {t["name"]: [m["entry"] for m in t["members"]] for t in teams},
        TeamConfig(scoring_members=rules.scoring_members, counts=rules.counts),
        places,
    ).as_json()
    by_name = {t["name"]: t for t in teams}
    names = {m["entry"]: m["name"] for t in teams for m in t["members"]}
    for row in computed["rows"]:
        team = by_name[row["team"]]
        row["members"] = team["members"]
        row["withdrawn"] = team["withdrawn"]
        row["best_member_name"] = names.get(row["best_member"])
        row["round_cells"] = [row["rounds"].get(str(n)) for n in computed["rounds"]]
        for cell in row["round_cells"]:
            if cell is not None:
                cell["counted_names"] = [names.get(e, "") for e in cell["counted"]]
    computed["rules"] = {"scoring_members": rules.scoring_members, "counts": rules.counts}
    computed["snapshot"] = snapshot
    return computed
