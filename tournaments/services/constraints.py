"""The organiser's draw constraints: players kept apart, and players who must sit at a table.

The draw engine honours both (``tournaments.seating``: ``Constraints.must_not_meet`` and
``must_sit``; ``services.rounds.draw_input`` reads them from here). These services check what a
draw could never satisfy when the organiser sets it, not when the round is drawn, and record
who set what and why in the event's log.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.errors import UserFacingError
from tournaments.models import Avoidance, Entry, Event
from tournaments.services.audit import audit_log

__all__ = ["avoidance_add", "avoidance_remove", "entry_fix_table"]


def _same_event(event: Event, *entries: Entry) -> None:
    for entry in entries:
        if entry.event_id != event.pk:
            raise UserFacingError(
                _("%(name)s is not a player of this event.") % {"name": entry.player.name},
                {"field": "entry"},
            )


@transaction.atomic
def avoidance_add(
    *, event: Event, first: Entry, second: Entry, reason: str = "", by=None
) -> Avoidance:
    """Keep two players apart in every draw of the event (family, a request the organiser
    accepted). Refused for one player twice, a pair kept apart already, or two players who
    must both sit at the same table."""
    _same_event(event, first, second)
    if first.pk == second.pk:
        raise UserFacingError(_("Choose two different players to keep apart."), {"field": "second"})
    first, second = sorted((first, second), key=lambda e: e.pk)
    if Avoidance.objects.filter(event=event, first=first, second=second).exists():
        raise UserFacingError(
            _("%(a)s and %(b)s are kept apart already.")
            % {"a": first.player.name, "b": second.player.name},
            {"field": "second"},
        )
    if first.fixed_table is not None and first.fixed_table == second.fixed_table:
        raise UserFacingError(
            _("%(a)s and %(b)s must both sit at table %(n)d; they cannot be kept apart.")
            % {"a": first.player.name, "b": second.player.name, "n": first.fixed_table},
            {"field": "second"},
        )
    avoidance = Avoidance.objects.create(event=event, first=first, second=second, reason=reason)
    audit_log(
        event=event,
        action="constraint.apart_added",
        by=by,
        reason=reason,
        data={"first": first.pk, "second": second.pk},
    )
    return avoidance


@transaction.atomic
def avoidance_remove(*, avoidance: Avoidance, reason: str = "", by=None) -> None:
    data = {"first": avoidance.first_id, "second": avoidance.second_id}
    event = avoidance.event
    avoidance.delete()
    audit_log(event=event, action="constraint.apart_removed", by=by, reason=reason, data=data)


@transaction.atomic
def entry_fix_table(*, entry: Entry, table: int | None, reason: str = "", by=None) -> Entry:
    """Seat a player at table ``table`` in every draw (accessibility, a referee's table), or
    free them with ``None``. Refused where a player kept apart from them sits there already."""
    if table is not None and table < 1:
        raise UserFacingError(_("Tables are numbered from 1."), {"field": "table"})
    if table is not None:
        apart = Avoidance.objects.filter(event=entry.event_id).select_related(
            "first__player", "second__player"
        )
        for pair in apart:
            other = {pair.first_id: pair.second, pair.second_id: pair.first}.get(entry.pk)
            if other is not None and other.fixed_table == table:
                raise UserFacingError(
                    _("%(other)s, kept apart from %(name)s, must sit at table %(n)d already.")
                    % {"other": other.player.name, "name": entry.player.name, "n": table},
                    {"field": "table"},
                )
    before = entry.fixed_table
    entry.fixed_table = table
    entry.save(update_fields=["fixed_table"])
    audit_log(
        event=entry.event,
        action="constraint.table_fixed" if table is not None else "constraint.table_freed",
        by=by,
        reason=reason,
        data={"entry": entry.pk, "table": table, "before": before},
    )
    return entry
