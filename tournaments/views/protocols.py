"""Protocol pages: the table's private link (a phone, deal by deal), the referee's desk (the
text notation, keyboard only), players' confirmation, approval, double entry, incidents,
rulings, appeals and the log. Views parse the request, call one service, render."""

from __future__ import annotations

import dataclasses
from functools import wraps

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring.protocol import Ending
from tournaments import lockout, permissions
from tournaments.errors import UserFacingError
from tournaments.models import (
    Appeal,
    Entry,
    EntryKind,
    Event,
    PenaltyDefinition,
    Protocol,
    Round,
)
from tournaments.selectors import protocols as sel
from tournaments.selectors import rulings_text as rtext
from tournaments.services import protocols as svc
from tournaments.services import rulings as rsvc
from tournaments.services.jobs import STANDINGS_QUEUED, jobs_waiting
from tournaments.variants import ui_of_event, ui_of_protocol
from tournaments.views.decorators import posted_id


def staff_view(roles: frozenset[str]):
    """Load the event (``slug``), require one of ``roles`` in it."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, slug, *args, **kwargs):
            event = get_object_or_404(Event, slug=slug)
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not permissions.has_event_role(request.user, event, roles):
                raise PermissionDenied
            return view(request, event, *args, **kwargs)

        return wrapper

    return decorator


def _int(value: str | None) -> int | None:
    value = (value or "").strip()
    if not value:
        return None
    try:
        return int(value)
    except ValueError:
        raise UserFacingError(_("%(value)r is not a whole number.") % {"value": value}) from None


def _seats(values: list[str]) -> list[int]:
    """The seats ticked (the service checks that the table has them)."""
    return [s for s in map(_int, values) if s is not None]


def _current_protocol(table, kind=EntryKind.TABLE):
    version = sel.protocol_current(table, kind)
    protocol = svc.stored_protocol(version.data) if version else svc.table_header(table)
    return version, protocol


def _rebuild(protocol, deals, ending=None):
    return dataclasses.replace(
        protocol, deals=tuple(deals), ending=Ending(ending) if ending else protocol.ending
    )


def table_entry(request, key: str):
    """``/t/<key>/``: the table enters its pulka deal by deal (a phone page)."""
    table = lockout.guarded(lockout.PRIVATE_KEY, request, lambda: sel.table_by_key(key))
    version, protocol = _current_protocol(table)
    ui = ui_of_protocol(protocol)  # the family's deal form (tournaments.variants)
    error = stale = None
    edit = _int(request.GET.get("edit")) if request.GET.get("edit", "").isdigit() else None
    if request.method == "POST":
        action = request.POST.get("action", "add")
        deals = list(protocol.deals)
        sheet = svc.stored_sheet(protocol, version.sheet) if version else None
        try:
            based_on = _int(request.POST.get("based_on_version"))
            ending = None
            if action == "sheet" and ui.sheet_template:  # a row the players wrote on paper
                sheet = ui.sheet_from_post(request.POST, protocol, sheet)
            elif action == "ending":
                ending = request.POST.get("ending")
                if ending not in Ending._value2member_map_:
                    raise UserFacingError(_("Choose how the pulka ended."), {"field": "ending"})
            elif action == "delete":
                index = _int(request.POST.get("index"))
                if index is None or not 0 <= index < len(deals):
                    raise UserFacingError(_("No such deal."), {"field": "index"})
                deals.pop(index)
            else:
                index = _int(request.POST.get("index"))
                if action == "replace" and index is not None and 0 <= index < len(deals):
                    dealer = sel.next_dealer(protocol.with_deals(tuple(deals[:index])))
                    deals[index] = ui.deal_from_post(request.POST, protocol, dealer)
                else:
                    dealer = sel.next_dealer(protocol)
                    deals.append(ui.deal_from_post(request.POST, protocol, dealer))
            svc.protocol_save(
                table=table,
                protocol=svc.on_event_rules(table, _rebuild(protocol, deals, ending)),
                sheet=sheet,
                based_on_version=based_on,
                source=Protocol.Source.TABLE_LINK,
                by=request.user,
            )
            if action == "sheet":
                row = request.POST.get("sheet_row", "")
                return HttpResponseRedirect(
                    reverse("protocol-table", args=[key]) + f"?sheet_row={row}#sheet"
                )
            return HttpResponseRedirect(reverse("protocol-table", args=[key]) + "#last")
        except svc.StaleProtocolError as exc:
            stale = exc
        except UserFacingError as exc:
            error = exc
    view = sel.pulka_view(table, version)
    seats = sel.seats_of(table)

    def deal_at(index: int | None):
        return (
            protocol.deals[index]
            if index is not None and 0 <= index < len(protocol.deals)
            else None
        )

    edited = deal_at(edit)
    if request.method == "POST" and request.POST.get("action", "add") in ("add", "replace"):
        form = ui.form_values(protocol, None, request.POST)  # a refused form keeps what it had
        if request.POST.get("action") == "replace" and edited is None:
            try:
                edit = _int(request.POST.get("index"))
            except UserFacingError:
                edit = None
            edited = deal_at(edit)
    else:  # "Correct" opens the deal's form filled with the deal as entered (issue 29)
        form = ui.form_values(protocol, edit if edited is not None else None)
    sheet_context = {}
    if ui.sheet_template and protocol.deals:
        rows = ui.sheet_rows(protocol)
        keys = [k for k, _label in rows]
        row = request.POST.get("sheet_row") or request.GET.get("sheet_row") or ""
        row = row if row in keys else keys[-2] if len(keys) > 1 else keys[-1]
        written = svc.stored_sheet(protocol, version.sheet) if version else None
        sheet_context = {
            "sheet_rows": rows,
            "sheet_form": ui.sheet_form(
                protocol,
                written,
                row,
                request.POST if error and request.POST.get("action") == "sheet" else None,
            ),
            "sheet_open": "sheet_row" in request.GET or request.POST.get("action") == "sheet",
        }
    return render(
        request,
        "tournaments/protocols/table_entry.html",
        {
            "table": table,
            "event": table.round.event,
            "version": version,
            "view": view,
            "seats": seats,
            "ui": ui,
            **ui.entry_context(protocol),
            "error": error,
            "stale": stale,
            "edit": edit,
            "edited": edited,
            "form": form,
            **sheet_context,
            "endings": [(e.value, e.value) for e in Ending],
            "post": request.POST,
            "approved": version is not None and version.approved,
            "closed": table.round.state == Round.State.CLOSED,
            "ask": ", ".join(svc.referees_to_ask(table.round.event)),
        },
        status=409 if stale else 400 if error else 200,
    )


@staff_view(permissions.REFEREE)
def referee_entry(request, event, number: int, table_number: int):
    """The referee's desk: the notation in one box, confirmation, approval, double entry."""
    table = sel.table_in_event(event=event, round_number=number, table_number=table_number)
    kind = (
        request.POST.get("entry_kind")
        or request.GET.get("kind")
        or (EntryKind.REFEREE if event.double_entry else EntryKind.TABLE)
    )
    if kind not in EntryKind.values:
        kind = EntryKind.TABLE
    version, protocol = _current_protocol(table, kind)
    error = stale = None
    sheet = svc.stored_sheet(protocol, version.sheet) if version else None
    # the text as the referee typed it (his sheet lines keep his names), else written out
    text = (version.notation or svc.notation_text(protocol, sheet)) if version else ""
    ending = str(Ending(protocol.ending)) if version else Ending.CLOSED.value
    if request.method == "POST":
        text = request.POST.get("notation", "")
        ending = request.POST.get("ending", ending)
        try:
            parsed, sheet = svc.notation_read(table, text)
            if ending in Ending._value2member_map_ and not any(
                line.strip().lower().startswith("ending:") for line in text.splitlines()
            ):
                parsed = dataclasses.replace(parsed, ending=Ending(ending))
            svc.protocol_save(
                table=table,
                protocol=parsed,
                sheet=sheet,
                notation=text,
                entry_kind=kind,
                based_on_version=_int(request.POST.get("based_on_version")),
                reason=request.POST.get("reason", ""),
                by=request.user,
                source=Protocol.Source.REFEREE,
            )
            return HttpResponseRedirect(request.path + f"?kind={kind}&saved=1")
        except svc.StaleProtocolError as exc:
            stale = exc
        except UserFacingError as exc:
            error = exc
    return _desk(
        request,
        event,
        table,
        kind=kind,
        version=version,
        text=text,
        ending=ending,
        error=error,
        stale=stale,
    )


def _desk(request, event, table, *, kind, version, text, ending, error=None, stale=None):
    """Render the referee's desk (with a refused save's or approval's message)."""
    table_version = sel.protocol_current(table, EntryKind.TABLE)
    return render(
        request,
        "tournaments/protocols/referee_entry.html",
        {
            "event": event,
            "table": table,
            "kind": kind,
            "version": version,
            "text": text,
            "ending": ending,
            "endings": sel.ending_choices(ui_of_event(event)),
            "family": ui_of_event(event),  # the family's notation examples
            "error": error,
            "stale": stale,
            "view": sel.pulka_view(table, version),
            "seats": sel.seats_of(table),
            "table_version": table_version,
            "confirmed": set(table_version.confirmations.values_list("seat", flat=True))
            if table_version
            else set(),
            "double": svc.double_entry_status(table) if event.double_entry else None,
            "players_errors": svc.players_sheet_errors(table_version) if table_version else (0, 0),
            "saved": request.GET.get("saved"),
            "reason": request.POST.get("reason", ""),
            "reload_url": reverse(
                "protocol-referee", args=[event.slug, table.round.number, table.number]
            ),
        },
        status=409 if stale else 400 if error else 200,
    )


def _back(request, fallback: str, error: UserFacingError | None = None):
    url = request.POST.get("next") or fallback
    if error is not None:
        from urllib.parse import urlencode

        url += ("&" if "?" in url else "?") + urlencode({"error": error.message})
    return HttpResponseRedirect(url)


@require_POST
@staff_view(permissions.REFEREE)
def protocol_action(request, event, number: int, table_number: int, action: str):
    """Confirm for a seat, approve, reopen, resolve a double entry (POST from the desk)."""
    table = sel.table_in_event(event=event, round_number=number, table_number=table_number)
    here = reverse("protocol-referee", args=[event.slug, number, table_number])
    current = sel.protocol_current(table)
    try:
        if action == "new-key":
            svc.table_rotate_key(table=table, by=request.user)
        elif action == "resolve":
            choices = {
                k[len("choice_") :]: v for k, v in request.POST.items() if k.startswith("choice_")
            }
            svc.protocol_resolve(
                table=table, choices=choices, by=request.user, reason=request.POST.get("reason", "")
            )
        elif current is None:
            raise UserFacingError(_("The table has no protocol yet."))
        elif action == "confirm":  # the version the form showed, not whatever is current now
            svc.protocol_confirm(
                protocol=svc.protocol_version(
                    table=table, version=_int(request.POST.get("version"))
                ),
                seat=_int(request.POST.get("seat")) or 0,
                by=request.user,
            )
        elif action == "approve":
            svc.protocol_approve(
                protocol=svc.protocol_version(
                    table=table, version=_int(request.POST.get("version"))
                ),
                by=request.user,
                confirm_missing=bool(request.POST.get("confirm_missing")),
                acknowledge_players_errors=bool(request.POST.get("acknowledge_players_errors")),
                note=request.POST.get("note", ""),
            )
        elif action == "reopen":
            svc.protocol_reopen(
                protocol=current, by=request.user, reason=request.POST.get("reason", "")
            )
        else:
            raise PermissionDenied
    except svc.StaleProtocolError as exc:  # show the differences, as a stale save does
        version = sel.protocol_current(table, EntryKind.TABLE)
        protocol = svc.stored_protocol(version.data)
        sheet = svc.stored_sheet(protocol, version.sheet)
        return _desk(
            request,
            event,
            table,
            kind=EntryKind.TABLE,
            version=version,
            text=svc.notation_text(protocol, sheet),
            ending=str(Ending(protocol.ending)),
            stale=exc,
        )
    except UserFacingError as exc:
        return _back(request, here, exc)
    if action in ("approve", "reopen", "resolve") and jobs_waiting(
        event_id=event.pk, task="tournaments.standings_recompute"
    ):
        messages.warning(request, STANDINGS_QUEUED)
    return _back(request, here + "?kind=table&saved=1")


@staff_view(permissions.REFEREE)
def protocol_versions(request, event, number: int, table_number: int):
    table = sel.table_in_event(event=event, round_number=number, table_number=table_number)
    versions = sel.protocol_versions(table)
    shown = None
    if request.GET.get("id", "").isdigit():
        shown = get_object_or_404(Protocol, table=table, pk=int(request.GET["id"]))
    return render(
        request,
        "tournaments/protocols/versions.html",
        {
            "event": event,
            "table": table,
            "versions": versions,
            "shown": shown,
            "view": sel.pulka_view(table, shown) if shown else None,
        },
    )


@staff_view(permissions.REFEREE)
def round_protocols(request, event, number: int):
    round_ = get_object_or_404(event.rounds, number=number)
    return render(
        request,
        "tournaments/protocols/round.html",
        {"event": event, "round": round_, "rows": sel.round_protocols(round_)},
    )


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
            try:
                out[name] = int(value)
            except ValueError:
                raise UserFacingError(
                    _("%(value)r is not a whole number.") % {"value": value}, {"field": f"p_{name}"}
                ) from None
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
                incident = get_object_or_404(table.incidents, pk=_int(request.POST.get("incident")))
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
                    seat=_int(request.POST.get("seat")),
                    params=_ruling_params(request.POST),
                    definition=definition,
                    reason=request.POST.get("reason", ""),
                )
            else:
                deal = _int(request.POST.get("deal"))
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
    wanted = _int(post.get("incident")) if post is not None else None
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
                    "seat": _int(request.POST.get("seat")),
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
                whists=_int(request.POST.get("whists")) or 0,
                gora=_int(request.POST.get("gora")) or 0,
                rule=request.POST.get("rule", "").strip(),
                by=request.user,
            )
            return HttpResponseRedirect(request.path)
        except UserFacingError as exc:
            error = exc
    from tournaments.models import PenaltyKind

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


def player_protocols(request, key: str):
    """``/p/<key>/protocols/``: a player confirms his tables' protocols, appeals rulings."""
    entry = lockout.guarded(
        lockout.PRIVATE_KEY,
        request,
        lambda: get_object_or_404(Entry.objects.select_related("event", "player"), url_key=key),
    )
    error = None
    if request.method == "POST":
        try:
            if request.POST.get("action") == "appeal":
                from tournaments.models import Ruling

                ruling = get_object_or_404(
                    Ruling, pk=_int(request.POST.get("ruling")), incident__event=entry.event
                )
                rsvc.appeal_file(
                    ruling=ruling, grounds=request.POST.get("grounds", ""), entry=entry
                )
            else:
                protocol = get_object_or_404(
                    Protocol, pk=_int(request.POST.get("protocol")), table__seats__entry=entry
                )
                seat = protocol.table.seats.get(entry=entry).position
                svc.protocol_confirm(protocol=protocol, seat=seat, entry=entry)
            return HttpResponseRedirect(request.path)
        except UserFacingError as exc:
            error = exc
    rows = sel.tables_of_entry(entry)
    for row in rows:
        row["view"] = sel.pulka_view(row["table"], row["protocol"])
        row["confirmed"] = bool(
            row["protocol"]
            and row["protocol"].confirmations.filter(seat=row["seat"].position).exists()
        )
        row["incidents"] = rtext.annotate_rulings(
            sel.incidents_for_table(row["table"]), row["table"]
        )
        row["state"] = sel.state_text(row["protocol"]) if row["protocol"] else ""
    return render(
        request,
        "tournaments/protocols/player.html",
        {"entry": entry, "event": entry.event, "rows": rows, "error": error},
        status=400 if error else 200,
    )
