"""What the protocol pages share: the staff pages' decorator (the event and a role in it),
the form numbers and seats read, the table's current protocol and the table page's save (its
form, and the phone's outbox sending the same fields)."""

from __future__ import annotations

import dataclasses
from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from scoring.model import Ending
from tournaments.access import permissions
from tournaments.errors import UserFacingError, whole_number
from tournaments.models import EntryKind, Event, Protocol
from tournaments.selectors import protocols as sel
from tournaments.services import protocols as svc


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


def _seats(values: list[str]) -> list[int]:
    """The seats ticked (the service checks that the table has them)."""
    return [s for s in map(whole_number, values) if s is not None]


def _current_protocol(table, kind=EntryKind.TABLE):
    version = sel.protocol_current(table, kind)
    protocol = svc.stored_protocol(version.data) if version else svc.table_header(table)
    return version, protocol


def _rebuild(protocol, deals, ending=None):
    return dataclasses.replace(
        protocol, deals=tuple(deals), ending=Ending(ending) if ending else protocol.ending
    )


def _save_from_post(request, table, version, protocol, ui, client_id: str = "", *, sent=False):
    """The table page's form (a deal added, corrected or deleted, a row the players wrote, the
    ending) saved as the next version; with ``client_id`` (the phone's outbox, issue 42) once
    per id: ``(saved, True)`` for a resend of a send already stored. ``sent``: the caller has
    looked for a version of that send already (``selectors.protocols.protocol_current_or_sent``)
    and found none (the save looks again under the table's lock)."""
    if client_id and not sent and (stored := svc.protocol_by_client_id(table, client_id)):
        return stored, True  # a resend: the version the first send stored
    action = request.POST.get("action", "add")
    deals = list(protocol.deals)
    sheet = svc.stored_sheet(protocol, version.sheet) if version else None
    based_on = whole_number(request.POST.get("based_on_version"))
    ending = None
    if action == "sheet" and ui.sheet_template:  # a row the players wrote on paper
        sheet = ui.sheet_from_post(request.POST, protocol, sheet)
    elif action == "ending":
        ending = request.POST.get("ending")
        if ending not in Ending._value2member_map_:
            raise UserFacingError(_("Choose how the pulka ended."), {"field": "ending"})
    elif action == "delete":
        index = whole_number(request.POST.get("index"))
        if index is None or not 0 <= index < len(deals):
            raise UserFacingError(_("No such deal."), {"field": "index"})
        deals.pop(index)
    else:
        index = whole_number(request.POST.get("index"))
        if action == "replace" and index is not None and 0 <= index < len(deals):
            dealer = sel.next_dealer(protocol.with_deals(tuple(deals[:index])))
            deals[index] = ui.deal_from_post(request.POST, protocol, dealer)
        else:
            dealer = sel.next_dealer(protocol)
            deals.append(ui.deal_from_post(request.POST, protocol, dealer))
    save = {
        "table": table,
        # on the draw's players and the event's rules under the table's lock (no seat read
        # before it: issue 38)
        "protocol": _rebuild(protocol, deals, ending),
        "draw_players": True,
        "sheet": sheet,
        "based_on_version": based_on,
        "source": Protocol.Source.TABLE_LINK,
        "by": request.user,
    }
    if client_id:
        return svc.protocol_save_once(client_id=client_id, **save)
    return svc.protocol_save(**save), False
