"""Blank protocols, fast: a static background per table size plus a light overlay (issue 6).

Every sheet of a round shares its layout (the grid, the column labels, the 001 §4.2.11
"contract / result" header). WeasyPrint lays that out once per table size (3 or 4 players) as
the *background*; the per-table text (title, players, names in the column heads, first dealer,
QR code, signatures, page footer) is one *overlay* document of absolutely positioned boxes,
which is cheap to lay out. :func:`merge` draws the background under each overlay page as one
shared PDF form XObject (pypdf), so the file stays as small as before.

Both documents take their positions from :func:`sheet_geometry`, in mm from the top left of the
page's content box (the page margins of ``templates/pdf/base.html``).
"""

from __future__ import annotations

import base64
import io
from typing import Any

__all__ = ["HEAD_MM", "HEADER_ROWS_MM", "header_svg", "sheet_geometry", "overlay_css", "merge"]

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

    static: dict[str, Any] = {"no": box(0, 1, top), "dealer": box(1, 2, top),
                              "contract": box(2, 3, top), "pulya": [], "gora": [], "whists": []}
    names, opponents = [], []
    for k in range(size):
        c = 3 + k * (size + 1)
        names.append(box(c, c + size + 1, top))
        static["pulya"].append(box(c, c + 1, top + h1))
        static["gora"].append(box(c + 1, c + 2, top + h1))
        static["whists"].append(box(c + 2, c + size + 1, top + h1))
        opponents.append([box(c + 2 + j, c + 3 + j, top + h1 + h2) for j in range(size - 1)])
    return {"static": static, "names": names, "opponents": opponents,
            "grid_top": top + sum(HEADER_ROWS_MM), "width": xs[-1]}


def overlay_css(geometry: dict[int, dict[str, Any]]) -> str:
    """The positions of the column heads of each table size as style rules (``.s3 .h0``: the
    first player's name on a 3-player sheet, ``.s3 .o0-1``: his second whist column): one
    stylesheet instead of a style attribute on every box of every sheet (cheaper to parse).

    >>> overlay_css({3: sheet_geometry(3, [10.0] * 15)}).split("}")[0]
    '.s3 .h0 { left: 30.00mm; top: 31.00mm; width: 40.00mm; '
    """
    def rule(selector: str, box: dict[str, float]) -> str:
        return (f"{selector} {{ left: {box['left']:.2f}mm; top: {box['top']:.2f}mm; "
                f"width: {box['width']:.2f}mm; }}")

    rules = []
    for size, g in sorted(geometry.items()):
        for i, box in enumerate(g["names"]):
            rules.append(rule(f".s{size} .h{i}", box))
            rules += [rule(f".s{size} .o{i}-{j}", b) for j, b in enumerate(g["opponents"][i])]
    return "\n".join(rules)


def header_svg(size: int, col_mm: list[float]) -> str:
    """The lines and shading of the grid header as a ``data:`` SVG image (0.15 mm ≈ 0.4 pt
    lines, 0.42 mm ≈ 1.2 pt at each player's group, as in the grid below it)."""
    xs = _xs(col_mm)
    h1, h2, h3 = HEADER_ROWS_MM
    height = h1 + h2 + h3
    width = xs[-1]
    lines: list[tuple[float, float, float, float, float, str]] = []
    thin, thick = 0.15, 0.42
    lines += [(0, 0, width, 0, thin, "#444"), (0, height, width, height, thin, "#444"),
              (xs[3], h1, width, h1, thin, "#444")]
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
    body = "".join(f'<line x1="{a:.2f}" y1="{b:.2f}" x2="{c:.2f}" y2="{d:.2f}" '
                   f'stroke-width="{w}" stroke="{s}"/>' for a, b, c, d, w, s in lines)
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.2f}mm" '
           f'height="{height:.2f}mm" viewBox="0 0 {width:.2f} {height:.2f}">'
           f'<rect x="0" y="0" width="{width:.2f}" height="{height:.2f}" fill="#eee"/>'
           f'{body}</svg>')
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()


def merge(overlay: bytes, backgrounds: dict[int, bytes], sizes: list[int]) -> bytes:
    """Put page 1 of ``backgrounds[sizes[i]]`` under page ``i`` of ``overlay``.

    Each background is stored once, as a form XObject every page of its size draws first.
    Pages of a size with no background are kept as they are.
    """
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import (
        ArrayObject,
        DecodedStreamObject,
        DictionaryObject,
        NameObject,
        NumberObject,
    )

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(overlay)))
    forms: dict[int, Any] = {}
    for size, data in backgrounds.items():
        page = PdfReader(io.BytesIO(data)).pages[0]
        form = DecodedStreamObject()
        contents = page.get_contents()  # a stream: "if contents" would test its dictionary
        form.set_data(contents.get_data() if contents is not None else b"")
        form.update({
            NameObject("/Type"): NameObject("/XObject"),
            NameObject("/Subtype"): NameObject("/Form"),
            NameObject("/BBox"): ArrayObject([NumberObject(0), NumberObject(0),
                                              *page.mediabox[2:]]),
            NameObject("/Resources"): page["/Resources"].clone(writer),
        })
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
