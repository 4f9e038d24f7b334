"""Organisers' and referees' pages of a round: create it, its desk (draw, tables, corrections,
closing) and the actions posted from it. Each view calls one service or selector and renders.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from tournaments.access import permissions
from tournaments.forms.event import (
    MoveForm,
    RedrawTableForm,
    RoundCloseForm,
    SeatAsDrawnForm,
    SwapForm,
)
from tournaments.models import Entry
from tournaments.models.event import DrawMethod
from tournaments.selectors.desk import (
    round_gaps,
    unfinished_tables,
)
from tournaments.selectors.events import (
    seating_alphabetical,
    tables_for_round,
)
from tournaments.selectors.sit_out import round_remainder
from tournaments.services import rounds as round_services
from tournaments.services.draw_record import draw_names, entry_ids
from tournaments.variants import ui_of_event
from tournaments.views.decorators import event_view, run_form_service, run_service
from tournaments.views.organiser import ORGANISE, REFEREE
from tournaments.words import desk as desk_text
from tournaments.words import draw_report as report_text
from tournaments.words.gaps import gap_items
from tournaments.words.teams import meetings_matrix


@require_POST
@event_view(roles=ORGANISE)
def round_new(request, event):
    round_, _error = run_service(request, round_services.round_create, event=event, by=request.user)
    if round_:
        return redirect("manage-round", slug=event.slug, number=round_.number)
    return redirect("manage", slug=event.slug)


def _choices(tables, blank: bool = False):
    return [("", "—")] * blank + [
        (s.entry_id, f"{s.entry.player.name} ({_('table')} {t.number})")
        for t in tables
        for s in t.seats.all()
    ]


@event_view(roles=REFEREE)
def round_detail(request, event, number: int, forms=None):
    round_ = get_object_or_404(event.rounds, number=number)
    tables = tables_for_round(round_=round_)
    forms = forms or {}
    swap, move = forms.get("swap") or SwapForm(), forms.get("move") or MoveForm()
    choices = _choices(tables)
    swap.fields["first"].widget.choices = choices
    swap.fields["second"].widget.choices = choices
    move.fields["entry"].widget.choices = choices
    as_drawn = forms.get("as-drawn") or SeatAsDrawnForm()
    for field in SeatAsDrawnForm.player_fields:
        as_drawn.fields[field].widget.choices = _choices(tables, blank=field == "seat_4")
    report = round_.draw_report or {}
    # the report names players by the draw record's ids (another server's, for an imported round)
    names = draw_names(
        round_, {s.entry_id: s.entry.player.name for t in tables for s in t.seats.all()}
    )
    note_names = draw_names(round_, report_text.entry_names(event, report))
    drawn_ids = entry_ids(round_)
    withdrawn_seated = [
        (s.entry.player.name, t.number)
        for t in tables
        for s in t.seats.all()
        if s.entry.status == Entry.Status.WITHDRAWN
    ]
    return render(
        request,
        "tournaments/organiser/round.html",
        {
            "event": event,
            "family": ui_of_event(event),  # the rules the page cites
            "round": round_,
            "tables": tables,
            "alphabetical": seating_alphabetical(tables=tables),
            "remainder": round_remainder(round_=round_),
            "report_rows": report_text.rows(report, names),
            "report_summary": report_text.summary(report.get("summary", {})),
            "report_notes": [report_text.note(n, note_names) for n in report.get("notes", [])],
            "team_meetings": meetings_matrix(report),
            "swap_form": swap,
            "move_form": move,
            "redraw_form": forms.get("redraw") or RedrawTableForm(),
            "as_drawn_form": as_drawn,
            "can_organise": permissions.can_organise(request.user, event),
            "async_threshold": round_services.ASYNC_DRAW_THRESHOLD,
            # the random draw's rule is the family's to cite (``random_draw_citation``)
            "draw_methods": [
                (value, _("Random draw") if value == DrawMethod.RANDOM else label)
                for value, label in DrawMethod.choices
            ],
            "draw_running": round_services.draw_job_running(round_),
            "draw_queued": getattr(round_services.draw_job(round_), "state", "") == "queued",
            "draw_progress": report_text.progress(round_.draw_job_progress),
            "withdrawn_seated": withdrawn_seated if round_.state != "closed" else [],
            "unfinished": (
                desk_text.unfinished_items(event, unfinished_tables(round_=round_))
                if round_.state == "in_play"
                else []
            ),
            # a closed round's tables left without a result, and why (in play: the close lists them)
            "gaps": (
                gap_items(event, round_gaps(round_=round_), staff=True)
                if round_.state == "closed"
                else None
            ),
            "close_form": forms.get("close") or RoundCloseForm(),
            "not_checked_in": list(
                Entry.objects.filter(
                    pk__in=[
                        drawn_ids.get(e, e)
                        for e in (round_.draw_params or {})
                        .get("input", {})
                        .get("not_checked_in", [])
                    ]
                )
                .order_by("player__name")
                .values_list("player__name", flat=True)
            ),
        },
    )


_ROUND_ACTIONS = {
    "commit-seed": (
        round_services.round_commit_seed,
        gettext_lazy("The seed's hash is published."),
    ),
    "draw": (round_services.round_draw, gettext_lazy("The round is drawn.")),
    "publish": (round_services.round_publish, gettext_lazy("The round is published.")),
    "start": (round_services.round_start, gettext_lazy("The round has started.")),
}
_CORRECTIONS = {
    "swap": (SwapForm, round_services.seats_swap),
    "move": (MoveForm, round_services.seat_move),
    "redraw": (RedrawTableForm, round_services.table_redraw),
    "as-drawn": (SeatAsDrawnForm, round_services.table_seat_as_drawn),
}


@require_POST
@event_view(roles=ORGANISE)
def round_action(request, event, number: int, action: str):
    round_ = get_object_or_404(event.rounds.select_related("event"), number=number)
    if action == "close":
        form = RoundCloseForm(request.POST)
        confirmed = form.is_valid()
        _ok, error = run_service(
            request,
            round_services.round_close,
            round_=round_,
            by=request.user,
            unfinished_reason=form.cleaned_data["reason"] if confirmed else "",
            success=_("The round is closed."),
        )
        if isinstance(error, round_services.UnfinishedTablesError) and request.POST.keys() & {
            "confirm",
            "reason",
        }:  # the form was filled in part: its errors beside its fields
            return round_detail.__wrapped__(request, event, number, forms={"close": form})
        return redirect("manage-round", slug=event.slug, number=number)
    if action in _ROUND_ACTIONS:
        fn, success = _ROUND_ACTIONS[action]
        kwargs = {}
        if action == "draw":
            if request.POST.get("method"):
                kwargs["method"] = request.POST["method"]
            if round_services.draw_in_background(event):
                job_id, _error = run_service(
                    request, round_services.draw_job_queue, round_=round_, by=request.user, **kwargs
                )
                if job_id is not None:
                    round_.refresh_from_db(fields=["state", "draw_job_id", "draw_job_error"])
                    if round_services.draw_job_running(round_):
                        messages.info(
                            request, _("The draw is running; this page shows it when done.")
                        )
                    elif round_.draw_job_error:
                        messages.error(request, _("The draw failed; nothing was changed."))
                    else:  # the job ran inline (no worker configured): the tables are shown
                        messages.success(request, _("The round is drawn."))
                return redirect("manage-round", slug=event.slug, number=number)
        run_service(request, fn, round_=round_, by=request.user, success=success, **kwargs)
        return redirect("manage-round", slug=event.slug, number=number)
    if action in _CORRECTIONS:
        form_class, fn = _CORRECTIONS[action]
        form = form_class(request.POST)
        tables = tables_for_round(round_=round_)
        for field in ("first", "second", "entry", *SeatAsDrawnForm.player_fields):
            if field in form.fields:
                form.fields[field].widget.choices = _choices(tables, blank=field == "seat_4")
        if form.is_valid():
            _ok, error = run_form_service(
                request,
                form,
                fn,
                round_=round_,
                by=request.user,
                success=_("Correction saved."),
                **form.cleaned_data,
            )
            if not error:
                return redirect("manage-round", slug=event.slug, number=number)
        return round_detail.__wrapped__(request, event, number, forms={action: form})
    raise PermissionDenied
