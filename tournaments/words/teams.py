"""A team event's draw report in a table for the round's page (issue 40): the teams' meetings
matrix the engine stores as ``team_meetings`` rows (``[team, other team, meetings]``)."""

from __future__ import annotations

from typing import Any

__all__ = ["meetings_matrix"]


def meetings_matrix(report: dict[str, Any]) -> dict[str, Any] | None:
    """``{"teams": [names], "rows": [(name, [cells])], "low", "high"}``: how often members of
    each two teams have met, this round included (a cell is None on the diagonal); None for a
    draw without teams."""
    rows = report.get("team_meetings") or []
    if not rows:
        return None
    met: dict[tuple[str, str], int] = {}
    for a, b, n in rows:
        met[(a, b)] = met[(b, a)] = n
    teams = sorted({t for a, b, _n in rows for t in (a, b)})
    values = [n for _a, _b, n in rows]
    return {
        "teams": teams,
        "rows": [(a, [None if a == b else met.get((a, b), 0) for b in teams]) for a in teams],
        "low": min(values),
        "high": max(values),
    }
