"""Reads for event and round pages."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Prefetch, Q

from tournaments.models import Entry, Event, EventRole, Round, Seat, Table
from tournaments.models.round import without_draw_record

PUBLIC_STATES = (Round.State.PUBLISHED, Round.State.IN_PLAY, Round.State.CLOSED)


def events_public():
    return Event.objects.filter(published=True).annotate(
        players=Count("entries", filter=~Q(entries__status=Entry.Status.WITHDRAWN))
    )


def events_of_user(*, user) -> list[tuple[Event, list[str], str]]:
    """The events ``user`` has a role in, newest first: each with the roles' names and where
    the user works in it (``"manage"``, the desk; ``"appeals"`` for the appeals committee
    alone). A superuser: every event, as organiser. Nothing for an anonymous visitor."""
    if not getattr(user, "is_authenticated", False):
        return []
    if user.is_superuser:
        organiser = str(EventRole.Role.ORGANISER.label)
        return [(e, [organiser], "manage") for e in Event.objects.order_by("-starts_on", "name")]
    roles: dict[int, list[EventRole]] = {}
    for role in EventRole.objects.filter(user=user).order_by("role"):
        roles.setdefault(role.event_id, []).append(role)
    events = Event.objects.filter(pk__in=roles).order_by("-starts_on", "name")
    return [
        (
            e,
            [str(r.get_role_display()) for r in roles[e.pk]],
            "appeals" if {r.role for r in roles[e.pk]} == {EventRole.Role.APPEALS} else "manage",
        )
        for e in events
    ]


#: what the audit log records of a correction to a round's seating after its draw
CORRECTIONS = ("seats.swapped", "seat.moved", "table.redrawn", "table.seated_as_drawn")


def round_corrections(*, round_: Round):
    """The corrections made to ``round_``'s seating after its draw (swaps, moves, tables drawn
    again or seated as the players drew), oldest first, with their reasons."""
    return round_.event.audit_log.filter(
        action__in=CORRECTIONS, data__round=round_.number
    ).order_by("created_at", "pk")


def seed_commitments(*, event: Event, upcoming: bool = False):
    """Rounds whose seed's hash was published before their draw (commit and reveal), by
    number; with ``upcoming``, only those not public yet (their seed is not revealed)."""
    rounds = event.rounds.filter(draw_seed_committed_at__isnull=False).order_by("number")
    if upcoming:
        rounds = rounds.exclude(state__in=PUBLIC_STATES)
    return rounds


def entries_for_event(*, event: Event):
    return event.entries.select_related("player").order_by("player__name")


def rounds_for_event(*, event: Event, public: bool):
    rounds = event.rounds.annotate(table_count=Count("tables")).order_by("number")
    if public:
        rounds = rounds.filter(state__in=PUBLIC_STATES)
    return rounds


def tables_for_round(*, round_: Round) -> list[Table]:
    """The round's tables with their seats and players, in two queries."""
    return list(
        round_.tables.order_by("number").prefetch_related(
            Prefetch(
                "seats", queryset=Seat.objects.select_related("entry__player").order_by("position")
            )
        )
    )


@dataclass(frozen=True)
class SeatingLine:
    name: str
    club: str
    table: int
    seat: int  # 1-based
    first_dealer: bool


def seating_alphabetical(*, tables: list[Table]) -> list[SeatingLine]:
    lines = [
        SeatingLine(
            s.entry.player.name,
            s.entry.player.club,
            t.number,
            s.position + 1,
            s.position == t.first_dealer,
        )
        for t in tables
        for s in t.seats.all()
    ]
    return sorted(lines, key=lambda line: (line.name.casefold(), line.table))


def rounds_for_entry(*, entry: Entry):
    """Each published round the entry sat in: (round, table, position, the table's seats)."""
    seats = list(
        Seat.objects.filter(entry=entry, round__state__in=PUBLIC_STATES)
        .select_related("round", "table")
        .defer(*without_draw_record("round"))
        .order_by("round__number")
    )
    others = (
        Seat.objects.filter(table_id__in=[s.table_id for s in seats])
        .select_related("entry__player")
        .order_by("position")
    )
    by_table: dict[int, list[Seat]] = {}
    for s in others:
        by_table.setdefault(s.table_id, []).append(s)
    return [(s.round, s.table, s.position, by_table.get(s.table_id, [])) for s in seats]


def met_again_now(*, entry: Entry, rounds, now) -> dict | None:
    """Whom ``entry`` meets again at their table in ``now`` (an item of
    :func:`rounds_for_entry`), and in which earlier rounds, from the seats as they are (a
    correction after the draw counts); with the reasons the draw's report gives for the
    player (as stored: ``seating.report``). None when they meet no one again, or sit nowhere."""
    if now is None:
        return None
    round_, _table, _position, seats = now
    here = {s.entry_id: s.entry.player.name for s in seats if s.entry_id != entry.pk}
    met: dict[int, list[int]] = {}
    for earlier, _t, _p, earlier_seats in rounds:
        if earlier.number < round_.number:
            for s in earlier_seats:
                if s.entry_id in here:
                    met.setdefault(s.entry_id, []).append(earlier.number)
    if not met:
        return None
    # the report's players, by the draw record's ids (another server's for an imported round:
    # ``entry_ids`` says which entry each is); one query, the record's rest not read
    report, ids = (
        Round.objects.filter(pk=round_.pk)
        .values_list("draw_report__players", "draw_params__entry_ids")
        .first()
    ) or (None, None)
    drawn = {int(local): int(draw) for draw, local in (ids or {}).items()}.get(entry.pk, entry.pk)
    mine = next((p for p in report or [] if isinstance(p, dict) and p.get("id") == drawn), {})
    return {
        "players": [
            (here[e], numbers) for e, numbers in sorted(met.items(), key=lambda kv: here[kv[0]])
        ],
        "reasons": [r for r in mine.get("why", "").split("; ") if r],
    }
