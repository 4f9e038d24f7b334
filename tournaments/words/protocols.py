"""A table's record for people, in the reader's language: the pulka view (each deal in words,
the cells each player wrote, the findings next to the deal they concern, with their headings,
sentences and citations), the ways a pulka ends, a version's reason; through the rule family's
page face (:mod:`tournaments.variants`). The record itself is read by
:mod:`tournaments.selectors.protocols` and :mod:`tournaments.families.protocols`."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from rules.conventions import InvalidConventionError
from scoring.findings import CONTRACT_PARAMS
from scoring.model import Ending
from tournaments import rule_sources
from tournaments.convention_labels import convention_error_said
from tournaments.families.protocols import deal_lines, effective_protocol, stored_protocol
from tournaments.models import Protocol, Ruling, Table
from tournaments.selectors.protocols import next_dealer, table_header
from tournaments.variants import ADAPTERS, FamilyUI, ui_of_protocol
from tournaments.variants.russian_words import FINDING_TITLES
from tournaments.words.rulings import _param_in_words, words_said

__all__ = [
    "DealRow",
    "FINDING_TITLES",
    "PulkaView",
    "ending_choices",
    "finding_citation",
    "finding_message",
    "finding_title",
    "pulka_view",
    "version_reason",
]


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
    ``params`` (a parameter named ``…_word`` is an English word of the catalogue, said in the
    reader's language too: a pot game's decision); the stored English ``message`` where it has no
    template (versions stored before) or a translation does not fit its parameters."""
    text = finding.get("text")
    if not text:
        return str(finding.get("message", ""))
    params = dict(finding.get("params") or {})
    if finding.get("code") == "CONVENTION":  # an unknown convention or option: its own words
        error = InvalidConventionError(
            str(finding.get("message", "")), re.sub(r"\{(\w+)\}", r"%(\1)s", text), params
        )
        return convention_error_said(error)
    said_by = _contracts_said_by(str(finding.get("source") or ""))
    for name, value in params.items():  # an English word of the catalogue (scoring.pot.check)
        if name.endswith("_word") and isinstance(value, str) and value:
            params[name] = gettext(value)
        elif name in CONTRACT_PARAMS and isinstance(value, str) and value and said_by:
            # a contract or bid by its code, in the reader's words (issue 36)
            params[name] = said_by.contract_said(value, str(finding["source"]))
    words = finding.get("param_words")
    if isinstance(words, dict):  # parameters said again in the reader's language
        for name, said in words.items():
            try:
                params[name] = _param_in_words(said)
            except (Ruling.DoesNotExist, LookupError, TypeError, ValueError):
                pass  # the stored parameter, as it was saved
    try:
        said = gettext(text)
        worded = re.sub(r"\{(\w+)\}", r"%(\1)s", text)
        if said == text and worded != text:  # a rules error's template (rules.worded): %(name)s
            return gettext(worded) % params
        return said.format(**params)
    except (KeyError, IndexError, ValueError, TypeError):
        return str(finding.get("message", ""))


def _contracts_said_by(source: str) -> FamilyUI | None:
    """The family whose checker cites rule source ``source`` (a finding's), which says the
    contracts its findings name; ``None`` for a source no family claims."""
    for ui in ADAPTERS.values():
        if source in ui.finding_sources:
            return ui
    return None


def version_reason(protocol: Protocol) -> str:
    """Why ``protocol`` (a version) was made, in the reader's language where Pulka wrote it."""
    return words_said(protocol.reason_words, protocol.reason)


def finding_citation(finding: dict[str, Any], seed: str) -> str:
    """The rule a stored finding cites, as a referee knows it ("Kodeks 1996, 3.8.6",
    "Croatian rules, “Kontra”": :func:`tournaments.rule_sources.cite`; the JSON keeps the
    scorer's ``001 §3.8.6``); ``seed`` where it names no source; "" without a rule."""
    rule = str(finding.get("rule") or "")
    return rule_sources.cite(str(finding.get("source") or seed), rule) if rule else ""


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


def ending_choices(ui) -> list[tuple[str, str]]:
    """Each way a pulka ends, with its words (the family says what "closed" means)."""
    return [
        (Ending.CLOSED.value, str(ui.ending_closed_label)),
        (Ending.AGREEMENT.value, str(_("stopped by agreement"))),
        (Ending.TIME_LIMIT.value, str(_("stopped by the time limit"))),
        (Ending.IN_PROGRESS.value, str(_("still being played"))),
    ]


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
