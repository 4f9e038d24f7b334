"""A table's protocol read from what a referee or a program submits — the text notation (a full
one, or only the deals), a JSON protocol document — and put on the event's rules: the players of
the draw and the convention and options the event states (a document that disagrees is refused,
naming the field); the differences of two versions deal by deal; the referee's box's text."""

from __future__ import annotations

import dataclasses
from typing import Any

from django.utils.translation import gettext as _

from rules.conventions import InvalidConventionError
from rules.variants import family_of_convention, find_any_convention
from scoring.model import Ending
from scoring.notation_lexer import NotationError
from scoring.variants import read_json_document, variant_of
from tournaments import rule_sources
from tournaments.convention_labels import convention_error_said, convention_name, family_for
from tournaments.errors import UserFacingError, said_error
from tournaments.families import domain_of_protocol
from tournaments.families.protocols import ScoringProtocol, Sheet, deal_lines
from tournaments.models import Table
from tournaments.selectors.protocols import table_header

__all__ = [
    "EVENT_FIELDS",
    "notation_read",
    "notation_text",
    "on_event_rules",
    "protocol_from_document",
    "protocol_from_notation",
    "protocols_compare",
]


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
    return domain_of_protocol(protocol).keep_recorded(rebuilt, protocol)


def on_event_rules(table: Table, protocol: ScoringProtocol) -> ScoringProtocol:
    """``protocol`` with the players of the draw and the event's rules (its deals, first dealer
    and ending kept): for a pulka rebuilt from a stored version and a form's deal."""
    header = table_header(table)
    return _rebuilt(protocol, **{f: getattr(header, f) for f in EVENT_FIELDS})


def _parameters(convention: str, options, field: str) -> dict[str, object]:
    try:
        return find_any_convention(convention).with_options(**dict(options)).options()
    except InvalidConventionError as exc:
        said = convention_error_said(exc, family_for(convention))
        raise UserFacingError(
            _("%(field)s: %(reason)s") % {"field": field, "reason": said}, {"field": field}
        ) from exc


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
                "game": domain_of_protocol(header).game_size_text(header.target),
                "given": protocol.target,
            },
            {"field": field, "expected": header.target},
        )
    event_convention = find_any_convention(header.convention)
    try:
        given = find_any_convention(protocol.convention)
    except InvalidConventionError as exc:
        said = convention_error_said(exc)
        raise UserFacingError(
            _("%(field)s: %(reason)s") % {"field": "convention", "reason": said},
            {"field": "convention"},
        ) from exc
    if given.key != event_convention.key:
        raise UserFacingError(
            _(
                "convention: this event plays %(event)s; a table cannot change it (the protocol says %(given)s)."
            )
            % {"event": convention_name(event_convention), "given": convention_name(given)},
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
        # the lines a family's deals stand under, where the text leaves them out (Priffe's
        # "sits 1: …", the draw's seating)
        lead = domain_of_protocol(header).notation_lead(header, text)
        head += "\n\n" + lead if lead else ""
        full = head + "\n\n" + text
    try:
        parsed, sheet = variant.parse_text(full)
    except NotationError as exc:
        line = exc.line - (0 if has_header else len(head.splitlines()) + 1)
        raise UserFacingError(
            _("Line %(line)d, column %(column)d: %(reason)s")
            % {
                "line": line,
                "column": exc.column,
                # the reason in the reader's language (each notation error has its words,
                # scoring.notation_errors), the offending token as typed
                "reason": said_error(exc),
            },
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
            rule_sources.cited_in(str(exc)),
            {"field": "protocol", "path": getattr(exc, "path", None)},
        ) from exc
    # the event's rules only (no seat read: the players are checked when saved, under its lock)
    header = table_header(table, players=protocol.players)
    left_out = {f: getattr(header, f) for f in ("convention", "options") if f not in document}  # type: ignore[operator]
    return _rebuilt(protocol, **left_out), sheet


def protocol_from_notation(table: Table, text: str) -> ScoringProtocol:
    """:func:`notation_read` without the sheet."""
    return notation_read(table, text)[0]


def notation_text(protocol: ScoringProtocol, sheet: Sheet | None) -> str:
    """The deals (numbered) and the sheet lines, as the referee's box shows them: the family's
    text without its header, so that the box saves back unchanged (Priffe's deals under their
    ``sits K:`` lines)."""
    variant = variant_of(protocol)
    try:
        full = (
            variant.format_text(protocol) if sheet is None else variant.format_text(protocol, sheet)
        )
    except ValueError:  # a protocol the text cannot write: its deals as far as they go
        return "".join(f"{i}. {line}\n" for i, line in enumerate(deal_lines(protocol), 1))
    body = full.split("\n\n", 1)[1] if "\n\n" in full else ""
    return body.strip("\n") + "\n" if body.strip() else ""
