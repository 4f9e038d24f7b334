"""Series reads (issue 39): what a series' recomputation reads of its events' stored standings,
and the stored series table for the pages, the CSV and the API. Nothing here computes a table
for a page: ``services.series.series_standings_recompute`` (a job) stores it.
"""

from __future__ import annotations

import hashlib
import threading
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db import connection
from django.db.models import Count, Q

from tournaments.models import (
    Entry,
    Event,
    EventRole,
    Organisation,
    Person,
    Round,
    Series,
    SeriesEvent,
    SeriesStandingsRow,
    SeriesStandingsSnapshot,
    StandingsPart,
    StandingsSnapshot,
)
from tournaments.models.series import initials, table_lines, table_row
from tournaments.selectors.persons import person_candidates
from tournaments.standings.series import (
    EventPlace,
    SeriesEventResult,
    SeriesRules,
    normalised_score,
    rules_from_fields,
)

__all__ = [
    "SeriesInputs",
    "event_final",
    "event_places",
    "series_inputs",
    "series_of_event",
    "series_rules",
    "series_table",
    "series_list",
    "hall_series",
    "hall_series_version",
    "person_record",
    "organisation_page",
    "organisations_of_user",
    "persons_to_choose",
    "series_addable_events",
]


def series_rules(series: Series) -> SeriesRules:
    """The series' rules from its fields.

    :raises tournaments.standings.series.SeriesRulesError: naming the field at fault.
    """
    return rules_from_fields(
        points=str(series.points),  # the stored text, not the choice it was written as
        place_points=series.place_points,
        best_of=series.best_of,
        min_events=series.min_events,
        tiebreaks=series.tiebreaks or None,
    )


def event_final(event: Event, states: dict[str, str], snapshot: StandingsSnapshot | None) -> bool:
    """Whether an event's standings are final: every planned round played and closed, and the
    stored standings include every change (no recomputation pending)."""
    if snapshot is None or snapshot.pending:
        return False
    closed = [n for n, state in states.items() if state == Round.State.CLOSED]
    return bool(states) and len(closed) == len(states) and len(closed) >= event.rounds_planned


def _hundredths(value: Any) -> int:
    """A stored result (an int, or a float of two decimals: ``standings.num``) in hundredths."""
    return value * 100 if isinstance(value, int) else round(float(value) * 100)


def _stored_rows(
    snapshot_id: int, with_tables: bool
) -> tuple[list[dict[str, Any]], dict[str, str], dict[int, Fraction]]:
    """What a series reads of an event's stored standings: each ranked row (entry, place,
    rounds played, adjustment), the rounds' states, and with ``with_tables`` each entry's
    final results normalised for the table sizes (:func:`normalised_score`, from the table
    parts). Only those parts are read (not the tables' cells, unless asked)."""
    head = StandingsSnapshot.objects.filter(pk=snapshot_id).values_list("head", flat=True).get()
    head = head or {}
    by_size: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    if "rows" in head:  # stored before the parts: one document
        rows = head["rows"]
        states = head.get("meta", {}).get("round_states", {}) or head.get("round_states", {})
        if with_tables:
            for row in rows:
                for cell in row.get("rounds", {}).values():
                    if cell.get("final") and cell.get("whists") is not None:
                        by_size[row["entry"]][int(cell["size"])] += _hundredths(cell["whists"])
    else:
        keys = Q(key="order") | Q(key__startswith="r:")
        if with_tables:
            keys |= Q(key__startswith="t:")
        parts = dict(
            StandingsPart.objects.filter(keys, snapshot_id=snapshot_id).values_list("key", "data")
        )
        states = head.get("round_states", {})
        rows = []
        for entry, place, _label, _shared, _decided in parts.get("order", []):
            row = parts.get(f"r:{entry}", {})
            rows.append({**row, "entry": entry, "place": place})
        for key, table in parts.items():
            if key[:2] != "t:" or not table.get("final"):
                continue
            for seat in table.get("seats", ()):
                by_size[seat["entry"]][int(table["size"])] += _hundredths(seat["whists"])
    normalised = {
        entry: normalised_score((Fraction(total, 100), size) for size, total in sizes.items())
        for entry, sizes in by_size.items()
    }
    return rows, states, normalised


def event_places(
    rows: list[dict[str, Any]], normalised: dict[int, Fraction]
) -> tuple[tuple[int, int, Fraction], ...]:
    """The ranked entries of an event as ``(entry, place, score)``: who played a round (a row
    without a result is no place), with the event's score normalised for the table sizes (its
    final rounds, and the event's adjustments) where it was read."""
    out = []
    for row in rows:
        if row.get("no_result") or not row.get("rounds_played"):
            continue
        score = Fraction(0)
        if normalised:
            score = normalised.get(row["entry"], Fraction(0)) + Fraction(
                _hundredths(row.get("adjustment", 0)), 100
            )
        out.append((row["entry"], int(row["place"]), score))
    return tuple(out)


@dataclass
class SeriesInputs:
    """What a series' table is computed from: its rules, its events (the stored version of
    each one's standings, its weight) and their entries' persons. :attr:`digest` is taken from
    those alone (a stored version's places never change), so an unchanged series is known
    before any event's standings are read; :meth:`events` reads them (once per stored version
    and process)."""

    rules: SeriesRules
    links: list[SeriesEvent]
    snapshots: dict[int, StandingsSnapshot]
    person_of: dict[int, dict[int, int | None]]  # event → entry → person
    linked: dict[int, str]  # event → a fingerprint of its entries' persons
    digest: str

    def events(self) -> tuple[list[SeriesEventResult], dict[int, dict[str, Any]], int]:
        """The events' results in order, what the page says of each event, and how many ranked
        entries have no person yet."""
        events = []
        event_info: dict[int, dict[str, Any]] = {}
        unlinked = 0
        normalised = self.rules.points == "normalised_score"
        for link in self.links:
            event = link.event
            read, final = _event_read(event, self.snapshots.get(event.pk), normalised)
            key = (id(read), self.linked[event.pk])
            found = _persons_cache.get(key)
            if found is None or found[0] is not read:
                persons_of = self.person_of[event.pk]
                places = tuple(
                    EventPlace(persons_of[entry], place, score)
                    for entry, place, score in read
                    if persons_of.get(entry) is not None
                )
                found = (read, places, len(read) - len(places))
                if len(_persons_cache) >= PLACES_KEPT:
                    _persons_cache.clear()
                _persons_cache[key] = found
            _read, places, missing = found
            unlinked += missing
            weight = Fraction(str(link.weight))
            events.append(SeriesEventResult(event.pk, places, final, weight))
            event_info[event.pk] = {
                "slug": event.slug,
                "name": event.name,
                "starts_on": event.starts_on.isoformat(),
                "published": event.published,
                "final": final,
                "category": link.category,
                "weight": str(link.weight.normalize()),
                "players": len(read),
            }
        return events, event_info, unlinked


def _version_key(event: Event, snapshot: StandingsSnapshot | None) -> tuple[Any, ...] | None:
    """What identifies an event's stored standings and whether they are final."""
    if snapshot is None:
        return None
    return (
        snapshot.pk,
        snapshot.inputs_hash,
        snapshot.computed,
        snapshot.requested,
        snapshot.status,
        event.rounds_planned,
    )


#: an event's places per stored version of its standings, read once per process (a version is
#: never rewritten): a series recomputation after one event changed reads only that event
_places_cache: dict[tuple[Any, ...], tuple[tuple[tuple[int, int, Fraction], ...], bool]] = {}
_places_lock = threading.Lock()
PLACES_KEPT = 2_000
#: an event's places with its entries' persons, per read places and persons (the same read
#: and the same links: the same places, without making 15,000 of them again for a season)
_persons_cache: dict[tuple[int, int], tuple[Any, tuple[EventPlace, ...], int]] = {}


def _event_read(
    event: Event, snapshot: StandingsSnapshot | None, normalised: bool
) -> tuple[tuple[tuple[int, int, Fraction], ...], bool]:
    """The event's ranked entries ``(entry, place, score)`` and whether it is final."""
    if snapshot is None:
        return (), False
    key = (*(_version_key(event, snapshot) or ()), normalised)
    with _places_lock:
        found = _places_cache.get(key)
    if found is not None:
        return found
    rows, states, scores = _stored_rows(snapshot.pk, normalised)
    found = (event_places(rows, scores), event_final(event, states, snapshot))
    with _places_lock:
        if len(_places_cache) >= PLACES_KEPT:
            _places_cache.clear()
        _places_cache[key] = found
    return found


#: each event's entries → persons, per fingerprint of them (:func:`_entry_persons`)
_links_cache: dict[tuple[int, str], dict[int, int | None]] = {}


def _entry_persons(event_ids: list[int]) -> tuple[dict[int, dict[int, int | None]], dict[int, str]]:
    """Each event's entries → persons and a fingerprint of them. On PostgreSQL the database
    gives the fingerprints (one row per event) and only an event whose fingerprint this process
    has not seen is read entry by entry: a season's 15,000 entries are not read for each
    series job."""
    fingerprints: dict[int, str] = {}
    if connection.vendor == "postgresql" and event_ids:
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT event_id, md5(string_agg(id::text || ':' || "
                f"coalesce(person_id::text, '-'), ',' ORDER BY id)) "
                f"FROM {Entry._meta.db_table} WHERE event_id = ANY(%s) GROUP BY event_id",
                [event_ids],
            )
            fingerprints = dict(cursor.fetchall())
        missing = [e for e in event_ids if (e, fingerprints.get(e, "")) not in _links_cache]
    else:
        missing = list(event_ids)
    read: dict[int, dict[int, int | None]] = {e: {} for e in missing}
    if missing:
        rows = (
            Entry.objects.filter(event_id__in=missing)
            .order_by("event_id", "pk")
            .values_list("event_id", "pk", "person_id")
        )
        for event_id, entry_id, person_id in rows:
            read[event_id][entry_id] = person_id
    person_of = {}
    for e in event_ids:
        if e in read:
            if connection.vendor != "postgresql":
                fingerprints[e] = hashlib.md5(repr(sorted(read[e].items())).encode()).hexdigest()
            if len(_links_cache) >= PLACES_KEPT:
                _links_cache.clear()
            _links_cache[(e, fingerprints.get(e, ""))] = read[e]
            person_of[e] = read[e]
        else:
            person_of[e] = _links_cache[(e, fingerprints.get(e, ""))]
    return person_of, {e: fingerprints.get(e, "") for e in event_ids}


def series_inputs(*, series: Series) -> SeriesInputs:
    """What the series' table is computed from (a few queries, no event's standings read:
    :meth:`SeriesInputs.events` reads them). The persons' names are not among them: the pages
    read them when they show the table, so a person shown by initials or erased is shown so
    at once.

    :raises tournaments.standings.series.SeriesRulesError: the series' rules cannot be applied.
    """
    rules = series_rules(series)
    links = list(
        SeriesEvent.objects.filter(series=series)
        .select_related("event")
        .order_by("event__starts_on", "event_id")
    )
    event_ids = [link.event_id for link in links]
    snapshots = {
        s.event_id: s
        for s in StandingsSnapshot.objects.filter(event_id__in=event_ids).defer("head", "runs")
    }
    person_of, linked = _entry_persons(event_ids)
    h = hashlib.sha256(b"series format 3\0")
    h.update(
        repr(
            (
                rules,
                [
                    (
                        link.event_id,
                        str(link.weight),
                        link.category,
                        link.event.slug,
                        link.event.name,
                        link.event.starts_on,
                        link.event.published,
                        _version_key(link.event, snapshots.get(link.event_id)),
                        linked[link.event_id],
                    )
                    for link in links
                ],
            )
        ).encode()
    )
    return SeriesInputs(rules, links, snapshots, person_of, linked, h.hexdigest())


def series_of_event(*, event_id: int) -> list[int]:
    """The ids of the series an event belongs to."""
    return list(SeriesEvent.objects.filter(event_id=event_id).values_list("series_id", flat=True))


def series_list(*, organisation=None, published_only: bool = True) -> list[Series]:
    """Series with their organisation and event count, newest first."""
    found = Series.objects.select_related("organisation").annotate(
        event_count=Count("series_events")
    )
    if organisation is not None:
        found = found.filter(organisation=organisation)
    if published_only:
        found = found.filter(published=True)
    return list(found)


def series_table(*, series: Series, page: tuple[int, int] | None = None) -> dict[str, Any]:
    """The stored series table ready for a page, the CSV or the API: the events in order (with
    links where they are published), the rows with each event's points in the events' order
    (counted ones marked), the state of the recomputation. Empty rows before the first
    computation.

    ``page``: (number, rows a page) — only that page's rows are read (the number clamped to
    the last page; ``"page"`` and ``"row_count"`` say which and of how many rows)."""
    snapshot = SeriesStandingsSnapshot.objects.filter(series=series).first()
    head = snapshot.head if snapshot is not None else {}
    info = head.get("event_info", {})
    events = [{"id": int(e), **info.get(str(e), {})} for e in head.get("events", [])]
    lines = table_lines(head)
    number, first, last = 1, 0, len(lines)
    if page is not None:
        number, size = page
        number = max(1, min(number, -(-len(lines) // size)))
        first, last = (number - 1) * size, number * size
    shown = lines[first:last]
    if "order" in head:  # in parts: the cells of the rows shown only
        parts = SeriesStandingsRow.objects.filter(snapshot=snapshot)
        if page is not None:
            parts = parts.filter(person_id__in=[r["person"] for r in shown])
        stored = dict(parts.values_list("person_id", "cells"))
        shown = [
            table_row(line, stored.get(line[0], ()), head["events"])
            for line in head["order"][first:last]
        ]
    persons = {
        pk: (initials(name) if shown_as == Person.ShownAs.INITIALS else name, club, city)
        for pk, name, club, city, shown_as in Person.objects.filter(
            pk__in=[row["person"] for row in shown]
        ).values_list("pk", "name", "club", "city", "shown_as")
    }
    rows = []
    for row in shown:
        name, club, city = persons.get(row["person"], ("?", "", ""))
        rows.append(
            {
                **row,
                "name": name,
                "club": club,
                "city": city,
                "cells": [
                    None
                    if c is None
                    else {"points": c[0], "place": c[1], "counted": c[2], "final": c[3]}
                    for c in row["cells"]
                ],
            }
        )
    return {
        "series": series,
        "snapshot": snapshot,
        "pending": snapshot is None or snapshot.pending,
        "final": bool(head.get("final")),
        "rules": head.get("rules", {}),
        "events": events,
        "rows": rows,
        "row_count": len(lines),
        "page": number,
        "unlinked": head.get("unlinked", 0),
    }


def _hall_series_of(event: Event):
    return SeriesStandingsSnapshot.objects.filter(
        series__series_events__event=event, series__published=True
    ).order_by("series__name", "series_id")


def hall_series_version(*, event: Event) -> str:
    """What the hall's series pages are a function of: each published series of the event and
    its stored table's version (one small query)."""
    return ",".join(
        f"{series_id}:{digest[:12]}:{computed}"
        for series_id, digest, computed in _hall_series_of(event).values_list(
            "series_id", "inputs_hash", "computed"
        )
    )


def hall_series(*, event: Event) -> list[dict[str, Any]]:
    """The stored tables of the event's published series, for the hall's projector (issue 39):
    each as :func:`series_table` gives it, ranked and unranked rows alike."""
    found = Series.objects.filter(pk__in=_hall_series_of(event).values("series_id")).select_related(
        "organisation"
    )
    return [series_table(series=s) for s in sorted(found, key=lambda s: (s.name, s.pk))]


def person_record(*, person: Person, public: bool = True) -> dict[str, Any]:
    """A person's page: the events he entered (only the published ones when ``public``), with
    his place and total in each from its stored standings, and his places in the series of
    those events."""
    entries = (
        Entry.objects.filter(person=person)
        .select_related("event")
        .order_by("-event__starts_on", "event_id")
    )
    if public:
        entries = entries.filter(event__published=True)
    entries = list(entries)
    snapshots = dict(
        StandingsSnapshot.objects.filter(event_id__in=[e.event_id for e in entries]).values_list(
            "event_id", "pk"
        )
    )
    # only the person's own row part and the order of each event's standings are read
    wanted = Q(key="order")
    for entry in entries:
        wanted |= Q(key=f"r:{entry.pk}", snapshot_id=snapshots.get(entry.event_id))
    parts: dict[tuple[int, str], Any] = {
        (sid, key): data
        for sid, key, data in StandingsPart.objects.filter(
            wanted, snapshot_id__in=snapshots.values()
        ).values_list("snapshot_id", "key", "data")
    }
    results = []
    for entry in entries:
        sid = snapshots.get(entry.event_id)
        row = parts.get((sid, f"r:{entry.pk}"))
        order = next((o for o in parts.get((sid, "order"), ()) if o[0] == entry.pk), None)
        played = bool(row and row.get("rounds_played"))
        results.append(
            {
                "event": entry.event,
                "entry": entry,
                "place": order[2] if order and played else None,
                "total": row.get("total") if played else None,
                "rounds_played": row.get("rounds_played", 0) if row else 0,
            }
        )
    shown_events = {e.event_id for e in entries}
    series = (
        Series.objects.filter(series_events__event_id__in=shown_events)
        .distinct()
        .select_related("organisation", "standings_snapshot")
    )
    if public:
        series = series.filter(published=True)
    places = []
    for s in series:
        snapshot = getattr(s, "standings_snapshot", None)
        lines = table_lines(snapshot.head) if snapshot is not None else []
        row = next((r for r in lines if r["person"] == person.pk), None)
        if row is not None:
            places.append({"series": s, "place": row["place_label"], "total": row["total"]})
    return {"person": person, "results": results, "series": places}


def series_addable_events(*, series: Series, user) -> list[Event]:
    """The events an organiser may add to a series: of its rule family, run by its
    organisation or organised by him, not in it yet; newest first."""
    taken = SeriesEvent.objects.filter(series=series).values("event_id")
    found = Event.objects.exclude(pk__in=taken).order_by("-starts_on", "name")
    if not user.is_superuser:
        found = found.filter(
            Q(organisation_id=series.organisation_id)
            | Q(roles__user=user, roles__role=EventRole.Role.ORGANISER)
        ).distinct()
    return [e for e in found[:500] if _family_key(e) == series.family]


def _family_key(event: Event) -> str | None:
    try:
        return event.family.key
    except ValueError:  # a convention no family knows (an archive from a newer Pulka)
        return None


def organisation_page(*, organisation: Organisation, staff: bool) -> dict[str, Any]:
    """An organisation's page: its series (the unpublished ones for its organisers too) and
    its events."""
    events = Event.objects.filter(organisation=organisation).order_by("-starts_on", "name")
    if not staff:
        events = events.filter(published=True)
    return {
        "organisation": organisation,
        "series": series_list(organisation=organisation, published_only=not staff),
        "events": list(events[:200]),
    }


def organisations_of_user(*, user) -> list[Organisation]:
    """The organisations a logged-in user organises or referees for (the home page lists
    them); none for a visitor."""
    if not getattr(user, "is_authenticated", False):
        return []
    return list(Organisation.objects.filter(roles__user=user).distinct().order_by("name"))


def persons_to_choose(*, event: Event) -> list[dict[str, Any]]:
    """The event's entries whose person is to be chosen, each with the likely persons."""
    entries = Entry.objects.filter(event=event, person__isnull=True).select_related("player")
    return [{"entry": e, "candidates": person_candidates(entry=e)} for e in entries]
