"""Random legal Priffe games (seed 004), for tests, the demo and benchmarks.

A generated game is what a correct table would record: each sits has its own partnership (the
seatings of :func:`~scoring.priffe.protocol.default_sittings`, each started by a random one of
its players), the dealer passes clockwise, every auction is a legal round of four (information
bids only from the first two speakers in the modern game), the contract and declarer are the
auction's, tricks sum to 13, at most one hand holds honours, and the game stops when the agreed
sits are won (the simpler variant: after the agreed deals, or at the agreed total). Some games
are cut short and marked ``time-limit`` or ``in-progress``.

>>> import random
>>> from scoring.priffe.check import check
>>> p = random_protocol(random.Random(4), convention="old")
>>> check(p, sheet_for(p)).ok, len(p.sittings)
(True, 3)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from rules.priffe import INFORMATION_BIDS, PASS, Contract, auction_outcome, find_convention

from .protocol import (
    Ending,
    Hand,
    Honours,
    HonoursPattern,
    Penalty,
    PriffeDeal,
    PriffeProtocol,
    PriffeSheet,
    Seating,
    SheetEntry,
    default_sittings,
)
from .score import Scoring, score

__all__ = ["PLAYERS", "random_protocol", "random_hand", "sheet_for"]

PLAYERS = ("Anna", "Bertil", "Cecilia", "David")


def _auction(rng: random.Random, ladder: tuple[Contract, ...], information: bool) -> list[str]:
    bids: list[str] = []
    last = len(ladder)  # index in the ladder (high → low) of the bid to beat
    for speaker in range(4):
        higher = [c for c in ladder[:last] if not (information and c in INFORMATION_BIDS
                                                   and speaker >= 2)]  # fmt: skip
        if not higher or rng.random() < 0.5:
            bids.append(PASS)
            continue
        bid = rng.choice(higher)
        bids.append(bid.value)
        last = ladder.index(bid)
    return bids


def _tricks(rng: random.Random, mean: float) -> int:
    return max(0, min(13, round(rng.gauss(mean, 2.5))))


def random_hand(rng: random.Random, protocol: PriffeProtocol, sits: int, dealer: int) -> Hand:
    """A legal deal of sits ``sits`` dealt by ``dealer``."""
    conv = find_convention(protocol.convention).with_options(**dict(protocol.options))
    seating = protocol.sittings[sits]
    bids = tuple(_auction(rng, conv.ladder, conv.information_bids))
    contract, speaker = auction_outcome(bids, conv)
    start = seating.index(dealer) + 1
    declarer = None if speaker is None else seating[(start + speaker) % 4]
    if declarer is None:
        side, taken = 0, _tricks(rng, 6.5)
    else:
        side = seating.index(declarer) % 2
        taken = _tricks(rng, 4.5 if contract.is_noll else 8)
    tricks = (taken, 13 - taken) if side == 0 else (13 - taken, taken)
    honours: tuple[Honours, ...] = ()
    if rng.random() < 0.3:
        honours = (Honours(rng.randrange(4), rng.choice(list(HonoursPattern))),)
    return Hand(
        sits=sits,
        contract=contract,
        declarer=declarer,
        tricks=tricks,
        honours=honours,
        bids=bids if rng.random() < 0.8 else None,
        dealer=dealer if rng.random() < 0.5 else None,
    )


def random_protocol(
    rng: random.Random,
    *,
    convention: str = "modern",
    target: int | None = None,
    options: Sequence[tuple[str, Any]] = (),
    cut: bool | None = None,
) -> PriffeProtocol:
    """A random legal game; ``cut`` stops it early (default: one game in five)."""
    conv = find_convention(convention).with_options(**dict(options))
    if target is None:
        target = {"sits": 3, "deals": rng.randint(4, 16), "total": rng.choice((50, 100))}[conv.play]
    first = rng.randrange(4)
    plan = default_sittings(first)[: 1 if conv.simple else 3]
    sittings: list[Seating] = []
    for a, b, c, d in plan:
        k = rng.randrange(4)
        seats = (a, b, c, d)
        sittings.append((seats[k % 4], seats[(k + 1) % 4], seats[(k + 2) % 4], seats[(k + 3) % 4]))
    protocol = PriffeProtocol(
        players=PLAYERS,
        target=target,
        sittings=tuple(sittings),
        convention=convention,
        options=tuple(sorted(options)),
        ending=Ending.IN_PROGRESS,
    )
    deals: list[PriffeDeal] = []
    sits, count = 0, 0
    scoring = Scoring(protocol)  # deal by deal: linear in the deals, not a rescoring per deal
    cap = 2000 + (2 * target if conv.play == "deals" else 0)  # a guard, never reached
    for _ in range(cap):
        deal: PriffeDeal
        if rng.random() < 0.03:
            deal = Penalty(sits, rng.randrange(4), rng.choice((10, 20, 50)), "ruling")
        else:
            deal = random_hand(rng, protocol, sits, sittings[sits][count % 4])
            count += 1
        deals.append(deal)
        scoring.add(deal)
        if scoring.closed_at is not None:
            break
        if not conv.simple and scoring.sits_winner(sits) is not None:
            sits, count = sits + 1, 0
    protocol = protocol.with_deals(tuple(deals))
    if cut if cut is not None else rng.random() < 0.2:
        keep = rng.randrange(len(deals) + 1)
        ending = rng.choice((Ending.TIME_LIMIT, Ending.IN_PROGRESS, Ending.AGREEMENT))
        if keep < len(deals) or ending is not Ending.IN_PROGRESS:
            return PriffeProtocol(protocol.players, target, protocol.sittings,
                                  tuple(deals[:keep]), convention, protocol.options,
                                  ending)  # fmt: skip
    return PriffeProtocol(protocol.players, target, protocol.sittings, tuple(deals), convention,
                          protocol.options, Ending.CLOSED)  # fmt: skip


def sheet_for(protocol: PriffeProtocol) -> PriffeSheet:
    """The sheet a careful table writes: every entry, the sits totals and the players' totals."""
    scored = score(protocol)
    return PriffeSheet(
        entries=tuple(
            SheetEntry(d.below, d.above, d.game_won_by is not None) for d in scored.deals
        ),  # fmt: skip
        sits=tuple(s.totals for s in scored.sits),
        result=scored.player_totals,
    )
