"""Persons (issue 39): finding the person an entry is, by federation id first, then by name
and club, offering a likely match rather than guessing."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count

from tournaments.models import Entry, Person
from tournaments.models.series import folded

__all__ = ["PersonMatch", "folded", "person_candidates", "person_match"]


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
