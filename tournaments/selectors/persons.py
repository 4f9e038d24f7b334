"""Persons (issue 39): finding the person an entry is, by federation id first, then by name
and club, offering a likely match rather than guessing."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Q

from tournaments.models import Entry, Event, EventRole, OrganisationRole, Person, SeriesEvent
from tournaments.models.series import folded

__all__ = [
    "PersonMatch",
    "folded",
    "person_candidates",
    "person_match",
    "person_merge_preview",
    "persons_search",
]

#: what a merge takes from the merged record where the kept one lacks it
#: (``services.persons.person_merge``)
MERGED_FIELDS = ("name", "club", "city", "federation_id")
#: persons a search shows at most
SEARCH_LIMIT = 40


@dataclass(frozen=True)
class PersonMatch:
    """What the records say about a player being registered: ``exact`` (his federation id is a
    person's: that person), ``likely`` (persons of the same name and club, or the same name
    where a club is missing: offered to the organiser, never chosen for him) or ``new``."""

    kind: str  # "exact", "likely" or "new"
    person: Person | None = None
    candidates: tuple[Person, ...] = field(default_factory=tuple)


def _likely(name: str, club: str, federation_id: str, exclude: set[int]) -> tuple[Person, ...]:
    """Persons of the same folded name whose club agrees (the same, or one of them not
    given), and whose federation id does not contradict the one given."""
    key = folded(name)
    if not key:
        return ()
    found = Person.objects.filter(name_key=key).annotate(event_count=Count("entries"))
    club_key = folded(club)
    out = []
    for person in found:
        if person.pk in exclude:
            continue
        if federation_id and person.federation_id and person.federation_id != federation_id:
            continue
        theirs = folded(person.club)
        if club_key and theirs and theirs != club_key:
            continue
        out.append(person)
    out.sort(key=lambda p: (folded(p.club) != club_key, -p.event_count, p.pk))
    return tuple(out)


def person_match(
    *, name: str, club: str = "", federation_id: str = "", exclude: set[int] | None = None
) -> PersonMatch:
    """The person a player being registered is: federation id first, then name and club."""
    exclude = exclude or set()
    if federation_id:
        person = Person.objects.filter(federation_id=federation_id).first()
        if person is not None and person.pk not in exclude:
            return PersonMatch("exact", person)
    candidates = _likely(name, club, federation_id, exclude)
    if candidates:
        return PersonMatch("likely", None, candidates)
    return PersonMatch("new")


def person_candidates(*, entry: Entry) -> tuple[Person, ...]:
    """The likely persons of an entry that has none yet (its registration offered them), not
    counting persons already entered in the event."""
    player = entry.player
    entered = set(
        Entry.objects.filter(event_id=entry.event_id, person__isnull=False).values_list(
            "person_id", flat=True
        )
    )
    return _likely(player.name, player.club, player.federation_id, entered)


def _events_organised(user):
    """The events ``user`` organises, himself or through an organisation that runs them."""
    return Event.objects.filter(
        Q(roles__user=user, roles__role=EventRole.Role.ORGANISER)
        | Q(
            organisation__roles__user=user,
            organisation__roles__role=OrganisationRole.Role.ORGANISER,
        )
    )


def persons_search(*, query: str, user) -> list[Person]:
    """Persons found by a part of the name (without case or accents), of the club, or by the
    federation id (issue 39, merging two records): the persons of the events ``user``
    organises (a superuser: all), each with ``event_count`` and ``event_names``."""
    key = folded(query)
    if not key or not getattr(user, "is_authenticated", False):
        return []
    found = Person.objects.filter(
        Q(name_key__contains=key)
        | Q(club__icontains=query.strip())
        | Q(federation_id__iexact=query.strip())
    )
    if not user.is_superuser:
        found = found.filter(entries__event__in=_events_organised(user).values("pk")).distinct()
    persons = list(
        found.annotate(event_count=Count("entries", distinct=True)).order_by("name_key", "pk")[
            :SEARCH_LIMIT
        ]
    )
    names: dict[int, list[str]] = {p.pk: [] for p in persons}
    for person_id, name in (
        Entry.objects.filter(person_id__in=names)
        .order_by("event__starts_on", "event_id")
        .values_list("person_id", "event__name")
    ):
        names[person_id].append(name)
    for person in persons:
        person.event_names = names[person.pk]
    return persons


def person_merge_preview(*, keep: Person, drop: Person) -> dict[str, Any]:
    """What merging ``drop`` into ``keep`` will do, shown before the organiser confirms: both
    records with their events, the fields the kept record takes from the other, the events
    where both are entered (no merge then) and the series recomputed."""

    def record(person: Person) -> dict[str, Any]:
        entries = Entry.objects.filter(person=person).select_related("event")
        return {
            "person": person,
            "fields": [
                (Person._meta.get_field(f).verbose_name, getattr(person, f)) for f in MERGED_FIELDS
            ],
            "events": [e.event for e in entries.order_by("event__starts_on", "event_id")],
        }

    kept, merged = record(keep), record(drop)
    both = {e.pk for e in kept["events"]} & {e.pk for e in merged["events"]}
    taken = [
        (Person._meta.get_field(f).verbose_name, getattr(drop, f))
        for f in MERGED_FIELDS
        if not getattr(keep, f) and getattr(drop, f)
    ]
    events = {e.pk for e in kept["events"]} | {e.pk for e in merged["events"]}
    series = sorted(
        {
            link.series.name
            for link in SeriesEvent.objects.filter(event_id__in=events).select_related("series")
        }
    )
    return {
        "keep": kept,
        "drop": merged,
        "taken": taken,
        "clash": [e for e in merged["events"] if e.pk in both],
        "series": series,
        "same": keep.pk == drop.pk,
    }
