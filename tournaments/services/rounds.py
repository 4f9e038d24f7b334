"""Rounds: creation, the verifiable draw, publication, play, closing, and atomic corrections.

The draw itself is pure (``tournaments.seating``); the services are the bridge (Tabbycat's
``draw/manager.py``): they turn rows into the engine's plain input, store the engine's tables
and report, and keep the seed so that anyone can re-run the draw (``manage.py draw_verify``).

This module is the rounds' public face and holds the corrections to a drawn round (atomic, with
a reason, recorded); the rest lives by concern: a round's life in :mod:`.round_states`, the
draw in :mod:`.draw`, a draw as a job in :mod:`.draw_jobs`, the rounds ahead in
:mod:`.rounds_ahead`.
"""

from __future__ import annotations

import hashlib
import random

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments import rule_sources
from tournaments.errors import UserFacingError
from tournaments.families import domain_of_event as ui_of_event
from tournaments.models import Round, Seat, Table
from tournaments.services.audit import audit_log

# the rounds' public face: every service of a round is importable from here (the views and the
# API call ``services.rounds``); each lives in the module of its concern
from tournaments.services.draw import (
    DrawnMeanwhileError,
    draw_input,
    draw_job,
    draw_job_running,
    round_draw,
    run_engine,
)
from tournaments.services.draw_jobs import (
    ASYNC_DRAW_THRESHOLD,
    draw_in_background,
    draw_job_queue,
    draw_job_run,
)
from tournaments.services.round_states import (
    UnfinishedTablesError,
    _lock,
    _require,
    round_changed,
    round_close,
    round_commit_seed,
    round_create,
    round_publish,
    round_start,
)
from tournaments.services.rounds_ahead import (
    schedule_ahead,
    schedule_ahead_request,
    schedule_ahead_run,
)

__all__ = [
    "ASYNC_DRAW_THRESHOLD",
    "DrawnMeanwhileError",
    "UnfinishedTablesError",
    "draw_in_background",
    "draw_input",
    "draw_job_queue",
    "draw_job_run",
    "draw_job_running",
    "round_close",
    "round_changed",
    "round_commit_seed",
    "round_create",
    "round_draw",
    "round_publish",
    "round_start",
    "seat_move",
    "seats_swap",
    "table_redraw",
    "schedule_ahead",
    "schedule_ahead_request",
    "schedule_ahead_run",
    "draw_job",
    "run_engine",
    "table_seat_as_drawn",
]

State = Round.State


# --- corrections: atomic, with a reason, recorded -------------------------------------------

_CORRECTABLE = (State.DRAWN, State.PUBLISHED, State.IN_PLAY)


def _need_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise UserFacingError(_("A correction needs a reason."), {"field": "reason"})
    return reason


def _seat_of(round_: Round, entry_id: int) -> Seat:
    try:
        return (
            Seat.objects.select_for_update()
            .select_related("table", "entry__player")
            .get(round=round_, entry_id=entry_id)
        )
    except Seat.DoesNotExist:
        raise UserFacingError(
            _("That player has no seat in round %(n)d.") % {"n": round_.number}, {"field": "entry"}
        ) from None


@transaction.atomic
def seats_swap(*, round_: Round, first: int, second: int, reason: str, by=None) -> None:
    """Swap two players' seats (same or different tables)."""
    reason = _need_reason(reason)
    round_ = _lock(round_)
    _require(round_, *_CORRECTABLE)
    if first == second:
        raise UserFacingError(_("Choose two different players."), {"field": "second"})
    a, b = _seat_of(round_, first), _seat_of(round_, second)
    _reseat([(a, second), (b, first)])
    round_changed(round_)
    audit_log(
        event=round_.event,
        action="seats.swapped",
        by=by,
        reason=reason,
        data={
            "round": round_.number,
            "first": first,
            "second": second,
            "tables": [a.table.number, b.table.number],
        },
    )


@transaction.atomic
def seat_move(*, round_: Round, entry: int, table: int, reason: str, by=None) -> None:
    """Move a player to another table (e.g. from a table of four to a table of three)."""
    reason = _need_reason(reason)
    round_ = _lock(round_)
    _require(round_, *_CORRECTABLE)
    seat = _seat_of(round_, entry)
    target = _table(round_, table)
    source = seat.table
    if target.pk == source.pk:
        raise UserFacingError(
            _("The player already sits at table %(t)d.") % {"t": table}, {"field": "table"}
        )
    source_size, target_size = source.seats.count(), target.seats.count()
    if source_size - 1 < 3 or target_size + 1 > 4:
        raise UserFacingError(
            _(
                "Tables must keep 3 or 4 players: table %(a)d would have %(x)d, table %(b)d %(y)d "
                "(%(rule)s). Swap players instead."
            )
            % {
                "a": source.number,
                "x": source_size - 1,
                "b": target.number,
                "y": target_size + 1,
                "rule": rule_sources.cite("001", "3.2.10"),
            },
            {"field": "table", "rule": "3.2.10"},
        )
    seat.delete()
    _renumber(source)
    Seat.objects.create(round=round_, table=target, position=target_size, entry_id=entry)
    round_changed(round_)
    audit_log(
        event=round_.event,
        action="seat.moved",
        by=by,
        reason=reason,
        data={"round": round_.number, "entry": entry, "from": source.number, "to": table},
    )


def _reseat(changes: list[tuple[Seat, int]]) -> None:
    """Give seats new entries: delete and recreate the rows, so that the one-seat-per-round
    constraint never sees a half-done swap (on any database)."""
    rows = [
        Seat(round_id=s.round_id, table_id=s.table_id, position=s.position, entry_id=e)
        for s, e in changes
    ]
    Seat.objects.filter(pk__in=[s.pk for s, _e in changes]).delete()
    Seat.objects.bulk_create(rows)


def _table(round_: Round, number: int) -> Table:
    try:
        return Table.objects.select_for_update().get(round=round_, number=number)
    except Table.DoesNotExist:
        raise UserFacingError(
            _("There is no table %(t)d.") % {"t": number}, {"field": "table"}
        ) from None


def _seat_table(
    round_: Round,
    table: Table,
    seats: list[Seat],
    order: list[int],
    first_dealer: int,
    *,
    action: str,
    reason: str,
    by,
    **data,
) -> Table:
    """Seat ``order`` (entries, clockwise) at ``table`` with the first dealer at index
    ``first_dealer``, and log it as ``action`` with ``data``."""
    _reseat(list(zip(seats, order, strict=True)))
    table.first_dealer = first_dealer
    table.save(update_fields=["first_dealer"])
    round_changed(round_)
    audit_log(
        event=round_.event,
        action=action,
        by=by,
        reason=reason,
        data={
            "round": round_.number,
            "table": table.number,
            **data,
            "seats": order,
            "first_dealer": first_dealer,
        },
    )
    return table


def _renumber(table: Table) -> None:
    seats = list(table.seats.order_by("position"))
    for i, s in enumerate(seats):
        if s.position != i:
            Seat.objects.filter(pk=s.pk).update(position=i)
    if table.first_dealer >= len(seats):
        table.first_dealer = 0
        table.save(update_fields=["first_dealer"])


@transaction.atomic
def table_redraw(*, round_: Round, table: int, reason: str, by=None) -> Table:
    """Draw one table's seat order and first dealer again (001 §3.1.1, §3.2.1), same players."""
    reason = _need_reason(reason)
    round_ = _lock(round_)
    _require(round_, *_CORRECTABLE)
    t = _table(round_, table)
    seats = list(t.seats.order_by("position"))
    redraws = round_.draw_params.get("redraws", 0) + 1
    seed = f"{round_.draw_seed}/table-{table}/redraw-{redraws}"
    rng = random.Random(hashlib.sha256(seed.encode()).digest())
    order = [s.entry_id for s in seats]
    rng.shuffle(order)
    first_dealer = rng.randrange(len(order))
    round_.draw_params = {**round_.draw_params, "redraws": redraws}
    round_.save(update_fields=["draw_params"])
    return _seat_table(
        round_,
        t,
        seats,
        order,
        first_dealer,
        action="table.redrawn",
        reason=reason,
        by=by,
        seed=seed,
    )


def _cited(message: str, citation: str) -> str:
    """``message`` with the family's rule it rests on, when its seed has one."""
    return f"{message[:-1]} ({citation})." if citation else message


@transaction.atomic
def table_seat_as_drawn(
    *, round_: Round, table: int, order: list[int], first_dealer: int, reason: str, by=None
) -> Table:
    """The seats and the first dealer as the players drew them at the table (тираж, 001 §3.1.1,
    §3.2.1): ``order`` the table's entries clockwise from seat 1, ``first_dealer`` one of them."""
    reason = _need_reason(reason)
    round_ = _lock(round_)
    _require(round_, *_CORRECTABLE)
    t = _table(round_, table)
    seats = list(t.seats.order_by("position").select_related("entry__player"))
    at_table = sorted(s.entry_id for s in seats)
    if sorted(order) != at_table:
        names = ", ".join(s.entry.player.name for s in seats)
        family = ui_of_event(round_.event)
        raise UserFacingError(
            _cited(
                _("Seat each player of table %(t)d once: %(names)s.")
                % {"t": table, "names": names},
                family.seating_citation,
            ),
            {"field": "order", "rule": family.seating_rule},
        )
    if first_dealer not in order:
        family = ui_of_event(round_.event)
        raise UserFacingError(
            _cited(
                _("The first dealer must be a player of table %(t)d.") % {"t": table},
                family.first_dealer_citation,
            ),
            {"field": "first_dealer", "rule": family.first_dealer_rule},
        )
    before = {"seats": [s.entry_id for s in seats], "first_dealer": t.first_dealer}
    return _seat_table(
        round_,
        t,
        seats,
        order,
        order.index(first_dealer),
        action="table.seated_as_drawn",
        reason=reason,
        by=by,
        before=before,
    )
