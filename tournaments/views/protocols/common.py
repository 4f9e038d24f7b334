"""What the protocol pages share: the staff pages' decorator (the event and a role in it),
the form numbers and seats read, the table's current protocol."""

from __future__ import annotations

import dataclasses
from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404

from scoring.model import Ending
from tournaments.access import permissions
from tournaments.errors import whole_number
from tournaments.models import EntryKind, Event
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
