"""A person's rating history as an SVG line drawn on the server (issue 41: no script library,
no CDN): plain numbers in, the SVG text out.

>>> svg = history_svg([1500.0, 1512.4, 1498.0], label="Rating history")
>>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"') and 'role="img"' in svg
True
>>> svg.count("<circle")  # the last value is marked
1
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

__all__ = ["history_svg", "ticks"]


def ticks(low: float, high: float, count: int = 4) -> list[float]:
    """Round values for the axis between ``low`` and ``high`` (steps of 1, 2 or 5 × 10ⁿ).

    >>> ticks(1488, 1612)
    [1500.0, 1550.0, 1600.0]
    """
    if high <= low:
        return [round(low)]
    raw = (high - low) / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.ceil(low / step) * step
    out = []
    value = first
    while value <= high + 1e-9:
        out.append(float(round(value, 6)))
        value += step
    return out


def history_svg(
    values: Sequence[float],
    *,
    label: str,
    width: int = 640,
    height: int = 220,
    marks: Sequence[int] = (),
) -> str:
    """The line through ``values`` (the rating before the first table, then after each), its
    axis of round values, and a dot on the last value; ``marks``: indices of ``values`` where
    an event ended (short ticks under the line). ``label`` names the figure for screen
    readers."""
    left, right, top, bottom = 52, 10, 10, 22
    w, h = width - left - right, height - top - bottom
    low, high = (min(values), max(values)) if values else (0.0, 1.0)
    if high - low < 20:
        middle = (high + low) / 2
        low, high = middle - 10, middle + 10
    pad = (high - low) * 0.08
    low, high = low - pad, high + pad
    n = max(len(values) - 1, 1)

    def x(i: int) -> float:
        return left + w * i / n

    def y(v: float) -> float:
        return top + h * (high - v) / (high - low)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="100%" style="max-width:{width}px;height:auto" class="rating-plot" '
        f'role="img" aria-label="{escape(label)}">',
        f"<title>{escape(label)}</title>",
    ]
    for t in ticks(low, high):
        parts.append(
            f'<line x1="{left}" x2="{left + w}" y1="{y(t):.1f}" y2="{y(t):.1f}" '
            'stroke="#ccc" stroke-width="1"/>'
            f'<text x="{left - 6}" y="{y(t) + 4:.1f}" text-anchor="end" font-size="12" '
            f'fill="#444">{t:,.0f}</text>'
        )
    for i in marks:
        if 0 <= i < len(values):
            parts.append(
                f'<line x1="{x(i):.1f}" x2="{x(i):.1f}" y1="{top + h}" y2="{top + h + 6}" '
                'stroke="#888" stroke-width="1"/>'
            )
    if values:
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
        parts.append(
            f'<polyline points="{points}" fill="none" stroke="#1d4e89" stroke-width="2" '
            'stroke-linejoin="round"/>'
        )
        last = len(values) - 1
        parts.append(f'<circle cx="{x(last):.1f}" cy="{y(values[-1]):.1f}" r="4" fill="#1d4e89"/>')
    parts.append("</svg>")
    return "".join(parts)
