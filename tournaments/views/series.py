"""Leagues and cups (issue 39): the series page, its CSV, a person's page across events, and
the organisers' pages of an organisation and a series. Thin: each loads, calls one selector or
service and renders; nothing here computes a table (a job stores it).

Public: ``/s/<slug>/`` (a published series), ``/s/<slug>/standings.csv``, ``/people/<id>/``
(a person's results in the published events only, his name as the organiser chose to show
it). Organisers: ``/o/<slug>/`` (the organisation's series, a new series),
``/s/<slug>/manage/`` (its rules and events), ``/e/<slug>/manage/persons/`` (the persons of an
event's entries to choose), ``/o/<slug>/persons/merge/``.
"""

from __future__ import annotations

import csv
import io

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournaments.access.organisations import (
    can_edit_person,
    can_organise_organisation,
    can_organise_series,
)
from tournaments.access.permissions import ORGANISE
from tournaments.forms.event import EventForm
from tournaments.forms.series import TIEBREAK_LABELS, PersonMergeForm, SeriesEventForm, SeriesForm
from tournaments.models import Entry, Event, Organisation, Person, Series, SeriesFile
from tournaments.selectors import persons as person_selectors
from tournaments.selectors import series as sel
from tournaments.services import persons as person_services
from tournaments.services import series as series_services
from tournaments.services import series_files
from tournaments.views.caching import public_page
from tournaments.views.decorators import event_view, posted_id, run_form_service, run_service
from tournaments.views.organiser import event_from_form, game_changed
from tournaments.web_cache.versions import PERSON, SERIES


def _published_series(request, slug: str) -> tuple[Series, bool]:
    series = get_object_or_404(Series.objects.select_related("organisation"), slug=slug)
    staff = can_organise_series(request.user, series)
    if not series.published and not staff:
        raise Http404
    return series, staff


def _rules_shown(table: dict) -> list[str]:
    """The series' rules in sentences, as its page publishes them."""
    rules = table["rules"]
    if not rules:
        return []
    said = []
    if rules["points"] == "place_points":
        said.append(
            _(
                "Points by place in each event: %(points)s; players who share a place share its points."
            )
            % {"points": ", ".join(str(p) for p in rules["place_points"])}
        )
    else:
        said.append(
            _("Points: each event's score, a table of four put on the scale of a table of three.")
        )
    if any(e.get("weight") not in (None, "1") for e in table["events"]):
        said.append(_("An event's points are multiplied by its weight (category)."))
    if rules["best_of"]:
        said.append(_("A player's best %(n)d events count.") % {"n": rules["best_of"]})
    if rules["min_events"] > 1:
        said.append(_("A player needs %(n)d events to be ranked.") % {"n": rules["min_events"]})
    if rules["tiebreaks"]:
        said.append(
            _("Equal totals: %(chain)s.")
            % {"chain": "; ".join(str(TIEBREAK_LABELS[k]) for k in rules["tiebreaks"])}
        )
    return said


#: rows of a series' table on one page (a national cup of 2,000 persons: 20 pages; the CSV and
#: the PDF hold them all)
SERIES_PAGE_ROWS = 100


def _page_number(request) -> int:
    try:
        return max(1, int(request.GET.get("page", "1")))
    except ValueError:
        return 1


@public_page(SERIES, query=("page",))
def series_page(request, slug: str):
    """The series' table, 100 rows a page (``?page=``), its events and its rules."""
    series, staff = _published_series(request, slug)
    table = sel.series_table(series=series, page=(_page_number(request), SERIES_PAGE_ROWS))
    count = max(1, -(-table["row_count"] // SERIES_PAGE_ROWS))
    return render(
        request,
        "tournaments/series/series.html",
        {
            **table,
            "page_numbers": range(1, count + 1) if count > 1 else (),
            "staff": staff,
            "rules_shown": _rules_shown(table),
        },
    )


@public_page(SERIES)
def series_csv(request, slug: str):
    """The series table as CSV: place, player, club, each event's points (in brackets when
    not counted), the total, the events played."""
    series, _staff = _published_series(request, slug)
    table = sel.series_table(series=series)
    out = io.StringIO()
    out.write("\ufeff")  # a byte-order mark: spreadsheets then read the names as UTF-8
    writer = csv.writer(out)
    writer.writerow(
        [_("Place"), _("Player"), _("Club")]
        + [e.get("name", "") for e in table["events"]]
        + [_("Total"), _("Events played")]
    )
    for row in table["rows"]:
        cells = [
            "" if c is None else (str(c["points"]) if c["counted"] else f"({c['points']})")
            for c in row["cells"]
        ]
        writer.writerow(
            [
                row["place_label"],
                row["name"],
                row["club"],
                *cells,
                row["total"],
                row["events_played"],
            ]
        )
    response = HttpResponse(out.getvalue().encode(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{series.slug}-standings.csv"'
    return response


def series_pdf(request, slug: str):
    """The table as a PDF: the stored file when it is up to date, else its rendering is asked
    for (idempotent: one file per version of the table, language and paper) and this answers
    202 with a page that reloads until it is ready."""
    series, _staff = _published_series(request, slug)
    f = series_files.series_pdf_request(series=series, language=get_language() or "en")
    if f.status == SeriesFile.Status.OK and f.file:
        return FileResponse(f.file.open("rb"), filename=f.filename, content_type="application/pdf")
    response = render(
        request,
        "tournaments/series/pdf_pending.html",
        {"series": series, "file": f},
        status=500 if f.status == SeriesFile.Status.FAILED else 202,
    )
    return response


@public_page(PERSON, slug_kwarg="person_id")
def person_page(request, person_id: int):
    """A person's results across events: the published events only (an organiser of one of
    his events sees them all), his name as the organiser chose to show it."""
    person = get_object_or_404(Person, pk=person_id)
    from_staff = can_edit_person(request.user, person)
    record = sel.person_record(person=person, public=not from_staff)
    if not record["results"]:
        raise Http404
    return render(
        request,
        "tournaments/series/person.html",
        {
            **record,
            "shown_name": person.name if from_staff else person.public_name,
            "staff": from_staff,
        },
    )


# --- organisers --------------------------------------------------------------------------------


def _organisation(request, slug: str) -> tuple[Organisation, bool]:
    organisation = get_object_or_404(Organisation, slug=slug)
    return organisation, can_organise_organisation(request.user, organisation)


@require_http_methods(["GET", "POST"])
def organisation_page(request, slug: str):
    organisation, staff = _organisation(request, slug)
    form = SeriesForm(request.POST or None) if staff else None
    if request.method == "POST":
        if not staff:
            raise PermissionDenied
        if form.is_valid():
            data = dict(form.cleaned_data)
            published = data.pop("published")
            series, error = run_form_service(
                request,
                form,
                series_services.series_create,
                organisation=organisation,
                by=request.user,
                success=_("Series created."),
                **data,
            )
            if series:
                if published:
                    series_services.series_update(series=series, published=True, by=request.user)
                return redirect("series-manage", slug=series.slug)
    return render(
        request,
        "tournaments/series/organisation.html",
        {
            **sel.organisation_page(organisation=organisation, staff=staff),
            "form": form,
            "staff": staff,
        },
    )


@require_http_methods(["GET", "POST"])
def organisation_event_new(request, slug: str):
    """An organisation's organisers create its events (a league's evenings): the event form,
    the event run by the organisation, its creator its organiser."""
    organisation, staff = _organisation(request, slug)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not staff:
        raise PermissionDenied
    form = EventForm.for_new_event(request)  # the game chosen, as on the new-event page
    if request.method == "POST" and form.family_changed:
        form = game_changed(request, form)
    elif request.method == "POST" and form.is_valid():
        # a duplicate event too, when the form's option is chosen (issue 43)
        event = event_from_form(request, form, organisation=organisation)
        if event:
            return redirect("manage", slug=event.slug)
    return render(
        request,
        "tournaments/organiser/event_form.html",
        {"form": form, "organisation": organisation},
    )


@require_http_methods(["GET", "POST"])
def series_manage(request, slug: str):
    series = get_object_or_404(Series.objects.select_related("organisation"), slug=slug)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not can_organise_series(request.user, series):
        raise PermissionDenied
    events = sel.series_addable_events(series=series, user=request.user)
    form = SeriesForm(initial=SeriesForm.initial_of(series))
    form.fields["slug"].disabled = form.fields["family"].disabled = True
    add_form = SeriesEventForm(events=events)
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "rules":
            form = SeriesForm(request.POST, initial=SeriesForm.initial_of(series))
            form.fields["slug"].disabled = form.fields["family"].disabled = True
            if form.is_valid():
                data = {k: v for k, v in form.cleaned_data.items() if k not in ("slug", "family")}
                _ok, error = run_form_service(
                    request,
                    form,
                    series_services.series_update,
                    series=series,
                    by=request.user,
                    success=_("Series saved."),
                    **data,
                )
                if not error:
                    return redirect("series-manage", slug=series.slug)
        elif action == "add":
            add_form = SeriesEventForm(request.POST, events=events)
            if add_form.is_valid():
                event = get_object_or_404(Event, slug=add_form.cleaned_data["event"])
                _ok, error = run_form_service(
                    request,
                    add_form,
                    series_services.series_event_add,
                    series=series,
                    event=event,
                    category=add_form.cleaned_data["category"],
                    weight=add_form.cleaned_data["weight"],
                    by=request.user,
                    success=_("Event added to the series."),
                )
                if not error:
                    return redirect("series-manage", slug=series.slug)
        elif action == "remove":
            event = get_object_or_404(Event, pk=posted_id(request.POST.get("event")))
            run_service(
                request,
                series_services.series_event_remove,
                series=series,
                event=event,
                by=request.user,
                success=_("Event taken out of the series."),
            )
            return redirect("series-manage", slug=series.slug)
        else:
            raise Http404
    return render(
        request,
        "tournaments/series/manage.html",
        {
            "series": series,
            "form": form,
            "add_form": add_form,
            "links": series.series_events.select_related("event"),
            **{k: v for k, v in sel.series_table(series=series).items() if k != "series"},
        },
    )


@event_view(roles=ORGANISE)
@require_http_methods(["GET", "POST"])
def event_persons(request, event):
    """The event's entries whose person is to be chosen: a likely match, or a new person."""
    if request.method == "POST":
        entry = get_object_or_404(Entry, event=event, pk=posted_id(request.POST.get("entry")))
        chosen = request.POST.get("person", "")
        person = None if chosen == "new" else get_object_or_404(Person, pk=posted_id(chosen))
        run_service(
            request,
            person_services.entry_person_choose,
            entry=entry,
            person=person,
            by=request.user,
            success=_("Saved."),
        )
        return redirect("event-persons", slug=event.slug)
    return render(
        request,
        "tournaments/series/event_persons.html",
        {"event": event, "to_choose": sel.persons_to_choose(event=event)},
    )


@require_http_methods(["GET", "POST"])
def persons_merge(request, slug: str):
    """Merging two records of one person: the organiser finds them (a part of the name, the
    club or the federation id), chooses the one to keep and the one merged into it, sees what
    the merge will do, and confirms (``confirm``); only then is anything written."""
    organisation, staff = _organisation(request, slug)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not staff:
        raise PermissionDenied
    query = request.GET.get("q", "").strip()[:120]
    found = person_selectors.persons_search(query=query, user=request.user) if query else []
    form = PersonMergeForm(request.POST or None)
    preview = None
    if request.method == "POST" and form.is_valid():
        keep = get_object_or_404(Person, pk=form.cleaned_data["keep"])
        drop = get_object_or_404(Person, pk=form.cleaned_data["drop"])
        if not (can_edit_person(request.user, keep) and can_edit_person(request.user, drop)):
            raise PermissionDenied
        if request.POST.get("confirm") != "1":
            preview = person_selectors.person_merge_preview(keep=keep, drop=drop)
        else:
            merged, error = run_form_service(
                request,
                form,
                person_services.person_merge,
                keep=keep,
                drop=drop,
                by=request.user,
            )
            if merged:
                messages.success(
                    request,
                    _("%(drop)s (number %(id)d) is merged into %(keep)s.")
                    % {"drop": drop.name, "id": drop.pk, "keep": merged.name},
                )
                return redirect("person", person_id=merged.pk)
    return render(
        request,
        "tournaments/series/merge.html",
        {
            "organisation": organisation,
            "form": form,
            "query": query,
            "found": found,
            "preview": preview,
        },
    )
