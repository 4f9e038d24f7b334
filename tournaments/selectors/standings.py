"""Standings reads for the pages: the stored
:class:`~tournaments.models.standings.StandingsSnapshot` decoded, paged, searched and shown;
nothing here computes standings for a page. What a recomputation reads is
:mod:`.standings_inputs`.
"""

from __future__ import annotations

import json
import threading
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.utils.translation import gettext_lazy as _

from tournaments.models import (
    Entry,
    Event,
    EventPenalty,
    Seat,
    StandingsPart,
)
from tournaments.models.round import without_draw_record
from tournaments.models.standings import GeneratedFile, StandingsSnapshot, data_read_by

# what the protocol services and the sit-outs read of the inputs, by their former address
from tournaments.selectors.standings_inputs import (  # noqa: F401
    _rows,
    protocol_facts,
    protocol_stats_of,
    sitting_out_by_round,
)
from tournaments.standings.book import assemble, no_cyclic_gc

__all__ = [
    "decoded_standings",
    "metric_label",
    "snapshot_version",
    "standings_header",
    "STANDINGS_PAGE_SIZE",
    "load_stored",
    "assemble_data",
    "snapshot_data",
    "standings_snapshot",
    "standings_view",
    "standings_page",
    "rows_matching",
    "row_haystack",
    "search_text",
    "cross_group",
    "player_standing",
    "cross_table",
    "round_results",
    "generated_files",
    "scores_for_draw",
]


# --- reads for the pages ------------------------------------------------------------------------

#: the metrics' names and abbreviations as the pages show them (translated)
METRIC_LABELS = {
    "total": (_("Total"), _("Total")),
    "whists": (_("Whists"), _("W")),
    "rounds_played": (_("Rounds played"), _("Rds")),
    "average": (_("Average per round"), _("Avg")),
    "raspasy_won": (_("Raspasy won"), _("RW")),
    "raspasy_tricks": (_("Tricks on raspasy"), _("RT")),
    "remizes": (_("Remizes"), _("Rem")),
    "misere_tricks": (_("Tricks on misères"), _("MT")),
    "games_made": (_("Contracts made"), _("CM")),
    "games_lost": (_("Contracts lost"), _("CL")),
    "defences_failed": (_("Defences failed"), _("DF")),
    "sits_won": (_("Sits won"), _("SW")),
    "games_won": (_("Games won"), _("GW")),
    "contracts_made": (_("Contracts made"), _("CM")),
    "contracts_failed": (_("Contracts failed"), _("CF")),
    "slams": (_("Slams made"), _("Sl")),
    "penalties": (_("Penalty entries"), _("Pen")),
    "best_round": (_("Best single round"), _("Best")),
    "worst_round": (_("Worst single round"), _("Worst")),
    "table_wins": (_("Rounds won at the table"), _("TW")),
    "head_to_head": (_("Results against the tied players"), _("H2H")),
}


def metric_label(key: str) -> dict[str, str]:
    name, abbr = METRIC_LABELS.get(key, (key, key))
    return {"key": key, "name": str(name), "abbr": str(abbr)}


def standings_snapshot(*, event: Event) -> StandingsSnapshot | None:
    """The stored snapshot (its head; the parts are read when its ``data`` is), or None
    before the first request."""
    return StandingsSnapshot.objects.filter(event=event).first()


def standings_header(*, event: Event) -> StandingsSnapshot | None:
    """The snapshot's state without its larger fields (``head``, ``runs``): what the pages
    show of the recomputation, and the version their decoded data is cached by."""
    return StandingsSnapshot.objects.defer("head", "runs").filter(event=event).first()


def load_stored(snapshot_id: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """A snapshot's head and its parts by key, as one statement stored them (one query on
    PostgreSQL, decoded at once: a recomputation committing meanwhile is either wholly in
    it or not at all)."""

    if connection.vendor == "postgresql":
        # one statement (one view of the data); each part as text, decoded here (building
        # one JSON object of 5,000 parts in the database took four times longer)
        found = _rows(
            f"SELECT NULL, s.head::text FROM {StandingsSnapshot._meta.db_table} s "
            "WHERE s.id = %s UNION ALL SELECT p.key, p.data::text "
            f"FROM {StandingsPart._meta.db_table} p WHERE p.snapshot_id = %s",
            [snapshot_id, snapshot_id],
        )
        head: dict[str, Any] = {}
        parts: dict[str, Any] = {}
        for key, text in found:
            if key is None:
                head = json.loads(text)
            else:
                parts[key] = json.loads(text)
        return head, parts
    head = StandingsSnapshot.objects.filter(pk=snapshot_id).values_list("head", flat=True)
    parts = StandingsPart.objects.filter(snapshot_id=snapshot_id).values_list("key", "data")
    return head.first() or {}, dict(parts)


def assemble_data(head: dict[str, Any], parts: dict[str, Any]) -> dict[str, Any]:
    """The standings as one document (``Standings.as_json`` with ``meta``) from the head and
    the parts; a snapshot stored before the parts (its head holds the rows) as it is."""
    return _assembled(head, parts)[0]


def _assembled(
    head: dict[str, Any], parts: dict[str, Any]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """:func:`assemble_data` and the tables as :func:`tables_of` gives them (taken from the
    table parts, not regrouped from the rows' cells)."""

    if not head or "rows" in head:
        data = head or {}
        return data, tables_of(data)
    rows: dict[int, Any] = {}
    tables: list[tuple[int, Any]] = []
    for k, v in parts.items():
        if k[:2] == "r:":
            rows[int(k[2:])] = v
        elif k[:2] == "t:":
            tables.append((int(k[2:]), v))
    tables.sort(key=lambda t: t[0])
    data = assemble(head, parts.get("order", []), rows, [t for _, t in tables])
    data["meta"] = {
        "players": parts.get("players", {}),
        "round_states": head.get("round_states", {}),
        "protocols": {str(t): v["protocol"] for t, v in tables},
        "warnings": [w for _, v in tables for w in v.get("warnings", ())],
    }
    shown = [
        {
            "round": v["round"],
            "table": v["table"],
            "table_number": v["table_number"],
            "size": v["size"],
            "final": v["final"],
            "seats": sorted(
                (
                    {
                        "entry": seat["entry"],
                        "seat": seat["seat"],
                        "whists": seat["whists"],
                        "score": seat["score"],
                        "versus": seat["versus"],
                    }
                    for seat in v["seats"]
                ),
                key=lambda seat: seat["seat"],
            ),
        }
        for _, v in tables
        if v.get("seats")
    ]
    shown.sort(key=lambda t: (t["round"], t["table_number"]))
    return data, shown


def snapshot_data(snapshot: StandingsSnapshot) -> dict[str, Any]:
    """``StandingsSnapshot.data``: the stored standings as one document."""
    return decoded_standings(snapshot).view["data"]


@dataclass
class Decoded:
    """One stored version of an event's standings, decoded once per process and indexed: the
    pages take what they show from it (a player's page: his row and his tables)."""

    view: dict[str, Any]  # standings_view without the snapshot
    tables: list[dict[str, Any]]  # tables_of(data)
    row_of: dict[int, dict[str, Any]]
    tables_of_entry: dict[int, list[dict[str, Any]]]


#: decoded versions kept per process (the newest few events' standings)
DECODED_KEPT = 4
_decoded_cache: dict[tuple[Any, ...], Decoded] = {}
_decoded_lock = threading.Lock()


def _version(snapshot: StandingsSnapshot) -> tuple[Any, ...]:
    """What identifies the stored data: rewritten only by a recomputation, which changes the
    inputs hash and the time computed."""
    return (snapshot.pk, snapshot.inputs_hash, snapshot.computed, snapshot.computed_at)


def snapshot_version(snapshot: StandingsSnapshot | None) -> str:
    """The stored version as a cache key's part: pages written from the standings are cached
    under it, so a recomputation (a new version) is shown at once."""
    if snapshot is None:
        return "none"
    stamp = snapshot.computed_at.timestamp() if snapshot.computed_at else ""
    return f"{snapshot.pk}-{snapshot.inputs_hash}-{snapshot.computed}-{stamp}"


#: a round cell of a player whose table has no result in a closed round
NO_RESULT_CELL: dict[str, Any] = {"no_result": True, "score": None, "final": True}


def _build_view(data: dict[str, Any]) -> dict[str, Any]:
    players = data.get("meta", {}).get("players", {})
    rows = []
    for row in data.get("rows", []):
        player = players.get(str(row["entry"]), {})
        rows.append(
            {
                **row,
                "name": player.get("name", "?"),
                "club": player.get("club", ""),
                "city": player.get("city", ""),
                "withdrawn": player.get("status") == Entry.Status.WITHDRAWN,
                "round_cells": [
                    row["rounds"].get(str(n))
                    or (NO_RESULT_CELL if n in row.get("no_result_rounds", ()) else None)
                    for n in data.get("rounds", [])
                ],
                "metric_cells": [row["metrics"].get(c["key"]) for c in data.get("columns", [])[1:]],
            }
        )
    columns = [{**c, **metric_label(c["key"])} for c in data.get("columns", [])]
    return {
        "data": data,
        "rows": rows,
        "rounds": data.get("rounds", []),
        "columns": columns,
        "tiebreak_columns": columns[1:],
        "players": players,
        "provisional": any(r["has_provisional"] for r in rows),
    }


def decoded_standings(snapshot: StandingsSnapshot | None) -> Decoded:
    """The snapshot's data decoded and indexed, from this process's cache when this version was
    read before (otherwise one query for the head and the parts; nothing for an absent
    snapshot)."""
    if snapshot is None:
        return Decoded(_build_view({}), [], {}, {})
    key = _version(snapshot)
    with _decoded_lock:
        found = _decoded_cache.get(key)
    if found is not None:
        return found

    with no_cyclic_gc():
        data, tables = _assembled(*load_stored(snapshot.pk))
        view = _build_view(data)
    tables_of_entry: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for t in tables:
        for seat in t["seats"]:
            tables_of_entry[seat["entry"]].append(t)
    found = Decoded(view, tables, {r["entry"]: r for r in view["rows"]}, dict(tables_of_entry))
    with _decoded_lock:
        for old in [k for k in _decoded_cache if k[0] == snapshot.pk]:
            del _decoded_cache[old]  # an older version of the same event's standings
        while len(_decoded_cache) >= DECODED_KEPT:
            del _decoded_cache[next(iter(_decoded_cache))]
        _decoded_cache[key] = found
    return found


def standings_view(*, event: Event, snapshot: StandingsSnapshot | None = None) -> dict[str, Any]:
    """The stored standings ready for a template or the API: rows joined with player names
    (decoded once per stored version and process, :func:`decoded_standings`); ``snapshot``:
    its header, when the caller has read it already."""
    snapshot = snapshot or standings_header(event=event)
    return {
        "snapshot": snapshot,
        "standings_version": snapshot_version(snapshot),
        **decoded_standings(snapshot).view,
    }


#: rows on one page of the standings (a phone scrolls 100 rows; 1,000 is a download)
STANDINGS_PAGE_SIZE = 100


#: the longest search text that is matched (the rest of a longer one is ignored)
SEARCH_MAX = 100


def _folded(text: str) -> str:
    """``text`` as a search compares it: case-folded (``ß`` is ``ss``), in compatibility form
    (``ﬁ`` is ``fi``) and without accents (``č`` is ``c``, ``ё`` is ``е``)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def search_text(query: str) -> str:
    """The text a search for ``query`` matches: its first ``SEARCH_MAX`` characters, folded
    (case, accents), with spaces as typed but runs of them as one and none at either end."""
    return " ".join(_folded(query[:SEARCH_MAX]).split())


def row_haystack(row: dict[str, Any]) -> str:
    """What a search looks in: the player's name, club and city, folded as the search text,
    one to a line (a search text has no line break, so it never matches across two)."""
    return "\n".join(_folded(row[k]) for k in ("name", "club", "city"))


def rows_matching(
    rows: Sequence[Any],
    query: str,
    *,
    haystack: Callable[[Any], str] = row_haystack,
) -> list[Any]:
    """The rows whose player's name, club or city contains ``query`` (compared without case
    or accents, spaces as typed); all rows for an empty query. ``haystack``: what a
    row is searched by (the cached rows of ``views.standings_search`` carry it ready)."""
    text = search_text(query)
    if not text:
        return list(rows)
    return [r for r in rows if text in haystack(r)]


def standings_page(
    view: dict[str, Any],
    *,
    query: str = "",
    page: int = 1,
    size: int = STANDINGS_PAGE_SIZE,
    haystack: Callable[[Any], str] = row_haystack,
) -> dict[str, Any]:
    """One page of the standings' rows (``view``: :func:`standings_view`, or any ``rows``
    that ``haystack`` reads), those matching ``query`` (in the name, club or city), with the
    places they hold in the whole standings. ``page`` beyond the last gives the last."""
    matching = rows_matching(view["rows"], query.strip(), haystack=haystack)
    pages = max(1, -(-len(matching) // size))
    page = min(max(1, page), pages)
    start = (page - 1) * size
    return {
        "page_rows": matching[start : start + size],
        "query": query.strip(),
        "page": page,
        "pages": pages,
        "matching": len(matching),
        "first_shown": start + 1 if matching else 0,
        "last_shown": min(start + size, len(matching)),
        "page_numbers": list(range(1, pages + 1)),
    }


def tables_of(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The tables of the stored rows: each player's round cells grouped by table."""
    tables: dict[int, dict[str, Any]] = {}
    for row in data.get("rows", []):
        for number, cell in row["rounds"].items():
            t = tables.setdefault(
                cell["table"],
                {
                    "round": int(number),
                    "table": cell["table"],
                    "table_number": cell["table_number"],
                    "size": cell.get("size", 0),
                    "final": cell["final"],
                    "seats": [],
                },
            )
            t["seats"].append(
                {
                    "entry": row["entry"],
                    "seat": cell["seat"],
                    "whists": cell["whists"],
                    "score": cell["score"],
                    "versus": cell.get("versus", {}),
                }
            )
    for t in tables.values():
        t["seats"].sort(key=lambda s: s["seat"])
    return sorted(tables.values(), key=lambda t: (t["round"], t["table_number"]))


def round_results(
    *, event: Event, number: int, snapshot: StandingsSnapshot | None = None
) -> dict[str, Any]:
    """One round's tables from the snapshot, with names, best result first at each table."""
    snapshot = snapshot or standings_header(event=event)
    decoded = decoded_standings(snapshot)
    view = {"snapshot": snapshot, "standings_version": snapshot_version(snapshot), **decoded.view}
    players = view["players"]
    tables = []
    for t in decoded.tables:
        if t["round"] != number:
            continue
        seats = [
            {**s, "name": players.get(str(s["entry"]), {}).get("name", "?")} for s in t["seats"]
        ]
        tables.append({**t, "seats": seats})
    tables.sort(key=lambda t: t["table_number"])
    return {**view, "round_tables": tables, "number": number}


def cross_table(*, event: Event, snapshot: StandingsSnapshot | None = None) -> dict[str, Any]:
    """Who met whom: for each ranked player, per opponent (in standings order) the pairwise
    results where they met, summed, with the rounds. ``matrix`` holds the met pairs only
    (``{row entry: {column entry: cell}}``): at 1,000 players the full grid is a million cells,
    nearly all empty, so the page fills the gaps as it writes the rows."""
    snapshot = snapshot or standings_header(event=event)
    decoded = decoded_standings(snapshot)
    view = {"snapshot": snapshot, **decoded.view}
    met: dict[int, dict[int, list[tuple[int, float, bool]]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for t in decoded.tables:
        for s in t["seats"]:
            for other, result in s["versus"].items():
                met[s["entry"]][int(other)].append((t["round"], result, t["final"]))
    matrix = {
        entry: {
            other: {
                "rounds": [g[0] for g in games],
                "result": round(sum(g[1] for g in games), 2),
                "provisional": not all(g[2] for g in games),
            }
            for other, games in row.items()
        }
        for entry, row in met.items()
    }
    return {**view, "matrix": matrix, "order": [r["entry"] for r in view["rows"]]}


#: above this many ranked players the cross-table page shows a group of places at a time
CROSS_MATRIX_MAX = 60
#: places per group of the cross-table page of a large event
CROSS_GROUP_SIZE = 50


def cross_group(
    *, event: Event, snapshot: StandingsSnapshot | None, group: int, size: int = CROSS_GROUP_SIZE
) -> dict[str, Any]:
    """The cross-table of a large event, one group of places at a time (places
    ``(group - 1) * size + 1`` …): per player and round, the opponents met at the table (by
    place) and the whists won from each (pairwise settlement), as a Swiss cross-table lists
    them. The full who-met-whom matrix is the download (:func:`cross_table`)."""
    decoded = decoded_standings(snapshot)
    rows = decoded.view["rows"]
    groups = max(1, -(-len(rows) // size))
    group = min(max(1, group), groups)
    number = {r["entry"]: i for i, r in enumerate(rows, start=1)}
    shown = []
    for i, row in enumerate(rows[(group - 1) * size : group * size], start=(group - 1) * size + 1):
        by_round: dict[int, dict[str, Any]] = {}
        for t in decoded.tables_of_entry.get(row["entry"], []):
            mine = next(s for s in t["seats"] if s["entry"] == row["entry"])
            by_round[t["round"]] = {
                "final": t["final"],
                "table": t["table_number"],
                "opponents": [
                    {
                        "entry": s["entry"],
                        "number": number.get(s["entry"]),
                        "result": mine["versus"].get(str(s["entry"])),
                    }
                    for s in t["seats"]
                    if s["entry"] != row["entry"]
                ],
            }
        shown.append(
            {"number": i, "row": row, "cells": [by_round.get(n) for n in decoded.view["rounds"]]}
        )
    return {
        "group_rows": shown,
        "group": group,
        "groups": [(g, (g - 1) * size + 1, min(g * size, len(rows))) for g in range(1, groups + 1)],
    }


def player_standing(*, event: Event, entry: Entry) -> dict[str, Any]:
    """A player's page: his row, his tables (with opponents), protocols and penalties."""
    snapshot = standings_header(event=event)
    decoded = decoded_standings(snapshot)
    view = {"snapshot": snapshot, **decoded.view}
    players = view["players"]
    row = decoded.row_of.get(entry.pk)
    tables = []
    for t in decoded.tables_of_entry.get(entry.pk, []):
        mine = next(s for s in t["seats"] if s["entry"] == entry.pk)
        opponents = [
            {
                **s,
                "name": players.get(str(s["entry"]), {}).get("name", "?"),
                "versus": mine["versus"].get(str(s["entry"])),
            }
            for s in t["seats"]
            if s["entry"] != entry.pk
        ]
        tables.append(
            {
                **t,
                "mine": mine,
                "opponents": opponents,
                "protocol": view["data"].get("meta", {}).get("protocols", {}).get(str(t["table"])),
            }
        )
    tables.sort(key=lambda t: t["round"])
    seats = (
        Seat.objects.filter(entry=entry)
        .select_related("table", "round")
        .defer(*without_draw_record("round"))
        .order_by("round__number")
    )
    penalties = list(
        EventPenalty.objects.filter(entry=entry)
        .select_related("round")
        .defer(*without_draw_record("round"))
        .order_by("created_at")
    )
    pairs = (
        [
            (c["name"], value)
            for c, value in zip(view["tiebreak_columns"], row["metric_cells"], strict=True)
            if value is not None
        ]
        if row
        else []
    )
    return {
        **view,
        "row": row,
        "tables": tables,
        "seats": list(seats),
        "penalties": penalties,
        "entry": entry,
        "metric_pairs": pairs,
    }


def generated_files(*, event: Event) -> list[GeneratedFile]:
    """The event's generated files, newest first (one per kind, scope and paper shown)."""
    seen: set[tuple[Any, ...]] = set()
    files = []
    listed = (
        GeneratedFile.objects.filter(event=event)
        .select_related("round", "table__round")
        .defer(*without_draw_record("round", "table__round"))
    )
    for f in listed:
        key = (f.kind, f.round_id, f.table_id, f.paper, f.language)
        if key not in seen:
            seen.add(key)
            files.append(f)
    return files


def scores_for_draw(*, event: Event) -> dict[int, float]:
    """Each entry's total in the stored standings (final results only), for a Swiss draw;
    empty before the first computation."""
    snapshot = standings_header(event=event)
    rows = snapshot.data.get("rows", []) if snapshot else []
    return {int(r["entry"]): float(r["total"]) for r in rows}


# ``StandingsSnapshot.data`` reads with this module (the models import no selector)
data_read_by(snapshot_data)
