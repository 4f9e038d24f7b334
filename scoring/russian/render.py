"""The scored pulka as a readable sheet (``python -m scoring score`` without ``--json``).

Per deal what each player writes (``+``) and the running totals (``=``, 001 §4.2.5), then help,
the closing, the end conversion, the settlement and the findings.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from ..findings import Finding
from . import notation
from .protocol import SheetRow
from .pulka import ScoredPulka

__all__ = ["render_sheet"]


def _fmt(value: int | Fraction) -> str:
    if isinstance(value, Fraction) and value.denominator != 1:
        return f"{float(value):+.2f}"
    return f"{int(value):+d}" if value else "0"


def _cells(row: SheetRow, signed: bool) -> list[str]:
    out: list[str] = []
    for p, line in enumerate(row):
        values = [line.pulya, line.gora] + [w for q, w in enumerate(line.whists) if q != p]
        if signed:
            out += [f"{v:+d}" if v else "." for v in values]
        else:
            out += [str(v) for v in values]
    return out


def render_sheet(
    scored: ScoredPulka, findings: Sequence[Finding] = (), *, ascii: bool = False
) -> str:
    """The pulka as a readable sheet: per deal what each player writes (``+``) and the running
    totals (``=``, 001 §4.2.5), then the closing, the end conversion and the settlement."""
    p = scored.protocol
    names = p.players
    n = len(names)
    conv = scored.convention
    lines = [
        f"Pulka: {conv.name}, to {p.target}; players {', '.join(names)}; "
        f"first dealer {names[p.first_dealer]}; ending {p.ending}",
        "Columns per player: P = pulya, G = gora, then whists written on each other player "
        "(001 §4.2.1).",
        "",
    ]
    short = [name[:4] for name in names]
    if len({x.lower() for x in short}) < n:
        short = [f"#{s + 1}" for s in range(n)]
    head = ["#", "", "dealer", "deal"]
    sub = ["", "", "", ""]
    for s in range(n):
        cols = ["P", "G"] + [short[q] for q in range(n) if q != s]
        head += [names[s]] + [""] * (len(cols) - 1)
        sub += cols
    table: list[list[str]] = [head, sub]
    for i in range(len(scored.totals)):
        dealer = scored.dealers[i]
        who = "" if dealer is None else names[dealer]
        text = notation.deal_text(p, i, ascii=ascii)
        table.append([str(i + 1), "+", who, text] + _cells(scored.delta(i), signed=True))
        table.append(["", "=", "", ""] + _cells(scored.row(i), signed=False))
    widths = [max(len(r[c]) for r in table) for c in range(len(head))]
    for r in table:
        cells = [r[c].ljust(widths[c]) if c < 4 else r[c].rjust(widths[c]) for c in range(len(r))]
        lines.append("  ".join(cells).rstrip())
    lines.append("")
    for deal, donor, to, points in scored.helps:
        if to >= 0:
            text = f"Help at deal {deal + 1}: {names[donor]} gives {points} to {names[to]}"
            lines.append(text + " (001 §4.2.3)")
        else:
            text = f"Overflow at deal {deal + 1}: {names[donor]} writes {points} off the gora"
            lines.append(text + " (001 §4.1.1)")
    if scored.closed_at is not None:
        lines.append(f"The pulka closed at deal {scored.closed_at + 1} (001 §4.2.14).")
    else:
        lines.append("The pulka did not close.")
    if any(scored.conversion):
        parts = ", ".join(f"{names[s]} {c:+d}" for s, c in enumerate(scored.conversion))
        lines.append(f"End conversion into the gora (001 §4.2.3): {parts}")
    lines.append("Final: " + "; ".join(
        f"{names[s]} P {x.pulya} G {x.gora} W " + ",".join(
            f"{short[q]} {w}" for q, w in enumerate(x.whists) if q != s)
        for s, x in enumerate(scored.final_row())
    ))  # fmt: skip
    settlement = scored.settlement
    method = {
        "kodeks": "Variant 1, each gora rounded",
        "average": "Variant 2, the average gora rounded",
    }.get(settlement.rounding, "exact, not rounded")
    lines += ["", f"Settlement in whists (001 §4.2.14, {method}, §4.2.12):"]
    width = max(len(name) for name in names)
    for s, name in enumerate(names):
        exact = settlement.exact[s]
        note = "" if exact == settlement.totals[s] else f"   (exact {exact})"
        lines.append(f"  {name.ljust(width)}  {_fmt(settlement.totals[s]):>8}{note}")
    if findings:
        lines += ["", "Findings:"] + [f"  {_finding(f)}" for f in findings]
    return "\n".join(lines) + "\n"


def _finding(f: Finding) -> str:
    return f"{f.severity}: {f}"
