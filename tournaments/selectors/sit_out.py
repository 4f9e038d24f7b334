"""Who sits a round out, and who substitutes, at an event played at tables of four (the event's
``fours_remainder``; :mod:`tournaments.seating.remainder`): what the round pages and the
standings say about it."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.utils.translation import gettext

from tournaments.families import domain_of_event
from tournaments.models import Entry, Event, Round, Seat
from tournaments.models.event import FoursRemainder
from tournaments.selectors.standings import sitting_out_by_round
from tournaments.standings import config_from_json

__all__ = ["round_remainder", "event_sit_outs", "sit_out_worth", "sitting_out_of_round"]


def _unit(event: Event) -> str:
    try:
        return str(domain_of_event(event).result_unit)
    except (LookupError, ValueError):
        return ""


def sit_out_worth(event: Event) -> tuple[Any, str]:
    """What a round sat out adds to the total, with its unit: the stated ``sit_out_score`` in
    the table's unit, or, where the event ranks by place points, the average place at a table
    of four (:meth:`tournaments.standings.scores.RoundScore.sit_out`, where the reading is
    explained)."""
    try:
        worth = config_from_json(event.tiebreaks or []).score.sit_out()
    except ValueError:  # an invalid chain: the standings say so; the stated score stands here
        worth = None
    if worth is None:
        return event.sit_out_score, _unit(event)
    return Decimal(worth.numerator) / Decimal(worth.denominator), gettext("place points")


def sitting_out_of_round(*, round_: Round) -> list[dict[str, Any]]:
    """``{"entry", "name"}`` of each entry who sat ``round_`` out, by name (no query when
    nobody did)."""
    out = list(round_.sitting_out or [])
    if not out:
        return []
    names = Entry.objects.filter(pk__in=out).values_list("pk", "player__name")
    return [{"entry": pk, "name": name} for pk, name in sorted(names, key=lambda p: (p[1], p[0]))]


def round_remainder(*, round_: Round) -> dict[str, Any] | None:
    """Who sat ``round_`` out (with the score each is credited) and the substitutes seated in
    it (with their tables); ``None`` when neither."""
    event = round_.event
    out = list(round_.sitting_out or [])
    names = dict(Entry.objects.filter(pk__in=out).values_list("pk", "player__name"))
    substitutes = [
        (name, table)
        for name, table in Seat.objects.filter(round=round_, entry__substitute=True)
        .order_by("table__number", "position")
        .values_list("entry__player__name", "table__number")
    ]
    if not out and not substitutes:
        return None
    return {
        "sitting_out": sorted(names[e] for e in out if e in names),
        **dict(zip(("score", "unit"), sit_out_worth(event), strict=True)),
        "substitutes": substitutes,
    }


def event_sit_outs(*, event: Event) -> dict[str, Any] | None:
    """For the standings page: the score a round sat out is worth and, per round, who sat it
    out; ``None`` when nobody did."""
    by_round = sitting_out_by_round(event=event)
    if not by_round and event.fours_remainder != FoursRemainder.SIT_OUT:
        return None
    ids = {e for out in by_round.values() for e in out}
    names = dict(Entry.objects.filter(pk__in=ids).values_list("pk", "player__name"))
    return {
        **dict(zip(("score", "unit"), sit_out_worth(event), strict=True)),
        "rounds": [
            {"number": n, "names": sorted(names[e] for e in out if e in names)}
            for n, out in by_round.items()
        ],
    }
