"""The scored Priffe game as a readable sheet (``python -m scoring score``).

Each sits is drawn as the players draw it (seed 004 "Lämpligen för man protokoll enligt
bridgemodell"): one row per deal with what each side wrote below (``u``) and above (``ö``) the
line and the current game's points; a line ``--- utgång`` under the deal that won a game; then the
sits' totals and, at the end, each player's total.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..findings import Finding
from .notation import deal_text
from .score import ScoredPriffe

__all__ = ["render_sheet"]


def _cell(value: int) -> str:
    return str(value) if value else "."


def render_sheet(
    scored: ScoredPriffe, findings: Sequence[Finding] = (), *, ascii: bool = False
) -> str:
    """The game as text: per sits the rows below and above the line, games, totals; players."""
    p = scored.protocol
    conv = scored.convention
    names = p.players
    game = "no games (simpler variant)" if conv.simple else f"game at {conv.game_points} trick points"
    length = {"sits": "sits", "deals": "deals", "total": "points below the line"}[conv.play]
    lines = [
        f"Priffe: {conv.name}; {p.target} {length}; {game}; ending {p.ending}",
        f"Players: {', '.join(names)}",
        "",
    ]
    over = "over" if ascii else "över"
    for sits in scored.sits:
        (a1, a2), (b1, b2) = sits.sides
        side_names = (f"{names[a1]}+{names[a2]}", f"{names[b1]}+{names[b2]}")
        lines.append(f"Sits {sits.index + 1}: {side_names[0]} against {side_names[1]}")
        rows = [["#", "deal", f"{side_names[0]} u", "ö", f"{side_names[1]} u", "ö", "game"]]
        if ascii:
            rows[0][3] = rows[0][5] = "o"
        marks: list[str] = []
        for i in sits.deals:
            d = scored.deals[i]
            rows.append([
                str(i + 1), deal_text(p, i, ascii=ascii), _cell(d.below[0]), _cell(d.above[0]),
                _cell(d.below[1]), _cell(d.above[1]), f"{d.game_points[0]}-{d.game_points[1]}",
            ])  # fmt: skip
            mark = ""
            if d.game_won_by is not None:
                mark = f"--- utgång {side_names[d.game_won_by]} (games {d.games[0]}-{d.games[1]})"
            if d.sits_won_by is not None:
                mark += f"; sits won by {side_names[d.sits_won_by]}"
            marks.append(mark)
        widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]
        for n, r in enumerate(rows):
            cells = [r[c].ljust(widths[c]) if c < 2 else r[c].rjust(widths[c]) for c in range(7)]
            lines.append("  " + "  ".join(cells).rstrip())
            if n and marks[n - 1]:
                lines.append("  " + (marks[n - 1] if not ascii else marks[n - 1].replace("å", "a")))
        lines.append(
            f"  totals: {side_names[0]} {sits.below[0]} under + {sits.above[0]} {over} = "
            f"{sits.totals[0]}; {side_names[1]} {sits.below[1]} under + {sits.above[1]} {over} "
            f"= {sits.totals[1]}; games {sits.games[0]}-{sits.games[1]}"
        )
        lines.append("")
    if scored.closed_at is not None:
        lines.append(f"The game ended at entry {scored.closed_at + 1}.")
    else:
        lines.append("The game did not end.")
    lines += ["", "Player totals (seed 004: every point a side scores goes to both partners):"]
    width = max(len(n) for n in names)
    money = scored.money
    for i, name in enumerate(names):
        extra = "" if money is None else f"   money {float(money[i]):+.2f}"
        lines.append(f"  {name.ljust(width)}  {scored.player_totals[i]:>6}{extra}")
    if findings:
        lines += ["", "Findings:"] + [f"  {f.severity}: {f}" for f in findings]
    return "\n".join(lines) + "\n"
