"""The event's log in words: what each recorded action did, with players' names for entry ids.

The log itself (``AuditLogEntry``) keeps an action code and plain data, for programs; this
module says it for the referee reading the log page, in the page's language. An action it does
not know (from a later version, or another area's) is shown as its code.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from tournaments.words.draw_report import name_of

__all__ = ["described"]

#: Action → sentence; ``%(name)s`` fields come from the data, entries (``entry``, ``first``,
#: ``second``) as players' names.
SENTENCES: dict[str, Any] = {
    "event.created": _("Event created"),
    "event.updated": _("Settings changed"),
    "event.exported": _("The event's archive exported"),
    "event.imported": _("Event imported from the archive of %(from)s"),
    "entry.registered": _("%(entry)s entered"),
    "entries.imported": _("%(count)s players imported from CSV"),
    "entries.checked_in": _("Everyone registered checked in"),
    "entry.checked_in": _("%(entry)s checked in"),
    "entry.withdrawn": _("%(entry)s withdrew"),
    "entry.reentered": _("%(entry)s re-entered"),
    "entry.key_rotated": _("%(entry)s got a new private link (the old one no longer works)"),
    "entry.substitute": _("%(entry)s is a substitute (fills a table of four; not ranked)"),
    "entry.regular": _("%(entry)s is a player again, not a substitute"),
    "entry.updated": _("%(entry)s: details changed (%(changes)s)"),
    "entry.check_in_undone": _("%(entry)s: check-in undone"),
    "constraint.apart_added": _("%(first)s and %(second)s are kept apart"),
    "constraint.apart_removed": _("%(first)s and %(second)s may meet again"),
    "constraint.table_fixed": _("%(entry)s must sit at table %(table)s"),
    "constraint.table_freed": _("%(entry)s no longer has a fixed table"),
    "round.created": _("Round %(round)s created"),
    "round.seed_committed": _("Round %(round)s: the seed's hash published"),
    "round.drawn": _("Round %(round)s drawn (%(method)s, %(tables)s tables)"),
    "round.published": _("Round %(round)s published"),
    "round.started": _("Round %(round)s: play started"),
    "round.closed": _("Round %(round)s closed"),
    "round.closed_unfinished": _(
        "Round %(round)s closed with tables without an approved protocol: %(tables)s"
    ),
    "seats.swapped": _("Round %(round)s: %(first)s and %(second)s swapped seats"),
    "seat.moved": _("Round %(round)s: %(entry)s moved from table %(from)s to table %(to)s"),
    "table.redrawn": _("Round %(round)s: table %(table)s drawn again"),
    "table.seated_as_drawn": _("Round %(round)s: table %(table)s seated as the players drew"),
    "table.key_rotated": _(
        "Round %(round)s: table %(table)s got a new private link (the old one no longer works)"
    ),
    "role.granted": _("%(user)s: role %(role)s granted"),
    "role.revoked": _("%(user)s: role %(role)s revoked"),
    "account.created": _("Account %(user)s created"),
}
_ENTRY_FIELDS = ("entry", "first", "second")
#: a player's fields as the log names them
FIELD_NAMES = {
    "name": _("name"),
    "club": _("club"),
    "city": _("city"),
    "rating": _("rating"),
    "federation_id": _("federation id"),
}


def described(action: str, data: dict[str, Any], names: dict[int, str]) -> str:
    """``action`` with ``data`` in words; ``names``: entry id → player's name."""
    sentence = SENTENCES.get(action)
    if sentence is None or not isinstance(data, dict):
        return action
    values = {
        key: (name_of(names, value) if key in _ENTRY_FIELDS else value)
        for key, value in data.items()
    }
    if action == "entry.registered" and "name" in data:
        values["entry"] = data["name"]
    if action == "entries.imported" and isinstance(data.get("count"), int):
        sentence = ngettext(
            "%(count)s player imported from CSV",
            "%(count)s players imported from CSV",
            data["count"],
        )
    if action == "round.closed" and data.get("unfinished"):
        sentence = SENTENCES["round.closed_unfinished"]
        values["tables"] = ", ".join(str(t.get("table")) for t in data["unfinished"])
    if action == "entry.updated" and isinstance(data.get("changes"), dict):
        values["changes"] = "; ".join(
            f"{FIELD_NAMES.get(k, k)}: {old if old not in ('', None) else '—'} → "
            f"{new if new not in ('', None) else '—'}"
            for k, (old, new) in data["changes"].items()
        )
    if action == "round.drawn" and "method" in data:
        from tournaments.models.event import DrawMethod

        values["method"] = dict(DrawMethod.choices).get(data["method"], data["method"])
    if action.startswith("role.") and "role" in data:
        from tournaments.models import EventRole

        values["role"] = dict(EventRole.Role.choices).get(data["role"], data["role"])
    try:
        return str(sentence) % values
    except (KeyError, TypeError, ValueError):  # data of another shape: say the code
        return action
