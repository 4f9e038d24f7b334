"""Small builders for Priffe tests: one sits of players A, B, C, D (A+C against B+D)."""

from __future__ import annotations

from rules.priffe import Contract
from scoring.priffe.protocol import (
    Ending,
    Hand,
    Honours,
    HonoursPattern,
    Penalty,
    PriffeProtocol,
    default_sittings,
)

PLAYERS = ("A", "B", "C", "D")
A, B, C, D = range(4)
AC, BD = 0, 1  # the sides of the first sits


def hand(
    declarer: int | None,
    contract: str,
    tricks: int,
    *,
    sits: int = 0,
    honours: tuple[tuple[int, str], ...] = (),
    bids: tuple[str, ...] | None = None,
) -> Hand:
    """A deal in which the declarer's side (side 0 at tvångsnoll) took ``tricks``."""
    protocol = game()
    side = 0 if declarer is None else protocol.side_of(declarer, sits)
    assert side is not None
    pair = (tricks, 13 - tricks) if side == 0 else (13 - tricks, tricks)
    return Hand(
        sits=sits,
        contract=Contract(contract),
        declarer=declarer,
        tricks=pair,
        honours=tuple(Honours(p, HonoursPattern(k)) for p, k in honours),
        bids=bids,
    )


def game(
    *deals: Hand | Penalty,
    convention: str = "modern",
    ending: Ending = Ending.IN_PROGRESS,
    target: int = 3,
    **options: object,
) -> PriffeProtocol:
    return PriffeProtocol(
        players=PLAYERS,
        target=target,
        sittings=default_sittings(0),
        deals=tuple(deals),
        convention=convention,
        options=tuple(sorted(options.items())),  # type: ignore[arg-type]
        ending=ending,
    )
