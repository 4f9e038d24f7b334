"""Public pages: published events, their rounds and seating."""

from django.http import Http404
from django.shortcuts import get_object_or_404, render

from tournaments import audit_text
from tournaments.selectors.events import (
    PUBLIC_STATES,
    events_of_user,
    events_public,
    round_corrections,
    rounds_for_event,
    seating_alphabetical,
    seed_commitments,
    tables_for_round,
)
from tournaments.selectors.sit_out import round_remainder
from tournaments.variants import ui_of_event
from tournaments.views.decorators import event_view


def home(request):
    return render(
        request,
        "tournaments/public/home.html",
        {"events": events_public(), "my_events": events_of_user(user=request.user)},
    )


@event_view()
def event_detail(request, event):
    return render(
        request,
        "tournaments/public/event.html",
        {
            "event": event,
            "rounds": rounds_for_event(event=event, public=True),
            "commitments": seed_commitments(event=event, upcoming=True),
        },
    )


@event_view()
def round_seating(request, event, number: int):
    round_ = get_object_or_404(event.rounds, number=number)
    if round_.state not in PUBLIC_STATES:
        raise Http404
    tables = tables_for_round(round_=round_)
    corrections = list(round_corrections(round_=round_))
    names = dict(event.entries.values_list("pk", "player__name")) if corrections else {}
    return render(
        request,
        "tournaments/public/round.html",
        {
            "event": event,
            "family": ui_of_event(event),  # the rules the page cites
            "round": round_,
            "tables": tables,
            "alphabetical": seating_alphabetical(tables=tables),
            "remainder": round_remainder(round_=round_),
            "corrections": [
                (c, audit_text.described(c.action, c.data, names)) for c in corrections
            ],
        },
    )
