"""The projector in the hall: the current round's seating by name and the standings, in large
type, paging by itself and following the round without a reload (``/e/<slug>/hall/``).

The page asks ``/e/<slug>/hall/state?v=<version>`` every few seconds (``hall.js``); the answer
is ``{"version": …}`` alone while nothing changed (two small queries) and the new pages' HTML
when the round, its seating or the standings did. The HTML is written once per version and
language and kept in the cache, so many screens cost what one does.
"""

from __future__ import annotations

from django.core.cache import cache
from django.http import JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.translation import get_language

from tournaments.models import AuditLogEntry, Round
from tournaments.selectors import standings as sel
from tournaments.selectors.events import PUBLIC_STATES, seating_alphabetical, tables_for_round
from tournaments.selectors.series import hall_series, hall_series_version
from tournaments.selectors.teams import team_standings_view
from tournaments.views.decorators import event_view

__all__ = ["hall_version", "projector", "projector_state"]

#: names on one page of the seating (two columns of half as many), rows on one page of the standings
SEATING_PER_PAGE = 24
STANDINGS_PER_PAGE = 12
#: seconds a page stays on the screen, and between two questions to the server (the page's
#: ``?seconds=`` and ``?poll=`` change them for one screen)
PAGE_SECONDS = 12
POLL_SECONDS = 5
HTML_CACHE_SECONDS = 3600


def _current_round(event) -> Round | None:
    """The round the hall is about: the last one published (in play, or closed)."""
    return event.rounds.filter(state__in=PUBLIC_STATES).order_by("-number").first()


def hall_version(event) -> tuple[str, Round | None]:
    """What the screen shows is a function of: the current round and its state, the last
    change recorded in the event's log (a seat swapped, a round started, a team's line-up or
    withdrawal), the stored standings' version (the team standings follow from them) and the
    stored tables of the event's published series (issue 39)."""
    round_ = _current_round(event)
    last = AuditLogEntry.objects.filter(event=event).order_by("-pk").values_list("pk", flat=True)
    standings = sel.snapshot_version(sel.standings_header(event=event))
    key = f"{round_.pk}.{round_.state}" if round_ else "none"
    series = hall_series_version(event=event)
    return f"{key}.{last.first() or 0}.{standings}.{series}", round_


def _pages(rows: list, size: int) -> list[list]:
    return [rows[i : i + size] for i in range(0, len(rows), size)]


def _hall_html(event, version: str, round_: Round | None) -> str:
    key = f"hall:{event.pk}:{version}:{get_language()}"
    html = cache.get(key)
    if html is None:
        seating = seating_alphabetical(tables=tables_for_round(round_=round_)) if round_ else []
        standings = sel.standings_view(event=event)
        teams = team_standings_view(event=event)
        html = render_to_string(
            "tournaments/hall/_pages.html",
            {
                "event": event,
                "round": round_,
                "seating_pages": [
                    _pages(page, SEATING_PER_PAGE // 2)
                    for page in _pages(seating, SEATING_PER_PAGE)
                ],
                "standings_pages": _pages(standings["rows"], STANDINGS_PER_PAGE),
                "standings_provisional": standings["provisional"],
                # a team event's team standings (issue 40), after the individual ones
                "team_pages": _pages(teams["rows"], STANDINGS_PER_PAGE) if teams else [],
                # the tables of the leagues and cups the event counts in (issue 39), last
                "series_pages": [
                    (table, page, number, len(pages))
                    for table in hall_series(event=event)
                    for pages in [_pages(table["rows"], STANDINGS_PER_PAGE)]
                    for number, page in enumerate(pages, start=1)
                ],
            },
        )
        cache.set(key, html, HTML_CACHE_SECONDS)
    return html


def _seconds(request, name: str, default: int) -> int:
    try:
        return max(1, min(600, int(request.GET.get(name, default))))
    except ValueError:
        return default


@event_view()
def projector(request, event):
    version, round_ = hall_version(event)
    return render(
        request,
        "tournaments/hall/projector.html",
        {
            "event": event,
            "version": version,
            "pages_html": _hall_html(event, version, round_),
            "page_seconds": _seconds(request, "seconds", PAGE_SECONDS),
            "poll_seconds": _seconds(request, "poll", POLL_SECONDS),
        },
    )


@event_view()
def projector_state(request, event):
    version, round_ = hall_version(event)
    if request.GET.get("v") == version:
        response = JsonResponse({"version": version})
    else:
        response = JsonResponse({"version": version, "html": _hall_html(event, version, round_)})
    response["Cache-Control"] = "no-store"
    return response
