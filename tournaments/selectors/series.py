"""Series reads (issue 39): what a series' recomputation reads of its events' stored standings,
and the stored series table for the pages, the CSV and the API. Nothing here computes a table
for a page: ``services.series.series_standings_recompute`` (a job) stores it.
"""

from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

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
    SeriesStandingsSnapshot,
    StandingsSnapshot,
)
from tournaments.selectors.persons import person_candidates
from tournaments.selectors.standings import assemble_data, load_stored
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
    "person_record",
    "organisation_page",
    "persons_to_choose",
    "series_addable_events",
]


def series_rules(series: Series) -> SeriesRules:
    """The series' rules from its fields.

    :raises tournaments.standings.series.SeriesRulesError: naming the field at fault.
    """
    return rules_from_fields(
        points=series.points,
        place_points=series.place_points,
        best_of=series.best_of,
        min_events=series.min_events,
        tiebreaks=series.tiebreaks or None,
    )


def event_final(event: Event, data: dict[str, Any], snapshot: StandingsSnapshot | None) -> bool:
    """Whether an event's standings are final: every planned round played and closed, and the
    stored standings include every change (no recomputation pending)."""
    if snapshot is None or snapshot.pending:
        return False
    states = data.get("meta", {}).get("round_states", {})
    closed = [n for n, state in states.items() if state == Round.State.CLOSED]
    return bool(states) and len(closed) == len(states) and len(closed) >= event.rounds_planned


def event_places(
    data: dict[str, Any], person_of: dict[int, int | None]
) -> tuple[tuple[EventPlace, ...], int]:
    """The persons' places in an event from its stored standings (who played a round: a row
    without a result is no place), each with the event's score normalised for the table sizes
    (its final rounds, and the event's adjustments), and how many ranked entries have no
    person yet (their likely person not confirmed)."""
    places = []
    unlinked = 0
    for row in data.get("rows", []):
        if row.get("no_result") or not row.get("rounds_played"):
            continue
        person = person_of.get(row["entry"])
        if person is None:
            unlinked += 1
            continue
        cells = [
            (Fraction(str(c["whists"])), int(c.get("size", 3)))
            for c in row.get("rounds", {}).values()
            if c.get("final") and c.get("whists") is not None
        ]
        score = normalised_score(cells) + Fraction(str(row.get("adjustment", 0)))
        places.append(EventPlace(person, int(row["place"]), score))
    return tuple(places), unlinked


@dataclass
class SeriesInputs:
    """What a series' table is computed from."""

    rules: SeriesRules
    events: list[SeriesEventResult]
    persons: dict[int, dict[str, str]]  # id → name (as shown publicly), club, city
    event_info: dict[int, dict[str, Any]]  # id → slug, name, dates, final, category, weight
    unlinked: int

    def digest(self) -> str:
        text = json.dumps(
            {
                "format": 1,
                "rules": [
                    self.rules.points,
                    [str(p) for p in self.rules.place_points],
                    self.rules.best_of,
                    self.rules.min_events,
                    self.rules.tiebreaks,
                ],
                "events": [
                    [
                        e.event,
                        e.final,
                        str(e.weight),
                        [(p.person, p.place, str(p.score)) for p in e.places],
                    ]
                    for e in self.events
                ],
                "persons": sorted(self.persons.items()),
                "event_info": sorted(self.event_info.items()),
                "unlinked": self.unlinked,
            },
            sort_keys=True,
            default=str,
        )
        return hashlib.sha256(text.encode()).hexdigest()


#: an event's places per stored version of its standings, read once per process (a version is
#: never rewritten): a series recomputation after one event changed reads only that event
_places_cache: dict[tuple[Any, ...], tuple[tuple[EventPlace, ...], int, bool]] = {}
_places_lock = threading.Lock()
PLACES_KEPT = 2_000


def _event_read(
    event: Event, snapshot: StandingsSnapshot | None, person_of: dict[int, int | None]
) -> tuple[tuple[EventPlace, ...], int, bool]:
    if snapshot is None:
        return (), 0, False
    key = (
        snapshot.pk,
        snapshot.inputs_hash,
        snapshot.computed,
        snapshot.requested,
        snapshot.status,
        event.rounds_planned,
        hash(tuple(sorted(person_of.items()))),
    )
    with _places_lock:
        found = _places_cache.get(key)
    if found is not None:
        return found
    data = assemble_data(*load_stored(snapshot.pk))
    places, unlinked = event_places(data, person_of)
    found = (places, unlinked, event_final(event, data, snapshot))
    with _places_lock:
        if len(_places_cache) >= PLACES_KEPT:
            _places_cache.clear()
        _places_cache[key] = found
    return found


def series_inputs(*, series: Series) -> SeriesInputs:
    """Everything the series' table is computed from: its rules, its events in order (the
    weight of each, whether it is final, its persons' places) and the persons' names as public
    pages show them.

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
    person_of: dict[int, dict[int, int | None]] = {e: {} for e in event_ids}
    for event_id, entry_id, person_id in Entry.objects.filter(event_id__in=event_ids).values_list(
        "event_id", "pk", "person_id"
    ):
        person_of[event_id][entry_id] = person_id
    events = []
    event_info: dict[int, dict[str, Any]] = {}
    unlinked = 0
    for link in links:
        event = link.event
        places, missing, final = _event_read(event, snapshots.get(event.pk), person_of[event.pk])
        unlinked += missing
        events.append(SeriesEventResult(event.pk, places, final, Fraction(str(link.weight))))
        event_info[event.pk] = {
            "slug": event.slug,
            "name": event.name,
            "starts_on": event.starts_on.isoformat(),
            "published": event.published,
            "final": final,
            "category": link.category,
            "weight": str(link.weight.normalize()),
            "players": len(places),
        }
    ids = {p.person for e in events for p in e.places}
    persons = {
        p.pk: {"name": p.public_name, "club": p.club, "city": p.city}
        for p in Person.objects.filter(pk__in=ids)
    }
    return SeriesInputs(rules, events, persons, event_info, unlinked)


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


def series_table(*, series: Series) -> dict[str, Any]:
    """The stored series table ready for a page, the CSV or the API: the events in order (with
    links where they are published), the rows with each event's points in the events' order
    (counted ones marked), the state of the recomputation. Empty rows before the first
    computation."""
    snapshot = SeriesStandingsSnapshot.objects.filter(series=series).first()
    data = snapshot.data if snapshot is not None else {}
    info = data.get("event_info", {})
    events = [{"id": int(e), **info.get(str(e), {})} for e in data.get("events", [])]
    persons = data.get("persons", {})
    rows = []
    for row in data.get("rows", []):
        person = persons.get(str(row["person"]), {})
        rows.append(
            {
                **row,
                "name": person.get("name", "?"),
                "club": person.get("club", ""),
                "city": person.get("city", ""),
                "cells": [row["events"].get(str(e["id"])) for e in events],
            }
        )
    return {
        "series": series,
        "snapshot": snapshot,
        "pending": snapshot is None or snapshot.pending,
        "final": bool(data.get("final")),
        "rules": data.get("rules", {}),
        "events": events,
        "rows": rows,
        "unlinked": data.get("unlinked", 0),
    }


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
    snapshots = {
        s.event_id: s
        for s in StandingsSnapshot.objects.filter(event_id__in=[e.event_id for e in entries]).defer(
            "head", "runs"
        )
    }
    results = []
    for entry in entries:
        snapshot = snapshots.get(entry.event_id)
        row = None
        if snapshot is not None:
            data = assemble_data(*load_stored(snapshot.pk))
            row = next((r for r in data.get("rows", []) if r["entry"] == entry.pk), None)
        results.append(
            {
                "event": entry.event,
                "entry": entry,
                "place": row.get("place_label") if row else None,
                "total": row.get("total") if row else None,
                "rounds_played": row.get("rounds_played") if row else 0,
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
        data = snapshot.data if snapshot is not None else {}
        row = next((r for r in data.get("rows", []) if r["person"] == person.pk), None)
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


def persons_to_choose(*, event: Event) -> list[dict[str, Any]]:
    """The event's entries whose person is to be chosen, each with the likely persons."""
    entries = Entry.objects.filter(event=event, person__isnull=True).select_related("player")
    return [{"entry": e, "candidates": person_candidates(entry=e)} for e in entries]
