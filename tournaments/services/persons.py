"""Persons (issue 39): linking an event's entries to persons, and merging two records of one
person.

Registering or importing a player links his entry to a person (:func:`entry_person_link_new`):
the person with his federation id; else, when persons of the same name and club are on
record, none yet (the likely ones are offered on the organiser's page, who chooses one or a
new person, :func:`entry_person_choose`); else a new person. :func:`person_merge` makes two
records one: the entries of the one go to the other, what is logged says what was merged, and
the series of their events are recomputed (the events' own standings are by entry and do not
change).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.errors import UserFacingError
from tournaments.models import Entry, Person, PersonLogEntry
from tournaments.models.series import folded
from tournaments.selectors.persons import PersonMatch, person_match
from tournaments.services.audit import audit_log
from tournaments.services.ratings import ratings_persons_changed, ratings_schedule_for_event
from tournaments.services.series import series_schedule_for_event
from tournaments.web_cache import versions as page_cache

__all__ = [
    "entry_person_choose",
    "entry_person_link_new",
    "person_log",
    "person_merge",
    "person_new",
    "person_update",
]

PERSON_FIELDS = ("name", "club", "city", "federation_id")


def person_new(*, name: str, club: str = "", city: str = "", federation_id: str = "") -> Person:
    """A new person (with the folded name identity matching looks up)."""
    return Person.objects.create(
        name=name, name_key=folded(name), club=club, city=city, federation_id=federation_id
    )


def person_log(*, person: Person | None, action: str, by=None, data: dict[str, Any]) -> None:
    user = by if getattr(by, "is_authenticated", False) else None
    PersonLogEntry.objects.create(person=person, user=user, action=action, data=data)


def _entered(entry: Entry) -> set[int]:
    """The persons already entered in the entry's event (one person enters once)."""
    return set(
        Entry.objects.filter(event_id=entry.event_id, person__isnull=False)
        .exclude(pk=entry.pk)
        .values_list("person_id", flat=True)
    )


def entry_person_link_new(*, entry: Entry) -> PersonMatch:
    """Link a newly registered entry to its person (inside the registration's transaction):
    the exact match, or a new person when no one is like him; a likely match leaves the entry
    without a person until the organiser chooses (:func:`entry_person_choose`). Returns the
    match, so the caller can offer the likely persons."""
    player = entry.player
    match = person_match(
        name=player.name,
        club=player.club,
        federation_id=player.federation_id,
        exclude=_entered(entry),
    )
    if match.kind == "exact":
        person = match.person
        assert person is not None
        changed = [f for f in ("club", "city") if getattr(player, f) and not getattr(person, f)]
        for f in changed:
            setattr(person, f, getattr(player, f))
        if changed:
            person.save(update_fields=changed)
    elif match.kind == "new":
        person = person_new(
            name=player.name,
            club=player.club,
            city=player.city,
            federation_id=player.federation_id,
        )
    else:
        return match
    Entry.objects.filter(pk=entry.pk).update(person=person)
    entry.person = person
    page_cache.persons_changed(person_ids=[person.pk])  # his page lists the event
    return match


@transaction.atomic
def entry_person_choose(*, entry: Entry, person: Person | None, by=None) -> Entry:
    """The organiser's choice for an entry: this person (a likely match confirmed), or a new
    person (``None``).

    :raises UserFacingError: the person is entered in the event already.
    """
    entry = Entry.objects.select_for_update().select_related("player", "event").get(pk=entry.pk)
    player = entry.player
    if person is None:
        if (
            player.federation_id
            and Person.objects.filter(federation_id=player.federation_id).exists()
        ):
            raise UserFacingError(
                _("The federation id %(id)s is a person's already: choose that person.")
                % {"id": player.federation_id},
                {"field": "person"},
            )
        person = person_new(
            name=player.name,
            club=player.club,
            city=player.city,
            federation_id=player.federation_id,
        )
    elif person.pk in _entered(entry):
        raise UserFacingError(
            _("%(name)s is entered in this event already.") % {"name": person.name},
            {"field": "person"},
        )
    elif player.federation_id and not person.federation_id:
        person.federation_id = player.federation_id
        person.save(update_fields=["federation_id"])
    before = entry.person_id
    entry.person = person
    entry.save(update_fields=["person"])
    page_cache.persons_changed(person_ids=[before, person.pk])
    audit_log(
        event=entry.event,
        action="entry.person_chosen",
        by=by,
        data={"entry": entry.pk, "person": person.pk, "name": person.name},
    )
    series_schedule_for_event(event_id=entry.event_id)
    ratings_schedule_for_event(event_id=entry.event_id)  # issue 41: the ratings follow the person
    ratings_persons_changed(person_ids=[before, person.pk])
    return entry


def _record(person: Person) -> dict[str, Any]:
    return {"id": person.pk, **{f: getattr(person, f) for f in PERSON_FIELDS}}


@transaction.atomic
def person_merge(*, keep: Person, drop: Person, by=None) -> Person:
    """Merge ``drop`` into ``keep`` (two records of one person): ``drop``'s entries become
    ``keep``'s, a field ``keep`` lacks is taken from ``drop``, and ``drop`` is deleted. The
    person's log and each event's log say what was merged; the series of those events are
    recomputed.

    :raises UserFacingError: the same record twice, or both entered in one event (two players
        of one table cannot be one person).
    """
    if keep.pk == drop.pk:
        raise UserFacingError(_("A person cannot be merged with himself."), {"field": "drop"})
    keep, drop = (
        Person.objects.select_for_update().get(pk=keep.pk),
        Person.objects.select_for_update().get(pk=drop.pk),
    )
    theirs = Entry.objects.filter(person=drop).select_related("event")
    both = Entry.objects.filter(person=keep, event__in=theirs.values("event")).select_related(
        "event"
    )
    clash = both.first()
    if clash is not None:
        raise UserFacingError(
            _("Both records are entered in %(event)s: they are two players there.")
            % {"event": clash.event.name},
            {"field": "drop"},
        )
    moved = list(theirs)
    merged = _record(drop)
    taken = [f for f in PERSON_FIELDS if not getattr(keep, f) and getattr(drop, f)]
    federation_id = drop.federation_id
    if "federation_id" in taken:  # unique: freed first
        drop.federation_id = ""
        drop.save(update_fields=["federation_id"])
    for f in taken:
        setattr(keep, f, federation_id if f == "federation_id" else getattr(drop, f))
    if "name" in taken:
        keep.name_key = folded(keep.name)
        taken.append("name_key")
    if taken:
        keep.save(update_fields=taken)
    Entry.objects.filter(person=drop).update(person=keep)
    page_cache.persons_changed(person_ids=[keep.pk, drop.pk])  # the events moved
    data = {
        "kept": keep.pk,
        "merged": merged,
        "fields_taken": taken,
        "entries": [e.pk for e in moved],
        "events": sorted({e.event_id for e in moved}),
    }
    person_log(person=keep, action="person.merged", by=by, data=data)
    for event in {e.event_id: e.event for e in moved}.values():
        audit_log(event=event, action="person.merged", by=by, data=data)
    ratings_persons_changed(person_ids=[keep.pk, drop.pk])  # before its ratings go with it
    drop.delete()
    events = set(data["events"]) | set(
        Entry.objects.filter(person=keep).values_list("event_id", flat=True)
    )
    for event_id in sorted(events):
        series_schedule_for_event(event_id=event_id)
        ratings_schedule_for_event(event_id=event_id)  # issue 41: one person, one rating
    return keep


@transaction.atomic
def person_update(*, person: Person, shown_as: str | None = None, by=None) -> Person:
    """The organiser's per-person setting: shown on public pages by name or by initials (the
    series pages and a person's page read it when they are shown)."""
    person = Person.objects.select_for_update().get(pk=person.pk)
    if shown_as is not None:
        if shown_as not in Person.ShownAs.values:
            raise UserFacingError(
                _("Choose how the person is shown: %(choices)s.")
                % {"choices": ", ".join(Person.ShownAs.values)},
                {"field": "shown_as"},
            )
        if shown_as != person.shown_as:
            old = person.shown_as
            person.shown_as = shown_as
            person.save(update_fields=["shown_as"])
            person_log(
                person=person, action="person.shown_as", by=by, data={"from": old, "to": shown_as}
            )
            # the series pages read the names as they show them; the events' pages are cached
            events = set(Entry.objects.filter(person=person).values_list("event_id", flat=True))
            for event_id in sorted(events):
                page_cache.changed(event_id=event_id)
    return person
