"""Protocols: saving versions, checking, confirmation, approval, double entry, reopening.

Every save is a new :class:`~tournaments.models.Protocol` row, checked and scored by its rule
family's variant (``scoring.variants``: any family, never branched on here) with the active
rulings' penalty entries merged in; a protocol with errors is saved with its findings, never "fixed" (DEVELOPERS.md).
Saves carry the version they were based on: a save based on an old version is refused with the
difference (:class:`StaleProtocolError`), never written over silently. Versions are numbered
under ``select_for_update()`` of the table row (Tabbycat #1705).
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from rules.conventions import InvalidConventionError
from rules.variants import family_of_convention, find_any_convention
from scoring.model import Ending
from scoring.notation_lexer import NotationError
from scoring.variants import read_json_document, variant_of
from tournaments.access.permissions import can_referee
from tournaments.errors import UserFacingError, say
from tournaments.models import (
    EntryKind,
    EventRole,
    Protocol,
    ProtocolConfirmation,
    ProtocolStats,
    Round,
    Ruling,
    Seat,
    Table,
)
from tournaments.models.player import new_url_key
from tournaments.models.round import without_draw_record
from tournaments.services.audit import audit_log
from tournaments.variants import event_variant, ui_for, ui_of_protocol

__all__ = [
    "AlreadyApprovedError",
    "StaleProtocolError",
    "deal_lines",
    "effective_protocol",
    "players_sheet_errors",
    "protocol_approve",
    "protocol_confirm",
    "protocol_from_document",
    "notation_read",
    "on_event_rules",
    "notation_text",
    "protocol_from_notation",
    "protocol_reopen",
    "protocol_rescore",
    "protocol_resolve",
    "protocol_save",
    "protocol_version",
    "protocols_compare",
    "referees_to_ask",
    "schedule_standings",
    "stored_protocol",
    "stored_sheet",
    "table_header",
    "table_rotate_key",
]

ScoringProtocol = Any  # a family's protocol object (scoring.variants.Variant.protocol_type)
Sheet = Any  # a family's written sheet


class StaleProtocolError(UserFacingError):
    """A save, a confirmation or an approval of an old version: ``extra`` has the current
    version and the differences (``a``: the current version, ``b``: the one submitted)."""


class AlreadyApprovedError(UserFacingError):
    """An approval of a version another referee approved first: ``extra`` says who and when."""


def schedule_standings(event_id: int) -> None:
    """Ask for a recomputation of the event's standings in the caller's transaction: the job
    is written with the change that asks for it and sent after the commit (an outbox row,
    ``jobs.outbox``), so a broker outage never fails the change nor loses the job."""
    from tournaments.services.standings import standings_schedule

    standings_schedule(event_id=event_id)


# --- pure helpers -----------------------------------------------------------------------------


def table_header(table: Table) -> ScoringProtocol:
    """An empty scoring protocol for ``table``: its players in seat order, the event's rules
    (of whichever family: the event's convention names it)."""
    event = table.round.event
    seats = sorted(table.seats.select_related("entry__player"), key=lambda s: s.position)
    return event_variant(event).blank(
        players=tuple(s.entry.player.name for s in seats),
        target=event.pulka_target,
        convention=event.variant,
        options=tuple(sorted((event.convention_options or {}).items())),
        first_dealer=table.first_dealer,
    )


def stored_protocol(data: Any) -> ScoringProtocol:
    """A stored protocol document (``Protocol.data``) as its family's protocol object."""
    return read_json_document(data)[1]


def stored_sheet(protocol: ScoringProtocol, data: Any) -> Sheet | None:
    """A stored written sheet (``Protocol.sheet``) of ``protocol``'s family, or ``None``."""
    return variant_of(protocol).sheet_from_dict(data) if data else None


#: What a protocol takes from the event (its rules) and the draw (the players), never from
#: whoever submits it (issue 25, item 2). ``target`` is the game's size in every family (the
#: pulka's target, the bula).
EVENT_FIELDS = ("players", "target", "convention", "options")


def _rebuilt(protocol: ScoringProtocol, **fields: Any) -> ScoringProtocol:
    """``protocol`` (its deals and ending) with ``fields`` (``players``, ``target``,
    ``convention``, ``options``, ``first_dealer``) replaced, rebuilt through its family's
    variant (the game's size is each family's own field: the target, the bula)."""
    given = {f: fields.get(f, getattr(protocol, f)) for f in (*EVENT_FIELDS, "first_dealer")}
    blank = variant_of(protocol).blank(**given)
    rebuilt = dataclasses.replace(blank.with_deals(protocol.deals), ending=protocol.ending)
    return ui_of_protocol(protocol).keep_recorded(rebuilt, protocol)


def on_event_rules(table: Table, protocol: ScoringProtocol) -> ScoringProtocol:
    """``protocol`` with the players of the draw and the event's rules (its deals, first dealer
    and ending kept): for a pulka rebuilt from a stored version and a form's deal."""
    header = table_header(table)
    return _rebuilt(protocol, **{f: getattr(header, f) for f in EVENT_FIELDS})


def _parameters(convention: str, options, field: str) -> dict[str, object]:
    try:
        return find_any_convention(convention).with_options(**dict(options)).options()
    except InvalidConventionError as exc:
        raise UserFacingError(f"{field}: {exc}", {"field": field}) from exc


def _require_event_rules(table: Table, protocol: ScoringProtocol) -> ScoringProtocol:
    """``protocol`` must name the draw's players and the event's rules: a document that
    disagrees is refused naming the field (whoever submits it: the organiser changes the rules
    in the event's settings, for every table). Returns it with the event's own spelling
    (convention key, options as the event states them)."""
    header = table_header(table)
    if protocol.players != header.players:
        raise UserFacingError(
            _(
                "players: the draw seats %(table)s at this table; a protocol cannot change them "
                "(it names %(given)s)."
            )
            % {"table": ", ".join(header.players), "given": ", ".join(protocol.players)},
            {"field": "players", "expected": list(header.players)},
        )
    if protocol.target != header.target:
        field = family_of_convention(header.convention).game_size  # target, bula
        raise UserFacingError(
            _(
                "%(field)s: this event plays %(game)s; a table cannot change it "
                "(the protocol says %(given)d)."
            )
            % {
                "field": field,
                "game": ui_of_protocol(header).game_size_text(header.target),
                "given": protocol.target,
            },
            {"field": field, "expected": header.target},
        )
    event_convention = find_any_convention(header.convention)
    try:
        given = find_any_convention(protocol.convention)
    except InvalidConventionError as exc:
        raise UserFacingError(f"convention: {exc}", {"field": "convention"}) from exc
    if given.key != event_convention.key:
        raise UserFacingError(
            _(
                "convention: this event plays %(event)s; a table cannot change it (the protocol says %(given)s)."
            )
            % {"event": event_convention.name, "given": given.name},
            {"field": "convention", "expected": event_convention.key},
        )
    expected = _parameters(header.convention, header.options, "options")
    stated = _parameters(protocol.convention, protocol.options, "options")
    changed = sorted(name for name in expected if stated[name] != expected[name])
    if changed:
        raise UserFacingError(
            _(
                "options: this event's options are set by the organiser; a table cannot change %(names)s."
            )
            % {"names": ", ".join(f"{n} ({expected[n]!s} → {stated[n]!s})" for n in changed)},
            {"field": "options", "options": changed},
        )
    return on_event_rules(table, protocol)


def effective_protocol(
    protocol: ScoringProtocol, applied: list[dict[str, Any]]
) -> tuple[ScoringProtocol, list[int | None]]:
    """The protocol with the rulings' penalty entries (``[{"after_deal", "entries"}]``, in the
    order the rulings were made) inserted after their deals, and for each deal of the result its
    index in ``protocol.deals`` (``None`` for a ruling's entry)."""
    ui = ui_of_protocol(protocol)
    after: dict[int, list[Any]] = {}
    at_end: list[Any] = []
    for item in applied:
        anchor = item.get("after_deal")
        placed = ui.penalty_placement(protocol, anchor)
        entries = [ui.penalty_from_json({**placed, **e}) for e in item["entries"]]
        if anchor is None or anchor >= len(protocol.deals):
            at_end.extend(entries)
        else:
            after.setdefault(anchor, []).extend(entries)
    deals: list[Any] = []
    origin: list[int | None] = []
    for i, deal in enumerate(protocol.deals):
        deals.append(deal)
        origin.append(i)
        for extra in after.get(i, []):
            deals.append(extra)
            origin.append(None)
    deals.extend(at_end)
    origin.extend([None] * len(at_end))
    return protocol.with_deals(tuple(deals)), origin


def penalty_to_json(protocol: ScoringProtocol, entry: Any) -> dict[str, Any]:
    """A penalty entry of ``protocol``'s family in the stored (neutral) JSON form."""
    return ui_of_protocol(protocol).penalty_to_json(entry)


def _plain(value: object) -> object:
    if value is None or isinstance(value, bool | int | str):
        return value
    try:
        exact = Fraction(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return str(value)
    return int(exact) if exact.denominator == 1 else f"{exact.numerator}/{exact.denominator}"


def deal_lines(protocol: ScoringProtocol) -> list[str]:
    """Each deal in its family's canonical text notation (for showing differences)."""
    variant = variant_of(protocol)
    try:
        return [variant.deal_text(protocol, i) for i in range(len(protocol.deals))]
    except ValueError:
        return [repr(d) for d in protocol.deals]


def protocols_compare(a: ScoringProtocol, b: ScoringProtocol) -> list[dict[str, Any]]:
    """The differences deal by deal (and of the ending): ``[{"deal", "a", "b"}]``, ``deal`` 0-based
    or ``None`` for the ending; a missing deal shows as ``""``."""
    out: list[dict[str, Any]] = []
    la, lb = deal_lines(a), deal_lines(b)
    for i in range(max(len(a.deals), len(b.deals))):
        da = a.deals[i] if i < len(a.deals) else None
        db = b.deals[i] if i < len(b.deals) else None
        if da != db:
            out.append(
                {
                    "deal": i,
                    "a": la[i] if da is not None else "",
                    "b": lb[i] if db is not None else "",
                }
            )
    if Ending(a.ending) != Ending(b.ending):
        out.append({"deal": None, "a": str(Ending(a.ending)), "b": str(Ending(b.ending))})
    return out


def notation_read(table: Table, text: str) -> tuple[ScoringProtocol, Sheet | None]:
    """Read the referee's text: a full notation, or only the deals (the table gives the header),
    with the ``sheet`` lines of what the players wrote, if any (checked cell by cell, 4.2.7).

    :raises UserFacingError: naming the line and column (field ``notation``).
    """
    header = table_header(table)
    variant = variant_of(header)  # the event's family reads the text
    given = variant.header_fields(text)
    has_header = "players" in given
    full = text
    head = ""
    if not has_header:
        head = variant.format_text(header).split("\n\n", 1)[0]
        full = head + "\n\n" + text
    try:
        parsed, sheet = variant.parse_text(full)
    except NotationError as exc:
        line = exc.line - (0 if has_header else len(head.splitlines()) + 1)
        raise UserFacingError(
            _("Line %(line)d, column %(column)d: %(reason)s")
            % {"line": line, "column": exc.column, "reason": exc.reason},
            {"field": "notation", "line": line, "column": exc.column},
        ) from exc
    # what the text leaves out comes from the event and the draw; what it states is checked
    # against them when saved (protocol_save refuses a disagreement, naming the field)
    protocol = _rebuilt(
        parsed,
        **{f: getattr(header, f) for f in EVENT_FIELDS if f not in given},
        first_dealer=parsed.first_dealer if has_header else header.first_dealer,
    )
    return protocol, sheet


def protocol_from_document(table: Table, document: object) -> tuple[ScoringProtocol, Sheet | None]:
    """Read a JSON protocol document (``scoring.jsonio``, the API's ``protocol``) for
    ``table``: the convention and options it leaves out are the event's; what it states is
    checked against the event when saved.

    :raises UserFacingError: the document does not read (field ``protocol``, with the path).
    """
    try:  # a document of any family, told by its format
        _variant, protocol, sheet = read_json_document(document)
    except ValueError as exc:  # JsonFormatError, naming the path
        raise UserFacingError(
            str(exc), {"field": "protocol", "path": getattr(exc, "path", None)}
        ) from exc
    header = table_header(table)
    left_out = {f: getattr(header, f) for f in ("convention", "options") if f not in document}  # type: ignore[operator]
    return _rebuilt(protocol, **left_out), sheet


def protocol_from_notation(table: Table, text: str) -> ScoringProtocol:
    """:func:`notation_read` without the sheet."""
    return notation_read(table, text)[0]


def notation_text(protocol: ScoringProtocol, sheet: Sheet | None) -> str:
    """The deals (numbered) and the sheet lines, as the referee's box shows them."""
    text = "".join(f"{i}. {line}\n" for i, line in enumerate(deal_lines(protocol), 1))
    if sheet is not None:
        variant = variant_of(protocol)
        try:  # the family's sheet lines: what its full text adds after the deals
            bare = variant.format_text(protocol)
            full = variant.format_text(protocol, sheet)
        except ValueError:
            return text
        written = full[len(bare) :].strip("\n") if full.startswith(bare) else ""
        if written:
            text += written + "\n"
    return text


# --- saving -----------------------------------------------------------------------------------


#: The template of the findings versions stored before issue 29 (it names the ruling's id):
#: kept in the catalogues so those stored findings are still read in the reader's language.
_STORED_TEMPLATES = (gettext_noop("ruling #{ruling} kept as made: {reason}"),)


def _rulings_applied(
    table: Table, protocol: ScoringProtocol
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The active rulings' entries computed on ``protocol``, and warnings for rulings that no
    longer fit it (their entries as made are kept and the referee is told)."""
    from tournaments.services.rulings import ruling_entries
    from tournaments.words.rulings import ruling_in_words

    applied: list[dict[str, Any]] = []
    warnings: list[dict[str, Any]] = []
    rulings = (
        Ruling.objects.filter(incident__table=table, active=True)
        .exclude(kind=Ruling.Kind.NONE)
        .select_related("incident__table__round", "definition")
        .defer(*without_draw_record("incident__table__round"))
        .order_by("created_at", "pk")
    )
    for ruling in rulings:
        try:
            entries = ruling_entries(ruling, protocol)
        except UserFacingError as exc:
            entries = ruling.entries
            in_english = {
                "ruling": _in_english(ruling_in_words, ruling),
                "reason": _in_english(_reason, exc, ruling, protocol),
            }
            warnings.append(
                {
                    "code": "RULING_NOT_RECOMPUTED",
                    "severity": "warning",
                    "rule": ruling.rule,
                    # English for programs and logs, the ruling in words as the pages say it
                    "message": f"the ruling on {in_english['ruling']} kept as made: "
                    f"{in_english['reason']}",
                    # shown in the reader's language (selectors.protocols.finding_message):
                    # the template translated, each parameter said again from its
                    # ``param_words`` (the ruling, the error's template); ``params`` keeps
                    # them in English for programs and for readers of older versions
                    "text": gettext_noop("the ruling on {ruling} kept as made: {reason}"),
                    "params": in_english,
                    "param_words": {
                        "ruling": {"ruling": ruling.pk},
                        "reason": exc.words or {"text": in_english["reason"]},
                    },
                    "deal": None,
                    "data_deal": ruling.incident.deal,
                    "player": ruling.seat,
                    "column": None,
                    "written": None,
                    "expected": None,
                }
            )
        if entries:
            applied.append(
                {"ruling": ruling.pk, "after_deal": ruling.incident.deal, "entries": entries}
            )
    return applied, warnings


def _in_english(words: Any, *args: Any) -> str:
    """``words(*args)`` in English: a finding's ``message`` is English whatever the language
    active when the version is saved (the reader's language comes from ``text``/``params``)."""
    with translation.override("en"):
        return str(words(*args))


def _reason(exc: UserFacingError, ruling: Ruling, protocol: ScoringProtocol) -> str:
    """Why ``ruling`` cannot be computed on ``protocol`` (``exc``), in the active language: its
    template filled again, or (raised with its message only) the ruling computed again."""
    from tournaments.services.rulings import ruling_entries

    if exc.words:
        return say(exc.words)
    try:
        ruling_entries(ruling, protocol)
    except UserFacingError as again:
        return again.message
    return exc.message  # not reached: the same inputs give the same error


def _finding_key(f: Any) -> tuple[Any, ...]:
    return (f.code, f.deal, f.player, f.column, f.message)


def players_sheet_errors(protocol: Protocol) -> tuple[int, int]:
    """``(errors, of which in the players' written figures)`` of a stored version."""
    errors = [f for f in protocol.findings if f.get("severity") == "error"]
    return len(errors), sum(1 for f in errors if f.get("players_sheet"))


def _evaluate(table: Table, protocol: ScoringProtocol, sheet: Sheet | None) -> dict[str, Any]:
    """Check and score the effective pulka; the fields a version stores."""
    applied, warnings = _rulings_applied(table, protocol)
    effective, origin = effective_protocol(protocol, applied)
    variant = variant_of(effective)
    try:
        report = variant.check(effective, sheet)
        rows = ui_for(variant).result_rows(effective)
    except ValueError as exc:
        raise UserFacingError(str(exc), {"field": "data"}) from exc
    # the players' written figures: what the sheet adds to the check of the pulka itself
    computed = (
        {_finding_key(f) for f in variant.check(effective, None).findings}
        if sheet is not None and report.findings
        else None
    )
    findings = []
    for f in report.findings:
        findings.append(
            {
                "code": f.code,
                "severity": str(f.severity),
                "message": f.message,
                "rule": f.rule,
                "source": f.source,
                "deal": f.deal,
                "data_deal": origin[f.deal]
                if f.deal is not None and f.deal < len(origin)
                else None,
                "player": f.player,
                "column": f.column,
                "written": _plain(f.written),
                "expected": _plain(f.expected),
                # the message as a template and its parameters, shown in the reader's
                # language (selectors.protocols.finding_message)
                **(
                    {"text": f.text, "params": {k: _plain(v) for k, v in f.params}}
                    if f.text
                    else {}
                ),
            }
        )
        if computed is not None and _finding_key(f) not in computed:
            # a written cell differs from the computed pulka: the players' error, which a
            # referee may approve over with his acknowledgement (protocol_approve)
            findings[-1]["players_sheet"] = True
    seats = {s.position: s for s in table.seats.select_related("entry__player")}
    result = [
        {
            "seat": p,
            "entry": seats[p].entry_id if p in seats else None,
            "name": protocol.players[p],
            **rows[p],
        }
        for p in range(protocol.size)
    ]
    findings.extend(warnings)
    return {
        "findings": findings,
        "error_count": len(report.errors),
        "warning_count": len(report.warnings) + len(warnings),
        "result": result,
        "rulings_applied": [a["ruling"] for a in applied],
        "ruling_entries": applied,
    }


def _store_facts(saved: Protocol, variant: Any, stored: ScoringProtocol) -> None:
    """Store what the standings read of the new version (its results and deal statistics, a
    ``ProtocolStats`` row) from the pulka at hand, read back from the version's JSON: the
    standings job then parses no protocol JSON for it (issue 28). The job still computes the
    rows that are missing (versions saved before this, imports)."""
    from tournaments.selectors.standings import protocol_facts, protocol_stats_of

    facts = protocol_facts(saved.result, None, protocol_stats_of(variant, stored))
    ProtocolStats.objects.create(protocol=saved, data=facts)


def _lock_table(table: Table) -> Table:
    return (
        Table.objects.select_for_update()
        .select_related("round__event")
        .defer(*without_draw_record("round"))
        .get(pk=table.pk)
    )


def _current(table: Table, entry_kind: str) -> Protocol | None:
    return Protocol.objects.filter(table=table, entry_kind=entry_kind, is_current=True).first()


def _approved(table: Table) -> Protocol | None:
    return Protocol.objects.filter(table=table, approved=True).first()


def referees_to_ask(event) -> list[str]:
    """Whom a table asks to correct its protocol once it can no longer: the event's chief
    referees, else its referees (names, or usernames)."""
    for roles in ((EventRole.Role.CHIEF_REFEREE,), (EventRole.Role.REFEREE,)):
        users = [
            r.user.get_full_name() or r.user.get_username()
            for r in EventRole.objects.filter(event=event, role__in=roles)
            .select_related("user")
            .order_by("user__username")
        ]
        if users:
            return users
    return []


def _require_correction_of_closed_round(table: Table, by, reason: str) -> None:
    """A closed round takes no more entries from its tables (their keys stop saving); a
    referee may still correct a protocol, giving the reason."""
    event = table.round.event
    if not can_referee(by, event):
        who = ", ".join(referees_to_ask(event)) or _("the chief referee")
        raise UserFacingError(
            _(
                "Round %(n)d is closed: the table's entries are no longer saved. Ask %(who)s "
                "to correct the protocol."
            )
            % {"n": table.round.number, "who": who},
            {"field": "round", "state": "closed"},
        )
    if not reason.strip():
        raise UserFacingError(
            _("Round %(n)d is closed: give the reason for correcting its protocol.")
            % {"n": table.round.number},
            {"field": "reason"},
        )


@transaction.atomic
def table_rotate_key(*, table: Table, by=None) -> Table:
    """Revoke the table's private link (``/t/<key>/`` and ``X-Table-Key``) and issue a new one,
    as :func:`tournaments.services.entries.entry_rotate_key` does for a player's."""
    table = _lock_table(table)
    table.url_key = new_url_key()
    table.save(update_fields=["url_key"])
    audit_log(
        event=table.round.event,
        action="table.key_rotated",
        by=by,
        data={"round": table.round.number, "table": table.number},
    )
    return table


@transaction.atomic
def protocol_save(
    *,
    table: Table,
    protocol: ScoringProtocol,
    based_on_version: int | None,
    sheet: Sheet | None = None,
    notation: str = "",
    entry_kind: str = EntryKind.TABLE,
    source: str = Protocol.Source.REFEREE,
    reason: str = "",
    by=None,
    via_entry=None,
) -> Protocol:
    """Save a new version of the table's protocol (the ``entry_kind`` chain).

    :raises StaleProtocolError: when ``based_on_version`` is not the current version.
    :raises UserFacingError: a change after approval without a referee or a reason.
    """
    table = _lock_table(table)
    event = table.round.event
    if protocol.size != table.seats.count():
        raise UserFacingError(
            _("The protocol has %(n)d players; the table seats %(m)d.")
            % {"n": protocol.size, "m": table.seats.count()},
            {"field": "players", "rule": "3.2.10"},
        )
    if table.round.state == Round.State.CLOSED:
        _require_correction_of_closed_round(table, by, reason)
    protocol = _require_event_rules(table, protocol)
    current = _current(table, entry_kind)
    current_version = current.version if current else None
    if based_on_version != current_version:
        differences = []
        if current is not None:
            differences = protocols_compare(stored_protocol(current.data), protocol)
        raise StaleProtocolError(
            _(
                "This protocol was changed by someone else (now version %(v)s) after you opened "
                "it. Reload it and check the differences before saving again."
            )
            % {"v": current_version},
            {
                "field": "based_on_version",
                "current_version": current_version,
                "differences": differences,
            },
        )
    approved = _approved(table)
    if approved is not None:
        if not can_referee(by, event):
            raise UserFacingError(
                _("This protocol is approved: only a referee can change it."), {"field": "protocol"}
            )
        if not reason.strip():
            raise UserFacingError(
                _("Give the reason for changing an approved protocol."), {"field": "reason"}
            )
    variant = variant_of(protocol)
    data = variant.to_dict(protocol)
    try:  # the stored JSON must read back (the family's public format, versioned)
        stored, _sheet = variant.from_dict(data)
        if sheet is not None:
            variant.sheet_from_dict(variant.sheet_to_dict(sheet))
    except ValueError as exc:  # JsonFormatError, naming the path
        raise UserFacingError(
            str(exc), {"field": "data", "path": getattr(exc, "path", None)}
        ) from exc
    fields = _evaluate(table, protocol, sheet)
    if current is not None:
        Protocol.objects.filter(pk=current.pk).update(is_current=False)
    if approved is not None:  # a change reopens the approval (issue 5)
        Protocol.objects.filter(pk=approved.pk).update(approved=False)
        audit_log(
            event=event,
            action="protocol.reopened",
            by=by,
            reason=reason,
            data={"table": table.pk, "version": approved.version},
        )
        schedule_standings(event.pk)
    saved = Protocol.objects.create(
        table=table,
        entry_kind=entry_kind,
        version=(current_version or 0) + 1,
        based_on_version=based_on_version,
        data=data,
        sheet=variant.sheet_to_dict(sheet) if sheet is not None else None,
        notation=notation,
        source=source,
        reason=reason,
        created_by=by if getattr(by, "is_authenticated", False) else None,
        created_via_entry=via_entry,
        **fields,
    )
    _store_facts(saved, variant, stored)
    audit_log(
        event=event,
        action="protocol.saved",
        by=by,
        reason=reason,
        data={
            "table": table.pk,
            "round": table.round.number,
            "table_number": table.number,
            "entry_kind": entry_kind,
            "version": saved.version,
            "errors": saved.error_count,
        },
    )
    return saved


@transaction.atomic
def protocol_rescore(
    *, table: Table, by=None, reason: str, reason_words: dict[str, Any] | None = None
) -> Protocol | None:
    """A new version of the table's record with the same data, re-scored with the rulings now
    active (a ruling or an appeal changed them). The approval carries over: the change is itself
    a referee's or the committee's decision. ``None`` when the table has no protocol yet.

    ``reason_words``: the reason as words said again in the reader's language
    (:func:`tournaments.selectors.protocols.version_reason`); ``reason`` is then English."""
    table = _lock_table(table)
    current = _current(table, EntryKind.TABLE)
    if current is None:
        return None
    event = table.round.event
    protocol = stored_protocol(current.data)
    sheet = stored_sheet(protocol, current.sheet)
    fields = _evaluate(table, protocol, sheet)
    was_approved = current.approved
    Protocol.objects.filter(pk=current.pk).update(is_current=False, approved=False)
    saved = Protocol.objects.create(
        table=table,
        entry_kind=EntryKind.TABLE,
        version=current.version + 1,
        based_on_version=current.version,
        data=current.data,
        sheet=current.sheet,
        notation=current.notation,
        source=Protocol.Source.RULING,
        reason=reason,
        reason_words=reason_words,
        resolution=current.resolution,
        approved=was_approved,
        approved_by=current.approved_by if was_approved else None,
        approved_at=timezone.now() if was_approved else None,
        created_by=by if getattr(by, "is_authenticated", False) else None,
        **fields,
    )
    _store_facts(saved, variant_of(protocol), protocol)
    audit_log(
        event=event,
        action="protocol.rescored",
        by=by,
        reason=reason,
        data={
            "table": table.pk,
            "version": saved.version,
            "approved": was_approved,
            **({"reason_words": reason_words} if reason_words else {}),
        },
    )
    if was_approved:
        schedule_standings(event.pk)
    return saved


# --- confirmation and approval ----------------------------------------------------------------


def _require_current_table_version(protocol: Protocol) -> None:
    """``protocol`` (the version the user saw) must be the current version of the table's
    record; otherwise :class:`StaleProtocolError` with the differences, as a stale save gets.
    Call it with the table locked and ``protocol`` read again under the lock."""
    if protocol.entry_kind != EntryKind.TABLE:
        raise UserFacingError(
            _("Only the table's record is confirmed and approved, not the second entry."),
            {"field": "protocol"},
        )
    if protocol.is_current:
        return
    current = _current(protocol.table, EntryKind.TABLE)
    differences = []
    if current is not None:
        differences = protocols_compare(
            stored_protocol(current.data), stored_protocol(protocol.data)
        )
    raise StaleProtocolError(
        _(
            "The table saved version %(v)s after the version %(seen)s you saw. Check the "
            "differences, then confirm or approve the current version."
        )
        % {"v": current.version if current else None, "seen": protocol.version},
        {
            "field": "version",
            "version": protocol.version,
            "current_version": current.version if current else None,
            "differences": differences,
        },
    )


def protocol_version(*, table: Table, version: int | None) -> Protocol:
    """The version ``version`` of the table's record: the one a confirmation or an approval form
    showed (it carries its number).

    :raises UserFacingError: without a version, or for one the table never saved.
    """
    if version is None:
        raise UserFacingError(
            _("Say which version you confirm or approve: reload the page."), {"field": "version"}
        )
    found = Protocol.objects.filter(table=table, entry_kind=EntryKind.TABLE, version=version)
    protocol = found.first()
    if protocol is None:
        raise UserFacingError(
            _("The table has no version %(v)s.") % {"v": version}, {"field": "version"}
        )
    return protocol


@transaction.atomic
def protocol_confirm(*, protocol: Protocol, seat: int, entry=None, by=None) -> ProtocolConfirmation:
    """Seat ``seat`` confirms this version: the player (``entry``, by the private link) or a
    referee for him (``by``)."""
    table = _lock_table(protocol.table)
    protocol.refresh_from_db()
    event = table.round.event
    _require_current_table_version(protocol)
    sitter = Seat.objects.filter(table=table, position=seat).first()
    if sitter is None:
        raise UserFacingError(
            _("There is no seat %(n)d at this table.") % {"n": seat + 1}, {"field": "seat"}
        )
    if entry is not None:
        if entry.pk != sitter.entry_id:
            raise UserFacingError(
                _("Only the player in that seat can confirm it."), {"field": "seat"}
            )
    elif not can_referee(by, event):
        raise UserFacingError(_("Only the player or a referee can confirm."), {"field": "seat"})
    errors, written = players_sheet_errors(protocol)
    if protocol.error_count and not (errors and written == errors):
        # (the players' written figures alone do not stop a confirmation of the deals: the
        # referee approves the computed pulka over them, with his acknowledgement)
        raise UserFacingError(
            ngettext(
                "The protocol has %(n)d error; correct it before confirming.",
                "The protocol has %(n)d errors; correct them before confirming.",
                protocol.error_count,
            )
            % {"n": protocol.error_count},
            {"field": "protocol"},
        )
    if Ending(protocol.data.get("ending", "closed")) is Ending.IN_PROGRESS:
        raise UserFacingError(
            _("The pulka is still being played: mark how it ended first."),
            {"field": "ending", "rule": "4.2.3"},
        )
    confirmation, created = ProtocolConfirmation.objects.get_or_create(
        protocol=protocol,
        seat=seat,
        defaults={"entry_id": sitter.entry_id, "by_referee": None if entry is not None else by},
    )
    if created:
        audit_log(
            event=event,
            action="protocol.confirmed",
            by=by,
            data={
                "table": table.pk,
                "version": protocol.version,
                "seat": seat,
                "by": "player" if entry is not None else "referee",
            },
        )
    return confirmation


def double_entry_status(table: Table) -> dict[str, Any]:
    """For a double-entry event: the two current entries and their differences."""
    first = _current(table, EntryKind.TABLE)
    second = _current(table, EntryKind.REFEREE)
    if first is None or second is None:
        return {"table": first, "referee": second, "differences": None, "resolved": False}
    differences = protocols_compare(stored_protocol(first.data), stored_protocol(second.data))
    resolved = bool(first.resolution and first.resolution.get("referee_protocol") == second.pk)
    return {
        "table": first,
        "referee": second,
        "differences": differences,
        "resolved": resolved or not differences,
    }


@transaction.atomic
def protocol_approve(
    *,
    protocol: Protocol,
    by,
    confirm_missing: bool = False,
    acknowledge_players_errors: bool = False,
    note: str = "",
) -> Protocol:
    """A referee approves ``protocol``: the version he saw (the form carries its number, see
    :func:`protocol_version`). It must still be the current version (every seat confirmed, no
    errors, double entry matched or resolved); ``confirm_missing`` confirms that same version
    for the seats that have not. Exactly one approved protocol per table (database constraint).

    :raises StaleProtocolError: the table saved a newer version since; with the differences.
    :raises AlreadyApprovedError: another referee approved it first (the table row is locked,
        so of two simultaneous approvals the second waits and is told by whom).

    When the computed pulka is right and only the players' written figures differ from it
    (001 §4.2.7), ``acknowledge_players_errors`` with a ``note`` approves it: the mismatch
    stays on record in the version as the players' error, with who acknowledged it and when
    (logged), and nothing the players wrote is overwritten.
    """
    table = _lock_table(protocol.table)
    protocol.refresh_from_db()
    event = table.round.event
    if not can_referee(by, event):
        raise UserFacingError(_("Only a referee can approve a protocol."), {"field": "protocol"})
    _require_current_table_version(protocol)
    if protocol.approved:
        username = protocol.approved_by.get_username() if protocol.approved_by else None
        when = timezone.localtime(protocol.approved_at) if protocol.approved_at else None
        raise AlreadyApprovedError(
            _("Version %(v)s was already approved by %(who)s at %(time)s.")
            % {
                "v": protocol.version,
                "who": username or _("a referee"),
                "time": when.strftime("%H:%M:%S") if when else "?",
            },
            {
                "field": "version",
                "version": protocol.version,
                "approved_by": username,
                "approved_at": when.isoformat() if when else None,
            },
        )
    errors, written = players_sheet_errors(protocol)
    acknowledged = False
    if protocol.error_count and errors and written == errors and acknowledge_players_errors:
        if not note.strip():
            raise UserFacingError(
                _("Say why the players' written figures are approved as they are."),
                {"field": "note"},
            )
        acknowledged = True
    elif protocol.error_count and errors and written == errors:
        raise UserFacingError(
            _(
                "The computed pulka is right, but %(n)d figure(s) the players wrote differ "
                "from it (001 §4.2.7). Correct the sheet, or approve with the players' error "
                "acknowledged."
            )
            % {"n": written},
            {"field": "acknowledge_players_errors", "rule": "4.2.7"},
        )
    elif protocol.error_count:
        raise UserFacingError(
            ngettext(
                "The protocol has %(n)d error; it cannot be approved.",
                "The protocol has %(n)d errors; it cannot be approved.",
                protocol.error_count,
            )
            % {"n": protocol.error_count},
            {"field": "protocol"},
        )
    if event.double_entry and not double_entry_status(table)["resolved"]:
        raise UserFacingError(
            _(
                "Double entry: the second entry is missing or differs; resolve "
                "the differences first."
            ),
            {"field": "double_entry"},
        )
    seats = list(table.seats.values_list("position", flat=True))
    if confirm_missing:
        for seat in seats:
            protocol_confirm(protocol=protocol, seat=seat, by=by)
    confirmed = set(protocol.confirmations.values_list("seat", flat=True))
    missing = [s + 1 for s in seats if s not in confirmed]
    if missing:
        raise UserFacingError(
            _("Not confirmed yet by seat(s) %(seats)s.") % {"seats": ", ".join(map(str, missing))},
            {"field": "confirmations"},
        )
    Protocol.objects.filter(table=table, approved=True).update(approved=False)
    protocol.approved = True
    protocol.approved_by = by
    protocol.approved_at = timezone.now()
    fields = ["approved", "approved_by", "approved_at"]
    if acknowledged:
        protocol.players_errors_acknowledged_by = by
        protocol.players_errors_acknowledged_at = protocol.approved_at
        protocol.players_errors_note = note.strip()
        fields += [
            "players_errors_acknowledged_by",
            "players_errors_acknowledged_at",
            "players_errors_note",
        ]
    protocol.save(update_fields=fields)
    data = {"table": table.pk, "version": protocol.version}
    if acknowledged:
        data["players_errors"] = written
    audit_log(
        event=event,
        action="protocol.approved",
        by=by,
        reason=note.strip() if acknowledged else "",
        data=data,
    )
    schedule_standings(event.pk)
    return protocol


@transaction.atomic
def protocol_reopen(*, protocol: Protocol, by, reason: str) -> Protocol:
    """Withdraw the approval (a referee, with a reason); standings follow."""
    table = _lock_table(protocol.table)
    protocol.refresh_from_db()
    event = table.round.event
    if not can_referee(by, event):
        raise UserFacingError(_("Only a referee can reopen a protocol."), {"field": "protocol"})
    if not reason.strip():
        raise UserFacingError(_("Give the reason for reopening."), {"field": "reason"})
    if protocol.approved:
        protocol.approved = False
        protocol.save(update_fields=["approved"])
        audit_log(
            event=event,
            action="protocol.reopened",
            by=by,
            reason=reason,
            data={"table": table.pk, "version": protocol.version},
        )
        schedule_standings(event.pk)
    return protocol


@transaction.atomic
def protocol_resolve(*, table: Table, choices: dict[str, str], by, reason: str = "") -> Protocol:
    """Double entry: a referee picks, deal by deal (keys: deal index as text, or ``"ending"``),
    the table's (``"a"``) or the second entry's (``"b"``) version; the merge is saved as a new
    version of the table's record, with the resolution recorded."""
    table = _lock_table(table)
    event = table.round.event
    if not can_referee(by, event):
        raise UserFacingError(_("Only a referee can resolve a double entry."), {"field": "choices"})
    status = double_entry_status(table)
    first, second = status["table"], status["referee"]
    if first is None or second is None:
        raise UserFacingError(_("Both entries are needed before resolving."), {"field": "choices"})
    a, b = stored_protocol(first.data), stored_protocol(second.data)
    deals: list[Any] = []
    for i in range(max(len(a.deals), len(b.deals))):
        side = choices.get(str(i), "a")
        if side not in ("a", "b"):
            raise UserFacingError(
                _("Choose the table's or the second entry for deal %(n)d.") % {"n": i + 1},
                {"field": f"choices.{i}"},
            )
        source = a if side == "a" else b
        if i < len(source.deals):
            deals.append(source.deals[i])
    ending = (a if choices.get("ending", "a") == "a" else b).ending
    merged = on_event_rules(table, dataclasses.replace(a, deals=tuple(deals), ending=ending))
    resolution = {
        "table_version": first.version,
        "referee_version": second.version,
        "referee_protocol": second.pk,
        "choices": dict(choices),
        "differences": status["differences"],
    }
    saved = protocol_save(
        table=table,
        protocol=merged,
        based_on_version=first.version,
        sheet=stored_sheet(a, first.sheet),
        source=Protocol.Source.RESOLUTION,
        reason=reason or _("Double entry resolved"),
        by=by,
    )
    saved.resolution = resolution
    saved.save(update_fields=["resolution"])
    audit_log(
        event=event,
        action="protocol.double_entry_resolved",
        by=by,
        reason=reason,
        data={"table": table.pk, "version": saved.version, "choices": dict(choices)},
    )
    return saved
