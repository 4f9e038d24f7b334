"""The filled protocols' contexts: one table's sheet, a round's, the whole event's (issue 28,
29), each sheet the approved pulka as on paper (or the current version, marked provisional)
with its findings, rulings and penalties, read in one query per kind of row whatever the number
of tables; and :func:`filled_event_inputs`, what the sheets are made from, hashed without
building them.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from typing import Any

from django.db.models import Q, TextField
from django.db.models.functions import MD5, Cast, Concat
from django.utils.translation import gettext, gettext_lazy

from tournaments.errors import UserFacingError
from tournaments.families.protocols import effective_protocol, stored_protocol
from tournaments.models import Event, EventPenalty, Protocol, Round, Ruling, Seat, Table
from tournaments.pdf.contexts import _event_header, _rules_named, _seat_row
from tournaments.variants import event_convention, ui_of_event, ui_of_protocol
from tournaments.words.penalties import penalty_entry_words
from tournaments.words.protocols import finding_citation, finding_message, finding_title
from tournaments.words.rulings import kind_words, ruling_text

__all__ = [
    "filled_protocol_context",
    "filled_event_context",
    "filled_event_inputs",
    "filled_round_context",
]


def _num(x: Any) -> str:
    f = Fraction(str(x))
    if f.denominator == 1:
        return str(f.numerator)
    return f"{float(f):.2f}".rstrip("0").rstrip(".")


def filled_protocol_context(*, table: Table) -> dict[str, Any]:
    """The approved pulka as on paper (or the current version, marked provisional): the same
    sheet as the table's in its round's file, reading this table's rows only (issue 28: not
    the whole round's seats)."""
    round_ = table.round
    return _filled_sheets(round_.event, [table], {round_.pk: round_.number})[0]


def filled_round_context(*, round_: Round) -> dict[str, Any]:
    """Every table's filled protocol of the round, one sheet each (the referees' archive of a
    round), from one query per kind of row whatever the number of tables: the seats, the
    protocols chosen (approved, else the table's current version), the rulings, the penalties.

    :raises UserFacingError: for a round without tables.
    """
    event = round_.event
    tables = list(Table.objects.filter(round=round_).order_by("number"))
    if not tables:
        raise UserFacingError(
            gettext("Round %(n)s has no tables yet.") % {"n": round_.number}, {"field": "round"}
        )
    return {
        "event": _event_header(event),
        "round": round_.number,
        "tables": _filled_sheets(event, tables, {round_.pk: round_.number}),
    }


def filled_event_context(*, event: Event) -> dict[str, Any]:
    """Every round's filled protocols, round by round and table by table (the referees'
    archive of the whole event, issue 29), from the same queries as one round's
    (:func:`filled_round_context`), whatever the number of rounds and tables.

    :raises UserFacingError: for an event without tables.
    """
    numbers = dict(Round.objects.filter(event=event).values_list("pk", "number"))
    tables = sorted(
        Table.objects.filter(round_id__in=numbers), key=lambda t: (numbers[t.round_id], t.number)
    )
    if not tables:
        raise UserFacingError(
            gettext("The event has no tables yet: draw a round first."), {"field": "kind"}
        )
    return {
        "event": _event_header(event),
        "rounds": sorted({numbers[t.round_id] for t in tables}),
        "tables": _filled_sheets(event, tables, numbers),
    }


def filled_event_inputs(*, event: Event, round_: Round | None = None) -> dict[str, Any]:
    """What the whole event's (or ``round_``'s) filled protocols are made from, read without
    building a sheet
    (issue 28: asking for the file must not score every protocol in the request): the event's
    header and rules, the tables, the seats with the players' names, each chosen protocol's
    version, approval and an MD5 of its stored JSON (computed by PostgreSQL), the rulings with
    their definitions, the event's penalties. Its hash (:func:`context_hash`) is what the stored
    file is found by; any change to what a sheet prints changes it.

    :raises UserFacingError: for an event (a round) without tables, as
        :func:`filled_event_context` (:func:`filled_round_context`).
    """
    if round_ is not None:
        numbers = {round_.pk: round_.number}
    else:
        numbers = dict(Round.objects.filter(event=event).values_list("pk", "number"))
    tables = list(
        Table.objects.filter(round_id__in=numbers)
        .order_by("round_id", "number")
        .values_list("pk", "round_id", "number")
    )
    if not tables and round_ is not None:
        raise UserFacingError(
            gettext("Round %(n)s has no tables yet.") % {"n": round_.number}, {"field": "round"}
        )
    if not tables:
        raise UserFacingError(
            gettext("The event has no tables yet: draw a round first."), {"field": "kind"}
        )
    stored = Concat(
        *(Cast(f, TextField()) for f in ("data", "ruling_entries", "findings", "result")),
        output_field=TextField(),
    )
    return {
        "event": _event_header(event),
        "rules": _rules_named(event),
        "rounds": numbers,
        "tables": tables,
        "seats": list(
            Seat.objects.filter(round_id__in=numbers)
            .order_by("table_id", "position")
            .values_list(
                "table_id", "position", "entry_id", "entry__player__name", "entry__player__club"
            )
        ),
        "protocols": list(
            Protocol.objects.filter(table__round_id__in=numbers)
            .filter(Q(approved=True) | Q(is_current=True, entry_kind="table"))
            .annotate(stored=MD5(stored))
            .order_by("table_id", "-approved", "-version", "pk")
            .values_list("table_id", "pk", "version", "approved", "approved_at", "stored")
        ),
        "rulings": list(
            Ruling.objects.filter(incident__table__round_id__in=numbers)
            .order_by("pk")
            .values(
                *(f.attname for f in Ruling._meta.concrete_fields),
                "incident__table_id",
                "definition__name",
                "definition__kind",
            )
        ),
        "penalties": list(  # the event's: a player's penalties are printed at each of his tables
            EventPenalty.objects.filter(event=event)
            .order_by("pk")
            .values(*(f.attname for f in EventPenalty._meta.concrete_fields))
        ),
    }


def _filled_sheets(
    event: Event, tables: list[Table], round_numbers: dict[int, int]
) -> list[dict[str, Any]]:
    """The sheets of ``tables`` (in their order; ``round_numbers``: round id → number), one
    query per kind of row for all of them."""
    round_ids = sorted({t.round_id for t in tables})
    if len(tables) == 1:  # one table's rows (its own file)
        ids = [tables[0].pk]
        seat_scope, table_scope = {"table_id__in": ids}, {"table_id__in": ids}
    else:  # whole rounds: a short query, whatever the number of tables
        seat_scope, table_scope = {"round_id__in": round_ids}, {"table__round_id__in": round_ids}
    seats: dict[int, list[dict[str, Any]]] = {}
    for s in (
        Seat.objects.filter(**seat_scope)
        .select_related("entry__player")
        .order_by("table_id", "position")
    ):
        seats.setdefault(s.table_id, []).append(_seat_row(s))
    chosen: dict[int, Protocol] = {}
    for p in (
        Protocol.objects.filter(**table_scope)
        .filter(Q(approved=True) | Q(is_current=True, entry_kind="table"))
        .order_by("table_id", "-approved", "-version")
    ):
        chosen.setdefault(p.table_id, p)
    rulings: dict[int, list[Any]] = defaultdict(list)
    for r in (
        Ruling.objects.filter(**{f"incident__{k}": v for k, v in table_scope.items()})
        .select_related("incident")
        .order_by("created_at", "id")
    ):
        rulings[r.incident.table_id].append(r)
    seated = {p["entry"] for players in seats.values() for p in players}
    penalties: dict[int, list[EventPenalty]] = defaultdict(list)
    for pen in (
        EventPenalty.objects.filter(event=event, entry_id__in=seated)
        .select_related("entry__player")
        .order_by("created_at", "id")
    ):
        penalties[pen.entry_id].append(pen)
    header = _event_header(event)
    terms = _sheet_terms(event)

    def of_table(players: list[dict[str, Any]]) -> list[EventPenalty]:
        mine = [pen for p in players for pen in penalties.get(p["entry"], [])]
        return sorted(mine, key=lambda pen: (pen.created_at, pen.pk))

    sheets = []
    for t in tables:
        players = seats.get(t.pk, [])
        sheets.append(
            _filled_sheet(
                event=event,
                header=header,
                round_number=round_numbers[t.round_id],
                table_number=t.number,
                players=players,
                protocol=chosen.get(t.pk),
                terms=terms,
                rulings=lambda t=t: rulings.get(t.pk, []),
                penalties=lambda players=players: of_table(players),
            )
        )
    return sheets


def _sheet_terms(event: Event) -> dict[str, Any]:
    """The game's terms a filled sheet's header shows (the refas, the stake and the ante, the
    game's points), by the event's convention and options: for a table with no protocol yet
    (a round's file printed before play); a scored protocol gives its own."""
    return ui_of_event(event).sheet_terms(event_convention(event), target=event.pulka_target)


def _filled_sheet(
    *,
    event: Event,
    header: dict[str, Any],
    round_number: int,
    table_number: int,
    players: list[dict[str, Any]],
    protocol: Protocol | None,
    terms: dict[str, Any],
    rulings,
    penalties,
) -> dict[str, Any]:
    """One table's filled protocol (``rulings()``, ``penalties()``: the table's rows, read only
    when there is a protocol; ``terms``: the game's terms by the event's rules, shown on a
    sheet without a protocol, :func:`_sheet_terms`)."""
    context: dict[str, Any] = {
        "event": header,
        "rules": _rules_named(event),
        "round": round_number,
        "table": table_number,
        "players": players,
        "protocol": None,
        "deals": [],
        "findings": [],
        "rulings": [],
        "penalties": [],
        "settlement": [],
        "layout": ui_of_event(event).filled_layout,  # the family's sheet (tournaments.pdf.layouts)
    }
    if protocol is None:
        return {**context, **terms}
    scoring_protocol = stored_protocol(protocol.data)
    ui = ui_of_protocol(scoring_protocol)
    context["layout"] = ui.filled_layout
    # the pulka as scored: with the penalty entries the rulings wrote into this version
    try:
        effective, origin = effective_protocol(
            scoring_protocol, list(protocol.ruling_entries or [])
        )
    except (KeyError, TypeError, ValueError):  # unreadable entries: the deals as entered
        effective, origin = scoring_protocol, list(range(len(scoring_protocol.deals)))
    n = effective.size
    names = list(effective.players)
    sheet = ui.filled_sheet(effective, origin)

    def said(entry: dict[str, Any]) -> str:
        """A penalty entry in the document's language, as the family's pages say it (the
        Russian pulka's: "5 в гору (3.2.21, подсмотрел прикуп)", issue 36)."""
        if ui.penalty_terms is None:
            return ui.penalty_words(entry, names)
        return penalty_entry_words(entry, names, ui.penalty_terms)

    for i, row in enumerate(sheet.get("deals", [])):  # a penalty line in words, not its notation
        deal = effective.deals[i] if i < len(effective.deals) else None
        if row.get("penalty") and deal is not None and ui.is_penalty(deal):
            row["text"] = said(ui.penalty_to_json(deal))
    for p, row in enumerate(sheet["settlement"]):
        r = next((x for x in protocol.result if x.get("seat") == p), None)
        row["whists"] = _num(r.get("whists", 0)) if r else ""
    # what each ruling wrote into this version, in words (names, not seats or JSON)
    written: dict[int, list[str]] = {}
    for applied in protocol.ruling_entries or []:
        if isinstance(applied, dict):
            written.setdefault(applied.get("ruling"), []).extend(
                said(e)
                for e in applied.get("entries") or []
                if isinstance(e, dict)
            )
    context.update(
        {
            "protocol": {
                "id": protocol.pk,
                "version": protocol.version,
                "approved": protocol.approved,
                "approved_at": protocol.approved_at.isoformat() if protocol.approved_at else "",
                "approved_on": protocol.approved_at,  # printed in the document's language
                "ending": str(effective.ending),
                "ending_words": _ending_words(ui, str(effective.ending)),
            },
            "names": names,
            **sheet,
            "findings": [
                {
                    "severity": f.get("severity", ""),
                    "message": finding_message(f),  # in the reader's language
                    # in words, with names (issue 29)
                    "title": finding_title(f.get("code", ""), ui.finding_titles),
                    "sentence": ui.finding_sentence(
                        dict(f, message=finding_message(f)),
                        names,
                        finding_title(f.get("code", ""), ui.finding_titles),
                    ),
                    "rule": f.get("rule", ""),
                    "citation": finding_citation(f, ui.seed),
                    "deal": f.get("deal"),
                }
                for f in protocol.findings
            ],
            "rulings": [
                {
                    "kind": kind_words(r),
                    "rule": r.rule,
                    "reason": r.reason,
                    "active": r.active,
                    "seat": names[r.seat] if r.seat is not None and r.seat < n else "",
                    "wrote": written.get(r.pk, []),
                    "text": ruling_text(r, names, ui),  # in words (issue 29)
                }
                for r in rulings()
            ],
            "penalties": [
                {
                    "name": p.entry.player.name,
                    "kind": p.get_kind_display(),
                    "whists": p.whists,
                    "rule": p.rule,
                    "reason": p.reason,
                    "active": p.active,
                }
                for p in penalties()
            ],
        }
    )
    return context


def _ending_words(ui: Any, ending: str) -> Any:
    """How the pulka ended, in the document's language (lazy: rendered in it)."""
    words = {
        "closed": ui.ending_closed_label,
        "agreement": gettext_lazy("stopped by agreement"),
        "time-limit": gettext_lazy("stopped by the time limit"),
        "in-progress": gettext_lazy("still being played"),
    }
    return words.get(ending, ending)
