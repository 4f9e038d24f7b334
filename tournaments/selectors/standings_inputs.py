"""Standings inputs: what a recomputation reads, the bridge from stored protocols to rows.

:func:`standings_inputs` is the one place that turns ORM rows into
:class:`~tournaments.standings.rows.RoundResult` rows (Tabbycat's ``standings`` managers), in a
fixed number of queries whatever the event's size (Tabbycat #661, #1704). For each table the
approved protocol is final; without one, the table's current version is provisional (shown,
never counted). The pages read the stored snapshot instead (:mod:`.standings`).
"""

from __future__ import annotations

import hashlib
import json
from array import array
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from itertools import chain
from typing import Any

from django.db import connection
from django.utils.translation import gettext_noop

from scoring.variants import read_json_document, read_text_document
from tournaments.models import (
    Entry,
    Event,
    EventPenalty,
    Protocol,
    ProtocolStats,
    Round,
    Seat,
    Table,
)
from tournaments.models.protocol import EntryKind
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
    "counts_as_chosen",
    "players_part",
    "sitting_out_by_round",
    "sit_out_adjustments",
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

    known = known or {}
    found = {pid: known[pid] for pid in ids if pid in known}
    wanted = [pid for pid in ids if pid not in found]
    if wanted:
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


def _warning(text: str, message: str, **params: Any) -> dict[str, Any]:
    """A standings warning as words said again in the reader's language (``text``, a
    ``gettext_noop`` template, with ``params``; :func:`tournaments.words.standings.warning_said`)
    and ``message``, the English line for programs and the logs (what the warning was before
    issue 36, and what older snapshots still hold as a plain string)."""
    return {"text": text, "params": params, "message": message}


def table_rows(
    src: StandingsSources, table_id: int, facts: dict[str, Any], ranked: set[int]
) -> tuple[list[RoundResult], list[Any]]:
    """The result rows of one table whose chosen protocol has ``facts``
    (:func:`protocol_facts`), and the warnings about it; ``ranked``: the ranked entries (a
    substitute's own result is not counted, his opponents' results are)."""
    p = src.chosen[table_id]
    _, round_number, table_number = src.tables[table_id]
    warnings: list[Any] = []
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
        warnings.append(
            _warning(
                gettext_noop(
                    "Round %(round)s, table %(table)s: the protocol could not be read for the "
                    "tie-break statistics; its result still counts."
                ),
                f"table {round_number}/{table_number}: {facts['error']}",
                round=round_number,
                table=table_number,
            )
        )
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
            warnings.append(
                _warning(
                    gettext_noop(
                        "Round %(round)s, table %(table)s: seat %(seat)s has no player; its "
                        "result is not counted."
                    ),
                    f"table {round_number}/{table_number}: seat {seat + 1} has no entry",
                    round=round_number,
                    table=table_number,
                    seat=seat + 1,
                )
            )
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
    warnings: list[Any] = []
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
