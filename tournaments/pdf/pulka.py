"""The Russian pulka's filled grid (001 §4.2.11), drawn with reportlab for
:mod:`tournaments.pdf.filled`: the layout ``pulka`` of :mod:`tournaments.pdf.layouts`.

Its own module since the other families' grids share :func:`tournaments.pdf.layouts.
grouped_grid`: the pulka's three header rows (per player the pulya, the gora and the whists on
each other player, each opponent's name fitted to its cell) are its own.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import Paragraph, Table, TableStyle

from tournaments.pdf.blank import fit
from tournaments.pdf.draw import (
    BOLD,
    FONT,
    HEAD_FILL,
    LINE,
    PENALTY_FILL,
    Styles,
    e,
    suits_markup,
)

__all__ = ["pulka_grid"]


def pulka_grid(sheet: dict[str, Any], st: Styles, width: float) -> list[Any]:
    """The pulka grid (001 §4.2.11): №, dealer, contract / result, then per player the pulya,
    the gora and the whists on each other player; its three header rows repeat on each page."""
    names = sheet.get("names") or [p["name"] for p in sheet["players"]]
    n = len(names)
    per = n + 1
    numeric = n * per
    # the dealer's column as wide as the longest name (from 18 to 36 mm; a longer one wraps)
    longest = max((pdfmetrics.stringWidth(str(x), FONT, 7.5) for x in names), default=0.0)
    number_w, dealer_w = 7 * mm, min(36 * mm, max(18 * mm, longest + 2 * 0.8 * mm + 1))
    cell_w = min(13 * mm, (width - number_w - dealer_w - 55 * mm) / max(numeric, 1))
    contract_w = width - number_w - dealer_w - cell_w * numeric
    widths = [number_w, dealer_w, contract_w] + [cell_w] * numeric
    pad = 0.8 * mm

    def fitted(text: str, font: str, size: float, cell: float) -> Paragraph:
        s, size = fit(str(text), font, size, cell - 2 * pad, 4.5)
        return Paragraph(
            f'<font name="{font}" size="{size}">{e(s)}</font>',
            st.grid_opp if size < 7 else st.grid_head,
        )

    head = [
        [Paragraph("№", st.grid_head), Paragraph(e(gettext("Dealer")), st.grid_head)]
        + [Paragraph(e(gettext("Contract / result")), st.grid_head)]
        + [x for name in names for x in [fitted(name, BOLD, 7.5, cell_w * per)] + [""] * n],
        ["", "", ""]
        + [
            x
            for _ in names
            for x in [
                fitted(gettext("Pulya"), BOLD, 7.5, cell_w),
                fitted(gettext("Gora"), BOLD, 7.5, cell_w),
                fitted(gettext("Whists on"), BOLD, 7.5, cell_w * (n - 1)),
            ]
            + [""] * (n - 2)
        ],
        ["", "", ""]
        + [
            x
            for others in sheet["whist_headers"]
            for x in ["", "", *(fitted(o, FONT, 6, cell_w) for o in others)]
        ],
    ]
    style: list[tuple] = [
        ("FONT", (0, 0), (-1, -1), FONT, 7.5),
        ("GRID", (0, 0), (-1, -1), 0.4, LINE),
        ("BACKGROUND", (0, 0), (-1, 2), HEAD_FILL),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("ALIGN", (3, 3), (-1, -1), "RIGHT"),
        ("LEFTPADDING", (0, 0), (-1, -1), pad),
        ("RIGHTPADDING", (0, 0), (-1, -1), pad),
        ("TOPPADDING", (0, 0), (-1, -1), 0.3 * mm),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 0.6 * mm),
        ("SPAN", (0, 0), (0, 2)),
        ("SPAN", (1, 0), (1, 2)),
        ("SPAN", (2, 0), (2, 2)),
    ]
    for k in range(n):
        c = 3 + k * per
        style += [
            ("SPAN", (c, 0), (c + n, 0)),
            ("SPAN", (c, 1), (c, 2)),
            ("SPAN", (c + 1, 1), (c + 1, 2)),
            ("SPAN", (c + 2, 1), (c + n, 1)),
            ("LINEBEFORE", (c, 0), (c, -1), 1.2, "#000000"),
        ]
    rows = list(head)
    ruling = gettext("ruling")
    for d in sheet["deals"]:
        text = suits_markup(d["text"])
        if d.get("from_ruling"):
            text += f" <i>({e(ruling)})</i>"
        row = [str(d["number"]), Paragraph(e(d["dealer"]), st.grid), Paragraph(text, st.grid)]
        for c in d["cells"]:
            row += [str(c["pulya"]), str(c["gora"]), *(str(w) for w in c["whists"])]
        if d.get("penalty"):
            style.append(("BACKGROUND", (0, len(rows)), (-1, len(rows)), PENALTY_FILL))
        rows.append(row)
    grid = Table(rows, colWidths=widths, repeatRows=3, hAlign="LEFT")
    grid.setStyle(TableStyle(style))
    return [grid]
