"""A person's data, as European clubs must keep it (issue 39, privacy): everything Pulka holds
about a person exported, and his personal data erased while his results stay, anonymised.

:func:`person_export` gathers the person's record, his entries in every event (the player's
record as registered, status, private link's existence, seats), his results as the events'
stored standings have them, his penalties, the protocols he played (his seat and result) and
the log of what was done to his record. :func:`person_erase` replaces his name by a label
without personal data (``models.series.anonymous_name``) in the person, his players' records,
and the protocols of the tables he played at (the names written there), clears his club, city,
federation id and rating, and gives his entries new private-link keys; every result, standing,
series table and rating stays what it was (they are by entry, not by name), and the events'
standings are recomputed only to show the label. Both are logged in the person's log. The
event logs are append-only (results integrity, docs/results-integrity.md) and keep what they
recorded.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.errors import UserFacingError
from tournaments.models import Entry, EventPenalty, Person, PersonLogEntry, Player, Protocol, Seat
from tournaments.models.player import new_url_key
from tournaments.models.round import without_draw_record
from tournaments.models.series import anonymous_name
from tournaments.selectors.series import person_record
from tournaments.services.persons import person_log
from tournaments.services.ratings import ratings_persons_changed
from tournaments.services.series import series_schedule_for_event
from tournaments.services.standings import standings_schedule

__all__ = ["person_erase", "person_export"]

PLAYER_FIELDS = ("name", "club", "city", "rating", "federation_id")


def person_export(*, person: Person, by=None) -> dict[str, Any]:
    """Everything Pulka holds about the person, as one JSON-ready document (logged)."""
    entries = list(
        Entry.objects.filter(person=person).select_related("event", "player").order_by("pk")
    )
    ids = [e.pk for e in entries]
    seats = (
        Seat.objects.filter(entry_id__in=ids)
        .select_related("table", "round__event")
        .defer(*without_draw_record("round"))
        .order_by("round__event_id", "round__number")
    )
    penalties = EventPenalty.objects.filter(entry_id__in=ids).order_by("created_at")
    record = person_record(person=person, public=False)
    places = {r["entry"].pk: r for r in record["results"]}
    protocols = [
        {
            "event": p.table.round.event.slug,
            "round": p.table.round.number,
            "table": p.table.number,
            "version": p.version,
            "approved": p.approved,
            "seat": row.get("seat"),
            "result": row.get("whists"),
        }
        for p in Protocol.objects.filter(table__seats__entry_id__in=ids)
        .select_related("table__round__event")
        .defer(*without_draw_record("table__round"))
        .distinct()
        .order_by("pk")
        for row in (p.result or [])
        if row.get("entry") in ids
    ]
    document = {
        "format": "pulka-person-export",
        "version": 1,
        "exported_at": timezone.now().isoformat(),
        "person": {
            "id": person.pk,
            "name": person.name,
            "club": person.club,
            "city": person.city,
            "federation_id": person.federation_id,
            "shown_as": person.shown_as,
            "erased_at": person.erased_at.isoformat() if person.erased_at else None,
            "created_at": person.created_at.isoformat(),
        },
        "entries": [
            {
                "event": e.event.slug,
                "event_name": e.event.name,
                "starts_on": e.event.starts_on.isoformat(),
                "player": {f: getattr(e.player, f) for f in PLAYER_FIELDS},
                "status": e.status,
                "registered_at": e.registered_at.isoformat(),
                "joined_round": e.joined_round,
                "has_private_link": bool(e.url_key),
                "place": places.get(e.pk, {}).get("place"),
                "total": places.get(e.pk, {}).get("total"),
            }
            for e in entries
        ],
        "seats": [
            {
                "event": s.round.event.slug,
                "round": s.round.number,
                "table": s.table.number,
                "seat": s.position + 1,
            }
            for s in seats
        ],
        "protocols": protocols,
        "penalties": [
            {
                "entry": p.entry_id,
                "kind": p.kind,
                "whists": p.whists,
                "active": p.active,
                "rule": p.rule,
                "reason": p.reason,
                "created_at": p.created_at.isoformat(),
            }
            for p in penalties
        ],
        "series": [
            {"series": s["series"].slug, "place": s["place"], "total": s["total"]}
            for s in record["series"]
        ],
        "log": [
            {"action": entry.action, "at": entry.created_at.isoformat(), "data": entry.data}
            for entry in PersonLogEntry.objects.filter(person=person).order_by("created_at", "pk")
        ],
    }
    person_log(person=person, action="person.exported", by=by, data={"entries": len(entries)})
    return document


def _anonymise_protocols(entries: list[int], label: str) -> int:
    """The name written for these entries in every protocol version of their tables."""
    changed = 0
    played = Protocol.objects.filter(table__seats__entry_id__in=entries).values("pk")
    for protocol in Protocol.objects.select_for_update().filter(pk__in=played):
        seats = [r.get("seat") for r in protocol.result or () if r.get("entry") in entries]
        result = [
            {**r, "name": label} if r.get("entry") in entries else r for r in protocol.result or ()
        ]
        data = dict(protocol.data or {})
        names = list(data.get("players", ()))
        for seat in seats:
            if isinstance(seat, int) and 0 <= seat < len(names):
                names[seat] = label
        if names:
            data["players"] = names
        if result != protocol.result or data != protocol.data:
            Protocol.objects.filter(pk=protocol.pk).update(result=result, data=data)
            changed += 1
    return changed


@transaction.atomic
def person_erase(*, person: Person, by=None) -> Person:
    """Erase the person's personal data; his results stay, anonymised (see the module).

    :raises UserFacingError: the person was erased already.
    """
    person = Person.objects.select_for_update().get(pk=person.pk)
    if person.erased_at is not None:
        raise UserFacingError(_("This person's data was erased already."), {"field": "person"})
    label = anonymous_name(person.pk)
    entries = list(Entry.objects.filter(person=person).select_related("player"))
    ids = [e.pk for e in entries]
    for player in {e.player_id: e.player for e in entries}.values():
        others = Entry.objects.filter(player=player).exclude(person=person).exists()
        if others:  # a record shared with another person's entries: his own from now on
            mine = Player.objects.create(name=label)
            Entry.objects.filter(player=player, person=person).update(player=mine)
        else:
            player.name, player.club, player.city = label, "", ""
            player.rating, player.federation_id = None, ""
            player.save()  # the events he entered recompute their standings' names
    protocols = _anonymise_protocols(ids, label)
    for entry in entries:  # the old private links no longer open anything
        Entry.objects.filter(pk=entry.pk).update(url_key=new_url_key())
    person.name, person.name_key = label, ""
    person.club = person.city = person.federation_id = ""
    person.shown_as = Person.ShownAs.NAME
    person.erased_at = timezone.now()
    person.save()
    person_log(
        person=person,
        action="person.erased",
        by=by,
        data={"entries": ids, "protocols": protocols},
    )
    for event_id in sorted({e.event_id for e in entries}):
        standings_schedule(event_id=event_id)
        series_schedule_for_event(event_id=event_id)
    ratings_persons_changed(person_ids=[person.pk])  # no name left in a cached rating list
    return person
