"""Standings reads: the bridge from stored protocols to plain rows, and the pages' reads.

:func:`standings_inputs` is the one place that turns ORM rows into
:class:`~tournaments.standings.rows.RoundResult` rows (Tabbycat's ``standings`` managers), in a
fixed number of queries whatever the event's size (Tabbycat #661, #1704). For each table the
approved protocol is final; without one, the table's current version is provisional (shown,
never counted).

The other selectors read the stored :class:`~tournaments.models.standings.StandingsSnapshot`;
nothing here computes standings for a page.
"""

from __future__ import annotations

import hashlib
import json
import threading
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

from django.utils.translation import gettext_lazy as _

from tournaments.models import Entry, Event, EventPenalty, Protocol, Round, Seat, Table
from tournaments.models.protocol import EntryKind
from tournaments.models.round import without_draw_record
from tournaments.models.standings import GeneratedFile, StandingsSnapshot
from tournaments.standings import (
    Adjustment,
    RoundResult,
    StandingsConfig,
    config_from_json,
)
from tournaments.standings.rows import SIT_OUT_RULE

__all__ = [
    "StandingsInputs",
    "StandingsSources",
    "standings_inputs",
    "standings_sources",
    "protocol_stats",
    "protocol_stats_of",
    "protocol_facts",
    "facts_of",
    "table_rows",
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


@dataclass
class StandingsSources:
    """What the standings depend on, read cheaply (no protocol JSON): enough to fingerprint."""

    event: Event
    config: StandingsConfig
    entries: list[tuple[Any, ...]]
    rounds: dict[int, str]
    tables: dict[int, tuple[int, int, int]]
    seats: dict[int, dict[int, int]]
    chosen: dict[int, dict[str, Any]]
    adjustments: list[Adjustment]
    #: the rows the tables, seats and chosen protocols were read from (ints, sorted): hashed
    #: as they are for the digest
    raw: tuple[list[tuple[Any, ...]], ...] = ()

    def globals_key(self) -> tuple[Any, ...]:
        """What every table's rows depend on (a change here recomputes everything): the
        tie-break chain, the entries, the rounds' states, the adjustments."""
        return (
            json.dumps(self.event.tiebreaks, sort_keys=True, default=str),
            tuple(self.entries),
            tuple(sorted(self.rounds.items())),
            tuple((a.entry, a.whists, a.round, a.rule, a.reason) for a in self.adjustments),
        )

    def tables_changed(self, before: StandingsSources) -> list[int]:
        """The tables whose rows may differ from ``before`` (same :meth:`globals_key`): a
        table added or gone, its seats or its chosen protocol version changed (whole
        dictionaries compared first: equal in C when nothing changed)."""
        changed: set[int] = set()
        for mine, theirs in (
            (self.tables, before.tables),
            (self.seats, before.seats),
            (self.chosen, before.chosen),
        ):
            if mine != theirs:
                changed |= {t for t in mine.keys() | theirs.keys() if mine.get(t) != theirs.get(t)}
        return sorted(changed)

    def digest(self) -> str:
        """sha256 of the inputs (the snapshot's ``inputs_hash``): changes exactly when
        :meth:`fingerprint` does; computed from flat integer arrays (the rows come sorted
        from the database), a few milliseconds at 1,000 players x 12 rounds."""
        from array import array
        from itertools import chain

        h = hashlib.sha256()
        h.update(b"format 4\0")  # the layout of the stored data: a new layout recomputes
        h.update(repr(self.globals_key()).encode())
        h.update(b"\0")
        for rows in self.raw:  # tables, seats, protocols: (id, ...) ints as read, in order
            h.update(array("q", chain.from_iterable(rows)).tobytes())
            h.update(b"\0")
        return h.hexdigest()

    def fingerprint(self) -> dict[str, Any]:
        """Protocol versions are immutable rows (a change is a new row), so their ids and
        approval flags stand for their results."""
        return {
            "format": 3,  # the layout of the stored data: a new layout recomputes
            "tiebreaks": self.event.tiebreaks,
            "entries": self.entries,
            "rounds": self.rounds,
            "seats": sorted((t, s, e) for t, d in self.seats.items() for s, e in d.items()),
            "tables": sorted(self.tables.values()),
            "protocols": sorted((t, p["id"], p["approved"]) for t, p in self.chosen.items()),
            "adjustments": [
                (a.entry, str(a.whists), a.round, a.rule, a.reason) for a in self.adjustments
            ],
        }


@dataclass
class StandingsInputs:
    rows: list[RoundResult]
    config: StandingsConfig
    adjustments: list[Adjustment]
    entries: list[int]
    meta: dict[str, Any]
    stats_cache: dict[str, Any]
    #: (entry, round) of the players seated at a table of a closed round without a result
    no_result: list[tuple[int, int]] = field(default_factory=list)


def protocol_stats(data: Any) -> dict[str, Any]:
    """Deal statistics and pairwise results of one stored protocol (``Protocol.data``), from its
    rule family's variant (``stat_keys``, ``deal_stats``, ``pairwise``), compact:
    ``{"k": [stat key …], "s": [[counter per key] per seat], "v": [[[num, den] per seat] per
    seat]}``.

    An unreadable protocol gives no statistics (``{"error": ...}``): the standings still use its
    result, and the tie-breaks count nothing from it.
    """
    from scoring.variants import read_json_document, read_text_document

    try:
        variant, protocol, _ = (
            read_text_document(data) if isinstance(data, str) else read_json_document(data)
        )
    except Exception as error:  # a stored protocol the scorer cannot read: no statistics
        return {"error": f"{error.__class__.__name__}: {error}"[:300]}
    return protocol_stats_of(variant, protocol)


def protocol_stats_of(variant: Any, protocol: Any) -> dict[str, Any]:
    """:func:`protocol_stats` of a pulka already read (``variant``: its family's
    ``scoring.variants.Variant``): what the protocol service stores when it saves a version,
    without parsing its JSON again."""
    try:
        keys = tuple(variant.stat_keys)
        stats = variant.deal_stats(protocol)
        versus = variant.pairwise(protocol)
    except Exception as error:  # a pulka the scorer cannot count: no statistics
        return {"error": f"{error.__class__.__name__}: {error}"[:300]}
    return {
        "k": list(keys),
        "s": [[s[k] for k in keys] for s in stats],
        "v": [[[x.numerator, x.denominator] for x in row] for row in versus],
    }


def _stats_cached(entry: Any) -> bool:
    """A cached entry of the current layout (with its keys), or a protocol that was unreadable."""
    return isinstance(entry, dict) and ("k" in entry or "error" in entry)


@lru_cache(maxsize=65536)
def _fraction_of_text(text: str) -> Fraction:
    return Fraction(text)


@lru_cache(maxsize=65536)
def _ratio(numerator: int, denominator: int) -> Fraction:
    return Fraction(numerator, denominator)


def _fraction(value: Any) -> Fraction:
    """A stored number (text such as "-80/3", or a number) as a Fraction; results repeat a lot
    across an event, so the parsed values are cached."""
    return _fraction_of_text(str(value)) if value not in (None, "") else Fraction(0)


def _rows(sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def standings_sources(*, event: Event) -> StandingsSources:
    """The cheap reads (6 queries): entries, rounds, tables, seats, the protocol chosen per
    table (approved = final, else the table's current version = provisional), penalties. The
    large ones (tables, seats, protocols: 20,000 rows at 1,000 players x 12 rounds) are plain
    SQL rows, without building a Django row per value (one statement for the three, a UNION
    sorted by the database, measured slower: it sorts the 20,000 rows together).

    :raises ValueError: when the event's tie-break chain is invalid (naming the key).
    """
    config = config_from_json(event.tiebreaks or [])
    entries = list(
        Entry.objects.filter(event=event, substitute=False)  # a substitute is not ranked
        .order_by("id")
        .values_list("id", "player__name", "player__club", "player__city", "status")
    )
    round_rows = list(
        Round.objects.filter(event=event).values_list("number", "state", "sitting_out")
    )
    rounds = {number: state for number, state, _out in round_rows}
    t_table, t_round = Table._meta.db_table, Round._meta.db_table
    t_seat, t_protocol = Seat._meta.db_table, Protocol._meta.db_table
    table_rows = _rows(
        f"SELECT t.id, r.number, t.number FROM {t_table} t JOIN {t_round} r "
        "ON r.id = t.round_id WHERE r.event_id = %s ORDER BY t.id",
        [event.pk],
    )
    tables = {t[0]: t for t in table_rows}
    seat_rows = _rows(
        f"SELECT s.table_id, s.position, s.entry_id FROM {t_seat} s JOIN {t_round} r "
        "ON r.id = s.round_id WHERE r.event_id = %s ORDER BY s.table_id, s.position",
        [event.pk],
    )
    seats: dict[int, dict[int, int]] = defaultdict(dict)
    for table_id, position, entry_id in seat_rows:
        seats[table_id][position] = entry_id
    chosen_rows = _rows(
        f"SELECT p.id, p.table_id, p.approved, p.version FROM {t_protocol} p "
        f"JOIN {t_table} t ON t.id = p.table_id JOIN {t_round} r ON r.id = t.round_id "
        "WHERE r.event_id = %s AND (p.approved OR (p.is_current AND p.entry_kind = %s)) "
        "ORDER BY p.table_id, p.approved DESC, p.id DESC",
        [event.pk, EntryKind.TABLE],
    )
    chosen: dict[int, dict[str, Any]] = {}
    for pid, table_id, approved, version in chosen_rows:
        if table_id not in chosen:
            chosen[table_id] = {
                "id": pid,
                "table_id": table_id,
                "approved": bool(approved),
                "version": version,
            }
    adjustments = [
        Adjustment(entry=e, whists=Fraction(w), round=rn, rule=rule, reason=reason)
        for e, w, rn, rule, reason in EventPenalty.objects.filter(event=event, active=True)
        .exclude(whists=0)
        .values_list("entry_id", "whists", "round__number", "rule", "reason")
        .order_by("id")
    ]
    adjustments += sit_out_adjustments(
        event=event,
        by_round={n: out for n, state, out in round_rows if out and state != Round.State.DRAFT},
    )
    return StandingsSources(
        event,
        config,
        entries,
        rounds,
        tables,
        seats,
        chosen,
        adjustments,
        (table_rows, seat_rows, chosen_rows),
    )


def sitting_out_by_round(*, event: Event) -> dict[int, list[int]]:
    """Per drawn round the entries who sat it out (tables of four only, the event's
    ``fours_remainder``), for rounds that have any."""
    return {
        number: list(out)
        for number, out in Round.objects.filter(event=event)
        .exclude(state=Round.State.DRAFT)
        .order_by("number")
        .values_list("number", "sitting_out")
        if out
    }


def sit_out_adjustments(
    *, event: Event, by_round: dict[int, list[int]] | None = None
) -> list[Adjustment]:
    """The event's stated score for each round a player sat out, as an award of that round
    (``by_round``: :func:`sitting_out_by_round`, when already read)."""
    score = Fraction(event.sit_out_score)
    if by_round is None:
        by_round = sitting_out_by_round(event=event)
    return [
        Adjustment(
            entry=entry,
            whists=score,
            round=number,
            rule=SIT_OUT_RULE,
            reason=f"sat out round {number}",
        )
        for number, out in sorted(by_round.items())
        for entry in out
    ]


def _results(*, ids: list[int]) -> dict[int, list[tuple[Any, Any, Any]]]:
    """Per protocol, ``(seat, entry, whists)`` of each seat of its ``result``. On PostgreSQL
    only those three keys leave the database, as one JSON text decoded at once (decoding
    4,000 values one by one was a large share of a recompute)."""
    import json

    from django.db import connection

    if connection.vendor == "postgresql":
        found: dict[int, list[tuple[Any, Any, Any]]] = {pid: [] for pid in ids}
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT coalesce(jsonb_agg(jsonb_build_array(p.id, e->'seat', e->'entry', "
                "e->'whists') ORDER BY p.id, x.n), '[]'::jsonb)::text "
                f"FROM {Protocol._meta.db_table} AS p CROSS JOIN LATERAL jsonb_array_elements("
                "CASE WHEN jsonb_typeof(p.result) = 'array' THEN p.result ELSE '[]'::jsonb END)"
                " WITH ORDINALITY AS x(e, n) WHERE p.id = ANY(%s)",
                [ids],
            )
            (text,) = cursor.fetchone()
        for pid, seat, entry, whists in json.loads(text):
            found[pid].append((seat, entry, whists))
        return found
    return {
        pid: [(r.get("seat"), r.get("entry"), r.get("whists")) for r in value or []]
        for pid, value in Protocol.objects.filter(id__in=ids).values_list("id", "result")
    }


def protocol_facts(result: Any, data: Any, stats: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the standings read of one protocol version (stored once per version as a
    ``ProtocolStats`` row): each seat's ``[seat, entry, whists]`` from its ``result`` and the
    deal statistics of its pulka (``stats``, else :func:`protocol_stats` of ``data``)."""
    rows = [
        [r.get("seat"), r.get("entry"), r.get("whists")]
        for r in (result if isinstance(result, list) else [])
        if isinstance(r, dict)
    ]
    return {"r": rows, **(stats if stats is not None else protocol_stats(data))}


def facts_of(ids: list[int], known: dict[int, Any] | None = None) -> tuple[dict[int, Any], dict]:
    """The facts of the protocol versions ``ids``: from ``known`` (a worker's memory), else
    their ``ProtocolStats`` rows (one query, decoded at once), else computed from the
    protocols (their pulka parsed: about a millisecond each). Returns all of them and those
    computed now (for the caller to store)."""
    from tournaments.models import ProtocolStats

    known = known or {}
    found = {pid: known[pid] for pid in ids if pid in known}
    wanted = [pid for pid in ids if pid not in found]
    if wanted:
        from django.db import connection

        if connection.vendor == "postgresql":
            stored = {
                pid: json.loads(text)
                for pid, text in _rows(
                    f"SELECT protocol_id, data::text FROM {ProtocolStats._meta.db_table} "
                    "WHERE protocol_id = ANY(%s)",
                    [wanted],
                )
            }
        else:
            stored = dict(
                ProtocolStats.objects.filter(protocol_id__in=wanted).values_list(
                    "protocol_id", "data"
                )
            )
        found.update((pid, v) for pid, v in stored.items() if _stats_cached(v) and "r" in v)
    computed: dict[int, Any] = {}
    missing = [pid for pid in ids if pid not in found]
    if missing:
        for pid, result, data in Protocol.objects.filter(id__in=missing).values_list(
            "id", "result", "data"
        ):
            computed[pid] = found[pid] = protocol_facts(result, data)
    return found, computed


def table_rows(
    src: StandingsSources, table_id: int, facts: dict[str, Any], ranked: set[int]
) -> tuple[list[RoundResult], list[str]]:
    """The result rows of one table whose chosen protocol has ``facts``
    (:func:`protocol_facts`), and the warnings about it; ``ranked``: the ranked entries (a
    substitute's own result is not counted, his opponents' results are)."""
    p = src.chosen[table_id]
    _, round_number, table_number = src.tables[table_id]
    warnings: list[str] = []
    by_seat = {int(seat): (entry, whists) for seat, entry, whists in facts.get("r") or []}
    seat_entries = dict(src.seats.get(table_id, {}))
    for seat, (entry, _) in by_seat.items():
        if seat not in seat_entries and entry:
            seat_entries[seat] = int(entry)
    n = len(by_seat)
    if not n:
        return [], warnings
    scores = {seat: _fraction(whists) for seat, (_, whists) in by_seat.items()}
    if "error" in facts:
        warnings.append(f"table {round_number}/{table_number}: {facts['error']}")
    pairwise = facts.get("v") if len(facts.get("v", ())) == n else None
    counters = facts.get("s") if len(facts.get("s", ())) == n else None
    keys = facts.get("k", ())
    seated = sorted(by_seat)
    present = [q for q in seated if q in seat_entries]
    final = bool(p["approved"])
    rows: list[RoundResult] = []
    for seat in seated:
        entry = seat_entries.get(seat)
        if entry is None:
            warnings.append(f"table {round_number}/{table_number}: seat {seat + 1} has no entry")
            continue
        if entry not in ranked:  # a substitute: his opponents' results count, not his
            continue
        others = [q for q in present if q != seat]
        if pairwise is not None:
            versus = {seat_entries[q]: _ratio(*pairwise[seat][q]) for q in others}
        else:  # no readable pulka: the difference of the results, shared by the table
            versus = {seat_entries[q]: (scores[seat] - scores[q]) / n for q in others}
        stats = dict(zip(keys, counters[seat], strict=True)) if counters else {}
        rows.append(
            RoundResult(
                entry=entry,
                round=round_number,
                table=table_id,
                score=scores[seat],
                final=final,
                seat=seat,
                table_number=table_number,
                table_size=n,
                opponents=tuple(seat_entries[q] for q in others),
                versus=versus,
                stats=stats,
            )
        )
    return rows, warnings


def counts_as_chosen(p: dict[str, Any] | None, facts: dict[str, Any] | None) -> bool:
    """A table's chosen protocol counts when approved or when it has results (a current
    version with no result yet is as good as none)."""
    return bool(p) and bool(p["approved"] or (facts and facts.get("r")))


def standings_inputs(
    *,
    event: Event,
    stats_cache: dict[str, Any] | None = None,
    sources: StandingsSources | None = None,
) -> StandingsInputs:
    """Everything the standings of ``event`` are computed from, in one pass (the reference
    computation the parts-by-parts recomputation is checked against, and the load tests'
    reader): the sources, the chosen protocols' facts (``stats_cache``: statistics already
    known, by protocol id as text, as :func:`protocol_stats` gives them).
    """
    src = sources or standings_sources(event=event)
    stats_cache = dict(stats_cache or {})
    results = _results(ids=[p["id"] for p in src.chosen.values()])
    chosen = {t: p for t, p in src.chosen.items() if p["approved"] or results.get(p["id"])}
    missing = [p["id"] for p in chosen.values() if not _stats_cached(stats_cache.get(str(p["id"])))]
    if missing:
        for pid, data in Protocol.objects.filter(id__in=missing).values_list("id", "data"):
            stats_cache[str(pid)] = protocol_stats(data)
    stats_cache = {str(p["id"]): stats_cache[str(p["id"])] for p in chosen.values()}

    rows: list[RoundResult] = []
    warnings: list[str] = []
    ranked = {e[0] for e in src.entries}
    for table_id, p in sorted(chosen.items()):
        facts = {"r": results.get(p["id"]) or [], **stats_cache.get(str(p["id"]), {})}
        table, said = table_rows(src, table_id, facts, ranked)
        rows += table
        warnings += said
    meta = {
        "players": players_part(src),
        "round_states": {str(k): v for k, v in src.rounds.items()},
        "protocols": {
            str(t): {"id": p["id"], "approved": p["approved"], "version": p["version"]}
            for t, p in chosen.items()
        },
        "warnings": warnings,
    }
    closed = {n for n, state in src.rounds.items() if state == Round.State.CLOSED}
    no_result = [
        (entry, round_number)
        for table_id, (_, round_number, _n) in src.tables.items()
        if round_number in closed and table_id not in chosen
        for entry in src.seats.get(table_id, {}).values()
    ]
    return StandingsInputs(
        rows,
        src.config,
        src.adjustments,
        [e[0] for e in src.entries],
        meta,
        stats_cache,
        sorted(no_result),
    )


def players_part(src: StandingsSources) -> dict[str, Any]:
    """The ranked players' names, clubs, cities and states, by entry id as text."""
    return {
        str(e): {"name": name, "club": club, "city": city, "status": status}
        for e, name, club, city, status in src.entries
    }


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
    "games_won": (_("Games won (utgång)"), _("GW")),
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
    from django.db import connection

    from tournaments.models import StandingsPart

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
    from tournaments.standings.book import assemble

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
    from tournaments.standings.book import no_cyclic_gc

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
