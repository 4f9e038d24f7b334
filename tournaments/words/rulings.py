"""Rulings, penalties and the protocols' log in words (issue 29): "Сергей Морозов: 5 into the
gora (3.2.21, looked at the talon)" — never a dict, a 0-based seat or a code. The stored rows
keep their codes and data for programs (the API, the exports); people read these sentences, in
the page's language, through the rule family's adapter (:mod:`tournaments.variants`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.errors import say
from tournaments.models import Appeal, AuditLogEntry, Event, Incident, Ruling, Seat, Table
from tournaments.models.round import without_draw_record
from tournaments.variants import ui_of_event

__all__ = [
    "annotate_rulings",
    "kind_words",
    "log_rows",
    "ruling_in_words",
    "ruling_text",
    "table_names",
]


#: a ruling's kind as its line begins, in the reader's language: the rule it rests on is cited
#: beside it ("Penalty: … [Kodeks 1996, 3.2.21]"), so the kind names no rule text (issue 36)
KIND_WORDS = {
    "catalogue": gettext_lazy("Penalty"),
    "event": gettext_lazy("Event penalty"),
    "adjusted": gettext_lazy("Adjusted result"),
    "none": gettext_lazy("No penalty"),
}


def kind_words(ruling: Any) -> str:
    """The kind of ``ruling`` in words ("Penalty", "Adjusted result")."""
    return str(KIND_WORDS.get(getattr(ruling, "kind", ""), ruling.get_kind_display()))


def table_names(table: Table) -> list[str]:
    """The players' names in seat order."""
    seats = table.seats.select_related("entry__player").order_by("position")
    return [s.entry.player.name for s in seats]


def ruling_text(ruling: Ruling, names: Sequence[str], ui: Any) -> str:
    """What ``ruling`` writes, in words, with the players' names."""
    if ruling.entries:
        return "; ".join(ui.penalty_words(entry, names) for entry in ruling.entries)
    who = names[ruling.seat] if ruling.seat is not None and ruling.seat < len(names) else ""
    if ruling.kind == Ruling.Kind.NONE:
        what = _("no penalty")
    elif ruling.definition is not None:
        what = f"{ruling.definition.name} ({ruling.definition.get_kind_display()})"
    else:
        what = ui.penalty_name(ruling.penalty_code) or _("nothing written")
    rule = f" ({ruling.rule})" if ruling.rule and ruling.kind != Ruling.Kind.NONE else ""
    return f"{who}: {what}{rule}" if who else f"{what}{rule}"


def ruling_in_words(ruling: Ruling, names: Sequence[str] | None = None, ui: Any = None) -> str:
    """Where ``ruling`` was made and what it writes, for a protocol version's reason or a
    finding (never its database id): "round 2, table 3, deal 5: Anna: 2 into the gora (…)"."""
    incident = ruling.incident
    table = incident.table
    if names is None:
        names = table_names(table)
    if ui is None:
        ui = ui_of_event(table.round.event)
    values = {
        "round": table.round.number,
        "table": table.number,
        "what": ruling_text(ruling, names, ui),
    }
    if incident.deal is None:
        return _("round %(round)d, table %(table)d: %(what)s") % values
    return _("round %(round)d, table %(table)d, deal %(deal)d: %(what)s") % {
        **values,
        "deal": incident.deal + 1,
    }


def annotate_rulings(incidents: Sequence[Incident], table: Table) -> list[Incident]:
    """Give each ruling of ``incidents`` (prefetched) its ``text``; the incident its players'
    names (``who``)."""
    if not incidents:
        return list(incidents)
    names = table_names(table)
    ui = ui_of_event(table.round.event)
    for incident in incidents:
        incident.who = ", ".join(names[s] for s in incident.seats if 0 <= s < len(names))
        for ruling in incident.rulings.all():
            ruling.text = ruling_text(ruling, names, ui)
    return list(incidents)


def _names_of_tables(table_ids: set[int]) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    seats = (
        Seat.objects.filter(table_id__in=table_ids)
        .select_related("entry__player")
        .order_by("table_id", "position")
    )
    for seat in seats:
        out.setdefault(seat.table_id, []).append(seat.entry.player.name)
    return out


#: The actions this module says in words (the others are :mod:`tournaments.words.audit`'s).
AREAS = ("protocol.", "incident.", "ruling.", "appeal.", "penalty.")


def log_rows(
    event: Event, entries: Sequence[AuditLogEntry], *, only_known: bool = False
) -> list[dict[str, Any]]:
    """The protocols' log for people: each entry's action in words, with names, no data dict
    (``only_known``: only the entries of :data:`AREAS`)."""
    if only_known:
        entries = [e for e in entries if e.action.startswith(AREAS)]
    tables = {
        e.data.get("table")
        for e in entries
        if isinstance(e.data, dict) and isinstance(e.data.get("table"), int)
    }
    incident_tables = dict(
        Incident.objects.filter(
            pk__in={e.data.get("incident") for e in entries if isinstance(e.data, dict)} - {None}
        ).values_list("pk", "table_id")
    )
    tables |= set(incident_tables.values())
    # the numbers only: a round row carries its draw record (issue 28)
    numbers = {
        pk: (round_number, number)
        for pk, round_number, number in Table.objects.filter(pk__in=tables).values_list(
            "pk", "round__number", "number"
        )
    }
    names = _names_of_tables(tables)
    ui = ui_of_event(event)
    rows = []
    for e in entries:
        data = e.data if isinstance(e.data, dict) else {}
        table = data.get("table")
        if table is None and data.get("incident") in incident_tables:
            table = incident_tables[data["incident"]]
        seats = names.get(table, [])
        rows.append(
            {
                "entry": e,
                "where": (
                    _("round %(round)d, table %(table)d")
                    % {"round": numbers[table][0], "table": numbers[table][1]}
                    if table in numbers
                    else ""
                ),
                "text": _described(e.action, data, seats, ui),
                # the reason Pulka wrote (a rescore's) in the reader's language; a typed one
                # as typed
                "reason": words_said(data.get("reason_words"), e.reason),
            }
        )
    return rows


def _seat(seats: Sequence[str], seat: object) -> str:
    return seats[seat] if isinstance(seat, int) and 0 <= seat < len(seats) else "—"


def _described(action: str, data: dict[str, Any], seats: Sequence[str], ui: Any) -> str:
    version = data.get("version")
    if action == "protocol.saved":
        text = _("version %(v)s saved") % {"v": version}
        errors = data.get("errors")
        return text + (_(", %(n)s error(s)") % {"n": errors} if errors else "")
    if action == "protocol.rescored":
        return _("version %(v)s: scored again with the rulings in force") % {"v": version}
    if action == "protocol.confirmed":
        return _("version %(v)s confirmed for %(name)s") % {
            "v": version,
            "name": _seat(seats, data.get("seat")),
        }
    if action == "protocol.approved":
        text = _("version %(v)s approved") % {"v": version}
        if data.get("players_errors"):
            text += " " + _(
                "(the computed pulka; %(n)s figure(s) the players wrote stay on record as "
                "their error)"
            ) % {"n": data["players_errors"]}
        return text
    if action == "protocol.reopened":
        return _("approval of version %(v)s withdrawn") % {"v": version}
    if action == "protocol.double_entry_resolved":
        return _("double entry resolved")
    if action == "incident.recorded":
        who = ", ".join(_seat(seats, s) for s in data.get("seats") or ())
        deal = data.get("deal")
        text = _("incident recorded") + (f": {who}" if who else "")
        return text + (_(", deal %(n)s") % {"n": deal + 1} if isinstance(deal, int) else "")
    if action == "ruling.made":
        entries = data.get("entries") or []
        if entries:
            what = "; ".join(ui.penalty_words(entry, seats) for entry in entries)
        else:
            who = _seat(seats, data.get("seat")) if data.get("seat") is not None else ""
            name = (
                _("no penalty")
                if data.get("kind") == "none"
                else ui.penalty_name(str(data.get("code", ""))) or _("nothing written")
            )
            rule = f" ({data['rule']})" if data.get("rule") else ""
            what = f"{who}: {name}{rule}" if who else f"{name}{rule}"
        return _("ruling: %(what)s") % {"what": what}
    if action == "appeal.filed":
        return _("appeal filed against a ruling")
    if action == "appeal.decided":
        status = dict(_appeal_statuses()).get(data.get("status"), data.get("status") or "")
        return _("appeal decided: %(status)s") % {"status": status}
    if action == "penalty.defined":
        return _("event penalty defined: %(code)s") % {"code": data.get("code", "")}
    return action


def _appeal_statuses():
    return Appeal.Status.choices


def _param_in_words(said: Any) -> str:
    """One of a finding's ``param_words`` in the active language: ``{"ruling": id}`` the
    ruling in words (:func:`~tournaments.words.rulings.ruling_in_words`), ``{"text":
    …, "params": …, "param_words": …}`` a template (:func:`words_said`).

    :raises Ruling.DoesNotExist, LookupError, TypeError, ValueError: it cannot be said
        again (the ruling is gone, the words do not fit the template).
    """
    if not isinstance(said, dict):
        raise TypeError(said)
    if "ruling" in said:
        ruling = (
            Ruling.objects.select_related("incident__table__round__event", "definition")
            .defer(*without_draw_record("incident__table__round"))
            .get(pk=said["ruling"])
        )
        return ruling_in_words(ruling)
    return say(said, _param_in_words)


def words_said(words: Any, stored: str) -> str:
    """Stored words (``{"text": template, "params": {…}, "param_words": {…}}``, e.g. a
    version's :attr:`~tournaments.models.Protocol.reason_words`) in the active language;
    ``stored`` (the text saved beside them) when there are none or they cannot be said again."""
    if not words:
        return stored
    try:
        return _param_in_words(words)
    except (Ruling.DoesNotExist, LookupError, TypeError, ValueError):
        return stored
