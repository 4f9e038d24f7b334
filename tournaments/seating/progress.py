"""What a draw is doing while it runs, for a job's progress (pure Python, no Django).

A draw may take seconds to minutes near the most rounds a player count allows without a
repeat: a schedule is built or searched for, the tabu search runs, and where a repeat
remains more starts, a developed base round or CP-SAT follow (:func:`.schedule_search._plan`). The
engine tells a *reporter* which stage it is in and how far that stage has gone. A reporter
is any callable taking a :class:`Progress`; the draw never depends on it (it draws no
random numbers and reads no clock), so the same seed gives the same tables with or without
one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

__all__ = ["Progress", "Reporter", "Stage", "report"]


class Stage(StrEnum):
    """The stages of a draw, in the order they may come; most draws pass only a few."""

    #: a schedule without repeats built from a design or taken from the catalogue
    DESIGN = "design"
    #: the tabu search over the round (or the rounds planned together)
    SEARCH = "search"
    #: a longer search for a design, where the quick one found none and a repeat remains
    PATIENT_DESIGN = "patient_design"
    #: the tabu search again from other starts, where a repeat remains
    RESTART = "restart"
    #: a base round developed over a cyclic group, found by CP-SAT
    DEVELOPED = "developed"
    #: CP-SAT over the whole schedule (small problems): a schedule without a repeat, or a proof
    EXACT = "exact"
    #: repeats remain: a schedule without one for a round fewer, and the last round searched
    EXTEND = "extend"
    #: seats and first dealers at each table (001 §3.1.1, §3.2.1)
    SEATING = "seating"


@dataclass(frozen=True)
class Progress:
    """One report: the stage, how far it has gone (``step`` of ``steps``; ``steps`` 0 when
    the stage cannot say), and which of several attempts it is (``attempt`` of ``attempts``:
    the tabu starts)."""

    stage: Stage
    step: int = 0
    steps: int = 0
    attempt: int = 1
    attempts: int = 1

    def as_dict(self) -> dict[str, object]:
        return {
            "stage": str(self.stage),
            "step": self.step,
            "steps": self.steps,
            "attempt": self.attempt,
            "attempts": self.attempts,
        }


Reporter = Callable[[Progress], None]


def report(reporter: Reporter | None, stage: Stage, step: int = 0, steps: int = 0, **more) -> None:
    """Tell ``reporter`` (if any) where the draw is."""
    if reporter is not None:
        reporter(Progress(stage, step, steps, **more))
