"""Blank protocols, fast: a static background per table size plus a light overlay (issue 6).

Every sheet of a round shares its layout (the grid, the column labels, the 001 §4.2.11
"contract / result" header). WeasyPrint lays that out once per table size (3 or 4 players) as
the *background*; the per-table text (title, players, names in the column heads, first dealer,
QR code, signatures, page footer) is drawn straight with reportlab as the *overlay*
(:func:`draw_overlay`: positioned text, no HTML layout). :func:`merge` draws the
background under each overlay page as one shared PDF form XObject (pypdf), so the file stays as
small as before.

Both documents take their positions from :func:`sheet_geometry`, in mm from the top left of the
sheet (the page's content box of ``templates/pdf/base.html``, less the body's 8 px sides).
"""

from __future__ import annotations

import base64
import io
import re
from dataclasses import dataclass
from typing import Any

from pypdf import PdfReader, PdfWriter
from pypdf.generic import (
    ArrayObject,
    DecodedStreamObject,
    DictionaryObject,
    NameObject,
    NumberObject,
)
from reportlab.lib.units import mm
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

__all__ = [
    "HEAD_MM",
    "HEADER_ROWS_MM",
    "header_svg",
    "sheet_geometry",
    "draw_overlay",
    "fit",
    "merge",
]

#: height of the block above the grid (title, meta and QR code), mm
HEAD_MM = 31.0
#: heights of the three header rows of the grid (player names; pulya/gora/whists on;
#: the opponents' names), mm
HEADER_ROWS_MM = (3.6, 3.6, 2.8)


def _xs(col_mm: list[float]) -> list[float]:
    xs = [0.0]
    for w in col_mm:
        xs.append(xs[-1] + w)
    return xs


def sheet_geometry(size: int, col_mm: list[float]) -> dict[str, Any]:
    """Boxes (left, top, width in mm) of the grid header of a ``size``-player sheet.

    ``static``: the labels every sheet shows (key → box); ``names``: the player column heads
    (one per seat); ``opponents``: per seat, the heads of its whist columns.

    >>> g = sheet_geometry(3, [3.0, 6.0, 16.0] + [6.25] * 12)
    >>> g["names"][1]["left"], g["opponents"][0][1]["left"]
    (50.0, 43.75)
    >>> round(g["grid_top"], 1)
    41.0
    """
    xs = _xs(col_mm)
    h1, h2, _ = HEADER_ROWS_MM
    top = HEAD_MM

    def box(a: int, b: int, y: float) -> dict[str, float]:
        return {"left": xs[a], "top": y, "width": xs[b] - xs[a]}

    static: dict[str, Any] = {
        "no": box(0, 1, top),
        "dealer": box(1, 2, top),
        "contract": box(2, 3, top),
        "pulya": [],
        "gora": [],
        "whists": [],
    }
    names, opponents = [], []
    for k in range(size):
        c = 3 + k * (size + 1)
        names.append(box(c, c + size + 1, top))
        static["pulya"].append(box(c, c + 1, top + h1))
        static["gora"].append(box(c + 1, c + 2, top + h1))
        static["whists"].append(box(c + 2, c + size + 1, top + h1))
        opponents.append([box(c + 2 + j, c + 3 + j, top + h1 + h2) for j in range(size - 1)])
    return {
        "static": static,
        "names": names,
        "opponents": opponents,
        "grid_top": top + sum(HEADER_ROWS_MM),
        "width": xs[-1],
    }


def header_svg(size: int, col_mm: list[float]) -> str:
    """The lines and shading of the grid header as a ``data:`` SVG image (0.15 mm ≈ 0.4 pt
    lines, 0.42 mm ≈ 1.2 pt at each player's group, as in the grid below it)."""
    xs = _xs(col_mm)
    h1, h2, h3 = HEADER_ROWS_MM
    height = h1 + h2 + h3
    width = xs[-1]
    lines: list[tuple[float, float, float, float, float, str]] = []
    thin, thick = 0.15, 0.42
    lines += [
        (0, 0, width, 0, thin, "#444"),
        (0, height, width, height, thin, "#444"),
        (xs[3], h1, width, h1, thin, "#444"),
    ]
    for x in xs[:4]:
        lines.append((x, 0, x, height, thin, "#444"))
    lines.append((width, 0, width, height, thick, "#444"))
    for k in range(size):
        c = 3 + k * (size + 1)
        lines.append((xs[c + 2], h1 + h2, xs[c + size + 1], h1 + h2, thin, "#444"))
        for x in (xs[c + 1], xs[c + 2]):
            lines.append((x, h1, x, height, thin, "#444"))
        for j in range(1, size - 1):
            lines.append((xs[c + 2 + j], h1 + h2, xs[c + 2 + j], height, thin, "#444"))
        lines.append((xs[c], 0, xs[c], height, thick, "#000"))
    body = "".join(
        f'<line x1="{a:.2f}" y1="{b:.2f}" x2="{c:.2f}" y2="{d:.2f}" '
        f'stroke-width="{w}" stroke="{s}"/>'
        for a, b, c, d, w, s in lines
    )
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.2f}mm" '
        f'height="{height:.2f}mm" viewBox="0 0 {width:.2f} {height:.2f}">'
        f'<rect x="0" y="0" width="{width:.2f}" height="{height:.2f}" fill="#eee"/>'
        f"{body}</svg>"
    )
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()


def merge(overlay: bytes, backgrounds: dict[int, bytes], sizes: list[int]) -> bytes:
    """Put page 1 of ``backgrounds[sizes[i]]`` under page ``i`` of ``overlay``.

    Each background is stored once, as a form XObject every page of its size draws first.
    Pages of a size with no background are kept as they are.
    """
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(overlay)))
    forms: dict[int, Any] = {}
    for size, data in backgrounds.items():
        page = PdfReader(io.BytesIO(data)).pages[0]
        form = DecodedStreamObject()
        contents = page.get_contents()  # a stream: "if contents" would test its dictionary
        form.set_data(contents.get_data() if contents is not None else b"")
        form.update(
            {
                NameObject("/Type"): NameObject("/XObject"),
                NameObject("/Subtype"): NameObject("/Form"),
                NameObject("/BBox"): ArrayObject(
                    [NumberObject(0), NumberObject(0), *page.mediabox[2:]]
                ),
                NameObject("/Resources"): page["/Resources"].clone(writer),
            }
        )
        forms[size] = writer._add_object(form)
    for page, size in zip(writer.pages, sizes, strict=True):
        if size not in forms:
            continue
        resources = page.setdefault(NameObject("/Resources"), DictionaryObject())
        resources = resources.get_object()
        xobjects = resources.setdefault(NameObject("/XObject"), DictionaryObject())
        # one name per size: WeasyPrint may share one resources dictionary between pages
        name = f"/PulkaSheet{size}"
        xobjects.get_object()[NameObject(name)] = forms[size]
        under = DecodedStreamObject()
        under.set_data(f"q {name} Do Q\n".encode())
        contents = page.raw_get("/Contents") if "/Contents" in page else ArrayObject()
        resolved = contents.get_object()
        parts = list(resolved) if isinstance(resolved, ArrayObject) else [contents]
        page[NameObject("/Contents")] = ArrayObject([writer._add_object(under), *parts])
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


# --- the overlay, drawn with reportlab ----------------------------------------------------------

#: the page margins of the blank sheets (top, right, bottom, left; base.html's @page), mm
MARGINS_MM = (12.0, 10.0, 14.0, 10.0)
#: the sheet's left edge within the content box: the 8 px (6 pt) body margin, in pt
BODY_SIDE_PT = 6.0
#: DejaVu Sans ascent and ascent + descent (hhea), in em: where WeasyPrint puts the baseline
ASCENT, LINE = 1901 / 2048, (1901 + 483) / 2048
PAD_MM = 0.3
FONTS = {
    "r": ("PulkaDejaVuSans", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
    "b": ("PulkaDejaVuSans-Bold", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"),
}
BLACK, GREY = (0.0, 0.0, 0.0), (0x55 / 255,) * 3


@dataclass(frozen=True, slots=True)
class Run:
    """A piece of text in one style; ``gap`` (pt) is a blank of that width instead."""

    text: str
    weight: str = "r"
    color: tuple[float, float, float] = BLACK
    gap: float = 0.0


def _fonts() -> None:
    for name, path in FONTS.values():
        if name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(name, path))


def wrap(runs: list[Run], size: float, width: float) -> list[list[tuple[float, Run]]]:
    """Break styled runs into lines no wider than ``width`` pt (at spaces and gaps), as
    (x offset, run) per line; a word longer than the line stays whole.

    >>> _fonts()
    >>> lines = wrap([Run("aaa bbb"), Run("ccc", "b")], 10, 40)
    >>> [[r.text for _, r in line] for line in lines]
    [['aaa'], ['bbb', 'ccc']]
    """
    lines: list[list[tuple[float, Run]]] = [[]]
    x = 0.0
    for run in runs:
        tokens = (
            [run]
            if run.gap
            else [Run(t, run.weight, run.color) for t in re.findall(r"\S+|\s+", run.text)]
        )
        for tok in tokens:
            blank = bool(tok.gap) or tok.text.isspace()
            w = tok.gap or stringWidth(tok.text, FONTS[tok.weight][0], size)
            if not blank and lines[-1] and x + w > width:
                lines.append([])
                x = 0.0
            if blank and not lines[-1]:
                continue  # no blank at the start of a line
            if not blank:
                lines[-1].append((x, tok))
            x += w
    return lines


def _clip(text: str, font: str, size: float, width: float) -> str:
    """``text`` cut to the characters that fit in ``width`` pt, with "…" where it was cut."""
    if stringWidth(text, font, size) <= width:
        return text
    while text and stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text.rstrip() + "…" if text else ""


def fit(text: str, font: str, size: float, width: float, smallest: float) -> tuple[str, float]:
    """``text`` at the largest size from ``size`` down to ``smallest`` at which it fits in
    ``width`` pt; else the same with the first names as initials; cut with "…" at ``smallest``
    if that still does not fit (a column head's name).

    >>> _fonts()
    >>> fit("Анна", FONTS["r"][0], 6, 100, 4.5)
    ('Анна', 6)
    >>> fit("Шамиль Щербаков", FONTS["r"][0], 6, 40, 4.5)
    ('Ш. Щербаков', 4.5)
    >>> text, size = fit("Шамиль Щербаков", FONTS["r"][0], 6, 20, 4.5)
    >>> size, text.endswith("…")
    (4.5, True)
    """
    words = text.split()
    # the full name, then its first names as initials ("Н. Орлова"), each as large as fits
    for candidate in dict.fromkeys(
        [text, " ".join([*(w[0] + "." for w in words[:-1]), *words[-1:]])]
    ):
        step = size
        while step > smallest and stringWidth(candidate, font, step) > width:
            step = max(smallest, step - 0.25)
        if stringWidth(candidate, font, step) <= width:
            return candidate, step
    return _clip(candidate, font, step, width), step


#: the head's right column (the QR code and its caption), the code's side at most and at least,
#: and the gap under the caption, above the grid's top border, mm
QR_COLUMN_MM, QR_MM, QR_MIN_MM, QR_GAP_MM = 40.0, 25.0, 16.0, 1.0


def _link_lines(link: str, size: float, width: float) -> list[str]:
    """The link broken after a ``/`` where it is wider than the QR column (as WeasyPrint)."""
    lines: list[str] = [""]
    for part in re.findall(r"[^/]*/|[^/]+", link):
        if lines[-1] and stringWidth(lines[-1] + part, FONTS["r"][0], size) > width:
            lines.append("")
        lines[-1] += part
    return lines


def draw_overlay(
    sheets: list[dict[str, Any]],
    *,
    page: tuple[float, float],
    width_mm: float,
    signatures_top_mm: float,
    footer_top_mm: float,
    title: str,
) -> bytes:
    """One page per sheet: the per-table text over the static sheet (positions as the HTML
    overlay had them: sheet_geometry boxes, 0.3 mm padding, line heights of DejaVu Sans).

    Each sheet: ``title``, ``meta`` (lines of :class:`Run`), ``heads`` (name → box),
    ``opponents`` (name → box), ``qr`` (PNG bytes), ``qr_label``, ``link``, ``signatures``
    (runs), ``footer`` (left, right).
    """
    _fonts()
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=page, pageCompression=1)
    canvas.setTitle(title)
    x0, top0 = MARGINS_MM[3] * mm + BODY_SIDE_PT, page[1] - MARGINS_MM[0] * mm
    qr_left = (width_mm - QR_COLUMN_MM) * mm

    def text(
        x: float,
        top: float,
        s: str,
        weight: str,
        size: float,
        color: tuple[float, float, float] = BLACK,
        half_leading: float = 0.0,
    ) -> None:
        """``s`` with its line box's top ``top`` pt below the sheet's top."""
        canvas.setFillColorRGB(*color)
        canvas.setFont(FONTS[weight][0], size)
        canvas.drawString(x0 + x, top0 - top - half_leading - ASCENT * size, s)

    def lines(runs: list[Run], size: float, width: float, top: float) -> float:
        """Wrapped runs from ``top``; returns the top of the next line."""
        for line in wrap(runs, size, width):
            for x, r in line:
                text(x, top, r.text, r.weight, size, r.color)
            top += LINE * size
        return top

    for sheet in sheets:
        # title (h1 14 pt, 2 mm under it) and meta (9 pt), left of the QR column
        top = lines([Run(sheet["title"], "b")], 14, qr_left, 0.0) + 2 * mm
        for meta in sheet["meta"]:
            top = lines(meta, 9, qr_left, top)
        # QR code (centred in its column) and its caption (6 pt, centred) under it, all
        # above the grid's top border: the code is made smaller to leave the caption room
        column = QR_COLUMN_MM * mm
        caption = [
            " ".join(r.text for _, r in line) for line in wrap([Run(sheet["qr_label"])], 6, column)
        ] + _link_lines(sheet["link"], 6, column)
        caption_mm = (len(caption) * LINE * 6 + (LINE - ASCENT) * 6) / mm
        side = max(QR_MIN_MM, min(QR_MM, HEAD_MM - QR_GAP_MM - caption_mm))
        canvas.drawImage(
            ImageReader(io.BytesIO(sheet["qr"])),
            x0 + qr_left + (QR_COLUMN_MM - side) / 2 * mm,
            top0 - side * mm,
            side * mm,
            side * mm,
        )
        top = side * mm + (LINE - ASCENT) * 6  # the image sits on the baseline of its line
        centre = x0 + qr_left + column / 2
        canvas.setFillColorRGB(*BLACK)
        canvas.setFont(FONTS["r"][0], 6)
        for s in caption:
            canvas.drawCentredString(centre, top0 - top - ASCENT * 6, s)
            top += LINE * 6
        # names in the grid's column heads (7 pt bold) and whist columns (6 pt): smaller where
        # a name is wider than its cell, cut with "…" only below 4.5 pt, never over the border
        for heads, weight, size in ((sheet["heads"], "b", 7.0), (sheet["opponents"], "r", 6.0)):
            for name, box in heads:
                s, fitted = fit(name, FONTS[weight][0], size, (box["width"] - 2 * PAD_MM) * mm, 4.5)
                text(
                    (box["left"] + PAD_MM) * mm,
                    (box["top"] + PAD_MM) * mm + (size - fitted) * ASCENT,
                    s,
                    weight,
                    fitted,
                    half_leading=(1.15 - LINE) * size / 2,  # line-height 1.15
                )
        lines(sheet["signatures"], 9, width_mm * mm, signatures_top_mm * mm)
        # the page footer in the bottom margin (7 pt grey), at the content box's sides
        left, right = sheet["footer"]
        foot = footer_top_mm * mm
        text(-BODY_SIDE_PT, foot, left, "r", 7, GREY)  # sets the font and colour of both
        canvas.drawRightString(x0 - BODY_SIDE_PT + width_mm * mm, top0 - foot - ASCENT * 7, right)
        canvas.showPage()
    canvas.save()
    return out.getvalue()
