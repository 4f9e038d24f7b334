"""Paper sizes and the blank protocol's grid geometry, for the context builders
(:mod:`tournaments.pdf.contexts`) and the renderers (:mod:`tournaments.pdf.render`): plain data,
cheap to import (the API lists the papers).
"""

from __future__ import annotations

__all__ = ["PAPERS"]


#: CSS page sizes; A4 is the default (Letter for North American organisers)
PAPERS = {"A4": "A4", "letter": "letter"}
#: the printable width of a landscape page in mm (the page less 10 mm margins each side)
LANDSCAPE_WIDTH_MM = {"A4": 277.0, "letter": 259.4}
#: the printable height of a landscape page in mm (the page less its 12 and 14 mm margins)
LANDSCAPE_HEIGHT_MM = {"A4": 184.0, "letter": 189.9}
#: portrait page sizes in pt (width, height), for the blank protocols' reportlab overlay
PAGE_PT = {"A4": (595.2756, 841.8898), "letter": (612.0, 792.0)}
#: height of one row of the blank grid, mm
ROW_MM = 5.0


def grid_widths(size: int) -> list[float]:
    """Column widths in % of the blank sheet: №, dealer, contract/result, then per player
    pulya, gora and the whists on each other player."""
    per_player = size + 1
    cell = 75.0 / (size * per_player)
    return [3.0, 6.0, 16.0] + [cell] * (size * per_player)
