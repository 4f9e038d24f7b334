"""Incidents and rulings at a table, appeals, the event's penalties and the protocols' log."""

from __future__ import annotations

from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from tournaments.access import permissions
from tournaments.errors import BIGINT_MAX, UserFacingError, whole_number
from tournaments.models import Appeal, PenaltyDefinition, PenaltyKind
from tournaments.selectors import protocols as sel
from tournaments.services import rulings as rsvc
from tournaments.variants import ui_of_event
from tournaments.views.decorators import posted_id
from tournaments.views.protocols.common import _seats, staff_view
from tournaments.words import rulings as rtext


def _params(text: str) -> dict[str, object]:
    """``key=value`` pairs, one a line or comma-separated; lists as ``a/b``."""
    out: dict[str, object] = {}
    for part in text.replace("\n", ",").split(","):
        if "=" in part:
            key, value = (x.strip() for x in part.split("=", 1))
            if "/" in value:
                try:
                    out[key] = [int(v) for v in value.split("/")]
                except ValueError:
                    raise UserFacingError(
                        _("%(value)r: a list is whole numbers separated by '/'.")
                        % {"value": value},
                        {"field": "params"},
                    ) from None
            else:
                out[key] = value
    return out


#: The ruling form's labelled parameter fields (``p_<name>``), as the penalties read them.
_PARAM_FIELDS = {
    "gora": "number",
    "inevitable": "flag",
    "extra": "number",
    "column": "text",
    "amount": "number",
    "on": "number",
    "other_tricks": "number",
    "passer": "number",
    "lot": "text",
}


def _ruling_params(post) -> dict[str, object]:
    """A ruling's parameters from the form's labelled fields (and the older one-line
    ``key=value`` box, still read); a bad number is refused naming its field."""
    out = _params(post.get("params", ""))
    for name, kind in _PARAM_FIELDS.items():
        value = (post.get(f"p_{name}") or "").strip()
        if not value:
            continue
        if kind == "number":
            out[name] = whole_number(value, f"p_{name}")
        else:
            out[name] = value
    split = [(post.get(f"p_other_split_{k}") or "").strip() for k in (0, 1)]
    if any(split):
        if not all(split) or not all(x.isdigit() for x in split):
            raise UserFacingError(
                _("Give both whisters' tricks by the other plan, or neither."),
                {"field": "p_other_split_1"},
            )
        out["other_split"] = [int(x) for x in split]
    return out


@staff_view(permissions.REFEREE)
def incidents(request, event, number: int, table_number: int):
    """Record an incident at the table and rule on it."""
    table = sel.table_in_event(event=event, round_number=number, table_number=table_number)
    error = None
    if request.method == "POST":
        try:
            if request.POST.get("action") == "ruling":
                incident = get_object_or_404(
                    table.incidents, pk=whole_number(request.POST.get("incident"), high=BIGINT_MAX)
                )
                kind = request.POST.get("kind", "")
                definition = None
                if kind == "event":
                    definition = PenaltyDefinition.objects.filter(
                        event=event, code=request.POST.get("penalty_code", "")
                    ).first()
                rsvc.ruling_make(
                    incident=incident,
                    kind=kind,
                    by=request.user,
                    penalty_code=request.POST.get("penalty_code", "")
                    if kind == "catalogue"
                    else "",
                    seat=whole_number(request.POST.get("seat")),
                    params=_ruling_params(request.POST),
                    definition=definition,
                    reason=request.POST.get("reason", ""),
                )
            else:
                deal = whole_number(request.POST.get("deal"))
                rsvc.incident_record(
                    table=table,
                    by=request.user,
                    description=request.POST.get("description", ""),
                    deal=deal - 1 if deal else None,
                    seats=_seats(request.POST.getlist("seats")),
                )
            return HttpResponseRedirect(request.path)
        except UserFacingError as exc:
            error = exc
    incidents = _kept(
        rtext.annotate_rulings(sel.incidents_for_table(table), table),
        request.POST if error and request.POST.get("action") == "ruling" else None,
    )
    return render(
        request,
        "tournaments/protocols/incidents.html",
        {
            "event": event,
            "table": table,
            "seats": sel.seats_of(table),
            "seat_names": [(s.position, s.entry.player.name) for s in sel.seats_of(table)],
            "error": error,
            # a refused ruling's error is shown in its incident's (opened) form
            "error_in_incident": any(incident.kept for incident in incidents),
            "incidents": incidents,
            "catalogue": ui_of_event(event).catalogue,
            "family": ui_of_event(event),  # the family's words for the event's penalties
            "definitions": PenaltyDefinition.objects.filter(event=event),
            # a form refused keeps what was typed and chosen (the one that was sent)
            "post": request.POST if error else {},
            "post_action": request.POST.get("action", "incident") if error else "",
            "post_seats": request.POST.getlist("seats") if error else [],
        },
        status=400 if error else 200,
    )


def _kept(incidents, post):
    """Each incident with ``kept``: what its ruling form was sent with, when the ruling was
    refused (the form shows it again to correct), else nothing."""
    incidents = list(incidents)
    try:
        wanted = whole_number(post.get("incident"), high=BIGINT_MAX) if post is not None else None
    except UserFacingError:  # the refusal already says so
        wanted = None
    for incident in incidents:
        incident.kept = post if wanted == incident.pk else {}
    return incidents


@staff_view(permissions.REFEREE | permissions.APPEALS)
def appeals(request, event):
    """The appeals committee decides; referees see the list."""
    error = None
    if request.method == "POST":
        appeal = get_object_or_404(
            Appeal, pk=posted_id(request.POST.get("appeal")), ruling__incident__event=event
        )
        try:
            new_ruling = None
            if request.POST.get("status") == "changed":
                new_ruling = {
                    "kind": request.POST.get("kind", "catalogue"),
                    "penalty_code": request.POST.get("penalty_code", ""),
                    "seat": whole_number(request.POST.get("seat")),
                    "params": _ruling_params(request.POST),
                }
            rsvc.appeal_decide(
                appeal=appeal,
                status=request.POST.get("status", ""),
                decision=request.POST.get("decision", ""),
                by=request.user,
                new_ruling=new_ruling,
            )
            return HttpResponseRedirect(request.path)
        except UserFacingError as exc:
            error = exc
    return render(
        request,
        "tournaments/protocols/appeals.html",
        {
            "event": event,
            "appeals": _appeals_in_words(event),
            "error": error,
            # an appeal's decision refused keeps what the committee chose and wrote
            "posted": request.POST if error else None,
            "posted_appeal": posted_id(request.POST.get("appeal")) if error else None,
            "can_decide": permissions.has_event_role(request.user, event, permissions.APPEALS),
            "catalogue": ui_of_event(event).catalogue,
            "family": ui_of_event(event),  # which rulings and parameters the family has
        },
        status=400 if error else 200,
    )


def _appeals_in_words(event):
    appeals = sel.appeals_for_event(event)
    ui = ui_of_event(event)
    names: dict[int, list[str]] = {}
    for appeal in appeals:
        table = appeal.ruling.incident.table
        if table.pk not in names:
            names[table.pk] = rtext.table_names(table)
        appeal.ruling.text = rtext.ruling_text(appeal.ruling, names[table.pk], ui)
        appeal.seat_names = list(enumerate(names[table.pk]))
    return appeals


@staff_view(permissions.CHIEF_REFEREE)
def protocol_log(request, event):
    return render(
        request,
        "tournaments/protocols/log.html",
        {"event": event, "rows": rtext.log_rows(event, sel.protocol_audit_log(event))},
    )


@staff_view(permissions.REFEREE)
def penalties(request, event):
    """The catalogue of the rules and the event's own penalties (the organiser defines them)."""
    error = None
    if request.method == "POST":
        try:
            rsvc.penalty_definition_create(
                event=event,
                code=request.POST.get("code", "").strip(),
                name=request.POST.get("name", "").strip(),
                kind=request.POST.get("kind", ""),
                whists=whole_number(request.POST.get("whists")) or 0,
                gora=whole_number(request.POST.get("gora")) or 0,
                rule=request.POST.get("rule", "").strip(),
                by=request.user,
            )
            return HttpResponseRedirect(request.path)
        except UserFacingError as exc:
            error = exc
    return render(
        request,
        "tournaments/protocols/penalties.html",
        {
            "event": event,
            "catalogue": ui_of_event(event).catalogue,
            "family": ui_of_event(event),  # the family's words for the penalties' columns
            "error": error,
            "kinds": [
                (v, ui_of_event(event).penalty_kind_name(v, label))
                for v, label in PenaltyKind.choices
            ],
            "definitions": PenaltyDefinition.objects.filter(event=event),
            "can_organise": permissions.can_organise(request.user, event),
        },
        status=400 if error else 200,
    )
