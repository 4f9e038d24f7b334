"""One deal's value for each seat, in the family's unit, through the family's registry entry.

A duplicate board is played as a game of one deal: the family's protocol with the board's
players in its seats, the board's dealer first to deal, and the one deal the table played.
Its value for each seat is what that deal alone changes in the family's final calculation —
the protocol's settlement after the deal less its settlement before any deal — so no running
state of a longer game enters (for Russian: the deal's whists, with its pulya and gora turned
into whists by the settlement, 001 §4.2.14; for the Balkan games the deal's points against the
bula, seed 002 "Ending the Game"; for the pot games the deal's chips). The family's own check
gives the deal's findings. Nothing here names a family: it asks the
:class:`~scoring.variant_base.Variant` it is given.

>>> from scoring.variants import VARIANTS
>>> v = VARIANTS["russian"]
>>> p = board_protocol(v, players=("Anna", "Boris", "Vera"), dealer=3, convention="sochi", target=10)
>>> p.deals, p.first_dealer
((), 2)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from scoring.notation_lexer import NotationError
from scoring.variant_base import Variant

__all__ = ["board_protocol", "deal_values", "read_board_deal", "DealError"]


class DealError(ValueError):
    """A board's result that is not one deal of the board's table."""


def board_protocol(
    variant: Variant,
    *,
    players: tuple[str, ...],
    dealer: int,
    convention: str,
    target: int,
    options: tuple[tuple[str, Any], ...] = (),
    deal: Any = None,
) -> Any:
    """The family's protocol for one board: ``players`` in the board's seats 1–3, the board's
    ``dealer`` (a seat, 1–3) dealing, and ``deal`` (the family's deal object) if given."""
    if not 1 <= dealer <= len(players):
        raise DealError(f"dealer: seat {dealer} is not at a table of {len(players)}")
    blank = variant.blank(
        players=players, target=target, convention=convention, options=options, first_dealer=dealer - 1
    )
    return blank if deal is None else blank.with_deals((deal,))


def deal_values(variant: Variant, protocol: Any) -> tuple[Fraction, ...]:
    """Each seat's value of the protocol's one deal (see the module's text).

    :raises DealError: when the protocol does not hold exactly one deal.
    :raises ValueError: the family's own error for a deal it cannot score.
    """
    if len(protocol.deals) != 1:
        raise DealError(f"deals: a board's result is one deal, not {len(protocol.deals)}")
    after = variant.settlement(protocol)
    before = variant.settlement(protocol.with_deals(()))
    return tuple(a - b for a, b in zip(after, before, strict=True))


def read_board_deal(variant: Variant, header: Any, text: str) -> Any:
    """``header`` (:func:`board_protocol` without a deal) with the one deal ``text`` — a deal
    line in the family's text notation, without its number — read by the family's own reader.

    :raises DealError: for no deal or more than one.
    :raises ValueError: the family's :class:`~scoring.notation_lexer.NotationError`, its
        ``line`` and ``column`` counted in ``text`` alone.
    """
    line = " ".join(text.split())
    if not line:
        raise DealError("deal: a board's result needs its deal")
    head = variant.format_text(header).split("\n\n", 1)[0]
    try:
        protocol, _sheet = variant.parse_text(f"{head}\n\n1. {line}\n")
    except NotationError as exc:
        exc.line = 1
        exc.column = max(1, exc.column - len("1. "))
        raise
    if len(protocol.deals) != 1:
        raise DealError(f"deals: a board's result is one deal, not {len(protocol.deals)}")
    return protocol
