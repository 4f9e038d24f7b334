"""The context builders of the blank protocols, the seating lists, the players' links and the
standings: plain JSON-safe data read through the selectors in a fixed number of queries (the
filled protocols' are in :mod:`tournaments.pdf.protocol_contexts`), and the event's header and
seats they share. The hash of a context (:func:`tournaments.pdf.documents.context_hash`) is
what a stored file is found by.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.functional import lazy
from django.utils.translation import get_language

from tournaments.convention_labels import family_name
from tournaments.models import Entry, Event, Round, Seat, Table
from tournaments.pdf.paper import grid_widths
from tournaments.selectors.standings import standings_view
from tournaments.selectors.teams import team_standings_view
from tournaments.variants import event_convention, ui_of_event

__all__ = ["blank_protocols_context", "seating_context", "standings_context", "table_link"]


def table_link(table_url_key: str, base_url: str) -> str:
    """The absolute private entry link of a table: ``<base>/t/<url_key>/``."""
    return f"{base_url.rstrip('/')}/t/{table_url_key}/"


def player_link(entry_url_key: str, base_url: str) -> str:
    """The absolute private link of an entry: ``<base>/p/<url_key>/``."""
    return f"{base_url.rstrip('/')}/p/{entry_url_key}/"


def _convention_name(event: Event) -> str:
    return event.convention_name


def _convention_names(event: Event) -> dict[str, str]:
    """The event's convention by its name in every language a document may be printed in
    (issue 36: "Hrvatski preferans" on a Croatian sheet, whatever language built the context)."""
    names = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            names[code] = _convention_name(event)
    return names


def variant_named(event: dict[str, Any]) -> str:
    """An event header's convention in the language active now (the document's), as
    :func:`_event_header` named it in each; its ``variant`` where it has no such names."""
    return str((event.get("variant_names") or {}).get(get_language(), event["variant"]))


def _event_header(event: Event) -> dict[str, Any]:
    return {
        "name": event.name,
        "slug": event.slug,
        "venue": event.venue,
        "starts_on": event.starts_on.isoformat(),
        "ends_on": event.ends_on.isoformat(),
        "variant": _convention_name(event),
        "variant_names": _convention_names(event),
        "pulka_target": event.pulka_target,
        "deals_per_round": event.deals_per_round,
    }


def _rules_named(event: Event) -> dict[str, Any]:
    """The event's rule family by its name in each language, its dates (printed in the
    document's language) and its agreed options in words, for the filled protocol."""
    try:
        family = event.family
    except (LookupError, ValueError):
        family_names: dict[str, str] = {}
    else:  # in every language the document may be printed in (issue 36: not English)
        family_names = {}
        for code, _name in settings.LANGUAGES:
            with translation.override(code):
                family_names[code] = family_name(family)
    return {
        "family_names": family_names,
        "first_day": event.starts_on,
        "last_day": event.ends_on,
        "options": _options_described(event),
        "options_by_language": {
            code: _options_described(event, code) for code, _name in settings.LANGUAGES
        },
    }


def _options_described(event: Event, language: str | None = None) -> list[dict[str, str]]:
    """The event's agreed options in words, in ``language`` (the active one without it)."""
    with translation.override(language or get_language()):
        return [
            {"label": str(label), "value": str(value)}
            for label, value in event.convention_options_described
        ]


def options_named(rules: dict[str, Any]) -> list[dict[str, str]]:
    """A filled sheet's agreed options in the language active now (the document's), as
    :func:`_rules_named` described them in each."""
    return (rules.get("options_by_language") or {}).get(get_language(), rules.get("options", []))


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
    context = {
        "event": _event_header(event),
        "round": round_.number,
        "tables": tables,
        "rows": list(range(1, rows + 1)),
    }
    layout = ui_of_event(event).blank_template  # a rule family's own sheet (tournaments.variants)
    if layout:
        convention = event_convention(event)  # with its stake, as the scoring (issue 36)
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


def seating_context(*, round_: Round) -> dict[str, Any]:
    """The round's seating: by table, and alphabetically for the notice board."""
    seats = _seats_by_table(round_)
    tables = [
        {
            "number": t.number,
            "first_dealer_seat": t.first_dealer + 1,
            # named, not "first dealer: seat 1" (issue 36: names, not seat numbers)
            "first_dealer": next(
                (p["name"] for p in seats.get(t.pk, []) if p["position"] == t.first_dealer), ""
            ),
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
        "teams": _team_rows(event),
    }


def _team_rows(event: Event) -> dict[str, Any] | None:
    """A team event's team standings for the standings PDF (issue 40); None without teams."""
    teams = team_standings_view(event=event)
    if teams is None:
        return None
    return {
        "scoring_members": teams["scoring_members"],
        "counts": teams["counts"],
        "rounds": teams["rounds"],
        "rows": [
            {
                "place": r["place_label"],
                "team": r["team"],
                "withdrawn": r["withdrawn"],
                "members": ", ".join(m["name"] for m in r["members"]),
                "cells": [
                    None if c is None else {"score": c["score"], "final": c["final"]}
                    for c in r["round_cells"]
                ],
                "total": r["total"],
                "provisional_total": r["provisional_total"] if r["has_provisional"] else None,
                "best_member": r["best_member_name"] or "",
            }
            for r in teams["rows"]
        ],
    }


def _standings_criterion(event: Event) -> Any:
    """What a table result is, as the event's rule family says (the pot games: chips, and what
    happens to the pot left, ``pot_end``), translated when the PDF renders; ``None``: the
    sheet's own sentence (001 §4.1.3)."""
    try:
        ui, convention = ui_of_event(event), event_convention(event)
    except (LookupError, ValueError):
        return None
    if ui.standings_criterion(convention) is None:
        return None
    return lazy(lambda: ui.standings_criterion(convention) or "", str)()
