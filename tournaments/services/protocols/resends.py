"""A table's phone saves through its outbox (issue 42): each save carries an id the phone made,
so that a resend — the answer lost when the hall's network dropped mid-send — stores nothing
twice and answers the version the first send stored."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.errors import UserFacingError
from tournaments.models import EntryKind, Protocol, Table
from tournaments.selectors.protocols import table_save_state

from .saving import _lock_table, _save_locked

__all__ = ["CLIENT_ID_LENGTH", "checked_client_id", "protocol_by_client_id", "protocol_save_once"]

#: The longest id a phone may give a save (the column's width).
CLIENT_ID_LENGTH = 64


def checked_client_id(client_id: str) -> str:
    """The id a phone gave its send, stripped.

    :raises UserFacingError: none, too long, or not plain characters (``client_id``).
    """
    client_id = (client_id or "").strip()
    if not client_id or len(client_id) > CLIENT_ID_LENGTH or not client_id.isascii():
        raise UserFacingError(
            _("The send's id must be 1 to %(n)d plain characters.") % {"n": CLIENT_ID_LENGTH},
            {"field": "client_id"},
        )
    return client_id


def protocol_by_client_id(table: Table, client_id: str) -> Protocol | None:
    """The version a send of this id already stored at this table, if any."""
    sent = Protocol.objects.filter(table=table, client_id=checked_client_id(client_id))
    return sent.order_by().first()  # one at most; the model's order joins the table's round


@transaction.atomic
def protocol_save_once(*, table: Table, client_id: str, **save) -> tuple[Protocol, bool]:
    """:func:`~.saving.protocol_save` once per ``client_id`` at the table: ``(saved, False)``
    the first time, ``(the version stored then, True)`` for every resend, whatever its
    ``based_on_version`` (the first send moved the current version on). The table's row is
    locked first, so two sends of one id at once store one version; the id is looked for with
    the versions the save reads under that lock (one statement)."""
    client_id = checked_client_id(client_id)
    table = _lock_table(table, seats=True)
    kind = save.get("entry_kind", EntryKind.TABLE)
    state = table_save_state(table, kind, client_id)
    if state.resent is not None:
        return Protocol.objects.get(pk=state.resent), True
    saved = _save_locked(table=table, state=state, client_id=client_id, **save)
    return saved, False
