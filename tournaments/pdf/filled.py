"""Filled protocols, fast (issue 28): every rule family's sheet drawn with reportlab's platypus.

The sheets used to be HTML templates laid out by WeasyPrint, 0.2–1 s of CPU a sheet (the
cascade and the automatic table layout of the grid): a Russian round of 333 tables took 98 s.
Here each sheet is built from the same context (:func:`tournaments.pdf.protocol_contexts._filled_sheet`) as
platypus flowables with fixed column widths, and every sheet of a round (or of a whole event)
goes into one document: the fonts are embedded once, a table too long for one page continues
on the next with its header repeated (001 §4.2.11: a pulka is never cut), and each sheet's
footer counts its own pages ("Page 2 / 2"), as the per-sheet HTML documents did.

This module draws what every family's sheet has: the title, the rules (family, convention and
its options, the event's dates in the document's language, how the pulka ended), the game's
terms, the protocol's version and its approval stamp, the players by seat, the findings,
rulings and penalties in words, the signature lines and the footer. What differs by family —
the terms, the grid of deal rows in the family's columns (♦ ♥ in red, ♠ ♣ in black; penalty
lines in words, shaded; the Russian pulka's grid in :mod:`tournaments.pdf.pulka`), the final
table — is a :class:`tournaments.pdf.layouts.Layout`, named by the family's
``FamilyUI.filled_layout``.

The fonts, the colours, the styles and the plain tables are :mod:`tournaments.pdf.draw`'s.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from django.utils import formats, timezone
from django.utils.translation import get_language, gettext
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    PageBreak,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from tournaments.pdf.contexts import options_named, variant_named
from tournaments.pdf.draw import (
    BOLD,
    BOLD_ITALIC,
    FONT,
    GREY,
    PROVISIONAL,
    Styles,
    _fonts,
    e,
    plain_table,
)
from tournaments.pdf.layouts import LAYOUTS, final_table

__all__ = ["render_sheets"]

#: the page margins (top, right, bottom, left) in mm, as ``templates/pdf/base.html``'s @page
MARGINS_MM = (12.0, 10.0, 14.0, 10.0)


class _SheetStart(Flowable):
    """A zero-size flowable at the top of each sheet: tells the canvas which sheet its pages
    belong to (the footer's per-sheet page numbers) and reports the job's progress."""

    def __init__(self, index: int, tell: Callable[[int], None]) -> None:
        super().__init__()
        self.index, self.tell = index, tell
        self.width = self.height = 0

    def wrap(self, available_width: float, available_height: float) -> tuple[int, int]:
        return 0, 0

    def draw(self) -> None:
        self.canv.pulka_sheet = self.index
        self.tell(self.index)


def _canvas_class(
    footers: list[str], page_word: str, paper_size: tuple[float, float], counts: list[int]
) -> Any:
    """A canvas that holds its pages until the end, then writes each page's footer: the sheet's
    name on the left, "Page i / n" of its sheet on the right (7 pt grey, in the bottom margin as
    ``base.html``'s margin boxes). ``counts`` is filled with the pages of each sheet."""

    class SheetCanvas(Canvas):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.pulka_sheet = 0
            self.pulka_pages: list[dict[str, Any]] = []

        def showPage(self) -> None:  # noqa: N802 (reportlab's name)
            self.pulka_pages.append(dict(self.__dict__))
            self._startPage()

        def save(self) -> None:
            totals = [0] * len(footers)
            for state in self.pulka_pages:
                totals[state["pulka_sheet"]] += 1
            counts[:] = totals
            seen: dict[int, int] = {}
            width, _height = paper_size
            y = (MARGINS_MM[2] - 5.5) * mm - 7 * 0.93
            for state in self.pulka_pages:
                self.__dict__.update(state)
                sheet = state["pulka_sheet"]
                seen[sheet] = seen.get(sheet, 0) + 1
                self.setFont(FONT, 7)
                self.setFillColor(GREY)
                self.drawString(MARGINS_MM[3] * mm, y, footers[sheet])
                self.drawRightString(
                    width - MARGINS_MM[1] * mm,
                    y,
                    f"{page_word} {seen[sheet]} / {totals[sheet]}",
                )
                Canvas.showPage(self)
            Canvas.save(self)

    return SheetCanvas


def _datetime(value: Any, fmt: str) -> str:
    """``value`` in the document's language (the templates' ``|date`` filter: local time)."""
    if value is None:
        return ""
    if hasattr(value, "hour") and timezone.is_aware(value):
        value = timezone.localtime(value)
    return formats.date_format(value, fmt)


def _family_name(rules: dict[str, Any]) -> str:
    names = rules.get("family_names") or {}
    return str(names.get(get_language(), names.get("en", "")))


def _sheet(sheet: dict[str, Any], layout: Any, st: Styles, width: float) -> list[Any]:
    """The flowables of one sheet drawn in ``layout`` (a :class:`tournaments.pdf.layouts.
    Layout`; call inside ``translation.override``)."""
    event, rules, protocol = sheet["event"], sheet.get("rules") or {}, sheet.get("protocol")
    where = gettext("Round %(r)s, table %(t)s") % {"r": sheet["round"], "t": sheet["table"]}
    out: list[Any] = [Paragraph(f"{e(event['name'])} — {e(where)}", st.title)]

    # (the words outside the f-strings: xgettext does not look inside them)
    words = {
        "rules": gettext("Rules"),
        "pulka": gettext("The pulka"),
        "version": gettext("Protocol version"),
        "approved": gettext("APPROVED"),
        "provisional": gettext("PROVISIONAL — not approved"),
        "seat": gettext("Seat"),
    }
    # the rules: the family, the convention and its options, the event's days, the ending
    options = "; ".join(f"{o['label']}: {o['value']}" for o in options_named(rules))
    first, last = rules.get("first_day"), rules.get("last_day")
    days = _datetime(first, "DATE_FORMAT")
    if last and last != first:
        days += " – " + _datetime(last, "DATE_FORMAT")
    if event.get("venue"):
        days += f", {event['venue']}"
    # one paragraph (a long one wraps as text, not as columns a reader cannot follow)
    line = (
        f"{e(words['rules'])}: <b>{e(_family_name(rules))} — {e(variant_named(event))}</b>"
        + (f" ({e(options)})" if options else "")
        + f" · {e(days)}"
    )
    if protocol:
        line += f" · {e(words['pulka'])}: <b>{e(protocol['ending_words'])}</b>"
    out.append(Paragraph(line, st.body))

    # the game's terms, the version and its stamp; the players by seat
    def wide(text: str, font: str = FONT) -> float:  # a cell as wide as its text, and a gap
        return pdfmetrics.stringWidth(text, font, 9) + 4 * mm + 2

    terms = [(label, value) for label, value in layout.terms(sheet) if value not in (None, "")]
    target = " · ".join(f"{label}: {value}" for label, value in terms)
    meta = [
        Paragraph(" · ".join(f"{e(label)}: <b>{e(value)}</b>" for label, value in terms), st.body)
    ]
    widths = [wide(target, BOLD)]
    style = [
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LEFTPADDING", (0, 0), (-1, -1), 0),
        ("RIGHTPADDING", (0, 0), (-1, -1), 3 * mm),
        ("TOPPADDING", (0, 0), (-1, -1), 1),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
    ]
    if protocol:
        version = f"{words['version']} {protocol['version']}"
        meta.append(Paragraph(e(version), st.body))
        widths.append(wide(version))
        if protocol["approved"]:
            stamp = Paragraph(f"<b>{e(words['approved'])}</b>", st.body)
            stamp_width = wide(gettext("APPROVED"), BOLD)
        else:
            stamp = Paragraph(
                f'<font color="{PROVISIONAL}"><b><i>{e(words["provisional"])}</i></b></font>',
                st.body,
            )
            stamp_width = wide(gettext("PROVISIONAL — not approved"), BOLD_ITALIC)
        meta.append(stamp)
        widths.append(stamp_width)
        style += [
            ("BOX", (2, 0), (2, 0), 1, "#000000"),
            ("LEFTPADDING", (2, 0), (2, 0), 2 * mm),
            ("RIGHTPADDING", (2, 0), (2, 0), 2 * mm),
        ]
        if protocol["approved"]:
            meta.append(
                Paragraph(
                    e(_datetime(protocol.get("approved_on"), "SHORT_DATETIME_FORMAT")), st.body
                )
            )
            widths.append(60 * mm)
            style.append(("LEFTPADDING", (3, 0), (3, 0), 2 * mm))
    table = Table([meta], colWidths=widths, hAlign="LEFT")
    table.setStyle(TableStyle(style))
    out.append(table)
    seats = " · ".join(
        f"{e(words['seat'])} {p['seat']}: <b>{e(p['name'])}</b>" for p in sheet["players"]
    )
    out.append(Paragraph(seats, st.body))
    out.append(Spacer(0, 1.5 * mm))

    if not protocol:
        out.append(
            Paragraph(e(gettext("No protocol has been entered for this table yet.")), st.body)
        )
    else:
        out += layout.block(sheet, st, width)
        out += _tables_below(sheet, layout, st, width)
    # the signatures
    names = [p["name"] for p in sheet["players"]] + [gettext("Referee")]
    cell = width / len(names)
    underscore = pdfmetrics.stringWidth("_", FONT, 9)

    def line(name: str) -> str:  # the name and a line to sign on, as long as the cell allows
        room = cell - 4 * mm - pdfmetrics.stringWidth(f"{name}: ", FONT, 9)
        return f"{e(name)}: " + "_" * max(8, min(20, int(room / underscore)))

    cells = [Paragraph(line(n), st.body) for n in names]
    sign = Table([cells], colWidths=[cell] * len(cells), hAlign="LEFT")
    sign.setStyle(
        TableStyle(
            [
                ("TOPPADDING", (0, 0), (-1, -1), 6 * mm),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
            ]
        )
    )
    out.append(sign)
    return out


def _tables_below(sheet: dict[str, Any], layout: Any, st: Styles, width: float) -> list[Any]:
    """The family's final table (the Russian settlement, 001 §4.2.14; the Balkan final
    calculation; the pot games' result; Priffe's player totals) with its notes and what the
    family draws after it, then the findings, the rulings and the penalties, in words."""
    out: list[Any] = [Paragraph(e(layout.result_heading(sheet)), st.heading)]
    out += [Paragraph(text, st.body) for text in layout.before_result(sheet)]
    out.append(final_table(layout, sheet, st, width))
    out += [Paragraph(text, st.body) for text in layout.after_result(sheet)]
    out += layout.tail(sheet, st, width)
    severity = {"error": gettext("Error"), "warning": gettext("Warning")}
    if sheet.get("findings"):
        out.append(Paragraph(e(gettext("Findings")), st.heading))
        out.append(
            plain_table(
                [gettext("Severity"), gettext("Deal"), gettext("Finding"), gettext("Rule")],
                [
                    [
                        severity.get(f["severity"], f["severity"]),
                        "" if f.get("deal") is None else f["deal"] + 1,
                        f"{f['title']}: {f['sentence']}" if f.get("sentence") else f["title"],
                        f.get("citation", "") if layout.cite else f.get("rule", ""),
                    ]
                    for f in sheet["findings"]
                ],
                [0.1, 0.06, 0.66, 0.18],
                st,
                width,
            )
        )
    if sheet.get("rulings"):
        out.append(Paragraph(e(gettext("Rulings")), st.heading))
        out.append(
            plain_table(
                [
                    gettext("Ruling"),
                    gettext("Player"),
                    gettext("Rule"),
                    gettext("Reason"),
                    gettext("Written into the pulka"),
                    gettext("Active"),
                ],
                [
                    [
                        f"{r['kind']}: {r['text']}"
                        if r.get("text") and not r["wrote"]
                        else r["kind"],
                        r["seat"],
                        r["rule"],
                        r["reason"],
                        "; ".join(r["wrote"]) or "—",
                        gettext("yes") if r["active"] else gettext("no (replaced or reversed)"),
                    ]
                    for r in sheet["rulings"]
                ],
                [0.2, 0.13, 0.08, 0.2, 0.29, 0.1],
                st,
                width,
            )
        )
    if sheet.get("penalties"):
        out.append(Paragraph(e(gettext("Penalties")), st.heading))
        reversed_word = gettext("reversed")
        out.append(
            plain_table(
                [
                    gettext("Player"),
                    gettext("Penalty"),
                    gettext("Whists"),
                    gettext("Rule"),
                    gettext("Reason"),
                ],
                [
                    [
                        p["name"],
                        p["kind"] if p["active"] else f"{p['kind']} ({reversed_word})",
                        p["whists"],
                        p["rule"],
                        p["reason"],
                    ]
                    for p in sheet["penalties"]
                ],
                [0.22, 0.2, 0.1, 0.1, 0.38],
                st,
                width,
                numeric=frozenset({2}),
            )
        )
    return out


def render_sheets(
    sheets: list[dict[str, Any]],
    *,
    page: tuple[float, float],
    title: str,
    progress: Callable[[int], None] | None = None,
) -> tuple[bytes, list[int]]:
    """Every sheet of ``sheets`` (contexts of :func:`tournaments.pdf.protocol_contexts._filled_sheet`) in one PDF,
    each from a new page, in the given order (call inside ``translation.override``); and the
    number of pages of each sheet.

    ``page``: the landscape page size in pt; ``progress(done)`` is told each time a sheet is
    finished (``done`` sheets so far), the last one included. The memory taken grows with the
    sheets (about 0.4 MiB a sheet while it is drawn): draw a long list in parts.
    """
    _fonts()
    st = Styles()
    top, right, bottom, left = (x * mm for x in MARGINS_MM)
    width = page[0] - left - right
    footers = []
    story: list[Any] = []

    def tell(index: int) -> None:  # sheet ``index`` begins: the ones before it are done
        if progress is not None and index:
            progress(index)

    for i, sheet in enumerate(sheets):
        layout = LAYOUTS[sheet.get("layout") or "pulka"]
        where = gettext("Round %(r)s, table %(t)s") % {"r": sheet["round"], "t": sheet["table"]}
        footers.append(f"{sheet['event']['name']} — {where}")
        if i:
            story.append(PageBreak())
        story.append(_SheetStart(i, tell))
        story += _sheet(sheet, layout, st, width)
    out = io.BytesIO()
    document = BaseDocTemplate(
        out,
        pagesize=page,
        leftMargin=left,
        rightMargin=right,
        topMargin=top,
        bottomMargin=bottom,
        title=title,
        author="Pulka",
        pageCompression=1,
    )
    frame = Frame(left, bottom, width, page[1] - top - bottom, 0, 0, 0, 0, id="sheet")
    document.addPageTemplates([PageTemplate(id="sheet", frames=[frame])])
    counts: list[int] = []
    document.build(story, canvasmaker=_canvas_class(footers, gettext("Page"), page, counts))
    if progress is not None and sheets:
        progress(len(sheets))
    return out.getvalue(), counts
