"""Random legal protocols, played to the end: for the demo, benchmarks and property tests.

Deterministic per seed: the same ``random.Random(seed)`` gives the same protocol.

>>> import random
>>> p = random_protocol(random.Random(7), convention="sochi", players=3, target=10)
>>> p == random_protocol(random.Random(7), convention="sochi", players=3, target=10)
True
>>> from scoring.russian.check import check
>>> check(p).ok, str(p.ending)
(True, 'closed')
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from rules.contracts import LADDER, MISERE, Contract
from rules.conventions import Convention, find_convention

from .protocol import Call, Deal, Ending, Game, OptionValue, Penalty, Protocol, Raspasy
from .raspasy import below_exit_level, raspasy_step, write_raspasy
from .writing import Table, write_game, write_penalty

__all__ = ["random_protocol", "PLAYER_NAMES"]

PLAYER_NAMES = ("Anna", "Boris", "Vera", "Gleb")

_TRICK_CONTRACTS = tuple(c for c in LADDER if not c.is_misere)
# Lower contracts are far more common at a real table.
_LEVEL_WEIGHTS = {6: 40, 7: 30, 8: 15, 9: 8, 10: 3}
_CALLS = (
    ((Call.WHIST, Call.PASS), 30),
    ((Call.PASS, Call.WHIST), 20),
    ((Call.WHIST, Call.WHIST), 20),
    ((Call.PASS, Call.PASS), 15),
    ((Call.PASS, Call.HALF), 10),
    ((Call.WHIST, Call.HALF_RETURNED), 5),
)


def _contract(rng: random.Random, conv: Convention, after_raspasy: bool) -> Contract:
    while True:
        level = rng.choices(tuple(_LEVEL_WEIGHTS), tuple(_LEVEL_WEIGHTS.values()))[0]
        contract = rng.choice([c for c in _TRICK_CONTRACTS if c.level == level])
        if not (after_raspasy and below_exit_level(conv, contract)):
            return contract


def _game(
    rng: random.Random, conv: Convention, n: int, dealer: int, after_raspasy: bool, multiplier: int
) -> Game:
    seats = [p for p in range(n) if n == 3 or p != dealer]
    declarer = rng.choice(seats)
    if rng.random() < 0.08 and not (after_raspasy and below_exit_level(conv, MISERE)):
        tricks = 0 if rng.random() < 0.6 else rng.randint(1, 4)
        return Game(
            declarer, MISERE, (), tricks, None, rng.random() < 0.5, None, multiplier, 0, dealer
        )
    contract = _contract(rng, conv, after_raspasy)
    options = [
        (c, w)
        for c, w in _CALLS
        if contract.level <= 7 or Call.HALF not in c and Call.HALF_RETURNED not in c
    ]
    if conv.whist_style == "gentleman" and contract.level <= 7:  # 001 §3.8.14
        options += [((Call.HALF, Call.PASS), 5), ((Call.HALF_RETURNED, Call.WHIST), 3)]
    calls = rng.choices([c for c, _ in options], [w for _, w in options])[0]
    if Call.HALF in calls or calls == (Call.PASS, Call.PASS):
        return Game(declarer, contract, calls, None, None, False, None, multiplier, 0, dealer)
    level = contract.level
    tricks = max(0, min(10, level + rng.choice((-2, -1, -1, 0, 0, 0, 0, 0, 1, 1, 2))))
    defence = 10 - tricks
    first = rng.randint(0, defence)
    split = (first, defence - first)
    two = calls == (Call.WHIST, Call.WHIST)
    need_split = two or conv.single_whister_tricks == "own" or rng.random() < 0.5
    premium = rng.randint(1, 2) if conv.talon_premiums and n == 4 and rng.random() < 0.2 else 0
    return Game(
        declarer,
        contract,
        calls,
        tricks,
        split if need_split else None,
        not two and rng.random() < 0.5,
        None,
        multiplier,
        premium,
        dealer,
    )


def _raspasy(rng: random.Random, conv: Convention, n: int, dealer: int, multiplier: int) -> Raspasy:
    talon = n == 4 and conv.raspasy_talon_to_dealer
    counts: list[int | None] = [0] * n
    if n == 4 and not talon:
        counts[dealer] = None
    left = 10
    if talon:
        counts[dealer] = rng.choice((0, 0, 1, 1, 2))
        left -= counts[dealer] or 0
    players = [p for p in range(n) if n == 3 or p != dealer]
    for _ in range(left):
        p = rng.choice(players)
        counts[p] = (counts[p] or 0) + 1
    return Raspasy(tuple(counts), multiplier, dealer)


def random_protocol(
    rng: random.Random,
    *,
    convention: str = "sochi",
    players: int = 3,
    target: int = 10,
    options: Sequence[tuple[str, OptionValue]] = (),
    max_deals: int = 400,
) -> Protocol:
    """A legal protocol played until the pulka closes (001 §4.2.14).

    ``options`` override the convention's parameters. If the pulka has not closed
    after ``max_deals`` deals, the protocol ends by the time limit (001 §4.2.3).
    """
    if players not in (3, 4):
        raise ValueError(f"players: {players!r}, need 3 or 4")
    conv = find_convention(convention)
    if options:
        conv = conv.with_options(**dict(options))
    table = Table(conv, players, target)
    first_dealer = rng.randrange(players)
    dealer = first_dealer
    streak = 0
    deals: list[Deal] = []
    ending = Ending.TIME_LIMIT
    while len(deals) < max_deals:
        multiplier = rng.choice((1, 1, 1, 2, 4)) if conv.multipliers else 1
        roll = rng.random()
        deal: Deal
        if roll < 0.02:
            deal = Penalty(rng.randrange(players), "3.2.21", gora=5, note="looked at the talon")
            write_penalty(table, deal)
            deals.append(deal)
            continue
        if roll < 0.2:
            deal = _raspasy(rng, conv, players, dealer, multiplier)
            ok = write_raspasy(table, deal, dealer, raspasy_step(conv, streak))
            streak += 1
        else:
            deal = _game(rng, conv, players, dealer, streak > 0, multiplier)
            ok = write_game(table, deal, dealer)
            if (
                conv.raspasy_exit == "any_game"
                or Call.WHIST in deal.calls
                or (Call.HALF in deal.calls)
            ):
                streak = 0
        assert ok, (deal, table.findings)
        deals.append(deal)
        if conv.raspasy_sliding or type(deal) is not Raspasy:  # 001 §3.2.2, §3.7.7
            dealer = (dealer + 1) % players
        if table.closed():
            ending = Ending.CLOSED
            break
    return Protocol(
        players=PLAYER_NAMES[:players],
        target=target,
        deals=tuple(deals),
        convention=conv.key,
        options=tuple(sorted(options)),
        first_dealer=first_dealer,
        ending=ending,
    )
