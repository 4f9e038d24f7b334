"""Reads for the protocol pages: a table's record as rows to show, versions, rulings, appeals."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch, Q
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.findings import Finding
from scoring.model import Ending
from tournaments.errors import say
from tournaments.models import (
    Appeal,
    AuditLogEntry,
    EntryKind,
    Event,
    Incident,
    Protocol,
    Round,
    Ruling,
    Seat,
    Table,
)
from tournaments.models.round import without_draw_record
from tournaments.services.protocols import (
    deal_lines,
    effective_protocol,
    stored_protocol,
    table_header,
)
from tournaments.variants import ui_of_protocol

__all__ = [
    "DealRow",
    "FINDING_TITLES",
    "PulkaView",
    "appeals_for_event",
    "finding_citation",
    "finding_message",
    "ending_choices",
    "finding_title",
    "next_dealer",
    "protocol_audit_log",
    "protocol_current",
    "protocol_versions",
    "state_text",
    "pulka_view",
    "round_protocols",
    "table_by_key",
    "table_in_event",
    "tables_of_entry",
    "version_reason",
    "words_said",
]


#: A heading in the user's language for each finding code of Russian scoring.check (the scorer's
#: own message, with the exact numbers, follows it); each family's adapter gives its own
#: (``tournaments.variants``).
FINDING_TITLES = {
    "TRICKS": _("Tricks out of range"),
    "TRICKS_SUM": _("The tricks do not make ten"),
    "SPLIT_NEEDED": _("Each defender's tricks are needed"),
    "CALLS": _("The defenders' calls are missing"),
    "HALF_WHIST": _("Half-whist not allowed here"),
    "MISERE_WHISTED": _("A misère is not whisted"),
    "RASPASY_TRICKS": _("Raspasy tricks out of range"),
    "RASPASY_EXIT": _("Contract too low after raspasy"),
    "DEALER_OUT_OF_TURN": _("Dealer out of turn"),
    "DEALER_DECLARES": _("The dealer sits out with four players"),
    "BAD_SEAT": _("No such seat at the table"),
    "NOT_CLOSED": _("Marked closed, but not every pulya reached the target"),
    "ALREADY_CLOSED": _("The pulka had already closed"),
    "DEAL_AFTER_CLOSE": _("A deal after the pulka closed"),
    "UNPLAYED_TRICKS": _("Tricks given for a deal not played"),
    "MULTIPLIER": _("Multiplier not allowed"),
    "TALON_PREMIUM": _("Talon premium not allowed"),
    "SHEET_MISMATCH": _("The sheet differs from the computed pulka"),
    "SHEET_ROWS": _("More written rows than deals"),
    "SHEET_SHAPE": _("A written row has the wrong shape"),
    "RESULT_MISMATCH": _("Written result differs"),
    "PENALTY_RULE": _("Penalty without a known rule"),
    "PENALTY_AMOUNT": _("Penalty amount differs from the rule"),
    "CONTRACT_BELOW_BID": _("Contract below the final bid"),
    "DECLARER_NOT_BIDDER": _("The declarer did not win the auction"),
}


def finding_title(code: str, titles=None) -> str:
    """The heading of finding ``code`` from ``titles`` (a family's; Russian by default)."""
    if titles is not None and code in titles:  # the family's own heading first
        return str(titles[code])
    if code.startswith("AUCTION"):
        return str(_("Auction irregular"))
    if code == "RULING_NOT_RECOMPUTED":  # the Django side's own, in every family
        return str(_("A ruling kept as made"))
    return str((FINDING_TITLES if titles is None else titles).get(code, code))


def finding_message(finding: dict[str, Any]) -> str:
    """A stored finding's sentence in the reader's language: its template (``text``, from the
    family's scorer, e.g. :mod:`scoring.balkan.check`) translated and filled with its
    ``params``; the stored English ``message`` where it has no template (versions stored
    before) or a translation does not fit its parameters."""
    text = finding.get("text")
    if not text:
        return str(finding.get("message", ""))
    params = dict(finding.get("params") or {})
    words = finding.get("param_words")
    if isinstance(words, dict):  # parameters said again in the reader's language
        for name, said in words.items():
            try:
                params[name] = _param_in_words(said)
            except (Ruling.DoesNotExist, LookupError, TypeError, ValueError):
                pass  # the stored parameter, as it was saved
    try:
        return gettext(text).format(**params)
    except (KeyError, IndexError, ValueError):
        return str(finding.get("message", ""))


def _param_in_words(said: Any) -> str:
    """One of a finding's ``param_words`` in the active language: ``{"ruling": id}`` the
    ruling in words (:func:`~tournaments.words.rulings.ruling_in_words`), ``{"text":
    …, "params": …, "param_words": …}`` a template (:func:`words_said`).

    :raises Ruling.DoesNotExist, LookupError, TypeError, ValueError: it cannot be said
        again (the ruling is gone, the words do not fit the template).
    """
    from tournaments.words.rulings import ruling_in_words

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


def version_reason(protocol: Protocol) -> str:
    """Why ``protocol`` (a version) was made, in the reader's language where Pulka wrote it."""
    return words_said(protocol.reason_words, protocol.reason)


def finding_citation(finding: dict[str, Any], seed: str) -> str:
    """The rule a stored finding cites, written as the scorer writes it (``001 §3.8.6``,
    ``002 "Kontra"``: :attr:`scoring.findings.Finding.citation`); ``seed`` where it names
    none; "" without a rule."""
    rule = str(finding.get("rule") or "")
    return Finding("", "", rule=rule, source=str(finding.get("source") or seed)).citation


def table_by_key(key: str) -> Table:
    return get_object_or_404(
        Table.objects.select_related("round__event").defer(*without_draw_record("round")),
        url_key=key,
    )


def table_in_event(*, event: Event, round_number: int, table_number: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related("round__event").defer(*without_draw_record("round")),
        round__event=event,
        round__number=round_number,
        number=table_number,
    )


def seats_of(table: Table) -> list[Seat]:
    return list(table.seats.select_related("entry__player").order_by("position"))


def protocol_current(table: Table, entry_kind: str = EntryKind.TABLE) -> Protocol | None:
    return (
        Protocol.objects.filter(table=table, entry_kind=entry_kind, is_current=True)
        .prefetch_related("confirmations")
        .first()
    )


def protocol_versions(table: Table) -> list[Protocol]:
    return list(
        Protocol.objects.filter(table=table)
        .select_related("created_by", "approved_by")
        .order_by("entry_kind", "-version")
    )


@dataclass
class DealRow:
    number: int  # 1-based place in the effective pulka
    data_index: int | None  # index among the entered deals; None for a ruling's entry
    text: str
    kind: str  # game / raspasy / penalty
    dealer: str
    written: list[dict[str, Any]]
    findings: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class PulkaView:
    players: list[str]
    rows: list[DealRow]
    general: list[dict[str, Any]]  # findings not about one deal
    final: list[dict[str, Any]]
    ending: str
    next_dealer: int
    deal_count: int
    #: the family's cells partial, the seed its findings cite, the result row's heading
    cells_template: str = ""
    seed: str = ""
    result_label: str = ""
    #: columns after the players' (the pot games' pot)
    extra_headers: list[str] = field(default_factory=list)
    #: the family's word for the table's game (an accessible name for the table)
    game_label: str = ""
    #: how the pulka ended, in words (closed, by agreement, by the time limit, still played)
    ending_text: str = ""
    #: the players' written errors a referee approved over: who, when, why (or None)
    acknowledgement: dict[str, Any] | None = None

    @property
    def finding_span(self) -> int:
        """The columns a finding's row spans: the deal's and every player's and extra column."""
        return len(self.players) + 1 + len(self.extra_headers)


#: A protocol version's state (``Protocol.state``) in words.
STATES = {
    "approved": _("approved"),
    "confirmed": _("confirmed by every player"),
    "findings": _("has errors"),
    "draft": _("not confirmed yet"),
}


def state_text(protocol: Protocol) -> str:
    return str(STATES.get(protocol.state, protocol.state))


def ending_choices(ui) -> list[tuple[str, str]]:
    """Each way a pulka ends, with its words (the family says what "closed" means)."""
    return [
        (Ending.CLOSED.value, str(ui.ending_closed_label)),
        (Ending.AGREEMENT.value, str(_("stopped by agreement"))),
        (Ending.TIME_LIMIT.value, str(_("stopped by the time limit"))),
        (Ending.IN_PROGRESS.value, str(_("still being played"))),
    ]


def next_dealer(protocol: Any) -> int:
    """The seat that deals next, by the protocol's family's rules."""
    return ui_of_protocol(protocol).next_dealer(protocol)


def pulka_view(table: Table, version: Protocol | None) -> PulkaView:
    """The effective pulka of ``version`` (or an empty one) deal by deal, with what each player
    wrote, the running totals and the findings next to the deal they concern."""
    if version is None:
        protocol = table_header(table)
        applied: list[dict[str, Any]] = []
        findings: list[dict[str, Any]] = []
    else:
        protocol = stored_protocol(version.data)
        applied = version.ruling_entries
        findings = version.findings
    effective, origin = effective_protocol(protocol, applied)
    ui = ui_of_protocol(effective)
    cells = ui.pulka_cells(effective)
    rows: list[DealRow] = []
    names = effective.players
    for i, deal in enumerate(effective.deals):
        written: list[dict[str, Any]] = []
        dealer = ""
        d = None
        if cells is not None and i < len(cells.written):
            written = cells.written[i]
            d = cells.dealers[i]
            dealer = names[d] if d is not None else ""
        try:  # in words, in the page's language (issue 29)
            text = ui.deal_words(effective, i, d)
        except (ValueError, IndexError, KeyError, TypeError):
            lines = deal_lines(effective)
            text = lines[i] if i < len(lines) else repr(deal)
        rows.append(DealRow(i + 1, origin[i], text, ui.deal_kind(deal), dealer, written))
    general = []
    titles = ui.finding_titles
    findings = [
        dict(
            f,
            title=finding_title(f.get("code", ""), titles),
            message=finding_message(f),
            citation=finding_citation(f, ui.seed),
        )
        for f in findings
    ]
    for f in findings:  # a sentence for people; the code stays for the API and the logs
        f["sentence"] = ui.finding_sentence(f, names, f["title"])
    for f in findings:
        if f.get("deal") is not None and f["deal"] < len(rows):
            rows[f["deal"]].findings.append(f)
        else:
            general.append(f)
    final = list(version.result) if version is not None else []
    return PulkaView(
        list(effective.players),
        rows,
        general,
        final,
        str(Ending(protocol.ending)),
        next_dealer(protocol),
        len(protocol.deals),
        ui.pulka_template,
        ui.seed,
        str(ui.result_label),
        list(cells.extra_headers) if cells is not None else [],
        game_label=str(ui.game_label),
        ending_text=dict(ending_choices(ui)).get(str(Ending(protocol.ending)), ""),
        acknowledgement=_acknowledgement(version),
    )


def _acknowledgement(version: Protocol | None) -> dict[str, Any] | None:
    if version is None or version.players_errors_acknowledged_at is None:
        return None
    user = version.players_errors_acknowledged_by
    return {
        "by": (user.get_full_name() or user.get_username()) if user else "",
        "at": version.players_errors_acknowledged_at,
        "note": version.players_errors_note,
    }


def round_protocols(round_: Round) -> list[dict[str, Any]]:
    """Each table of the round with its current record's state, in three queries."""
    tables = list(
        round_.tables.order_by("number").prefetch_related(
            Prefetch(
                "seats", queryset=Seat.objects.select_related("entry__player").order_by("position")
            ),
            Prefetch(
                "protocols",
                queryset=Protocol.objects.filter(is_current=True).prefetch_related("confirmations"),
                to_attr="current_protocols",
            ),
        )
    )
    out = []
    for t in tables:
        by_kind = {p.entry_kind: p for p in t.current_protocols}
        out.append(
            {
                "table": t,
                "players": [s.entry.player.name for s in t.seats.all()],
                "protocol": by_kind.get(EntryKind.TABLE),
                "second": by_kind.get(EntryKind.REFEREE),
                "state": state_text(by_kind[EntryKind.TABLE]) if EntryKind.TABLE in by_kind else "",
            }
        )
    return out


def tables_of_entry(entry) -> list[dict[str, Any]]:
    """The tables an entry sat at, latest round first, with their current record."""
    seats = (
        Seat.objects.filter(entry=entry)
        .select_related("table__round__event")
        .defer(*without_draw_record("table__round"))
        .order_by("-round__number")
    )
    out = []
    for seat in seats:
        out.append(
            {
                "seat": seat,
                "table": seat.table,
                "round": seat.table.round,
                "protocol": protocol_current(seat.table),
            }
        )
    return out


def incidents_for_table(table: Table) -> list[Incident]:
    return list(
        table.incidents.prefetch_related(
            Prefetch(
                "rulings",
                queryset=Ruling.objects.prefetch_related("appeals").order_by("created_at"),
            )
        ).order_by("-occurred_at")
    )


def appeals_for_event(event: Event) -> list[Appeal]:
    return list(
        Appeal.objects.filter(ruling__incident__event=event)
        .select_related("ruling__incident__table__round", "filed_by_entry__player", "new_ruling")
        .defer(*without_draw_record("ruling__incident__table__round"))
        .order_by("status", "-filed_at")
    )


def protocol_audit_log(event: Event) -> list[AuditLogEntry]:
    """The append-only log of protocols, incidents, rulings and appeals (chief referee)."""
    prefixes = ("protocol.", "incident.", "ruling.", "appeal.", "penalty.")
    query = Q()
    for prefix in prefixes:
        query |= Q(action__startswith=prefix)
    return list(
        AuditLogEntry.objects.filter(query, event=event)
        .select_related("user")
        .order_by("-created_at", "-id")[:500]
    )
