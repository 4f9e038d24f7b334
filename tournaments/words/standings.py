"""The standings settings page's stored lines in the reader's language: a recomputation's
warnings (kept as words by :mod:`tournaments.selectors.standings_inputs`) and each run's
outcome (kept as a code: ``computed``, ``unchanged``, ``failed: <the error's first line>``).
Older snapshots' plain-string warnings are shown as they were stored."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from tournaments.errors import say

__all__ = ["OUTCOMES", "run_outcome", "warning_said"]

#: a run's outcome code → its words
OUTCOMES = {
    "computed": _("computed"),
    "unchanged": _("unchanged (nothing new to count)"),
    "failed": _("failed"),
}


def warning_said(warning: Any) -> str:
    """A stored standings warning in the active language; a plain string (a snapshot computed
    before issue 36) as stored."""
    if isinstance(warning, dict):
        try:
            return say(warning)
        except (KeyError, TypeError, ValueError):
            return str(warning.get("message", ""))
    return str(warning)


def run_outcome(run: Any) -> str:
    """A run's outcome in words: "computed", "unchanged (nothing new to count)", "failed"
    (the error's text is on the page's failure notice and in the log, not in the runs' table)."""
    outcome = str(run.get("outcome", "")) if isinstance(run, dict) else ""
    code = "failed" if outcome.startswith("failed") else outcome
    return str(OUTCOMES.get(code, outcome))
