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

Fonts: DejaVu Sans (Cyrillic and ♠♣♦♥), set explicitly in the page-margin boxes too (they do not
inherit the body font, platform.md). Paper: A4 by default, US Letter as an option.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext

from tournaments.models import Entry, Event, EventPenalty, Protocol, Round, Seat, Table
from tournaments.words.penalties import penalty_entry_words

__all__ = [
    "PAPERS",
    "RenderedFile",
    "KINDS",
    "blank_protocols_context",
    "filled_protocol_context",
    "filled_event_context",
    "filled_event_inputs",
    "filled_round_context",
    "render_filled_round",
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
#: bump when a template or a drawn layout (pdf_filled, pdf_layouts, pdf_pulka, pdf_draw) changes,
#: so cached files are rendered again
TEMPLATE_VERSION = 8


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


def _rules_named(event: Event) -> dict[str, Any]:
    """The event's rule family by its name in each language, its dates (printed in the
    document's language) and its agreed options in words, for the filled protocol."""
    try:
        family_names = dict(event.family.names)
        family_names.setdefault("en", event.family.name)
    except (LookupError, ValueError):
        family_names = {}
    return {
        "family_names": family_names,
        "first_day": event.starts_on,
        "last_day": event.ends_on,
        "options": [
            {"label": str(label), "value": str(value)}
            for label, value in event.convention_options_described
        ],
    }


def _seat_row(s: Seat) -> dict[str, Any]:
    """A seat as the sheets print it (``seat`` counted from 1 for people)."""
    return {
        "position": s.position,
        "seat": s.position + 1,
        "entry": s.entry_id,
        "name": s.entry.player.name,
        "club": s.entry.player.club,
    }


def _seats_by_table(round_: Round) -> dict[int, list[dict[str, Any]]]:
    seats: dict[int, list[dict[str, Any]]] = {}
    for s in (
        Seat.objects.filter(round=round_)
        .select_related("entry__player")
        .order_by("table__number", "position")
    ):
        seats.setdefault(s.table_id, []).append(_seat_row(s))
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
        ui = ui_of_event(event)
        # the game's terms as the filled sheet shows them (the Balkan refas, seed 002 …)
        context.update(ui.sheet_terms(convention, target=event.pulka_target))
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
    """The approved pulka as on paper (or the current version, marked provisional): the same
    sheet as the table's in its round's file, reading this table's rows only (issue 28: not
    the whole round's seats)."""
    round_ = table.round
    return _filled_sheets(round_.event, [table], {round_.pk: round_.number})[0]


def filled_round_context(*, round_: Round) -> dict[str, Any]:
    """Every table's filled protocol of the round, one sheet each (the referees' archive of a
    round), from one query per kind of row whatever the number of tables: the seats, the
    protocols chosen (approved, else the table's current version), the rulings, the penalties.

    :raises UserFacingError: for a round without tables.
    """
    from tournaments.errors import UserFacingError

    event = round_.event
    tables = list(Table.objects.filter(round=round_).order_by("number"))
    if not tables:
        raise UserFacingError(
            gettext("Round %(n)s has no tables yet.") % {"n": round_.number}, {"field": "round"}
        )
    return {
        "event": _event_header(event),
        "round": round_.number,
        "tables": _filled_sheets(event, tables, {round_.pk: round_.number}),
    }


def filled_event_context(*, event: Event) -> dict[str, Any]:
    """Every round's filled protocols, round by round and table by table (the referees'
    archive of the whole event, issue 29), from the same queries as one round's
    (:func:`filled_round_context`), whatever the number of rounds and tables.

    :raises UserFacingError: for an event without tables.
    """
    from tournaments.errors import UserFacingError

    numbers = dict(Round.objects.filter(event=event).values_list("pk", "number"))
    tables = sorted(
        Table.objects.filter(round_id__in=numbers), key=lambda t: (numbers[t.round_id], t.number)
    )
    if not tables:
        raise UserFacingError(
            gettext("The event has no tables yet: draw a round first."), {"field": "kind"}
        )
    return {
        "event": _event_header(event),
        "rounds": sorted({numbers[t.round_id] for t in tables}),
        "tables": _filled_sheets(event, tables, numbers),
    }


def filled_event_inputs(*, event: Event, round_: Round | None = None) -> dict[str, Any]:
    """What the whole event's (or ``round_``'s) filled protocols are made from, read without
    building a sheet
    (issue 28: asking for the file must not score every protocol in the request): the event's
    header and rules, the tables, the seats with the players' names, each chosen protocol's
    version, approval and an MD5 of its stored JSON (computed by PostgreSQL), the rulings with
    their definitions, the event's penalties. Its hash (:func:`context_hash`) is what the stored
    file is found by; any change to what a sheet prints changes it.

    :raises UserFacingError: for an event (a round) without tables, as
        :func:`filled_event_context` (:func:`filled_round_context`).
    """
    from django.db.models import Q, TextField
    from django.db.models.functions import MD5, Cast, Concat

    from tournaments.errors import UserFacingError
    from tournaments.models import Ruling

    if round_ is not None:
        numbers = {round_.pk: round_.number}
    else:
        numbers = dict(Round.objects.filter(event=event).values_list("pk", "number"))
    tables = list(
        Table.objects.filter(round_id__in=numbers)
        .order_by("round_id", "number")
        .values_list("pk", "round_id", "number")
    )
    if not tables and round_ is not None:
        raise UserFacingError(
            gettext("Round %(n)s has no tables yet.") % {"n": round_.number}, {"field": "round"}
        )
    if not tables:
        raise UserFacingError(
            gettext("The event has no tables yet: draw a round first."), {"field": "kind"}
        )
    stored = Concat(
        *(Cast(f, TextField()) for f in ("data", "ruling_entries", "findings", "result")),
        output_field=TextField(),
    )
    return {
        "event": _event_header(event),
        "rules": _rules_named(event),
        "rounds": numbers,
        "tables": tables,
        "seats": list(
            Seat.objects.filter(round_id__in=numbers)
            .order_by("table_id", "position")
            .values_list(
                "table_id", "position", "entry_id", "entry__player__name", "entry__player__club"
            )
        ),
        "protocols": list(
            Protocol.objects.filter(table__round_id__in=numbers)
            .filter(Q(approved=True) | Q(is_current=True, entry_kind="table"))
            .annotate(stored=MD5(stored))
            .order_by("table_id", "-approved", "-version", "pk")
            .values_list("table_id", "pk", "version", "approved", "approved_at", "stored")
        ),
        "rulings": list(
            Ruling.objects.filter(incident__table__round_id__in=numbers)
            .order_by("pk")
            .values(
                *(f.attname for f in Ruling._meta.concrete_fields),
                "incident__table_id",
                "definition__name",
                "definition__kind",
            )
        ),
        "penalties": list(  # the event's: a player's penalties are printed at each of his tables
            EventPenalty.objects.filter(event=event)
            .order_by("pk")
            .values(*(f.attname for f in EventPenalty._meta.concrete_fields))
        ),
    }


def _filled_sheets(
    event: Event, tables: list[Table], round_numbers: dict[int, int]
) -> list[dict[str, Any]]:
    """The sheets of ``tables`` (in their order; ``round_numbers``: round id → number), one
    query per kind of row for all of them."""
    from collections import defaultdict

    from django.db.models import Q

    from tournaments.models import Ruling

    round_ids = sorted({t.round_id for t in tables})
    if len(tables) == 1:  # one table's rows (its own file)
        ids = [tables[0].pk]
        seat_scope, table_scope = {"table_id__in": ids}, {"table_id__in": ids}
    else:  # whole rounds: a short query, whatever the number of tables
        seat_scope, table_scope = {"round_id__in": round_ids}, {"table__round_id__in": round_ids}
    seats: dict[int, list[dict[str, Any]]] = {}
    for s in (
        Seat.objects.filter(**seat_scope)
        .select_related("entry__player")
        .order_by("table_id", "position")
    ):
        seats.setdefault(s.table_id, []).append(_seat_row(s))
    chosen: dict[int, Protocol] = {}
    for p in (
        Protocol.objects.filter(**table_scope)
        .filter(Q(approved=True) | Q(is_current=True, entry_kind="table"))
        .order_by("table_id", "-approved", "-version")
    ):
        chosen.setdefault(p.table_id, p)
    rulings: dict[int, list[Any]] = defaultdict(list)
    for r in (
        Ruling.objects.filter(**{f"incident__{k}": v for k, v in table_scope.items()})
        .select_related("incident")
        .order_by("created_at", "id")
    ):
        rulings[r.incident.table_id].append(r)
    seated = {p["entry"] for players in seats.values() for p in players}
    penalties: dict[int, list[EventPenalty]] = defaultdict(list)
    for pen in (
        EventPenalty.objects.filter(event=event, entry_id__in=seated)
        .select_related("entry__player")
        .order_by("created_at", "id")
    ):
        penalties[pen.entry_id].append(pen)
    header = _event_header(event)
    terms = _sheet_terms(event)

    def of_table(players: list[dict[str, Any]]) -> list[EventPenalty]:
        mine = [pen for p in players for pen in penalties.get(p["entry"], [])]
        return sorted(mine, key=lambda pen: (pen.created_at, pen.pk))

    sheets = []
    for t in tables:
        players = seats.get(t.pk, [])
        sheets.append(
            _filled_sheet(
                event=event,
                header=header,
                round_number=round_numbers[t.round_id],
                table_number=t.number,
                players=players,
                protocol=chosen.get(t.pk),
                terms=terms,
                rulings=lambda t=t: rulings.get(t.pk, []),
                penalties=lambda players=players: of_table(players),
            )
        )
    return sheets


def _sheet_terms(event: Event) -> dict[str, Any]:
    """The game's terms a filled sheet's header shows (the refas, the stake and the ante, the
    game's points), by the event's convention and options: for a table with no protocol yet
    (a round's file printed before play); a scored protocol gives its own."""
    from tournaments.variants import event_convention, ui_of_event

    return ui_of_event(event).sheet_terms(event_convention(event), target=event.pulka_target)


def _filled_sheet(
    *,
    event: Event,
    header: dict[str, Any],
    round_number: int,
    table_number: int,
    players: list[dict[str, Any]],
    protocol: Protocol | None,
    terms: dict[str, Any],
    rulings,
    penalties,
) -> dict[str, Any]:
    """One table's filled protocol (``rulings()``, ``penalties()``: the table's rows, read only
    when there is a protocol; ``terms``: the game's terms by the event's rules, shown on a
    sheet without a protocol, :func:`_sheet_terms`)."""
    from tournaments.families.protocols import effective_protocol, stored_protocol
    from tournaments.variants import ui_of_event, ui_of_protocol
    from tournaments.words.protocols import finding_citation, finding_message, finding_title
    from tournaments.words.rulings import ruling_text

    context: dict[str, Any] = {
        "event": header,
        "rules": _rules_named(event),
        "round": round_number,
        "table": table_number,
        "players": players,
        "protocol": None,
        "deals": [],
        "findings": [],
        "rulings": [],
        "penalties": [],
        "settlement": [],
        "layout": ui_of_event(event).filled_layout,  # the family's sheet (tournaments.pdf.layouts)
    }
    if protocol is None:
        return {**context, **terms}
    scoring_protocol = stored_protocol(protocol.data)
    ui = ui_of_protocol(scoring_protocol)
    context["layout"] = ui.filled_layout
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
    for i, row in enumerate(sheet.get("deals", [])):  # a penalty line in words, not its notation
        deal = effective.deals[i] if i < len(effective.deals) else None
        if row.get("penalty") and deal is not None and ui.is_penalty(deal):
            row["text"] = penalty_entry_words(ui.penalty_to_json(deal), names, ui.penalty_terms)
    for p, row in enumerate(sheet["settlement"]):
        r = next((x for x in protocol.result if x.get("seat") == p), None)
        row["whists"] = _num(r.get("whists", 0)) if r else ""
    # what each ruling wrote into this version, in words (names, not seats or JSON)
    written: dict[int, list[str]] = {}
    for applied in protocol.ruling_entries or []:
        if isinstance(applied, dict):
            written.setdefault(applied.get("ruling"), []).extend(
                penalty_entry_words(e, names, ui.penalty_terms)
                for e in applied.get("entries") or []
                if isinstance(e, dict)
            )
    context.update(
        {
            "protocol": {
                "id": protocol.pk,
                "version": protocol.version,
                "approved": protocol.approved,
                "approved_at": protocol.approved_at.isoformat() if protocol.approved_at else "",
                "approved_on": protocol.approved_at,  # printed in the document's language
                "ending": str(effective.ending),
                "ending_words": _ending_words(ui, str(effective.ending)),
            },
            "names": names,
            **sheet,
            "findings": [
                {
                    "severity": f.get("severity", ""),
                    "message": finding_message(f),  # in the reader's language
                    # in words, with names (issue 29)
                    "title": finding_title(f.get("code", ""), ui.finding_titles),
                    "sentence": ui.finding_sentence(
                        dict(f, message=finding_message(f)),
                        names,
                        finding_title(f.get("code", ""), ui.finding_titles),
                    ),
                    "rule": f.get("rule", ""),
                    "citation": finding_citation(f, ui.seed),
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
                    "wrote": written.get(r.pk, []),
                    "text": ruling_text(r, names, ui),  # in words (issue 29)
                }
                for r in rulings()
            ],
            "penalties": [
                {
                    "name": p.entry.player.name,
                    "kind": p.get_kind_display(),
                    "whists": p.whists,
                    "rule": p.rule,
                    "reason": p.reason,
                    "active": p.active,
                }
                for p in penalties()
            ],
        }
    )
    return context


def _ending_words(ui: Any, ending: str) -> Any:
    """How the pulka ended, in the document's language (lazy: rendered in it)."""
    from django.utils.translation import gettext_lazy

    words = {
        "closed": ui.ending_closed_label,
        "agreement": gettext_lazy("stopped by agreement"),
        "time-limit": gettext_lazy("stopped by the time limit"),
        "in-progress": gettext_lazy("still being played"),
    }
    return words.get(ending, ending)


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
                "no_result": r.get("no_result", False),
                "provisional_total": r["provisional_total"] if r["has_provisional"] else None,
                "withdrawn": r["withdrawn"],
                "cells": [
                    None
                    if c is None
                    else {
                        "score": c["score"],
                        "final": c["final"],
                        "no_result": c.get("no_result", False),
                    }
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
    # drawn by tournaments.pdf.filled in the family's layout (tournaments.pdf.layouts)
    "filled": ("", "{slug}-round{round}-table{table}-protocol.pdf"),
    # every round's filled protocols (as "filled")
    "protocols": ("", "{slug}-protocols.pdf"),
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
    kind: str,
    context: dict[str, Any],
    *,
    paper: str = "A4",
    language: str = "en",
    progress: Callable[[int, int], None] | None = None,
) -> RenderedFile:
    """A rendered file of ``kind`` (pretix's renderer contract); ``progress(done, total)`` is
    told how far a long document (a round's filled protocols) has got."""
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
    import io

    from pypdf import PdfWriter

    from tournaments.pdf import filled as pdf_filled

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
    from tournaments.pdf import blank as pdf_sheets

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
    from tournaments.pdf.blank import GREY, Run

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
