"""The demo's standings and documents (idempotent): a tie-break chain from 001 §4.1.3, the
standings computed, and every kind of PDF rendered (cached: unchanged documents are not rendered
again when the demo is set up a second time).

With the embedded defaults (Celery eager) the documents are rendered inline; with a broker they
are queued for the worker like any organiser's request.
"""

from __future__ import annotations

from django.db import transaction

from tournaments.models import Event, GeneratedFile, Protocol, Round
from tournaments.models.round import without_draw_record
from tournaments.pdf.files import generated_file_request
from tournaments.services.standings import standings_recompute

__all__ = ["demo_standings", "DEMO_TIEBREAKS"]

#: the Kodeks' own examples of further criteria (001 §4.1.3), then head-to-head
DEMO_TIEBREAKS = [
    "raspasy_won",
    "raspasy_tricks",
    "remizes",
    "misere_tricks",
    "head_to_head",
    "best_round",
]


def demo_standings(event: Event) -> None:
    """Compute the demo event's standings and render its documents."""
    if not event.tiebreaks:
        Event.objects.filter(pk=event.pk).update(tiebreaks=DEMO_TIEBREAKS)
        event.refresh_from_db()
    standings_recompute(event_id=event.pk)
    requests: list[dict] = [{"kind": GeneratedFile.Kind.STANDINGS}]
    for round_ in Round.objects.filter(event=event).order_by("number"):
        if not round_.tables.exists():
            continue
        requests += [
            {"kind": GeneratedFile.Kind.SEATING, "round_": round_},
            {"kind": GeneratedFile.Kind.BLANK_PROTOCOLS, "round_": round_},
        ]
    approved = (
        Protocol.objects.filter(table__round__event=event, approved=True)
        .select_related("table__round")
        .defer(*without_draw_record("table__round"))
        .order_by("table__round__number", "table__number")
    )
    requests += [{"kind": GeneratedFile.Kind.FILLED_PROTOCOL, "table": p.table} for p in approved]
    for kw in requests:
        with transaction.atomic():
            generated_file_request(event=event, **kw)
