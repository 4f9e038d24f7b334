"""The renderers behind :func:`tournaments.pdf.documents.render`: HTML templates laid out by
WeasyPrint (:func:`render_pdf`, data: URIs only), the blank protocols as a static sheet per
table size with a reportlab overlay (:func:`render_blank`, :mod:`tournaments.pdf.blank`), the
filled protocols drawn with reportlab in parts joined by pypdf (:func:`render_filled_round`,
:mod:`tournaments.pdf.filled`), the QR codes.

WeasyPrint, pypdf and reportlab load with this module (about 2 s at import): only a process
that renders a file imports it.
"""

from __future__ import annotations

import base64
import io
from collections.abc import Callable
from typing import Any

import segno
import weasyprint
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext
from pypdf import PdfWriter
from weasyprint.urls import URLFetcher

from tournaments.pdf import blank as pdf_sheets
from tournaments.pdf import filled as pdf_filled
from tournaments.pdf.blank import GREY, Run
from tournaments.pdf.contexts import variant_named
from tournaments.pdf.paper import (
    LANDSCAPE_HEIGHT_MM,
    LANDSCAPE_WIDTH_MM,
    PAGE_PT,
    PAPERS,
    ROW_MM,
    grid_widths,
)

__all__ = ["render_filled_round", "render_blank", "render_pdf", "static_only_fetcher"]


def static_only_fetcher() -> Any:
    """A WeasyPrint URL fetcher that serves inline ``data:`` URIs only: no network, no file
    system (a template can never make the worker fetch anything)."""
    return URLFetcher(allowed_protocols=("data",), fail_on_errors=True)


def qr_data_uri(text: str) -> str:
    return segno.make(text, error="m").png_data_uri(scale=4, border=2)


def blank_grid_svg(size: int, rows: int, width_mm: float) -> str:
    """The empty rows of a blank protocol as one vector image (drawn once, reused on every
    sheet of the size: thousands of empty table cells are what makes a 100-table PDF slow)."""
    widths = grid_widths(size)
    height = rows * ROW_MM
    xs = [0.0]
    for w in widths:
        xs.append(xs[-1] + w * width_mm / 100)
    group_starts = {3 + k * (size + 1) for k in range(size)}
    lines = []
    for r in range(rows + 1):
        y = r * ROW_MM
        lines.append(
            f'<line x1="0" y1="{y:.2f}" x2="{width_mm:.2f}" y2="{y:.2f}" stroke-width="0.15"/>'
        )
    for i, x in enumerate(xs):
        thick = i in group_starts or i in (0, len(xs) - 1)
        lines.append(
            f'<line x1="{x:.2f}" y1="0" x2="{x:.2f}" y2="{height:.2f}" '
            f'stroke-width="{0.42 if thick else 0.15}"/>'
        )
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width_mm}mm" height="{height}mm" '
        f'viewBox="0 0 {width_mm} {height}"><g stroke="#444">{"".join(lines)}</g></svg>'
    )
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()


def render_pdf(
    template: str, context: dict[str, Any], *, paper: str = "A4", language: str = "en"
) -> bytes:
    """Render ``template`` with ``context`` to PDF bytes.

    :raises ValueError: for an unknown paper size.
    """
    if paper not in PAPERS:
        raise ValueError(f"paper {paper!r}: choose one of {sorted(PAPERS)}")
    with translation.override(language):
        html = render_to_string(
            template, {**context, "paper": PAPERS[paper], "generated_at": timezone.now()}
        )
    return weasyprint.HTML(
        string=html, url_fetcher=static_only_fetcher(), base_url=str(settings.BASE_DIR)
    ).write_pdf()


#: tables between two reports of a round job's progress
PROGRESS_EVERY_TABLES = 10
#: sheets drawn with reportlab to one part (about 40 MiB while it is drawn)
DRAWN_SHEETS_PER_PART = 100


def _landscape(paper: str) -> tuple[float, float]:
    width, height = PAGE_PT[paper]
    return height, width


def _filled_title(context: dict[str, Any]) -> str:
    """The PDF's title of a filled-protocols file (call inside ``translation.override``)."""
    name = context.get("event", {}).get("name", "")
    if "table" in context:  # one table's sheet
        where = gettext("Round %(r)s, table %(t)s: protocol") % {
            "r": context["round"],
            "t": context["table"],
        }
    elif context.get("rounds"):
        where = gettext("Filled protocols of the event")
    else:
        where = gettext("Round %(n)s: filled protocols") % {"n": context["round"]}
    return f"{name} — {where}"


def render_filled_round(
    context: dict[str, Any],
    *,
    paper: str = "A4",
    language: str = "en",
    progress: Callable[[int, int], None] | None = None,
) -> bytes:
    """Filled protocols as one PDF, a sheet per table in the given order: a round's
    (:func:`filled_round_context`, a bookmark per table) or a whole event's
    (:func:`filled_event_context`: every round's tables in round then table order, a bookmark
    per round and per table).

    Every sheet is drawn by :mod:`tournaments.pdf.filled` in its family's layout
    (``FamilyUI.filled_layout``, :mod:`tournaments.pdf.layouts`), :data:`DRAWN_SHEETS_PER_PART`
    sheets to a document (about 0.02 s of CPU a sheet where WeasyPrint took 0.3 s, issue 28),
    each sheet's pages numbered on their own. The memory held is a part's, whatever the number
    of sheets; the parts are joined in order.
    ``progress(done, total)`` after every :data:`PROGRESS_EVERY_TABLES` tables and at the end.
    """
    if paper not in PAPERS:
        raise ValueError(f"paper {paper!r}: choose one of {sorted(PAPERS)}")
    tables = context["tables"]
    total = len(tables)
    reported = [0]

    def tell(done: int) -> None:
        if progress is not None and done > reported[0]:
            if done % PROGRESS_EVERY_TABLES == 0 or done == total:
                progress(done, total)
            reported[0] = done

    parts: list[bytes] = []
    pages: list[int] = []  # of each sheet, in order
    with translation.override(language):
        title = _filled_title(context)
        start = 0
        while start < total:  # in parts
            end = min(total, start + DRAWN_SHEETS_PER_PART)
            data, counts = pdf_filled.render_sheets(
                tables[start:end],
                page=_landscape(paper),
                title=title,
                progress=lambda done, start=start: tell(start + done),
            )
            parts.append(data)
            pages += counts
            start = end
        if total == 1:  # one table's file: no bookmarks to add
            return parts[0]
        writer = PdfWriter()
        for part in parts:
            writer.append(io.BytesIO(part), import_outline=False)
        writer.add_metadata({"/Title": title, "/Creator": "Pulka"})
        several_rounds = bool(context.get("rounds"))
        page, parent, last_round = 0, None, None
        for sheet, count in zip(tables, pages, strict=True):
            if several_rounds and sheet["round"] != last_round:
                parent = writer.add_outline_item(
                    title=gettext("Round %(n)s") % {"n": sheet["round"]}, page_number=page
                )
                last_round = sheet["round"]
            writer.add_outline_item(
                title=gettext("Table %(n)s") % {"n": sheet["table"]},
                page_number=page,
                parent=parent,
            )
            page += count
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def render_blank(context: dict[str, Any], *, paper: str = "A4", language: str = "en") -> bytes:
    """The blank protocols: the static sheet of each table size rendered once, the per-table
    text as a light overlay, merged (:mod:`tournaments.pdf.blank`, issue 6). The QR codes are
    made from the links the context (and hash) holds."""
    if paper not in PAPERS:
        raise ValueError(f"paper {paper!r}: choose one of {sorted(PAPERS)}")
    width = LANDSCAPE_WIDTH_MM[paper]
    rows = len(context["rows"])
    grid_height = rows * ROW_MM
    header_height = sum(pdf_sheets.HEADER_ROWS_MM)
    backgrounds = {}
    geometry = {}
    for size in sorted({t["size"] for t in context["tables"] if t["size"]}):
        col_mm = [w * width / 100 for w in grid_widths(size)]
        g = geometry[size] = pdf_sheets.sheet_geometry(size, col_mm)
        backgrounds[size] = render_pdf(
            "pdf/blank_background.html",
            {
                **context,
                "g": g,
                "head_mm": pdf_sheets.HEAD_MM,
                "width_mm": width,
                "header": pdf_sheets.header_svg(size, col_mm),
                "header_mm": header_height,
                "grid": blank_grid_svg(size, rows, width),
                "grid_height_mm": grid_height,
            },
            paper=paper,
            language=language,
        )
    signatures_top = pdf_sheets.HEAD_MM + header_height + grid_height + 4.0
    with translation.override(language):
        sheets = [
            _blank_sheet(context, t, geometry.get(t["size"]), page=i + 1)
            for i, t in enumerate(context["tables"])
        ]
        title = f"{context['event']['name']} — " + gettext("Round %(n)s: blank protocols") % {
            "n": context["round"]
        }
    width_pt, height_pt = PAGE_PT[paper]
    data = pdf_sheets.draw_overlay(
        sheets,
        page=(height_pt, width_pt),
        width_mm=width,
        signatures_top_mm=signatures_top,
        # the footer in the bottom margin, where base.html's margin boxes put it
        footer_top_mm=LANDSCAPE_HEIGHT_MM[paper] + 5.5,
        title=title,
    )
    return pdf_sheets.merge(data, backgrounds, [t["size"] for t in context["tables"]])


def qr_png(text: str) -> bytes:
    """The QR code of ``text`` as PNG bytes (the image of :func:`qr_data_uri`)."""
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="png", scale=4, border=2)
    return out.getvalue()


def _blank_sheet(
    context: dict[str, Any], t: dict[str, Any], g: dict[str, Any] | None, *, page: int
) -> dict[str, Any]:
    """The per-table text of one blank sheet, in :func:`pdf_sheets.draw_overlay`'s terms
    (labels translated: call inside ``translation.override``)."""
    event = context["event"]
    round_label = gettext("Round %(n)s") % {"n": context["round"]}
    if event["deals_per_round"]:
        target = [Run(gettext("Deals") + ": "), Run(str(event["deals_per_round"]), "b")]
    else:
        target = [Run(gettext("Pulka to") + ": "), Run(str(event["pulka_target"]), "b")]
    first = [
        Run(f"{gettext('Variant')}: "),
        Run(variant_named(event), "b"),
        Run(" · "),
        *target,
        Run(f" · {gettext('First dealer')}: "),
        Run(t["first_dealer"], "b"),
        Run(f" ({gettext('seat')} {t['first_dealer_seat']})"),
    ]
    players: list[Any] = []
    for p in t["players"]:
        if players:
            players.append(Run(" · "))
        players += [Run(f"{gettext('Seat')} {p['seat']}: "), Run(p["name"], "b")]
        if p["club"]:
            players += [Run(" "), Run(f"({p['club']})", color=GREY)]
    gap = Run("", gap=6 * 72 / 25.4)  # the spans' 6 mm right margin
    signatures: list[Any] = []
    for label in [p["name"] for p in t["players"]] + [gettext("Referee")]:
        signatures += [Run(f"{label}: ________________"), gap]
    heads, opponents = [], []
    if g is not None:
        for i, c in enumerate(t["columns"]):
            heads.append((c["name"], g["names"][i]))
            opponents += list(zip(c["others"], g["opponents"][i], strict=True))
    return {
        "title": f"{event['name']} — {round_label}, " + gettext("table %(n)s") % {"n": t["number"]},
        "meta": [first, players],
        "heads": heads,
        "opponents": opponents,
        "qr": qr_png(t["link"]),
        "qr_label": gettext("Enter this table's protocol"),
        "link": t["link"],
        "signatures": signatures,
        "footer": (
            f"{event['name']} — {round_label}",
            f"{gettext('Page')} {page} / {len(context['tables'])}",
        ),
    }
