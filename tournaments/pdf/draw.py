"""What the filled protocols are drawn with (issue 28), for :mod:`tournaments.pdf.filled`,
:mod:`tournaments.pdf.layouts` and :mod:`tournaments.pdf.pulka`: the fonts, the colours, the
paragraph styles, the markup of a cell (the suits in colour, the signs DejaVu Sans lacks) and
the plain bordered table (the final tables, the findings, the rulings, the penalties).

Fonts: DejaVu Sans from Debian (``fonts-dejavu-core``), the one the other PDFs use; its oblique
(``fonts-dejavu-extra``) where installed, else the upright face; the Balkan hats (⌒ ⌣) from
DejaVu Sans Mono and Math TeX Gyre (:data:`_SIGNS`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib.fonts import addMapping
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import Paragraph, Table, TableStyle

__all__ = [
    "BOLD",
    "BOLD_ITALIC",
    "FONT",
    "GREY",
    "HEAD_FILL",
    "ITALIC",
    "LINE",
    "MARKUP",
    "PENALTY_FILL",
    "PROVISIONAL",
    "RED",
    "Styles",
    "e",
    "font_file",
    "plain_table",
    "signs_markup",
    "suits_markup",
]


FONT, BOLD, ITALIC, BOLD_ITALIC = (
    "PulkaDejaVuSans",
    "PulkaDejaVuSans-Bold",
    "PulkaDejaVuSans-Oblique",
    "PulkaDejaVuSans-BoldOblique",
)
_DEJAVU = "/usr/share/fonts/truetype/dejavu/"
#: each style's file, then the one to use where it is not installed: the obliques come with
#: Debian's fonts-dejavu-extra, which the Docker image (fonts-dejavu-core) has not
_FONT_FILES = {
    FONT: ("DejaVuSans.ttf",),
    BOLD: ("DejaVuSans-Bold.ttf",),
    ITALIC: ("DejaVuSans-Oblique.ttf", "DejaVuSans.ttf"),
    BOLD_ITALIC: ("DejaVuSans-BoldOblique.ttf", "DejaVuSans-Bold.ttf"),
}


def font_file(name: str) -> str:
    """The file of style ``name``: the first of its :data:`_FONT_FILES` installed."""
    choices = [_DEJAVU + f for f in _FONT_FILES[name]]
    return next((path for path in choices if os.path.exists(path)), choices[-1])


#: the suits' colours (the pages' and the HTML PDFs' ``.suit-red``), and the sheet's greys
RED, GREY, LINE, HEAD_FILL, PENALTY_FILL, PROVISIONAL = (
    "#c8102e",
    "#555555",
    "#444444",
    "#eeeeee",
    "#fff3e0",
    "#7a4b00",
)
_RED_SUITS = "♦♥♢♡"
_SUITS = re.compile(f"[{_RED_SUITS}♠♣♤♧]")


#: the signs DejaVu Sans lacks (the Balkan hats, seed 002): each in a face that has it (Debian's
#: fonts-dejavu-core: Sans Mono; fonts-dejavu-extra: Math TeX Gyre), or, where that face is not
#: installed, the nearest sign DejaVu Sans has
_SIGNS = {
    "⌒": ("PulkaDejaVuSansMono", "DejaVuSansMono.ttf", "⁀"),
    "⌣": ("PulkaDejaVuMath", "DejaVuMathTeXGyre.ttf", "‿"),
}


def signs_markup(markup: str) -> str:
    """``markup`` with each sign DejaVu Sans lacks set in a face that has it (:data:`_SIGNS`;
    call after the fonts are registered)."""
    for sign, (face, _file, instead) in _SIGNS.items():
        if sign in markup:
            registered = pdfmetrics.getRegisteredFontNames()
            markup = markup.replace(
                sign, f'<font name="{face}">{sign}</font>' if face in registered else instead
            )
    return markup


def _fonts() -> None:
    registered = pdfmetrics.getRegisteredFontNames()
    for name in _FONT_FILES:
        if name not in registered:
            pdfmetrics.registerFont(TTFont(name, font_file(name)))
    for face, file, _instead in _SIGNS.values():
        if face not in registered and os.path.exists(_DEJAVU + file):
            pdfmetrics.registerFont(TTFont(face, _DEJAVU + file))
    addMapping(FONT, 0, 0, FONT)
    addMapping(FONT, 1, 0, BOLD)
    addMapping(FONT, 0, 1, ITALIC)
    addMapping(FONT, 1, 1, BOLD_ITALIC)


def suits_markup(text: Any) -> str:
    """``text`` escaped for a platypus paragraph, ♦ and ♥ in red, ♠ and ♣ black (the pages'
    ``suits`` filter, issue 29).

    >>> suits_markup("8♦ / one down, 6♠ <x>")
    '8<font color="#c8102e">♦</font> / one down, 6♠ &lt;x&gt;'
    """
    return _SUITS.sub(
        lambda m: f'<font color="{RED}">{m.group(0)}</font>' if m.group(0) in _RED_SUITS else m[0],
        escape(str(text if text is not None else "")),
    )


def e(text: Any) -> str:
    return escape(str(text if text is not None else ""))


class Styles:
    """The sheet's paragraph styles (``base.html``: 9 pt body, 14 pt title, 11 pt headings)."""

    def __init__(self) -> None:
        self.body = ParagraphStyle("body", fontName=FONT, fontSize=9, leading=11)
        self.title = ParagraphStyle(
            "title", parent=self.body, fontName=BOLD, fontSize=14, leading=17, spaceAfter=2 * mm
        )
        self.heading = ParagraphStyle(
            "heading",
            parent=self.body,
            fontName=BOLD,
            fontSize=11,
            leading=13,
            spaceBefore=4 * mm,
            spaceAfter=2 * mm,
        )
        self.cell = ParagraphStyle("cell", parent=self.body, fontSize=8, leading=9.5)
        self.grid = ParagraphStyle("grid", parent=self.body, fontSize=7.5, leading=9)
        self.grid_head = ParagraphStyle("grid_head", parent=self.grid, fontName=BOLD)
        self.grid_opp = ParagraphStyle("grid_opp", parent=self.grid, fontSize=6, leading=7)
        self.head = ParagraphStyle("head", parent=self.cell, fontName=BOLD)
        self.head_num = ParagraphStyle("head_num", parent=self.head, alignment=2)
        self.num = ParagraphStyle("num", parent=self.cell, alignment=2)
        self.grid_num = ParagraphStyle("grid_num", parent=self.grid, alignment=2)
        self.muted = ParagraphStyle("muted", parent=self.cell, textColor=GREY)


#: a character that makes text platypus markup (a tag, an entity)
MARKUP = re.compile("[<&]")


def plain_table(
    head: list[str],
    rows: list[list[Any]],
    fractions: list[float],
    st: Styles,
    width: float,
    numeric: frozenset[int] = frozenset(),
    *,
    markup: bool = False,
    shaded: Sequence[int] = (),
) -> Any:
    """A bordered table of paragraphs, the header shaded (and repeated on each page it takes),
    columns in ``fractions`` of the width (fixed: no automatic layout); ``numeric`` columns
    right-aligned; the cells plain text, or platypus markup (``markup``); the rows of
    ``shaded`` (0 the first after the header) in the penalty lines' colour. A cell of plain
    text that fits on one line is drawn as a string (a fraction of a paragraph's cost)."""
    widths = [f * width for f in fractions]
    room = [w - 2 * 1.2 * mm for w in widths]

    def cell(value: Any, i: int, header: bool = False) -> Any:
        if header:
            return Paragraph(e(value), st.head_num if i in numeric else st.head)
        text = str(value if value is not None else "")
        plain = (not markup or not MARKUP.search(text)) and "\n" not in text
        if plain and pdfmetrics.stringWidth(text, FONT, 8) <= room[i]:
            return text
        return Paragraph(text if markup else e(text), st.num if i in numeric else st.cell)

    data = [[cell(h, i, True) for i, h in enumerate(head)]]
    data += [[cell(v, i) for i, v in enumerate(r)] for r in rows]
    table = Table(data, colWidths=widths, repeatRows=1, hAlign="LEFT")
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), FONT, 8),
                *(("ALIGN", (i, 1), (i, -1), "RIGHT") for i in sorted(numeric)),
                ("GRID", (0, 0), (-1, -1), 0.4, LINE),
                ("BACKGROUND", (0, 0), (-1, 0), HEAD_FILL),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 1.2 * mm),
                ("RIGHTPADDING", (0, 0), (-1, -1), 1.2 * mm),
                ("TOPPADDING", (0, 0), (-1, -1), 0.6 * mm),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 0.8 * mm),
                *(("BACKGROUND", (0, r + 1), (-1, r + 1), PENALTY_FILL) for r in shaded),
            ]
        )
    )
    return table
