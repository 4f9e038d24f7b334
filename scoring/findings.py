"""Findings: what the scorer and the checker report about a protocol, as data.

>>> f = Finding("TRICKS_SUM", "tricks sum to 9, not 10", rule="3.2.8", deal=3)
>>> f.severity, str(f)
(<Severity.ERROR: 'error'>, 'deal 4: tricks sum to 9, not 10 [001 §3.2.8] (TRICKS_SUM)')
>>> CheckReport((f,)).ok
False
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

__all__ = ["Severity", "Finding", "CheckReport"]


class Severity(enum.StrEnum):
    ERROR = "error"  # the record is illegal or a written cell is wrong
    WARNING = "warning"  # suspicious but scorable (e.g. tricks given for an unplayed deal)


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem in a protocol or sheet.

    ``deal`` is the 0-based deal index (printed 1-based), ``player`` a seat,
    ``column`` one of ``pulya``, ``gora``, ``whists:<seat>``, ``result`` or a
    protocol field; ``written``/``expected`` hold the two values of a mismatch;
    ``rule`` is a seed 001 rule number such as ``"3.8.6"``.
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

    def __str__(self) -> str:
        place = f"deal {self.deal + 1}: " if self.deal is not None else ""
        rule = f" [001 §{self.rule}]" if self.rule else ""
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
