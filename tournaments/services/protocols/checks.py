"""What a version stores of its check: the effective pulka (the active rulings' entries computed
again on the record and merged in) checked and scored by its family's variant, the findings in
English with their templates for the reader's language, the result rows, the rulings that no
longer fit kept as made with a warning; and the facts the standings read of it."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from django.utils import translation
from django.utils.translation import gettext_noop

from scoring.variants import variant_of
from tournaments import rule_sources
from tournaments.errors import UserFacingError, say
from tournaments.families import domain_for
from tournaments.families.protocols import ScoringProtocol, Sheet, effective_protocol
from tournaments.models import Protocol, ProtocolStats, Ruling, Table
from tournaments.selectors.protocols import table_seats
from tournaments.selectors.standings import protocol_facts, protocol_stats_of
from tournaments.services.ruling_entries import ruling_entries
from tournaments.words.rulings import ruling_in_words

__all__ = ["players_sheet_errors"]


def _plain(value: object) -> object:
    if value is None or isinstance(value, bool | int | str):
        return value
    try:
        exact = Fraction(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return str(value)
    return int(exact) if exact.denominator == 1 else f"{exact.numerator}/{exact.denominator}"


#: The template of the findings versions stored before issue 29 (it names the ruling's id):
#: kept in the catalogues so those stored findings are still read in the reader's language.
_STORED_TEMPLATES = (gettext_noop("ruling #{ruling} kept as made: {reason}"),)


def _rulings_applied(
    table: Table, protocol: ScoringProtocol
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The active rulings' entries computed on ``protocol``, and warnings for rulings that no
    longer fit it (their entries as made are kept and the referee is told)."""
    applied: list[dict[str, Any]] = []
    warnings: list[dict[str, Any]] = []
    rulings = (
        Ruling.objects.filter(incident__table=table, active=True)
        .exclude(kind=Ruling.Kind.NONE)
        .select_related("incident", "definition")
        .order_by("created_at", "pk")
    )
    for ruling in rulings:
        ruling.incident.table = table  # the table at hand, its round and event read already
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
                    # shown in the reader's language (words.protocols.finding_message):
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


def _evaluate(
    table: Table, protocol: ScoringProtocol, sheet: Sheet | None, *, rulings: bool = True
) -> dict[str, Any]:
    """Check and score the effective pulka; the fields a version stores. ``rulings``: false when
    the caller knows the table has no active ruling with a penalty (read under its lock:
    ``selectors.protocols.table_save_state``), so none is read."""
    applied, warnings = _rulings_applied(table, protocol) if rulings else ([], [])
    effective, origin = effective_protocol(protocol, applied)
    variant = variant_of(effective)
    try:
        report = variant.check(effective, sheet)
        rows = domain_for(variant).result_rows(effective)
    except ValueError as exc:
        raise UserFacingError(rule_sources.cited_in(str(exc)), {"field": "data"}) from exc
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
                # language (words.protocols.finding_message)
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
    seats = {s.position: s for s in table_seats(table)}
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
    facts = protocol_facts(saved.result, None, protocol_stats_of(variant, stored))
    ProtocolStats.objects.create(protocol=saved, data=facts)
