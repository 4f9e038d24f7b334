"""Organisers' and referees' pages. Each view calls one service or selector and renders."""

from __future__ import annotations

import json
from functools import partial

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from tournaments.access import lockout, permissions
from tournaments.errors import UserFacingError
from tournaments.forms.event import (
    CsvImportForm,
    EntryForm,
    EventForm,
    FixedTableForm,
    KeepApartForm,
    StaffForm,
)
from tournaments.selectors.desk import (
    desk_for_event,
    entry_counts,
)
from tournaments.selectors.events import (
    entries_for_event,
    rounds_for_event,
)
from tournaments.services import constraints as constraint_services
from tournaments.services import duplicate as duplicate_services
from tournaments.services import entries as entry_services
from tournaments.services import events as event_services
from tournaments.services import rounds as round_services
from tournaments.views.decorators import (
    event_view,
    posted_id,
    role_granted,
    run_form_service,
    run_service,
)
from tournaments.words import audit as audit_text
from tournaments.words import desk as desk_text
from tournaments.words import draw_report as report_text
from tournaments.words.audit import audit_log_csv, audit_log_export
from tournaments.words.rulings import log_rows, words_said

ORGANISE = permissions.ORGANISE
REFEREE = permissions.REFEREE


@login_required
def event_new(request):
    if not (request.user.is_staff or request.user.is_superuser):
        raise PermissionDenied
    form = EventForm.for_new_event(request)
    if request.method == "POST" and form.family_changed:
        form = game_changed(request, form)
    elif request.method == "POST" and form.is_valid():
        event = event_from_form(request, form)
        if event:
            return redirect("manage", slug=event.slug)
    return render(request, "tournaments/organiser/event_form.html", {"form": form})


def event_from_form(request, form: EventForm, **extra):
    """The event a valid new-event form asks for (``None`` when a service refused it, said
    beside the form's field): a duplicate event from the start when the form's duplicate option
    is chosen (issue 43), else an ordinary one. ``extra``: the organisation running it."""
    data = {**form.cleaned_data, **extra}
    duplicate = data.pop("duplicate", None)
    if duplicate:
        event, _error = run_form_service(
            request, form, duplicate_services.duplicate_event_create,
            by=request.user, duplicate=duplicate, **data,
        )
    else:
        event, _error = run_form_service(
            request, form, event_services.event_create, by=request.user, **data
        )
    return event


def game_changed(request, form: EventForm) -> EventForm:
    """A new-event form posted with another game than it was shown for (a page without
    scripts): shown again for the chosen game, saying so."""
    messages.info(request, _("The form now shows the chosen game's settings: check them and save."))
    return form.for_the_chosen_family()


@event_view(roles=REFEREE)
def dashboard(request, event):
    return render(
        request,
        "tournaments/organiser/dashboard.html",
        {
            "event": event,
            "rounds": rounds_for_event(event=event, public=False),
            "desk": desk_text.attention(event, desk_for_event(event=event)),
            "can_organise": permissions.can_organise(request.user, event),
            "can_read_log": permissions.can_chief_referee(request.user, event),
            # the duplicate boards are prepared by whoever the boards' page lets in
            "can_prepare_boards": permissions.can_chief_referee(request.user, event),
            "lockouts": staff_lockouts(event)
            if permissions.can_organise(request.user, event)
            else [],
        },
    )


@event_view(roles=ORGANISE)
def event_settings(request, event):
    form = EventForm(request.POST or None, instance=event)
    form.fields["slug"].disabled = True
    if request.method == "POST" and form.is_valid():
        data = {k: v for k, v in form.cleaned_data.items() if k != "slug"}
        event.refresh_from_db()  # the form wrote into the instance; the service decides
        _ok, error = run_form_service(
            request,
            form,
            event_services.event_update,
            event=event,
            by=request.user,
            success=_("Settings saved."),
            **data,
        )
        if not error:
            return redirect("manage", slug=event.slug)
    return render(request, "tournaments/organiser/event_form.html", {"form": form, "event": event})


@event_view(roles=REFEREE)
def entries(request, event):
    form = EntryForm(request.POST or None)
    if request.method == "POST":
        if not permissions.can_organise(request.user, event):
            raise PermissionDenied
        if form.is_valid():
            entry, error = run_form_service(
                request,
                form,
                entry_services.entry_register,
                event=event,
                by=request.user,
                success=_("Player added."),
                **{k: v or ("" if k != "rating" else None) for k, v in form.cleaned_data.items()},
            )
            if entry:
                return redirect("manage-entries", slug=event.slug)
    return render(
        request,
        "tournaments/organiser/entries.html",
        {
            "event": event,
            "entries": entries_for_event(event=event),
            "counts": desk_text.entry_counts_text(entry_counts(event=event)),
            "form": form,
            "import_form": CsvImportForm(),
            "can_organise": permissions.can_organise(request.user, event),
        },
    )


@event_view(roles=ORGANISE)
def entries_import(request, event):
    form = CsvImportForm(request.POST or None, request.FILES or None)
    line_errors = []
    if request.method == "POST" and form.is_valid():
        try:
            text = form.csv_text()
        except forms.ValidationError as exc:  # decoding: its own translated words
            messages.error(request, " ".join(exc.messages))
            text = None
        except OSError:  # the upload could not be read (never its English text)
            messages.error(request, _("The uploaded file could not be read; upload it again."))
            text = None
        if text is not None:
            result, error = run_service(
                request,
                entry_services.entries_import_csv,
                event=event,
                text=text,
                skip_entered=form.cleaned_data["skip_entered"],
                by=request.user,
            )
            if result is not None:
                n = len(result.entries)
                messages.success(
                    request,
                    ngettext("%(n)d player imported.", "%(n)d players imported.", n) % {"n": n},
                )
                if result.skipped:
                    messages.info(
                        request,
                        _("Skipped as already entered: lines %(lines)s.")
                        % {"lines": ", ".join(map(str, result.skipped))},
                    )
                return redirect("manage-entries", slug=event.slug)
            line_errors = getattr(error, "errors", [])
    return render(
        request,
        "tournaments/organiser/entries_import.html",
        {"event": event, "form": form, "line_errors": line_errors},
    )


@require_POST
@event_view(roles=ORGANISE)
def entries_check_in_all(request, event):
    count, _error = run_service(
        request, entry_services.entries_check_in_all, event=event, by=request.user
    )
    if count == 0:
        messages.info(request, _("Nobody was waiting to be checked in."))
    elif count is not None:
        messages.success(
            request,
            ngettext("%(n)d player checked in.", "%(n)d players checked in.", count) % {"n": count},
        )
    return redirect("manage-entries", slug=event.slug)


def _entry_choices(event) -> list[tuple[int, str]]:
    return [
        (e.pk, f"{e.player.name} ({e.player.club})" if e.player.club else e.player.name)
        for e in entries_for_event(event=event)
        if e.plays
    ]


@event_view(roles=REFEREE)
def constraints(request, event):
    """The draw's constraints: players kept apart and players who must sit at a table."""
    choices = _entry_choices(event)
    apart_form, fixed_form = KeepApartForm(), FixedTableForm()
    if request.method == "POST":
        if not permissions.can_organise(request.user, event):
            raise PermissionDenied
        action = request.POST.get("action")
        if action == "apart-add":
            apart_form = KeepApartForm(request.POST)
            _set_choices(apart_form, choices, "first", "second")
            if apart_form.is_valid():
                data = apart_form.cleaned_data
                _done, error = run_form_service(
                    request,
                    apart_form,
                    constraint_services.avoidance_add,
                    event=event,
                    first=get_object_or_404(event.entries, pk=data["first"]),
                    second=get_object_or_404(event.entries, pk=data["second"]),
                    reason=data["reason"],
                    by=request.user,
                    success=_("The two players will be kept apart."),
                )
                if not error:
                    return redirect("manage-constraints", slug=event.slug)
        elif action == "apart-remove":
            avoidance = get_object_or_404(event.avoidances, pk=posted_id(request.POST.get("pair")))
            run_service(
                request,
                constraint_services.avoidance_remove,
                avoidance=avoidance,
                by=request.user,
                success=_("The two players may meet again."),
            )
            return redirect("manage-constraints", slug=event.slug)
        elif action == "fix-table":
            fixed_form = FixedTableForm(request.POST)
            _set_choices(fixed_form, choices, "entry")
            if fixed_form.is_valid():
                data = fixed_form.cleaned_data
                entry = get_object_or_404(event.entries.select_related("player"), pk=data["entry"])
                names = {"name": entry.player.name, "n": data["table"]}
                _done, error = run_form_service(
                    request,
                    fixed_form,
                    constraint_services.entry_fix_table,
                    entry=entry,
                    table=data["table"],
                    reason=data["reason"],
                    by=request.user,
                    success=(
                        _("%(name)s must sit at table %(n)d in every draw.") % names
                        if data["table"]
                        else _("%(name)s no longer has a fixed table.") % names
                    ),
                )
                if not error:
                    return redirect("manage-constraints", slug=event.slug)
        else:
            raise PermissionDenied
    _set_choices(apart_form, choices, "first", "second")
    _set_choices(fixed_form, choices, "entry")
    return render(
        request,
        "tournaments/organiser/constraints.html",
        {
            "event": event,
            "pairs": event.avoidances.select_related("first__player", "second__player").order_by(
                "first__player__name", "second__player__name"
            ),
            "fixed": [e for e in entries_for_event(event=event) if e.fixed_table is not None],
            "apart_form": apart_form,
            "fixed_form": fixed_form,
            "can_organise": permissions.can_organise(request.user, event),
        },
    )


@event_view(roles=ORGANISE)
def staff(request, event):
    """Who organises and referees the event: grant a role (creating the account), revoke one."""
    form = StaffForm()
    if request.method == "POST":
        if request.POST.get("action") == "lift":
            run_service(
                request,
                event_services.event_lockout_lift,
                event=event,
                username=request.POST.get("user", ""),
                by=request.user,
                success=_("The lockout is lifted: %(user)s can log in again.")
                % {"user": request.POST.get("user", "")},
            )
            back_to = "manage" if request.POST.get("from") == "desk" else "manage-staff"
            return redirect(back_to, slug=event.slug)
        if request.POST.get("action") == "revoke":
            role = get_object_or_404(event.roles, pk=posted_id(request.POST.get("role")))
            run_service(
                request,
                event_services.event_role_revoke,
                role=role,
                by=request.user,
                success=_("The role is revoked."),
            )
            return redirect("manage-staff", slug=event.slug)
        form = StaffForm(request.POST)
        if form.is_valid():
            result, error = run_form_service(
                request,
                form,
                event_services.event_staff_add,
                event=event,
                by=request.user,
                **form.cleaned_data,
            )
            if role_granted(request, result):
                return redirect("manage-staff", slug=event.slug)
    return render(
        request,
        "tournaments/organiser/staff.html",
        {
            "event": event,
            "roles": event.roles.select_related("user").order_by("role", "user__username"),
            "form": form,
            "lockouts": staff_lockouts(event),
        },
    )


def staff_lockouts(event) -> list[dict]:
    """The event's organisers and referees locked out of their logins (issue 38), each with
    the minutes left: the desk and the staff page show them, with a button to lift."""
    names = sorted({r.user.get_username() for r in event.roles.select_related("user")})
    locks = lockout.account_locks(lockout.LOGIN, names)
    return [{"user": n, "minutes": -(-locks[n] // 60)} for n in names if n in locks]


@event_view(roles=REFEREE)
def schedule(request, event):
    """The rounds ahead as the draw will make them: the plan a job computed for the event's
    current data (``services.rounds.schedule_ahead_request``); while it computes, the page
    says so and refreshes itself. The seating engine never runs in this request."""
    job, error = run_service(request, round_services.schedule_ahead_request, event=event)
    result = (job.result or {}) if job is not None and job.state == "done" else {}
    if result.get("error"):  # in the reader's language where the error kept its words
        messages.error(request, words_said(result.get("error_words"), result["error"]))
    if job is not None and job.state == "failed":
        messages.error(
            request,
            _("The plan could not be computed: %(error)s")
            % {"error": job.error.splitlines()[0] if job.error else "?"},
        )
    names = dict(event.entries.values_list("pk", "player__name"))
    rounds = [
        (
            r["round"],
            [[report_text.name_of(names, e) for e in table] for table in r["tables"]],
            sorted(report_text.name_of(names, e) for e in r.get("sitting_out", [])),
        )
        for r in result.get("rounds", [])
    ]
    computing = job is not None and job.active
    return render(
        request,
        "tournaments/organiser/schedule.html",
        {
            "event": event,
            "rounds": rounds,
            # who sits that round out follows its seed, not chosen yet: the plan stops there
            "unknown_from": result.get("unknown_from"),
            "computing": computing,
            "queued": computing and job.state == "queued",
            "failed": error is not None
            or bool(result.get("error"))
            or (job is not None and job.state == "failed"),
        },
    )


def _set_choices(form, choices, *fields: str) -> None:
    for field in fields:
        form.fields[field].widget.choices = choices


#: action → (service, takes a reason, what the message says once done)
_ENTRY_ACTIONS = {
    "check-in": (
        entry_services.entry_check_in,
        False,
        gettext_lazy("%(name)s is checked in."),
    ),
    "undo-check-in": (
        entry_services.entry_check_in_undo,
        False,
        gettext_lazy("%(name)s's check-in is undone: registered, not checked in."),
    ),
    "withdraw": (
        entry_services.entry_withdraw,
        True,
        gettext_lazy("%(name)s has withdrawn: not drawn again."),
    ),
    "reenter": (
        entry_services.entry_reenter,
        True,
        gettext_lazy("%(name)s is entered again and checked in."),
    ),
    "rotate-key": (
        entry_services.entry_rotate_key,
        False,
        gettext_lazy("%(name)s has a new private link; the old one no longer works."),
    ),
    "substitute": (
        partial(entry_services.entry_set_substitute, substitute=True),
        False,
        gettext_lazy("%(name)s is a substitute: fills a table of four, not ranked."),
    ),
    "regular": (
        partial(entry_services.entry_set_substitute, substitute=False),
        False,
        gettext_lazy("%(name)s is a player again, not a substitute."),
    ),
}


@require_POST
@event_view(roles=ORGANISE)
def entry_action(request, event, entry_id: int, action: str):
    entry = get_object_or_404(event.entries.select_related("player"), pk=entry_id)
    if action not in _ENTRY_ACTIONS:
        raise PermissionDenied
    fn, takes_reason, done = _ENTRY_ACTIONS[action]
    kwargs = {"reason": request.POST.get("reason", "")} if takes_reason else {}
    success = str(done) % {"name": entry.player.name}
    run_service(request, fn, entry=entry, by=request.user, success=success, **kwargs)
    return redirect(request.POST.get("next") or reverse("manage-entries", args=[event.slug]))


@event_view(roles=ORGANISE)
def entry_edit(request, event, entry_id: int):
    """Correct a player's name, club, city, rating or federation id (logged)."""
    entry = get_object_or_404(event.entries.select_related("player"), pk=entry_id)
    player = entry.player
    form = EntryForm(
        request.POST or None,
        initial={f: getattr(player, f) for f in EntryForm.base_fields},
    )
    if request.method == "POST" and form.is_valid():
        data = {k: v or ("" if k != "rating" else None) for k, v in form.cleaned_data.items()}
        try:
            entry_services.entry_update(entry=entry, by=request.user, **data)
        except UserFacingError as exc:  # the service's words beside the field they are about
            field = exc.extra.get("field")
            form.add_error(field if field in form.fields else None, exc.message)
        else:
            messages.success(request, _("%(name)s's details are saved.") % {"name": data["name"]})
            return redirect("manage-entries", slug=event.slug)
    return render(
        request,
        "tournaments/organiser/entry_form.html",
        {"event": event, "entry": entry, "form": form},
    )


def _where(row: dict | None, described: str) -> str:
    """A log entry in words: a protocol's, an incident's or a ruling's with its round and table
    first ("round 2, table 3: version 1 approved")."""
    if row is None or not row["text"]:
        return described
    return f"{row['where']}: {row['text']}" if row["where"] else row["text"]


@event_view(roles=permissions.CHIEF_REFEREE)
def audit(request, event):
    names = dict(event.entries.values_list("pk", "player__name"))
    items = list(event.audit_log.select_related("user")[:500])
    # protocols, incidents, rulings and appeals in words with the table's names (issue 29)
    rows = {r["entry"].pk: r for r in log_rows(event, items, only_known=True)}
    log = [
        # in words only: the record as programs read it is the JSON and CSV download; a
        # protocol's entry names its round and table (issue 36), and who saved it
        (
            item,
            audit_text.who(item.user, item.data, names),
            _where(rows.get(item.pk), audit_text.described(item.action, item.data, names)),
            rows[item.pk]["reason"] if item.pk in rows else item.reason,
        )
        for item in items
    ]
    return render(request, "tournaments/organiser/log.html", {"event": event, "log": log})


@event_view(roles=permissions.CHIEF_REFEREE)
def audit_export(request, event):
    """The whole log as a download: ``?format=csv`` (default) or ``?format=json``."""
    rows = audit_log_export(event=event)
    stamp = timezone.now().strftime("%Y%m%d-%H%M%S")
    if request.GET.get("format") == "json":
        body = json.dumps(
            {"event": event.slug, "exported_at": timezone.now().isoformat(), "entries": rows},
            ensure_ascii=False,
            indent=1,
        )
        response = HttpResponse(body, content_type="application/json; charset=utf-8")
        extension = "json"
    else:
        response = HttpResponse(audit_log_csv(rows), content_type="text/csv; charset=utf-8")
        extension = "csv"
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-log-{stamp}.{extension}"'
    return response
