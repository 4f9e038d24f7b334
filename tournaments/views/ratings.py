"""Ratings (issue 41): the rating lists, a list per family (filtered by club, city, players
active in the last year) and its CSV, a person's rating history with its plot drawn on the
server and every change explained, an event's rating changes; and the organiser's switch that
marks an event unrated. Thin: each loads, calls one selector or service and renders; nothing
here rates (a job stores the ratings).

Public: ``/ratings/``, ``/ratings/<slug>/`` (``?club=``, ``?city=``: a club's or a city's
position in the list's sorted choices from 1, 0 for all; ``?active=1``),
``/ratings/<slug>/ratings.csv``, ``/ratings/<slug>/people/<id>/``,
``/ratings/<slug>/events/<event slug>/``. Organisers: ``/e/<slug>/manage/rating/``.
"""

from __future__ import annotations

import csv
import io

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from tournaments.access.permissions import ORGANISE
from tournaments.models import Event, Person, RatingList, UnratedEvent
from tournaments.ratings.plot import history_svg
from tournaments.selectors import ratings as sel
from tournaments.services import ratings as service
from tournaments.views.caching import public_page
from tournaments.views.decorators import event_view, run_service
from tournaments.words import ratings as words

#: explanations shown on a person's page (the CSV and the API have all of them)
SHOWN_CHANGES = 200


def _rating_list(slug: str) -> RatingList:
    found = get_object_or_404(
        RatingList.objects.select_related("organisation", "series"), slug=slug
    )
    if not found.published:
        raise Http404
    return found


def _chosen(request, name: str, choices: list[str]) -> str:
    """A filter's choice named by its position in ``choices`` counted from 1 (``?club=3``;
    0 is "all", as the form sends it); "" for all or an unknown one."""
    value = request.GET.get(name, "")
    if value.isascii() and value.isdigit() and 0 < int(value) <= len(choices):
        return choices[int(value) - 1]
    return ""


def _filters(request, choices: dict) -> dict:
    return {
        "club": _chosen(request, "club", choices["clubs"]),
        "city": _chosen(request, "city", choices["cities"]),
        "active": request.GET.get("active") == "1",
    }


def ratings_index(request):
    return render(request, "tournaments/ratings/index.html", {"lists": sel.rating_lists()})


def _rows_shown(rows: list[dict]) -> list[dict]:
    return [
        {
            **r,
            "rating_shown": words.number(r["rating"]),
            "spread_shown": (words.number(r["spread"]) if r["spread"] is not None else ""),
        }
        for r in rows
    ]


@public_page(sel.PAGE_PART, query=("club", "city", "active"))
def rating_page(request, slug: str):
    rating = _rating_list(slug)
    choices = sel.rating_choices(rating_list=rating)
    filters = _filters(request, choices)
    table = sel.rating_table(rating_list=rating, **filters)
    return render(
        request,
        "tournaments/ratings/list.html",
        {
            "rating": rating,
            "rows": _rows_shown(table["rows"]),
            "clubs": list(enumerate(choices["clubs"], 1)),
            "cities": list(enumerate(choices["cities"], 1)),
            "filters": filters,
            "provisional_below": (rating.spec.get("params") or {}).get("provisional_below", 12),
        },
    )


@public_page(sel.PAGE_PART, query=("club", "city", "active"))
def rating_csv(request, slug: str):
    """The rating list as CSV: rank, player, club, city, rating, ±, tables, provisional, last
    played (the same filters as the page)."""
    rating = _rating_list(slug)
    choices = sel.rating_choices(rating_list=rating)
    table = sel.rating_table(rating_list=rating, **_filters(request, choices))
    out = io.StringIO()
    out.write("\ufeff")  # a byte-order mark: spreadsheets then read the names as UTF-8
    writer = csv.writer(out)
    writer.writerow(
        [_("Rank"), _("Player"), _("Club"), _("City"), _("Rating"), "±", _("Tables"),
         _("Provisional"), _("Last played")]
    )  # fmt: skip
    for r in table["rows"]:
        writer.writerow(
            [
                r["rank"] or "",
                r["name"],
                r["club"],
                r["city"],
                f"{r['rating']:.1f}",
                "" if r["spread"] is None else f"{r['spread']:.1f}",
                r["tables"],
                _("yes") if r["provisional"] else _("no"),
                r["last_played"].isoformat(),
            ]
        )
    response = HttpResponse(out.getvalue().encode(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{rating.slug}-ratings.csv"'
    return response


@public_page(sel.PAGE_PART)
def rating_person(request, slug: str, person_id: int):
    rating = _rating_list(slug)
    person = get_object_or_404(Person, pk=person_id)
    history = sel.person_history(rating_list=rating, person=person)
    changes = history["changes"]
    if not changes:
        raise Http404
    names = history["names"]
    values = [changes[0]["before"]] + [c["after"] for c in changes]
    marks = [
        i + 1
        for i, c in enumerate(changes)
        if i + 1 == len(changes) or changes[i + 1]["event"] != c["event"]
    ]
    events = history["events"]
    shown = []
    for c in reversed(changes[-SHOWN_CHANGES:]):
        event = events.get(c["event"])
        shown.append(
            {
                **c,
                "event_obj": event,
                "said": words.change_said(c, names),
                "parts_said": words.parts_said(c["parts"], names),
            }
        )
    current = history["current"]
    name = (
        person.public_name if person.erased_at is None else sel.person_names([person.pk])[person.pk]
    )
    return render(
        request,
        "tournaments/ratings/person.html",
        {
            "rating": rating,
            "person": person,
            "shown_name": name,
            "current": current,
            "current_said": words.rating_said(current.shown, current.spread) if current else "",
            "plot": history_svg(
                values, label=_("Rating history of %(name)s") % {"name": name}, marks=marks
            ),
            "changes": shown,
            "total_changes": len(changes),
        },
    )


@public_page(sel.PAGE_PART)
def rating_event(request, slug: str, event_slug: str):
    rating = _rating_list(slug)
    event = get_object_or_404(Event, slug=event_slug, published=True)
    rows = sel.event_changes(rating_list=rating, event=event)
    if not rows:
        raise Http404
    for r in rows:
        r["before_shown"] = words.number(r["before"])
        r["after_shown"] = words.number(r["after"])
        r["change_shown"] = words.signed(r["change"])
    return render(
        request, "tournaments/ratings/event.html", {"rating": rating, "event": event, "rows": rows}
    )


@require_http_methods(["GET", "POST"])
@event_view(roles=ORGANISE)
def event_rating_manage(request, event):
    """The organiser marks the event unrated (with a reason, logged) or rated again, and may
    seed its draws from Pulka's rating (the entries' ratings the Swiss draw orders by)."""
    if request.method == "POST":
        if request.POST.get("action") == "unrated":
            run_service(
                request,
                service.event_mark_unrated,
                event=event,
                by=request.user,
                reason=request.POST.get("reason", "").strip(),
                success=_("The event is marked unrated; the ratings are recomputed."),
            )
        elif request.POST.get("action") == "seed":
            done, _error = run_service(
                request, service.entries_seed_from_ratings, event=event, by=request.user
            )
            if done is not None:
                messages.success(
                    request,
                    ngettext(
                        "%(n)d player's rating is set from Pulka's rating.",
                        "%(n)d players' ratings are set from Pulka's rating.",
                        done,
                    )
                    % {"n": done},
                )
        elif request.POST.get("action") == "rated":
            run_service(
                request,
                service.event_mark_rated,
                event=event,
                by=request.user,
                success=_("The event counts in the ratings again; they are recomputed."),
            )
        else:
            raise Http404
        return redirect("event-rating-manage", slug=event.slug)
    return render(
        request,
        "tournaments/ratings/event_manage.html",
        {"event": event, "unrated": UnratedEvent.objects.filter(event=event).first()},
    )
