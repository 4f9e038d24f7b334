"""The players' protocol pages: the table's private link ``/t/<key>/`` (a phone, deal by deal)
and a player's confirmations and appeals under ``/p/<key>/protocols/``."""

from __future__ import annotations

from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from scoring.model import Ending
from tournaments.access import lockout
from tournaments.errors import BIGINT_MAX, UserFacingError, whole_number
from tournaments.models import Entry, Protocol, Round, Ruling
from tournaments.selectors import protocols as sel
from tournaments.selectors.duplicate import duplicate_of
from tournaments.services import protocols as svc
from tournaments.services import rulings as rsvc
from tournaments.variants import ui_of_protocol
from tournaments.views.protocols.common import _current_protocol, _save_from_post
from tournaments.views.protocols.offline import outbox_words, player_outbox_words
from tournaments.words import protocols as protocol_words
from tournaments.words import rulings as rtext


def table_entry(request, key: str):
    """``/t/<key>/``: the table enters its pulka deal by deal (a phone page)."""
    table = lockout.guarded(lockout.PRIVATE_KEY, request, lambda: sel.table_by_key(key))
    if duplicate_of(table.round.event) is not None:  # a duplicate table enters its boards
        return HttpResponseRedirect(reverse("duplicate-table", args=[key]))
    version, protocol = _current_protocol(table)
    ui = ui_of_protocol(protocol)  # the family's deal form (tournaments.variants)
    error = stale = None
    edit = request.GET.get("edit", "")
    # a deal's index to edit: a number past any deal (or any integer) edits none
    edit = int(edit) if edit.isascii() and edit.isdigit() and len(edit) <= 9 else None
    if request.method == "POST":
        try:
            # the phone's script gives each send an id: a resend stores nothing twice (issue 42)
            client_id = request.POST.get("client_id", "")
            _save_from_post(request, table, version, protocol, ui, client_id)
            if request.POST.get("action") == "sheet":
                row = request.POST.get("sheet_row", "")
                return HttpResponseRedirect(
                    reverse("protocol-table", args=[key]) + f"?sheet_row={row}#sheet"
                )
            return HttpResponseRedirect(reverse("protocol-table", args=[key]) + "#last")
        except svc.StaleProtocolError as exc:
            stale = exc
        except UserFacingError as exc:
            error = exc
    view = protocol_words.pulka_view(table, version)
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
                edit = whole_number(request.POST.get("index"))
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
    editable = table.round.state != Round.State.CLOSED and not (
        version is not None and version.approved
    )
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
            # the form a refusal is about, where its message stands (issue 36)
            "error_at": {"sheet": "sheet", "ending": "ending"}.get(
                request.POST.get("action", "add"), "deal"
            ),
            "stale": stale,
            "edit": edit,
            "edited": edited,
            "form": form,
            **sheet_context,
            "endings": [(e.value, e.value) for e in Ending],
            "post": request.POST,
            "approved": version is not None and version.approved,
            "closed": table.round.state == Round.State.CLOSED,
            # "correct" links only where the page can still save a correction (issue 36)
            "editable": editable,
            "ask": ", ".join(svc.referees_to_ask(table.round.event)),
            # the phone's outbox (issue 42): its words, its address, its service worker
            "outbox_words": outbox_words(),
            # who deals next and how the turn moves: the phone counts it over what it holds
            "turn": ui.dealing_turn(protocol),
            # each deal's "correct" form as data: the phone opens it offline
            "corrections": ui.correction_forms(protocol) if editable and edited is None else None,
        },
        status=409 if stale else 400 if error else 200,
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
                ruling = get_object_or_404(
                    Ruling, pk=whole_number(request.POST.get("ruling"), high=BIGINT_MAX), incident__event=entry.event
                )
                rsvc.appeal_file(
                    ruling=ruling, grounds=request.POST.get("grounds", ""), entry=entry
                )
            else:
                protocol = get_object_or_404(
                    Protocol,
                    pk=whole_number(request.POST.get("protocol"), high=BIGINT_MAX),
                    table__seats__entry=entry,
                )
                seat = protocol.table.seats.get(entry=entry).position
                svc.protocol_confirm(protocol=protocol, seat=seat, entry=entry)
            return HttpResponseRedirect(request.path)
        except UserFacingError as exc:
            error = exc
    rows = sel.tables_of_entry(entry)
    for row in rows:
        row["view"] = protocol_words.pulka_view(row["table"], row["protocol"])
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
        {
            "entry": entry,
            "event": entry.event,
            "rows": rows,
            "error": error,
            # his confirmations kept on the phone offline (issue 42), his page's own worker
            "outbox_words": player_outbox_words(),
        },
        status=400 if error else 200,
    )
