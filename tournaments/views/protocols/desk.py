"""The referee's desk: the text notation (keyboard only), confirmation, approval, double entry,
the versions of a table's protocol and a round's protocols."""

from __future__ import annotations

import dataclasses
from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from scoring.model import Ending
from tournaments.access import permissions
from tournaments.errors import UserFacingError, whole_number
from tournaments.jobs.outbox import STANDINGS_QUEUED, jobs_waiting
from tournaments.models import EntryKind, Protocol
from tournaments.selectors import protocols as sel
from tournaments.services import protocols as svc
from tournaments.variants import ui_of_event
from tournaments.views.protocols.common import _current_protocol, staff_view
from tournaments.words import protocols as protocol_words

#: what the referee's page says after an action (``?saved=<action>``), in the page's language
DONE = {
    "1": gettext_lazy("Saved."),
    "approve": gettext_lazy("Approved."),
    "confirm": gettext_lazy("Confirmed."),
    "reopen": gettext_lazy("Approval withdrawn."),
    "resolve": gettext_lazy("Double entry resolved."),
    "new-key": gettext_lazy("The table has a new private link."),
}


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
                based_on_version=whole_number(request.POST.get("based_on_version")),
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
            "endings": protocol_words.ending_choices(ui_of_event(event)),
            # the family's notation examples, for this table's game
            "hints": ui_of_event(event).notation_hints(svc.table_header(table)),
            "error": error,
            "stale": stale,
            "view": protocol_words.pulka_view(table, version),
            "seats": sel.seats_of(table),
            "table_version": table_version,
            "confirmed": set(table_version.confirmations.values_list("seat", flat=True))
            if table_version
            else set(),
            "double": svc.double_entry_status(table) if event.double_entry else None,
            "players_errors": svc.players_sheet_errors(table_version) if table_version else (0, 0),
            "saved": DONE.get(request.GET.get("saved", ""), DONE["1"])
            if request.GET.get("saved")
            else "",
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
                    table=table, version=whole_number(request.POST.get("version"))
                ),
                seat=whole_number(request.POST.get("seat")) or 0,
                by=request.user,
            )
        elif action == "approve":
            svc.protocol_approve(
                protocol=svc.protocol_version(
                    table=table, version=whole_number(request.POST.get("version"))
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
    # the page says what was done ("Approved."), not "Saved." after every action (issue 36)
    return _back(request, here + f"?kind=table&saved={action}")


@staff_view(permissions.REFEREE)
def protocol_versions(request, event, number: int, table_number: int):
    table = sel.table_in_event(event=event, round_number=number, table_number=table_number)
    versions = sel.protocol_versions(table)
    for v in versions:  # a reason Pulka wrote, in the reader's language
        v.reason_said = protocol_words.version_reason(v)
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
            "view": protocol_words.pulka_view(table, shown) if shown else None,
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
