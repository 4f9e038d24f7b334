"""A team event's pages (issue 40): the team standings, public under ``/e/<slug>/teams/``, and
their CSV. Thin: the event, one selector (:mod:`tournaments.selectors.teams`), a render."""

from __future__ import annotations

import csv
import io

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from tournaments.access.permissions import can_referee
from tournaments.models import Event
from tournaments.selectors.teams import team_standings_view
from tournaments.views.caching import public_page
from tournaments.web_cache.versions import EVENT, STANDINGS

__all__ = ["team_standings", "team_standings_csv"]


def _team_event(request, slug: str) -> tuple[Event, dict]:
    event = get_object_or_404(Event, slug=slug)
    if not event.published and not can_referee(request.user, event):
        raise Http404
    view = team_standings_view(event=event)
    if view is None:
        raise Http404  # not a team event
    return event, view


@public_page(EVENT, STANDINGS)
def team_standings(request, slug: str):
    """The teams ranked by their best members' results each round, provisional totals beside
    the counted ones while a round is open."""
    event, view = _team_event(request, slug)
    return render(
        request,
        "tournaments/teams/standings.html",
        {"event": event, **view},
    )


@public_page(EVENT, STANDINGS)
def team_standings_csv(request, slug: str):
    """The team standings as CSV: place, team, members, each round's score, the total (and
    with the provisional results), the tie-breaks."""
    event, view = _team_event(request, slug)
    out = io.StringIO()
    out.write("\ufeff")  # a byte-order mark: spreadsheets then read the names as UTF-8
    writer = csv.writer(out)
    writer.writerow(
        [_("Place"), _("Team"), _("Members")]
        + [_("Round %(n)s") % {"n": n} for n in view["rounds"]]
        + [
            _("Total"),
            _("Total with the provisional results"),
            _("Best member"),
            _("Head to head"),
        ]
    )
    for row in view["rows"]:
        writer.writerow(
            [row["place_label"], row["team"], ", ".join(m["name"] for m in row["members"])]
            + ["" if c is None else c["score"] for c in row["round_cells"]]
            + [
                row["total"],
                row["provisional_total"],
                row["best_member_name"] or "",
                "" if row["head_to_head"] is None else row["head_to_head"],
            ]
        )
    response = HttpResponse(out.getvalue().encode(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-teams.csv"'
    return response
