"""Dealing order (001 §3.2): who deals, who holds cards, who whists first.

Seats are 0-based indices in seating order; play goes clockwise, so the player on a seat's
left is ``(seat + 1) % n`` (001 §3.2.2: "к партнёру слева"). The deal passes to the left after
every deal, whatever was played (§3.2.2); with four players the dealer gets no cards and "sits
on the talon" (§3.2.10); in Classic the dealer may repeat after raspasy (non-sliding raspasy,
§3.7.7).

>>> [dealer_of_deal(k, 2, 3) for k in range(4)], active_seats(2, 4), whisting_order(3, 2, 4)
([2, 0, 1, 2], (3, 0, 1), (0, 1))
"""

from __future__ import annotations

__all__ = ["active_seats", "dealer_of_deal", "first_hand", "next_dealer", "whisting_order"]


def _check_table(n: int) -> None:
    if n < 3:
        raise ValueError(f"a table has 3 or more players, not {n!r} (001 §1.2.1)")


def next_dealer(dealer: int, players: int, *, raspasy: bool = False, sliding: bool = True) -> int:
    """The dealer of the next deal.

    The deal passes to the left after every deal (001 §3.2.2); only Classic's non-sliding
    raspasy keeps the same dealer after a raspasy (001 §3.7.7).

    :raises ValueError: on a seat outside the table.

    >>> next_dealer(2, 3)
    0
    >>> next_dealer(1, 4, raspasy=True, sliding=False)
    1
    """
    _check_table(players)
    if not 0 <= dealer < players:
        raise ValueError(f"dealer seat {dealer!r} is not at a table of {players}")
    if raspasy and not sliding:
        return dealer
    return (dealer + 1) % players


def dealer_of_deal(k: int, first_dealer: int, players: int) -> int:
    """Who deals deal ``k`` (0-based) with sliding raspasy (001 §3.2.2, §3.7.7).

    >>> [dealer_of_deal(k, 1, 3) for k in range(4)]
    [1, 2, 0, 1]
    """
    _check_table(players)
    if k < 0:
        raise ValueError(f"deal index {k!r} is negative")
    return (first_dealer + k) % players


def active_seats(dealer: int, players: int) -> tuple[int, int, int]:
    """The three seats that get cards, in bidding order (first, second, third hand).

    With three players the dealer plays and is the third hand; with four he sits out
    (001 §3.2.10); with five or more the dealer's two left neighbours and his right neighbour
    play (001 §3.2.10).

    >>> active_seats(0, 3)
    (1, 2, 0)
    >>> active_seats(3, 4)
    (0, 1, 2)
    >>> active_seats(0, 5)
    (1, 2, 4)
    """
    _check_table(players)
    if not 0 <= dealer < players:
        raise ValueError(f"dealer seat {dealer!r} is not at a table of {players}")
    if players == 3:
        return ((dealer + 1) % 3, (dealer + 2) % 3, dealer)
    if players == 4:
        return ((dealer + 1) % 4, (dealer + 2) % 4, (dealer + 3) % 4)
    return ((dealer + 1) % players, (dealer + 2) % players, (dealer - 1) % players)


def first_hand(dealer: int, players: int) -> int:
    """The player left of the dealer, who speaks first (001 §3.3.2)."""
    return active_seats(dealer, players)[0]


def whisting_order(declarer: int, dealer: int, players: int) -> tuple[int, int]:
    """The declarer's two opponents in the order they say whist or pass (001 §3.8.1).

    The first defender is the next active player clockwise from the declarer; the order
    wraps round the table and skips a dealer who sits out.

    :raises ValueError: if the declarer does not hold cards in this deal.

    >>> whisting_order(0, 2, 3)
    (1, 2)
    >>> whisting_order(2, 3, 4)
    (0, 1)
    """
    seats = active_seats(dealer, players)
    if declarer not in seats:
        raise ValueError(f"seat {declarer!r} does not play when seat {dealer!r} deals")
    clockwise = sorted(seats, key=lambda s: (s - declarer) % players)
    return (clockwise[1], clockwise[2])
