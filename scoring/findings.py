"""Findings: what the scorer and the checker report about a protocol, as data.

>>> f = Finding("TRICKS_SUM", "tricks sum to 9, not 10", rule="3.2.8", deal=3)
>>> f.severity, str(f)
(<Severity.ERROR: 'error'>, 'deal 4: tricks sum to 9, not 10 [001 §3.2.8] (TRICKS_SUM)')
>>> CheckReport((f,)).ok
False

A finding may carry its message as a template and its parameters (:func:`templated`), so that a
reader's language can be shown: ``text`` is the English template, marked with
:func:`gettext_noop` for the translators' catalogue (Django's ``makemessages`` extracts it by
that name), and the Django side renders ``gettext(text).format(**params)``; ``message`` is the
template filled in English, for the command line and the JSON documents.

>>> g = templated("DEALER", gettext_noop("the turn to deal is seat {seat}"), {"seat": 2})
>>> g.message, g.text, g.params
('the turn to deal is seat 2', 'the turn to deal is seat {seat}', (('seat', 2),))
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.worded import WordedError, gettext_noop

__all__ = [
    "CONTRACT_PARAMS",
    "Severity",
    "Finding",
    "CheckReport",
    "gettext_noop",
    "templated",
    "seat_number",
    "worded_finding",
]


#: The template parameters that name a contract or a bid by its code in the family's notation
#: (Priffe's ``spader``, ``pass``; a pot game's ``2u``, ``spel``, ``herz``; a Russian call's
#: ``мизер``, ``pass``, ``здесь``): the English message
#: writes the code, the Django side says it in the reader's words (issue 36), through the family
#: whose rule source the finding cites
CONTRACT_PARAMS = frozenset({"contract", "bid", "current", "final", "last", "call"})


class Severity(enum.StrEnum):
    ERROR = "error"  # the record is illegal or a written cell is wrong
    WARNING = "warning"  # suspicious but scorable (e.g. tricks given for an unplayed deal)


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem in a protocol or sheet.

    ``deal`` is the 0-based deal index (printed 1-based), ``player`` a seat,
    ``column`` one of ``pulya``, ``gora``, ``whists:<seat>``, ``result`` or a
    protocol field; ``written``/``expected`` hold the two values of a mismatch;
    ``rule`` is a rule of the seed ``source`` (``"001"``, the Kodeks, by default): a section
    number such as ``"3.8.6"`` (printed ``001 §3.8.6``) or a section's title or note such as
    ``"Kontra"`` or ``"note (j)"`` (printed ``002 "Kontra"``).

    >>> str(Finding("KONTRA_LEVEL", "rekontra said by a defender", rule="Kontra", source="002"))
    'rekontra said by a defender [002 "Kontra"] (KONTRA_LEVEL)'
    """

    code: str
    message: str
    rule: str = ""
    deal: int | None = None
    player: int | None = None
    column: str | None = None
    written: object = None
    expected: object = None
    severity: Severity = Severity.ERROR
    source: str = "001"
    #: ``message`` as a template (``{name}`` fields) and its parameters; "" when the message
    #: has none (see :func:`templated`)
    text: str = ""
    params: tuple[tuple[str, object], ...] = ()

    @property
    def citation(self) -> str:
        """The rule as a reader looks it up: ``001 §3.8.6`` or ``002 "Kontra"``; "" if none."""
        if not self.rule:
            return ""
        if self.rule[0].isdigit():
            return f"{self.source} §{self.rule}"
        return f'{self.source} "{self.rule}"'

    def __str__(self) -> str:
        place = f"deal {self.deal + 1}: " if self.deal is not None else ""
        rule = f" [{self.citation}]" if self.rule else ""
        return f"{place}{self.message}{rule} ({self.code})"


@dataclass(frozen=True, slots=True)
class CheckReport:
    """All findings of one check, in protocol order; ``ok`` when none is an error."""

    findings: tuple[Finding, ...]

    @property
    def ok(self) -> bool:
        return not any(f.severity is Severity.ERROR for f in self.findings)

    @property
    def errors(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity is Severity.ERROR)

    @property
    def warnings(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity is Severity.WARNING)


def seat_number(seat: object) -> str:
    """A seat as a person counts it, from 1 (``seat_number(0) == "1"``); what is not a whole
    number is quoted as written. Every message a person reads counts seats so (issue #37); the
    JSON fields (``player``, ``written``) keep the 0-based index.

    >>> seat_number(0), seat_number(3), seat_number("x"), seat_number(True)
    ('1', '4', "'x'", 'True')
    """
    if isinstance(seat, int) and not isinstance(seat, bool):
        return str(seat + 1)
    return repr(seat)


def templated(
    code: str, text: str, params: Mapping[str, object] | None = None, /, **fields: Any
) -> Finding:
    """A finding whose message is ``text`` (a :func:`gettext_noop` template) filled with
    ``params``; ``fields`` are the other :class:`Finding` fields."""
    params = dict(params or {})
    return Finding(code, text.format(**params), text=text, params=tuple(params.items()), **fields)


def worded_finding(code: str, error: WordedError, **fields: Any) -> Finding:
    """A finding made of an error said twice (:class:`rules.worded.WordedError`, e.g. an
    unknown convention or option): its English message, and its template for people with
    ``%(name)s`` written as ``{name}``, as the findings' templates are (the message alone where
    the error has no template)."""
    text = re.sub(r"%\((\w+)\)s", r"{\1}", error.text or "")
    params = tuple(error.params.items()) if text else ()
    return Finding(code, str(error), text=text, params=params, **fields)
