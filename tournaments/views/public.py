"""Public pages: published events, their rounds and seating."""

from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils.functional import cached_property

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
from tournaments.selectors.ratings import event_entry_ratings
from tournaments.selectors.series import organisations_of_user
from tournaments.selectors.sit_out import round_remainder
from tournaments.variants import ui_of_event
from tournaments.views.caching import conditional, page_etag, public_page
from tournaments.views.decorators import event_view
from tournaments.web_cache.versions import EVENT
from tournaments.words import audit as audit_text
from tournaments.words import ratings as rating_words


def home(request):
    return render(
        request,
        "tournaments/public/home.html",
        {
            "events": events_public(),
            "my_events": events_of_user(user=request.user),
            "my_organisations": organisations_of_user(user=request.user),
        },
    )


@public_page(EVENT)
@event_view()
def event_detail(request, event):
    return render(
        request,
        "tournaments/public/event.html",
        {
            "event": event,
            "rounds": rounds_for_event(event=event, public=True),
            "commitments": seed_commitments(event=event, upcoming=True),
            # the players' ratings as they stood when the event began (issue 41)
            "entry_ratings": _entry_ratings(event),
        },
    )


def _entry_ratings(event) -> dict:
    found = event_entry_ratings(event=event)
    for row in found.get("rows", ()):
        row["said"] = rating_words.rating_said(row["rating"], row["spread"])
    return found


class _Seating:
    """The round's tables, its alphabetical list and its corrections, read on first use: the
    template's cache block uses them only when it renders (once per version and language)."""

    def __init__(self, event, round_):
        self.event, self.round = event, round_

    @cached_property
    def tables(self):
        return tables_for_round(round_=self.round)

    @cached_property
    def alphabetical(self):
        return seating_alphabetical(tables=self.tables)

    @cached_property
    def corrections(self):
        corrections = list(round_corrections(round_=self.round))
        names = dict(self.event.entries.values_list("pk", "player__name")) if corrections else {}
        return [(c, audit_text.described(c.action, c.data, names)) for c in corrections]

    @cached_property
    def remainder(self):  # who sits the round out, who substitutes (tables of four)
        return round_remainder(round_=self.round)

    @cached_property
    def family(self):  # the rules the page cites
        return ui_of_event(self.event)


@public_page(EVENT)
@event_view()
def round_seating(request, event, number: int):
    """The seating is written once per ``Round.public_version`` and language (a draw, a
    publication, the start or close and each correction change it) and served from the cache;
    a refresh naming the page's ETag costs a 304."""
    round_ = get_object_or_404(event.rounds, number=number)
    if round_.state not in PUBLIC_STATES:
        raise Http404
    seating = _Seating(event, round_)
    return conditional(
        request,
        etag=page_etag(
            request,
            "round",
            round_.pk,
            round_.public_version,
            event.name,
            event.round_time_limit,
            event.variant,
            event.sit_out_score,
            event.tiebreaks,  # place points: a round sat out is worth the average place
        ),
        last_modified=round_.public_changed_at,
        render=lambda: render(
            request,
            "tournaments/public/round.html",
            {"event": event, "round": round_, "seating": seating},
        ),
    )
