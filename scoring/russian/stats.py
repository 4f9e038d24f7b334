"""Russian deal statistics for tie-breaks, computed from a scoring protocol (001 §4.1.3).

The Kodeks lets organisers add criteria after the whists: "наибольшее количество выигранных
распасовок или минимальное совокупное количество взяток на всех распасовках, наименьшее
количество ремизов или взяток на мизерах" (001 §4.1.3). Per seat we count:

``raspasy``         raspasy (распасы, 001 §3.7) the player played;
``raspasy_won``     raspasy on which he took the fewest tricks of the players (ties: each);
``raspasy_tricks``  tricks he took on raspasy;
``games``           contracts he declared (misère included);
``games_made``      contracts he made;
``remizes``         contracts for tricks he declared and failed (ремиз, 001 §4.2.1);
``miseres``         misères he declared;
``misere_tricks``   tricks he took on his misères (001 §3.6);
``penalties``       penalty entries against him.

With four players the dealer sits out (001 §3.2.10): his talon tricks on raspasy (001 §3.7.6.1)
are not his play, so he is left out of that deal's raspasy counters.

>>> from rules.contracts import Contract, MISERE
>>> from scoring.russian.protocol import Call, Game, Protocol, Raspasy
>>> p = Protocol(players=("A", "B", "C"), target=10, deals=(
...     Raspasy((1, 3, 6)), Game(1, Contract.from_str("7♥"), (Call.WHIST, Call.PASS), 5),
...     Game(2, MISERE, (), 2)))
>>> [s["raspasy_won"] for s in deal_stats(p)], [s["remizes"] for s in deal_stats(p)]
([1, 0, 0], [0, 1, 0])
>>> deal_stats(p)[2]["misere_tricks"], deal_stats(p)[0]["raspasy_tricks"]
(2, 1)
"""

from __future__ import annotations

from fractions import Fraction

from rules.contracts import MISERE

from .protocol import Game, Penalty, Protocol, Raspasy
from .pulka import score

__all__ = ["STAT_KEYS", "deal_stats", "pairwise_results"]

STAT_KEYS = (
    "raspasy",
    "raspasy_won",
    "raspasy_tricks",
    "games",
    "games_made",
    "remizes",
    "miseres",
    "misere_tricks",
    "penalties",
)


def deal_stats(protocol: Protocol) -> tuple[dict[str, int], ...]:
    """Per seat, the deal counters above."""
    n = protocol.size
    stats = [dict.fromkeys(STAT_KEYS, 0) for _ in range(n)]
    dealer = protocol.first_dealer % n
    for deal in protocol.deals:
        if isinstance(deal, Penalty):
            if 0 <= deal.player < n:
                stats[deal.player]["penalties"] += 1
            continue
        if isinstance(deal, Raspasy):
            counted = [
                (seat, count)
                for seat, count in enumerate(deal.tricks)
                if count is not None and not (n == 4 and seat == dealer)
            ]
            if counted:
                fewest = min(t for _, t in counted)
                for seat, tricks in counted:
                    stats[seat]["raspasy"] += 1
                    stats[seat]["raspasy_tricks"] += tricks
                    if tricks == fewest:
                        stats[seat]["raspasy_won"] += 1
        elif isinstance(deal, Game) and 0 <= deal.declarer < n:
            own = stats[deal.declarer]
            own["games"] += 1
            taken = deal.declarer_tricks
            if deal.contract == MISERE:
                own["miseres"] += 1
                if taken is not None:
                    own["misere_tricks"] += taken
                    own["games_made"] += taken == 0
            elif taken is None or taken >= deal.contract.level:
                own["games_made"] += 1  # made, or not played because nobody whisted (§3.5.3)
            else:
                own["remizes"] += 1
        dealer = (dealer + 1) % n
    return tuple(stats)


def pairwise_results(protocol: Protocol) -> tuple[tuple[Fraction, ...], ...]:
    """``result[p][q]``: what p won from q in whists (001 §4.2.14 variant 1, exact).

    The whists each wrote on the other, netted, plus the gora difference × 10 / n. Summed over
    q it is p's exact settlement; ``result[p][q] == -result[q][p]``.

    >>> from rules.contracts import Contract
    >>> from scoring.russian.protocol import Call, Game, Protocol
    >>> p = Protocol(players=("A", "B", "C"), target=2, ending="agreement",
    ...              deals=(Game(1, Contract.from_str("6♠"), (Call.WHIST, Call.PASS), 5),))
    >>> r = pairwise_results(p)
    >>> sum(r[0]) + sum(r[1]) + sum(r[2]), r[0][1] == -r[1][0]
    (Fraction(0, 1), True)
    """
    row = score(protocol).final_row()
    n = len(row)
    return tuple(
        tuple(
            Fraction(0)
            if p == q
            else Fraction(row[p].whists[q] - row[q].whists[p])
            + Fraction(10 * (row[q].gora - row[p].gora), n)
            for q in range(n)
        )
        for p in range(n)
    )
