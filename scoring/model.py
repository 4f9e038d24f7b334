"""What every family's input model shares: how a game ended, a spoken bid, an option's value.

Each family's protocol (:mod:`scoring.russian.protocol`, :mod:`scoring.balkan.protocol`,
:mod:`scoring.pot.protocol`, :mod:`scoring.priffe.protocol`) uses these types; they import
nothing of Pulka's.
"""

from __future__ import annotations

import enum

__all__ = ["Ending", "Bid", "OptionValue", "PENALTY_MAX", "repeated_name"]


class Ending(enum.StrEnum):
    """How the pulka ended."""

    CLOSED = "closed"  # every pulya reached the target (001 §4.2.14; Leningrad: the sum, §4.2.3.3)
    AGREEMENT = "agreement"  # stopped early by everybody's agreement (001 §4.2.3)
    TIME_LIMIT = "time-limit"  # stopped by the tournament's time limit (001 §4.2.3, §4.2.15)
    IN_PROGRESS = "in-progress"  # still being played


#: One spoken bid: (seat, text), e.g. ``(1, "7♦")`` or ``(2, "pass")``.
Bid = tuple[int, str]

OptionValue = str | int | bool | None

#: The most one amount of a referee's penalty entry may be, in every family: points in a
#: column or a soup (Balkan), gora, pulya or whists (Russian), points (Priffe), chips to the pot
#: or to a player (the pot games). As large as the largest bula a Balkan protocol may start
#: from, far beyond any penalty the rule texts give (a Kodeks penalty is a few points, a game's
#: cost or the overstatement of a false entry); past it an entry is a typing slip, refused with
#: a finding naming the field (issue #37: a Priffe penalty of 10^40 points was taken silently).
PENALTY_MAX = 1_000_000


def repeated_name(players: tuple[str, ...] | list[str]) -> tuple[int, int] | None:
    """``(first, seat)`` when the player at ``seat`` has the name of an earlier seat (ignoring
    case and the spaces around it), or an empty name (``first == seat``); else ``None``. Every
    family's sheet has a column per player, and its findings, rulings and standings name him.

    >>> repeated_name(("Anna", "Boris", " anna")), repeated_name(("A", "B", "C"))
    ((0, 2), None)
    """
    seen: dict[str, int] = {}
    for seat, name in enumerate(players):
        key = name.strip().casefold() if isinstance(name, str) else repr(name)
        if not key:
            return seat, seat
        if key in seen:
            return seen[key], seat
        seen[key] = seat
    return None
