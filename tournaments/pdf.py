"""PDF documents with WeasyPrint (pretix's output contract: ``RenderedFile(filename,
content_type, data)``).

Four kinds: blank protocols of a round (one sheet per table, the tournament sheet of 001 §4.2.11
with the "contract / result" column, and a QR code of the table's private entry link), a filled
protocol (the approved pulka as on paper), seating lists (by table and alphabetically) and the
standings. Each kind has a *context builder* returning plain JSON-safe data (read through the
selectors in a fixed number of queries) and a template in ``templates/pdf/``; the hash of the
context is what :mod:`tournaments.pdf_files` caches a rendered file by, so a PDF is rendered again
only when its data changes.

Fonts: DejaVu Sans (Cyrillic and ♠♣♦♥), set explicitly in the page-margin boxes too (they do not
inherit the body font, platform.md). Paper: A4 by default, US Letter as an option.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext

from tournaments.models import Entry, Event, EventPenalty, Protocol, Round, Seat, Table

__all__ = [
    "PAPERS",
    "RenderedFile",
    "KINDS",
    "blank_protocols_context",
    "filled_protocol_context",
    "seating_context",
    "standings_context",
    "context_hash",
    "render",
    "render_blank",
    "render_pdf",
    "static_only_fetcher",
    "table_link",
]

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
#: bump when a template changes, so cached files are rendered again
TEMPLATE_VERSION = 4


@dataclass(frozen=True, slots=True)
class RenderedFile:
    filename: str
    content_type: str
    data: bytes


def static_only_fetcher() -> Any:
    """A WeasyPrint URL fetcher that serves inline ``data:`` URIs only: no network, no file
    system (a template can never make the worker fetch anything)."""
    from weasyprint.urls import URLFetcher

    return URLFetcher(allowed_protocols=("data",), fail_on_errors=True)


def table_link(table_url_key: str, base_url: str) -> str:
    """The absolute private entry link of a table: ``<base>/t/<url_key>/``."""
    return f"{base_url.rstrip('/')}/t/{table_url_key}/"


def player_link(entry_url_key: str, base_url: str) -> str:
    """The absolute private link of an entry: ``<base>/p/<url_key>/``."""
    return f"{base_url.rstrip('/')}/p/{entry_url_key}/"


def qr_data_uri(text: str) -> str:
    import segno

    return segno.make(text, error="m").png_data_uri(scale=4, border=2)


def grid_widths(size: int) -> list[float]:
    """Column widths in % of the blank sheet: №, dealer, contract/result, then per player
    pulya, gora and the whists on each other player."""
    per_player = size + 1
    cell = 75.0 / (size * per_player)
    return [3.0, 6.0, 16.0] + [cell] * (size * per_player)


def blank_grid_svg(size: int, rows: int, width_mm: float) -> str:
    """The empty rows of a blank protocol as one vector image (drawn once, reused on every
    sheet of the size: thousands of empty table cells are what makes a 100-table PDF slow)."""
    import base64

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


def _num(x: Any) -> str:
    f = Fraction(str(x))
    if f.denominator == 1:
        return str(f.numerator)
    return f"{float(f):.2f}".rstrip("0").rstrip(".")


def _convention_name(event: Event) -> str:
    return event.convention_name


def _event_header(event: Event) -> dict[str, Any]:
    return {
        "name": event.name,
        "slug": event.slug,
        "venue": event.venue,
        "starts_on": event.starts_on.isoformat(),
        "ends_on": event.ends_on.isoformat(),
        "variant": _convention_name(event),
        "pulka_target": event.pulka_target,
        "deals_per_round": event.deals_per_round,
    }


def _seats_by_table(round_: Round) -> dict[int, list[dict[str, Any]]]:
    seats: dict[int, list[dict[str, Any]]] = {}
    for s in (
        Seat.objects.filter(round=round_)
        .select_related("entry__player")
        .order_by("table__number", "position")
    ):
        seats.setdefault(s.table_id, []).append(
            {
                "position": s.position,
                "seat": s.position + 1,
                "entry": s.entry_id,
                "name": s.entry.player.name,
                "club": s.entry.player.club,
            }
        )
    return seats


# --- context builders ---------------------------------------------------------------------------


def blank_protocols_context(*, round_: Round, base_url: str, rows: int = 22) -> dict[str, Any]:
    """One sheet per table: header, players by seat, first dealer, the grid to fill in."""
    event = round_.event
    seats = _seats_by_table(round_)
    tables = []
    for t in Table.objects.filter(round=round_).order_by("number"):
        players = seats.get(t.pk, [])
        n = len(players)
        first = next((p for p in players if p["position"] == t.first_dealer), None)
        link = table_link(t.url_key, base_url)
        tables.append(
            {
                "number": t.number,
                "players": players,
                "size": n,
                "first_dealer": first["name"] if first else "",
                "first_dealer_seat": t.first_dealer + 1,
                "link": link,
                "widths": grid_widths(n) if n else [],
                "columns": [
                    {
                        "name": p["name"],
                        "others": [q["name"] for q in players if q["position"] != p["position"]],
                    }
                    for p in players
                ],
            }
        )
    from tournaments.variants import event_variant, ui_of_event

    context = {
        "event": _event_header(event),
        "round": round_.number,
        "tables": tables,
        "rows": list(range(1, rows + 1)),
    }
    layout = ui_of_event(event).blank_template  # a rule family's own sheet (tournaments.variants)
    if layout:
        variant = event_variant(event)
        convention = variant.family.find(event.variant).with_options(
            **(event.convention_options or {})
        )
        context["layout"] = layout
        limit = getattr(convention, "refa_limit_for", None)  # the Balkan refas (seed 002)
        context["refa_limit"] = limit(event.pulka_target) if limit else None
        ui = ui_of_event(event)
        for t in tables:  # the family's own boxes (Priffe: the partnerships per sits)
            t.update(
                ui.blank_sheet(
                    players=[p["name"] for p in t["players"]],
                    first_dealer=t["first_dealer_seat"] - 1,
                    options=convention,
                )
            )
        context.update(ui_of_event(event).blank_context(convention))
    return context


def filled_protocol_context(*, table: Table) -> dict[str, Any]:
    """The approved pulka as on paper (or the current version, marked provisional)."""
    from tournaments.models import Ruling
    from tournaments.selectors.protocols import finding_title
    from tournaments.selectors.rulings_text import ruling_text
    from tournaments.services.protocols import effective_protocol, stored_protocol
    from tournaments.variants import ui_of_event, ui_of_protocol

    round_ = table.round
    event = round_.event
    protocol = (
        Protocol.objects.filter(table=table, approved=True).first()
        or Protocol.objects.filter(table=table, is_current=True, entry_kind="table").first()
    )
    players = _seats_by_table(round_).get(table.pk, [])
    context: dict[str, Any] = {
        "event": _event_header(event),
        "round": round_.number,
        "table": table.number,
        "players": players,
        "protocol": None,
        "deals": [],
        "findings": [],
        "rulings": [],
        "penalties": [],
        "settlement": [],
        "layout": ui_of_event(event).filled_template,  # the family's sheet (tournaments.variants)
    }
    if protocol is None:
        return context
    scoring_protocol = stored_protocol(protocol.data)
    ui = ui_of_protocol(scoring_protocol)
    context["layout"] = ui.filled_template
    rulings = list(Ruling.objects.filter(incident__table=table).order_by("created_at", "id"))
    # the pulka as scored: with the penalty entries the rulings wrote into this version
    try:
        effective, origin = effective_protocol(
            scoring_protocol, list(protocol.ruling_entries or [])
        )
    except (KeyError, TypeError, ValueError):  # unreadable entries: the deals as entered
        effective, origin = scoring_protocol, list(range(len(scoring_protocol.deals)))
    n = effective.size
    names = list(effective.players)
    sheet = ui.filled_sheet(effective, origin)
    for p, row in enumerate(sheet["settlement"]):
        r = next((x for x in protocol.result if x.get("seat") == p), None)
        row["whists"] = _num(r.get("whists", 0)) if r else ""
    penalties = [
        {
            "name": p.entry.player.name,
            "kind": p.get_kind_display(),
            "whists": p.whists,
            "rule": p.rule,
            "reason": p.reason,
            "active": p.active,
        }
        for p in EventPenalty.objects.filter(event=event, entry__seats__table=table)
        .select_related("entry__player")
        .order_by("created_at", "id")
    ]
    context.update(
        {
            "protocol": {
                "id": protocol.pk,
                "version": protocol.version,
                "approved": protocol.approved,
                "approved_at": protocol.approved_at.isoformat() if protocol.approved_at else "",
                "ending": str(effective.ending),
            },
            "names": names,
            **sheet,
            "findings": [
                {
                    "severity": f.get("severity", ""),
                    "message": f.get("message", ""),
                    # in words, with names (issue 29)
                    "title": finding_title(f.get("code", ""), ui.finding_titles),
                    "sentence": ui.finding_sentence(
                        f, names, finding_title(f.get("code", ""), ui.finding_titles)
                    ),
                    "rule": f.get("rule", ""),
                    "deal": f.get("deal"),
                }
                for f in protocol.findings
            ],
            "rulings": [
                {
                    "kind": r.get_kind_display(),
                    "rule": r.rule,
                    "reason": r.reason,
                    "active": r.active,
                    "seat": names[r.seat] if r.seat is not None and r.seat < n else "",
                    "text": ruling_text(r, names, ui),  # in words (issue 29)
                }
                for r in rulings
            ],
            "penalties": penalties,
        }
    )
    return context


def seating_context(*, round_: Round) -> dict[str, Any]:
    """The round's seating: by table, and alphabetically for the notice board."""
    seats = _seats_by_table(round_)
    tables = [
        {
            "number": t.number,
            "first_dealer_seat": t.first_dealer + 1,
            "players": seats.get(t.pk, []),
        }
        for t in Table.objects.filter(round=round_).order_by("number")
    ]
    alphabetical = sorted(
        (
            {"name": p["name"], "club": p["club"], "table": t["number"], "seat": p["seat"]}
            for t in tables
            for p in t["players"]
        ),
        key=lambda r: (r["name"].casefold(), r["table"]),
    )
    return {
        "event": _event_header(round_.event),
        "round": round_.number,
        "tables": tables,
        "alphabetical": alphabetical,
    }


def player_links_context(*, event: Event, base_url: str) -> dict[str, Any]:
    """A slip per player entered (not withdrawn), by name: the private link and its QR code,
    to cut out and hand over at check-in. A new link (a revoked one) changes the hash, so the
    stored file is made again."""
    entries = (
        event.entries.exclude(status=Entry.Status.WITHDRAWN)
        .select_related("player")
        .order_by("player__name", "pk")
    )
    return {
        "event": _event_header(event),
        "players": [
            {
                "name": e.player.name,
                "club": e.player.club,
                "link": player_link(e.url_key, base_url),
            }
            for e in entries
        ],
    }


def standings_context(*, event: Event) -> dict[str, Any]:
    """The stored standings (never computed here)."""
    from tournaments.selectors.standings import standings_view

    view = standings_view(event=event)
    snapshot = view["snapshot"]
    return {
        "event": _event_header(event),
        "rounds": view["rounds"],
        "columns": view["tiebreak_columns"],
        "rows": [
            {
                "place": r["place_label"],
                "name": r["name"],
                "club": r["club"],
                "rounds_played": r["rounds_played"],
                "total": r["total"],
                "provisional_total": r["provisional_total"] if r["has_provisional"] else None,
                "withdrawn": r["withdrawn"],
                "cells": [
                    None if c is None else {"score": c["score"], "final": c["final"]}
                    for c in r["round_cells"]
                ],
                "metrics": r["metric_cells"],
            }
            for r in view["rows"]
        ],
        # the inputs' hash, not the time of the last run: an unchanged recomputation must not
        # make the cached PDF stale (the PDF shows when it was printed)
        "inputs_hash": snapshot.inputs_hash if snapshot else "",
        "provisional": any(r["has_provisional"] for r in view["rows"]),
        "criterion": _standings_criterion(event),
    }


def _standings_criterion(event: Event) -> Any:
    """What a table result is, as the event's rule family says (the pot games: chips, and what
    happens to the pot left, ``pot_end``), translated when the PDF renders; ``None``: the
    sheet's own sentence (001 §4.1.3)."""
    from django.utils.functional import lazy

    from tournaments.variants import event_convention, ui_of_event

    try:
        ui, convention = ui_of_event(event), event_convention(event)
    except (LookupError, ValueError):
        return None
    if ui.standings_criterion(convention) is None:
        return None
    return lazy(lambda: ui.standings_criterion(convention) or "", str)()


# --- rendering ----------------------------------------------------------------------------------

#: kind → (template, filename pattern)
KINDS: dict[str, tuple[str, str]] = {
    "blank": ("pdf/blank_background.html", "{slug}-round{round}-blank-protocols.pdf"),
    "filled": ("pdf/filled_protocol.html", "{slug}-round{round}-table{table}-protocol.pdf"),
    "seating": ("pdf/seating.html", "{slug}-round{round}-seating.pdf"),
    "standings": ("pdf/standings.html", "{slug}-standings.pdf"),
    "links": ("pdf/player_links.html", "{slug}-player-links.pdf"),
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


def render_pdf(
    template: str, context: dict[str, Any], *, paper: str = "A4", language: str = "en"
) -> bytes:
    """Render ``template`` with ``context`` to PDF bytes.

    :raises ValueError: for an unknown paper size.
    """
    import weasyprint

    if paper not in PAPERS:
        raise ValueError(f"paper {paper!r}: choose one of {sorted(PAPERS)}")
    with translation.override(language):
        html = render_to_string(
            template, {**context, "paper": PAPERS[paper], "generated_at": timezone.now()}
        )
    return weasyprint.HTML(
        string=html, url_fetcher=static_only_fetcher(), base_url=str(settings.BASE_DIR)
    ).write_pdf()


def render(
    kind: str, context: dict[str, Any], *, paper: str = "A4", language: str = "en"
) -> RenderedFile:
    """A rendered file of ``kind`` (pretix's renderer contract)."""
    template, pattern = KINDS[kind]
    template = context.get("layout") or template  # a rule family's own sheet layout
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
    if kind == "blank" and not context.get("layout"):  # the overlay sheet (pdf_sheets)
        data = render_blank(context, paper=paper, language=language)
    else:
        data = render_pdf(template, context, paper=paper, language=language)
    return RenderedFile(filename, "application/pdf", data)


def render_blank(context: dict[str, Any], *, paper: str = "A4", language: str = "en") -> bytes:
    """The blank protocols: the static sheet of each table size rendered once, the per-table
    text as a light overlay, merged (:mod:`tournaments.pdf_sheets`, issue 6). The QR codes are
    made from the links the context (and hash) holds."""
    from tournaments import pdf_sheets

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
    import io

    import segno

    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="png", scale=4, border=2)
    return out.getvalue()


def _blank_sheet(
    context: dict[str, Any], t: dict[str, Any], g: dict[str, Any] | None, *, page: int
) -> dict[str, Any]:
    """The per-table text of one blank sheet, in :func:`pdf_sheets.draw_overlay`'s terms
    (labels translated: call inside ``translation.override``)."""
    from tournaments.pdf_sheets import GREY, Run

    event = context["event"]
    round_label = gettext("Round %(n)s") % {"n": context["round"]}
    if event["deals_per_round"]:
        target = [Run(gettext("Deals") + ": "), Run(str(event["deals_per_round"]), "b")]
    else:
        target = [Run(gettext("Pulka to") + ": "), Run(str(event["pulka_target"]), "b")]
    first = [
        Run(f"{gettext('Variant')}: "),
        Run(str(event["variant"]), "b"),
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
