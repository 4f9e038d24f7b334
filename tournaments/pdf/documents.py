"""PDF documents with WeasyPrint (pretix's output contract: ``RenderedFile(filename,
content_type, data)``).

Four kinds: blank protocols of a round (one sheet per table, the tournament sheet of 001 §4.2.11
with the "contract / result" column, and a QR code of the table's private entry link), a filled
protocol (the approved pulka as on paper), seating lists (by table and alphabetically) and the
standings. Each kind has a *context builder* returning plain JSON-safe data (read through the
selectors in a fixed number of queries) and a template in ``templates/pdf/``; the hash of the
context is what :mod:`tournaments.pdf.files` caches a rendered file by, so a PDF is rendered again
only when its data changes. Two kinds are drawn with reportlab instead of laid out as HTML, for
speed: the blank protocols' per-table text (:mod:`tournaments.pdf.blank`, over a static sheet
WeasyPrint renders once per table size) and the filled protocols of every rule family
(:mod:`tournaments.pdf.filled`, each family's sheet described in :mod:`tournaments.pdf.layouts`).

Here: the kinds, their file names, the hash and :func:`render`. The context builders are in
:mod:`tournaments.pdf.contexts` and :mod:`tournaments.pdf.protocol_contexts` (the filled
protocols), the renderers in :mod:`tournaments.pdf.render`, the paper sizes in
:mod:`tournaments.pdf.paper`.

Fonts: DejaVu Sans (Cyrillic and ♠♣♦♥), set explicitly in the page-margin boxes too (they do not
inherit the body font, platform.md). Paper: A4 by default, US Letter as an option.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["RenderedFile", "KINDS", "context_hash", "render"]

#: bump when a template or a drawn layout (pdf_filled, pdf_layouts, pdf_pulka, pdf_draw) changes,
#: so cached files are rendered again
TEMPLATE_VERSION = 9  # 9: the standings PDF of a team event adds the team standings (issue 40)


@dataclass(frozen=True, slots=True)
class RenderedFile:
    filename: str
    content_type: str
    data: bytes


# --- rendering ----------------------------------------------------------------------------------

#: kind → (template, filename pattern)
KINDS: dict[str, tuple[str, str]] = {
    "blank": ("pdf/blank_background.html", "{slug}-round{round}-blank-protocols.pdf"),
    # drawn by tournaments.pdf.filled in the family's layout (tournaments.pdf.layouts)
    "filled": ("", "{slug}-round{round}-table{table}-protocol.pdf"),
    # every round's filled protocols (as "filled")
    "protocols": ("", "{slug}-protocols.pdf"),
    "seating": ("pdf/seating.html", "{slug}-round{round}-seating.pdf"),
    "standings": ("pdf/standings.html", "{slug}-standings.pdf"),
    "links": ("pdf/player_links.html", "{slug}-player-links.pdf"),
    "boards": ("pdf/duplicate_boards.html", "{slug}-boards.pdf"),
}


def context_hash(kind: str, context: dict[str, Any], *, paper: str, language: str) -> str:
    text = json.dumps(
        {
            "kind": kind,
            "template": TEMPLATE_VERSION,
            "paper": paper,
            "language": language,
            "context": context,
        },
        sort_keys=True,
        ensure_ascii=False,
        default=str,
    )
    return hashlib.sha256(text.encode()).hexdigest()


def render(
    kind: str,
    context: dict[str, Any],
    *,
    paper: str = "A4",
    language: str = "en",
    progress: Callable[[int, int], None] | None = None,
) -> RenderedFile:
    """A rendered file of ``kind`` (pretix's renderer contract); ``progress(done, total)`` is
    told how far a long document (a round's filled protocols) has got."""
    # the renderers load WeasyPrint, pypdf and reportlab (about 2 s, python -X importtime): a
    # web process that only asks for a file (and hashes its context here) never pays for them
    from tournaments.pdf.render import qr_data_uri, render_blank, render_filled_round, render_pdf

    template, pattern = KINDS[kind]
    if kind == "blank":
        template = context.get("layout") or template  # a rule family's own blank sheet
    event = context.get("event", {})
    filename = pattern.format(
        slug=event.get("slug", "event"),
        round=context.get("round", ""),
        table=context.get("table", ""),
    )
    if paper != "A4":
        filename = filename.replace(".pdf", f"-{paper}.pdf")
    if kind == "links":  # the QR codes are made here: the context (and its hash) keeps the links
        players = [{**p, "qr": qr_data_uri(p["link"])} for p in context["players"]]
        context = {**context, "players": players}
    if kind == "blank" and context.get("layout"):  # a family's own sheet: each table's QR code
        tables = [{**t, "qr": qr_data_uri(t["link"])} for t in context["tables"]]
        context = {**context, "tables": tables}
    if kind == "protocols":  # every table of every round
        data = render_filled_round(context, paper=paper, language=language, progress=progress)
    elif kind == "filled" and "tables" in context:  # every table of a round
        filename = ROUND_FILLED_NAME.format(slug=event.get("slug", "event"), round=context["round"])
        if paper != "A4":
            filename = filename.replace(".pdf", f"-{paper}.pdf")
        data = render_filled_round(context, paper=paper, language=language, progress=progress)
    elif kind == "filled":  # one table's sheet (pdf_filled, in its family's layout)
        data = render_filled_round({**context, "tables": [context]}, paper=paper, language=language)
    elif kind == "blank" and not context.get("layout"):  # the overlay sheet (pdf_sheets)
        data = render_blank(context, paper=paper, language=language)
    else:
        data = render_pdf(template, context, paper=paper, language=language)
    return RenderedFile(filename, "application/pdf", data)


#: the file name of a round's filled protocols (every table in one PDF)
ROUND_FILLED_NAME = "{slug}-round{round}-protocols.pdf"
