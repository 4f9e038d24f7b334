"""The event's log in words: what each recorded action did, with players' names for entry ids.

The log itself (``AuditLogEntry``) keeps an action code and plain data, for programs; this
module says it for the referee reading the log page, in the page's language. An action it does
not know (from a later version, or another area's) is shown as its code.

The export (:func:`audit_log_export`, :func:`audit_log_csv`): every entry, oldest first, for
organisers (issue 25, item 5). The log is append-only (``models.audit``), so an export taken
once is a prefix of any later one: entries are only ever added after it.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from tournaments.convention_labels import convention_name
from tournaments.models import AuditLogEntry, Event, EventRole
from tournaments.models.event import DrawMethod
from tournaments.selectors.standings import metric_label
from tournaments.standings.scores import round_score
from tournaments.words.draw_report import name_of

__all__ = ["AUDIT_EXPORT_COLUMNS", "audit_log_csv", "audit_log_export", "described", "who"]

#: Action → sentence; ``%(name)s`` fields come from the data, entries (``entry``, ``first``,
#: ``second``) as players' names.
SENTENCES: dict[str, Any] = {
    "event.created": _("Event created"),
    "event.updated": _("Settings changed"),
    "event.exported": _("The event's archive exported"),
    "event.imported": _("Event imported from the archive of %(from)s"),
    "event.family_changed": _(
        "The rules changed from %(from)s to %(to)s; set again for the new game: %(reset)s"
    ),
    # the ratings (issue 41)
    "event.unrated": _("Marked unrated: no rating counts the event"),
    "event.rated": _("Counted in the ratings again"),
    "entries.rated_from_pulka": _("Players' ratings set from Pulka's rating: %(entries)s"),
    "standings.tiebreaks": _("Tie-breaks changed: %(before)s → %(after)s"),
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
    "lockout.lifted": _("%(user)s: login lockout lifted"),
}
_ENTRY_FIELDS = ("entry", "first", "second")
#: what an event's change of rule family sets again (``event.family_changed``), as the log
#: names it
RESET_NAMES = {
    "convention_options": _("the convention's options"),
    "pulka_target": _("the game's size"),
    "tiebreaks": _("the tie-breaks"),
    "table_size_policy": _("the table sizes"),
}
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
        values["method"] = dict(DrawMethod.choices).get(data["method"], data["method"])
    if action == "event.family_changed":
        values["from"] = convention_name(str(data.get("from", "")))
        values["to"] = convention_name(str(data.get("to", "")))
        reset = data.get("reset") if isinstance(data.get("reset"), dict) else {}
        values["reset"] = ", ".join(str(RESET_NAMES.get(k, k)) for k in reset) or "—"
    if action == "standings.tiebreaks":
        values["before"] = _chain_words(data.get("before"))
        values["after"] = _chain_words(data.get("after"))
    if action.startswith("role.") and "role" in data:
        values["role"] = dict(EventRole.Role.choices).get(data["role"], data["role"])
    try:
        return str(sentence) % values
    except (KeyError, TypeError, ValueError):  # data of another shape: say the code
        return action


def who(user: Any, data: Any, names: dict[int, str]) -> str:
    """Who did what a log entry records: the account's name; a table's phone by the player
    whose private link saved it ("Anna, at the table"); "—" for the system."""
    if user is not None:
        return user.get_username()
    if isinstance(data, dict) and isinstance(data.get("via_entry"), int):
        return str(_("%(name)s, at the table")) % {"name": name_of(names, data["via_entry"])}
    if isinstance(data, dict) and data.get("source") == "table_link":
        return str(_("at the table"))
    return "—"


def _chain_words(chain: Any) -> str:
    """A tie-break chain as the standings page names its links: "Raspasy won, Wins"; a round
    score first ("round score: whists"); "—" for none."""
    out = []
    for link in chain if isinstance(chain, list) else ():
        if isinstance(link, dict) and "round_score" in link:
            try:
                score = gettext(round_score(str(link["round_score"])).name)
            except (KeyError, ValueError):
                score = str(link["round_score"])
            out.append(gettext("round score: %(name)s") % {"name": score})
        else:
            out.append(metric_label(str(link))["name"])
    return ", ".join(out) or "—"


# --- the export ------------------------------------------------------------------------------

#: The columns of the CSV export, and the keys of each JSON entry.
AUDIT_EXPORT_COLUMNS = ("id", "created_at", "user", "action", "described", "reason", "data")


def audit_log_export(*, event: Event) -> list[dict[str, Any]]:
    """Every entry of ``event``'s log, oldest first: its id, time (ISO 8601, UTC), the user's
    name (``None``: a table's or a player's link, or the system), the action code, the action
    in words (the current language), the reason and the data as recorded."""
    names = dict(event.entries.values_list("pk", "player__name"))
    entries = (
        AuditLogEntry.objects.filter(event=event)
        .select_related("user")
        .order_by("created_at", "id")
    )
    return [
        {
            "id": e.pk,
            "created_at": e.created_at.isoformat(),
            "user": e.user.get_username() if e.user else None,
            "action": e.action,
            "described": described(e.action, e.data, names),
            "reason": e.reason,
            "data": e.data,
        }
        for e in entries.iterator()
    ]


def audit_log_csv(rows: list[dict[str, Any]]) -> str:
    """The export as CSV (a header line, then one line an entry; ``data`` as JSON)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(AUDIT_EXPORT_COLUMNS)
    for row in rows:
        writer.writerow(
            [
                json.dumps(row[c], ensure_ascii=False, sort_keys=True)
                if c == "data"
                else row[c] or ""
                for c in AUDIT_EXPORT_COLUMNS
            ]
        )
    return out.getvalue()
