"""Rating reads (issue 41): what a rating's recomputation reads (the rated events of its scope
and their approved tables, turned into ``tournaments.ratings`` plain data), and what the pages,
the CSV and the API show of the stored ratings. Nothing here rates: the job
(``services.ratings.ratings_recompute``) stores the ratings.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db import connection
from django.db.models import Q

from rules.variants import FAMILIES, family_of_convention
from tournaments.models import (
    Entry,
    Event,
    Person,
    PersonEventRating,
    PersonRating,
    Protocol,
    RatingList,
    Round,
    SeriesEvent,
    Table,
    UnratedEvent,
)
from tournaments.models.series import anonymous_name, initials
from tournaments.ratings import (
    PlayerState,
    RatedEvent,
    RatedTable,
    RatingChange,
    TableResult,
    unpack,
)

__all__ = [
    "ACTIVE_DAYS",
    "PAGE_PART",
    "EventKey",
    "event_changes",
    "person_history",
    "person_names",
    "rating_choices",
    "rating_lists",
    "rating_table",
    "ratings_at_entry",
    "RatedEventInput",
    "event_family_key",
    "rated_events",
    "rated_inputs",
    "rating_lists_of_event",
    "states_before",
    "stored_changes",
]


@dataclass(frozen=True, slots=True)
class EventKey:
    """Where an event stands in a rating's order: by its first day, then its id."""

    date: dt.date
    event: int

    def as_tuple(self) -> tuple[dt.date, int]:
        return (self.date, self.event)


@dataclass(frozen=True)
class RatedEventInput:
    """One rated event's input: the plain data to rate and the digest of it."""

    key: EventKey
    rated: RatedEvent
    digest: str


def event_family_key(event: Event) -> str | None:
    """The key of the event's rule family (None for a convention this Pulka does not know)."""
    try:
        return family_of_convention(event.variant).key
    except ValueError:
        return None


def _family_conventions(family: str) -> list[str]:
    found = FAMILIES.get(family)
    return list(found.conventions) if found is not None else []


def rated_events(*, rating_list: RatingList) -> list[tuple[EventKey, int]]:
    """The events the rating counts, in its order: of its family and scope, not marked
    unrated; each with its game size (the bula, the pulka)."""
    events = Event.objects.filter(variant__in=_family_conventions(rating_list.family)).exclude(
        pk__in=UnratedEvent.objects.values("event_id")
    )
    if rating_list.organisation_id is not None:
        events = events.filter(organisation_id=rating_list.organisation_id)
    if rating_list.series_id is not None:
        events = events.filter(
            pk__in=SeriesEvent.objects.filter(series_id=rating_list.series_id).values("event_id")
        )
    return [
        (EventKey(starts_on, pk), size)
        for pk, starts_on, size in events.order_by("starts_on", "pk").values_list(
            "pk", "starts_on", "pulka_target"
        )
    ]


def rating_lists_of_event(*, event: Event) -> list[int]:
    """The rating lists whose scope holds the event (its family's, its organisation's, its
    series')."""
    family = event_family_key(event)
    if family is None:
        return []
    series = list(SeriesEvent.objects.filter(event=event).values_list("series_id", flat=True))
    return list(
        RatingList.objects.filter(family=family)
        .filter(Q(organisation__isnull=True) | Q(organisation_id=event.organisation_id))
        .filter(Q(series__isnull=True) | Q(series_id__in=series))
        .values_list("pk", flat=True)
    )


def _score(value: Any) -> float:
    if isinstance(value, int | float):
        return float(value)
    try:  # the usual case, a whole number as text: what the fraction would give, cheaper
        return float(int(value))
    except (TypeError, ValueError):
        return float(Fraction(str(value)))


def _approved_tables(event_ids: list[int]) -> list[tuple[int, int, int, Any]]:
    """Per table of the events with an approved protocol: (event, round, table, result rows
    ``[{"entry", "whists", …}]``), the latest approved version of each table, in event, round
    and table order. On PostgreSQL one query of plain rows, each result as its JSON text, all
    decoded at once (45,000 tables of a season: one ``json.loads``; building the JSON in the
    database cost it more than this whole read)."""
    if not event_ids:
        return []
    t_p, t_t, t_r = Protocol._meta.db_table, Table._meta.db_table, Round._meta.db_table
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT DISTINCT ON (p.table_id) r.event_id, r.number, t.number, p.result::text "
                f"FROM {t_p} p JOIN {t_t} t ON t.id = p.table_id JOIN {t_r} r ON r.id = t.round_id "
                "WHERE p.approved AND r.event_id = ANY(%s) ORDER BY p.table_id, p.id DESC",
                [event_ids],
            )
            found = cursor.fetchall()
        found.sort(key=lambda x: (x[0], x[1], x[2]))
        results = json.loads("[" + ",".join(x[3] for x in found) + "]") if found else []
        return [(e, r, t, res) for (e, r, t, _text), res in zip(found, results, strict=True)]
    latest: dict[int, tuple[int, int, int, Any]] = {}
    for table_id, e, r, t, result in (
        Protocol.objects.filter(approved=True, table__round__event_id__in=event_ids)
        .order_by("table_id", "pk")
        .values_list(
            "table_id", "table__round__event_id", "table__round__number", "table__number", "result"
        )
    ):
        latest[table_id] = (e, r, t, result)
    return sorted(latest.values(), key=lambda x: (x[0], x[1], x[2]))


def rated_inputs(*, keys: list[tuple[EventKey, int]]) -> list[RatedEventInput]:
    """The rated data of the events ``keys`` (:func:`rated_events`' rows), in their order: each
    table's players by person (an entry without a person, and a table left with fewer than
    two, is not rated) with their table result (``whists``, more is better)."""
    ids = [k.event for k, _ in keys]
    person_of: dict[int, int] = {}
    if ids:
        person_of = dict(
            Entry.objects.filter(event_id__in=ids, person__isnull=False).values_list(
                "pk", "person_id"
            )
        )
    by_event: dict[int, list[RatedTable]] = defaultdict(list)
    sizes = {k.event: size for k, size in keys}
    for event_id, round_number, table_number, result in _approved_tables(ids):
        results = []
        for row in result if isinstance(result, list) else []:
            if not isinstance(row, dict):
                continue
            person = person_of.get(row.get("entry"))
            if person is None or row.get("whists") is None:
                continue
            results.append(TableResult(person, _score(row["whists"])))
        if len(results) >= 2:
            by_event[event_id].append(
                RatedTable(round_number, table_number, tuple(results), sizes[event_id])
            )
    out = []
    for key, _size in keys:
        tables = tuple(by_event.get(key.event, ()))
        h = hashlib.sha256(b"rated 1\0")
        h.update(repr((key.as_tuple(), sizes[key.event], tables)).encode())
        out.append(RatedEventInput(key, RatedEvent(key.event, tables), h.hexdigest()))
    return out


def states_before(
    *, rating_list: RatingList, key: EventKey | None, persons: set[int] | None = None
) -> dict[int, Any]:
    """Each person's (of ``persons``, when given) last stored record before the event ``key``
    (all of them for None): ``{person: (mu, sigma, tables, event, event_date)}``."""
    changes = PersonEventRating.objects.filter(rating_list=rating_list)
    if persons is not None:
        changes = changes.filter(person_id__in=persons)
    if key is not None:
        changes = changes.filter(
            Q(event_date__lt=key.date) | Q(event_date=key.date, event_id__lt=key.event)
        )
    if connection.vendor == "postgresql":
        rows = (
            changes.order_by("person_id", "-event_date", "-event_id")
            .distinct("person_id")
            .values_list(
                "person_id", "mu_after", "sigma_after", "tables_after", "event_id", "event_date"
            )
        )
        return {r[0]: r[1:] for r in rows}
    found: dict[int, Any] = {}
    for r in changes.order_by("event_date", "event_id").values_list(
        "person_id", "mu_after", "sigma_after", "tables_after", "event_id", "event_date"
    ):
        found[r[0]] = r[1:]
    return found


def stored_changes(*, rating_list: RatingList) -> list[RatingChange]:
    """Every stored change of the list as the job's run made it (``tournaments.ratings``'
    changes, unpacked from the records), event by event, each event's persons in the order
    of their first change there (a record's state before holds the event of the person's
    record before it, None for his first)."""
    last: dict[int, int] = {}
    rows = []
    for person, event, mu, sigma, tables, shown, changes in (
        PersonEventRating.objects.filter(rating_list=rating_list)
        .order_by("event_date", "event_id", "seq")
        .values_list(
            "person_id", "event_id", "mu_before", "sigma_before", "tables_before",
            "shown_before", "changes",
        )
    ):  # fmt: skip
        before = PlayerState(mu, sigma, tables, last.get(person))
        rows.append((person, event, before, shown, json.loads(changes)))
        last[person] = event
    return unpack(rows)


# --- what the pages show ------------------------------------------------------------------------


def person_names(ids: list[int]) -> dict[int, str]:
    """The persons' names as public pages show them (initials where the organiser chose, a
    label without personal data for an erased person)."""
    return {
        pid: _name(name, shown_as, erased, pid)
        for pid, name, shown_as, erased in Person.objects.filter(pk__in=ids).values_list(
            "pk", "name", "shown_as", "erased_at"
        )
    }


# --- what the pages, the CSV and the API show ---------------------------------------------------

#: the public pages' version part of a rating list (``web_cache.versions`` tokens under the
#: list's slug): replaced when the list is recomputed
PAGE_PART = "rating"
#: a person is active when he played a rated table in the last year
ACTIVE_DAYS = 365


def rating_lists(*, published_only: bool = True) -> list[RatingList]:
    found = RatingList.objects.select_related("organisation", "series")
    if published_only:
        found = found.filter(published=True)
    return list(found.order_by("family", "name"))


def _name(person_name: str, shown_as: str, erased_at: Any, person_id: int) -> str:
    if erased_at is not None:
        return anonymous_name(person_id)
    return initials(person_name) if shown_as == Person.ShownAs.INITIALS else person_name


def rating_table(
    *,
    rating_list: RatingList,
    club: str = "",
    city: str = "",
    active: bool = False,
    today: dt.date | None = None,
) -> dict[str, Any]:
    """The rating list: established players ranked by their shown rating (equal ratings share
    the rank), provisional players after them, unranked; filtered by club, city, and players
    active in the last year. One query for the rows, one for the filters' choices."""
    rows = PersonRating.objects.filter(rating_list=rating_list)
    if club:
        rows = rows.filter(person__club=club)
    if city:
        rows = rows.filter(person__city=city)
    if active:
        since = (today or dt.date.today()) - dt.timedelta(days=ACTIVE_DAYS)
        rows = rows.filter(last_played__gte=since)
    values = rows.order_by("provisional", "-shown", "person__name", "person_id").values_list(
        "person_id",
        "person__name",
        "person__shown_as",
        "person__erased_at",
        "person__club",
        "person__city",
        "shown",
        "spread",
        "tables",
        "provisional",
        "last_played",
    )
    out, rank, last = [], 0, None
    for i, (
        pid,
        name,
        shown_as,
        erased,
        p_club,
        p_city,
        shown,
        spread,
        tables,
        prov,
        played,
    ) in enumerate(values, 1):
        if not prov and round(shown, 1) != last:
            rank, last = i, round(shown, 1)
        out.append(
            {
                "person": pid,
                "name": _name(name, shown_as, erased, pid),
                "club": "" if erased else p_club,
                "city": "" if erased else p_city,
                "rank": None if prov else rank,
                "rating": shown,
                "spread": spread,
                "tables": tables,
                "provisional": prov,
                "last_played": played,
            }
        )
    return {"rows": out}


def rating_choices(*, rating_list: RatingList) -> dict[str, list[str]]:
    """The clubs and cities of the list's players (the filters' choices), sorted: a filter
    names one by its position (a small number, so that a filtered page is stored in the page
    cache like the others)."""
    everyone = PersonRating.objects.filter(rating_list=rating_list, person__erased_at__isnull=True)
    clubs = sorted({c for c in everyone.values_list("person__club", flat=True).distinct() if c})
    cities = sorted({c for c in everyone.values_list("person__city", flat=True).distinct() if c})
    return {"clubs": clubs, "cities": cities}


def _event_changes(
    event: int, shown_before: float, tables_before: int, changes: str
) -> list[dict[str, Any]]:
    """A stored record's tables' changes as the pages show them (each table's rating before it
    is the one after the table before it; ``tournaments.ratings.compact.TABLE_FIELDS``)."""
    out = []
    before, tables = shown_before, tables_before
    for rnd, tbl, place, size, tied, _mu, _sigma, after, spread, parts, opponents in json.loads(
        changes
    ):
        tables += 1
        out.append(
            {
                "event": event,
                "round": rnd,
                "table": tbl,
                "place": place,
                "size": size,
                "tied": tied,
                "before": before,
                "after": after,
                "change": after - before,
                "spread": spread,
                "tables": tables,
                "parts": parts,
                "opponents": opponents,
            }
        )
        before = after
    return out


def person_history(*, rating_list: RatingList, person: Person) -> dict[str, Any]:
    """A person's rating in the list: his current row, every change in order (with the
    events' names and dates) and the names of the opponents the explanations mention."""
    current = PersonRating.objects.filter(rating_list=rating_list, person=person).first()
    changes = [
        c
        for record in PersonEventRating.objects.filter(rating_list=rating_list, person=person)
        .order_by("event_date", "event_id")
        .values_list("event_id", "shown_before", "tables_before", "changes")
        for c in _event_changes(*record)
    ]
    events = {
        e.pk: e
        for e in Event.objects.filter(pk__in={c["event"] for c in changes}).only(
            "pk", "slug", "name", "starts_on", "published"
        )
    }
    opponents = {o[0] for c in changes for o in c["opponents"]}
    return {
        "current": current,
        "changes": changes,
        "events": events,
        "names": person_names(sorted(opponents)),
    }


def event_changes(*, rating_list: RatingList, event: Event) -> list[dict[str, Any]]:
    """Each person's rating before and after the event, the change and his tables in it, the
    largest gain first."""
    records = list(
        PersonEventRating.objects.filter(rating_list=rating_list, event=event)
        .order_by("seq")
        .values_list(
            "person_id", "shown_before", "shown_after", "spread_after", "tables_before",
            "tables_after",
        )
    )  # fmt: skip
    names = person_names(sorted(r[0] for r in records))
    rows = [
        {
            "person": p,
            "name": names.get(p, ""),
            "before": before,
            "after": after,
            "change": after - before,
            "spread": spread,
            "tables": tables_after - tables_before,
        }
        for p, before, after, spread, tables_before, tables_after in records
    ]
    rows.sort(key=lambda r: (-r["change"], r["name"]))
    return rows


def ratings_at_entry(*, event: Event) -> dict[int, tuple[float, float | None, bool]]:
    """Each entry's rating in its family's own list as it stood when the event began (the
    last change before the event): ``{entry: (shown, spread, provisional)}``; an entry
    without a person or without a rated table before is absent."""
    family = event_family_key(event)
    rating = (
        RatingList.objects.filter(family=family, organisation__isnull=True, series__isnull=True)
        .order_by("pk")
        .first()
    )
    if rating is None:
        return {}
    persons = dict(
        Entry.objects.filter(event=event, person__isnull=False).values_list("pk", "person_id")
    )
    if not persons:
        return {}
    key = EventKey(event.starts_on, event.pk)
    before = (
        PersonEventRating.objects.filter(rating_list=rating, person_id__in=set(persons.values()))
        .filter(Q(event_date__lt=key.date) | Q(event_date=key.date, event_id__lt=key.event))
        .order_by("person_id", "-event_date", "-event_id")
    )
    if connection.vendor == "postgresql":
        rows = before.distinct("person_id").values_list(
            "person_id", "shown_after", "spread_after", "tables_after"
        )
        by_person = {r[0]: r[1:] for r in rows}
    else:
        by_person = {}
        for r in before.values_list("person_id", "shown_after", "spread_after", "tables_after"):
            by_person.setdefault(r[0], r[1:])
    below = int((rating.spec.get("params") or {}).get("provisional_below", 12))
    return {
        entry: (by_person[p][0], by_person[p][1], by_person[p][2] < below)
        for entry, p in persons.items()
        if p in by_person
    }


def event_entry_ratings(*, event: Event) -> dict[str, Any]:
    """The players' ratings at entry for the event's page (its family's own list): each rated
    entry's name, person, rating and ±, the highest first; ``{}`` without any."""
    found = ratings_at_entry(event=event)
    if not found:
        return {}
    rating = (
        RatingList.objects.filter(
            family=event_family_key(event), organisation__isnull=True, series__isnull=True
        )
        .order_by("pk")
        .first()
    )
    entries = Entry.objects.filter(pk__in=found).values_list("pk", "player__name", "person_id")
    rows = [
        {
            "entry": pk,
            "name": name,
            "person": person,
            "rating": found[pk][0],
            "spread": found[pk][1],
            "provisional": found[pk][2],
        }
        for pk, name, person in entries
    ]
    rows.sort(key=lambda r: (r["provisional"], -r["rating"], r["name"]))
    return {"rating": rating, "rows": rows}
