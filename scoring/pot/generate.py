"""Random legal pot games, for property tests, the demo and benchmarks.

Every generated protocol checks clean (:mod:`scoring.pot.check`): the dealer rotates, tvång is
respected, defenders play or stay home as the contract allows, tricks sum to ten, negotiated
splits make nobody fall, efterköp follows a 1–4 with rising premium levels, and recorded
auctions obey the bidding constraints (variants.md §5.3, §6).

>>> import random
>>> from scoring.pot.check import check
>>> p = random_protocol(random.Random(7), convention="german")
>>> p.size, check(p).ok
(3, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from rules.pot import PotContract, PotConvention, find_convention

from .protocol import (
    Decision,
    Hand,
    Penalty,
    PotDeal,
    PotProtocol,
    Rundpass,
    active_seats,
    defenders_of,
)
from .score import score

__all__ = ["random_protocol"]

_NAMES = ("Anna", "Bertil", "Cecilia", "David")


def _split(rng: random.Random, total: int, parts: int) -> list[int]:
    cuts = sorted(rng.randint(0, total) for _ in range(parts - 1))
    return [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]


def _auction(order: tuple[int, ...], declarer: int, bid: str) -> tuple[tuple[int, str], ...]:
    """Everybody before the declarer passes, he bids, the rest pass."""
    out: list[tuple[int, str]] = []
    for seat in order:
        out.append((seat, bid if seat == declarer else "pass"))
    return tuple(out)


def _premium(rng: random.Random, conv: PotConvention, low: int = 5) -> PotContract | None:
    top = {"all": 8, "five_six": 6, "hearts": 4}[conv.premiums]
    if top < low:
        return None
    return PotContract(rng.randint(low, top), False)


def _viennese(rng: random.Random, conv: PotConvention, size: int, dealer: int, pot: int) -> PotDeal:
    order = active_seats(size, dealer)
    talk = rng.random() < 0.6
    if rng.random() < 0.1:
        tricks = [0] * size
        for seat, k in zip(order, _split(rng, 10, 3), strict=True):
            tricks[seat] = k
        return Rundpass(tuple(tricks), tuple((s, "pass") for s in order) if talk else None)
    forced = pot == conv.base_stake
    efterkop: tuple[tuple[int, PotContract], ...] = ()
    roll = rng.random()
    declarer = rng.choice(order)
    if roll < 0.12 and not forced and conv.premiums != "hearts":  # 1–4, then efterköp
        declarer, left = order[0], order[1]
        contract = PotContract(rng.randint(2, 4))
        auction: tuple[tuple[int, str], ...] = ((order[0], "1"), (order[1], "2"), (order[2], "pass"), (order[0], "2"),
                   (order[1], "pass"))  # fmt: skip
        first = _premium(rng, conv)
        assert first is not None
        chain = [(left, first)]
        if first.level < {"all": 8, "five_six": 6}[conv.premiums] and rng.random() < 0.5:
            chain.append((declarer, PotContract(rng.randint(first.level + 1,
                                                            8 if conv.premiums == "all" else 6))))
        efterkop = tuple(chain)
        talk = True
    elif roll < 0.55:
        contract = PotContract(rng.randint(1, 4))
        auction = _auction(order, declarer, str(rng.randint(1, contract.level)))
    elif roll < 0.75:
        contract = PotContract(rng.randint(1, 3), True)
        auction = _auction(order, declarer, "spel")
    else:
        premium = PotContract(4, True) if rng.random() < 0.4 else _premium(rng, conv)
        contract = premium if premium is not None else PotContract(4, True)
        if contract.level >= 5 and rng.random() < 0.5:
            contract = PotContract(contract.level, True)
        auction = _auction(order, declarer, contract.code)
    played = efterkop[-1][1] if efterkop else contract
    player = efterkop[-1][0] if efterkop else declarer
    defs = defenders_of(size, dealer, player)
    tricks = [0] * size
    negotiated = False
    defence: tuple[Decision, ...] = ()
    if played.asks_defenders:
        if forced:
            defence = (Decision.FORCED, Decision.FORCED) if rng.random() < 0.5 else (Decision.GO,) * 2
        else:
            defence = rng.choice([
                (Decision.GO, Decision.GO), (Decision.GO, Decision.HOME),
                (Decision.HOME, Decision.GO), (Decision.HOME, Decision.HOME),
                (Decision.INVITE, Decision.INVITED), (Decision.INVITED, Decision.INVITE),
            ])  # fmt: skip
        playing = [d for d, dec in zip(defs, defence, strict=True) if dec.plays]
        if not playing:
            return Hand(declarer, contract, defence, None, efterkop, False,
                        auction if talk else None)  # fmt: skip
        if len(playing) == 1 and conv.negotiation and rng.random() < 0.3:
            mine = rng.randint(6, 8)
            tricks[player], tricks[playing[0]] = mine, 10 - mine
            negotiated = True
        else:
            for seat, k in zip((player, *playing), _split(rng, 10, 1 + len(playing)), strict=True):
                tricks[seat] = k
    else:
        low, high = played.target()
        mine = rng.choice([low, high, rng.randint(0, 10)])
        tricks[player] = mine
        a, b = _split(rng, 10 - mine, 2)
        tricks[defs[0]], tricks[defs[1]] = a, b
    return Hand(declarer, contract, defence, tuple(tricks), efterkop, negotiated,
                auction if talk else None)  # fmt: skip


def _german(rng: random.Random, conv: PotConvention, size: int, dealer: int) -> PotDeal:
    order = active_seats(size, dealer)
    talk = rng.random() < 0.6
    if rng.random() < 0.05:
        return Rundpass(None, tuple((s, "pass") for s in order) if talk else None)
    declarer = rng.choice(order)
    hand = rng.random() < 0.25
    contract = PotContract(rng.randint(1, 4), hand)
    if hand:
        bid = contract.code
    elif declarer == order[0]:
        bid = "1"
    else:
        bid = str(rng.randint(1, contract.level))
    defence = rng.choice([(Decision.GO, Decision.GO), (Decision.GO, Decision.HOME),
                          (Decision.HOME, Decision.GO), (Decision.HOME, Decision.HOME)])  # fmt: skip
    defs = defenders_of(size, dealer, declarer)
    playing = [d for d, dec in zip(defs, defence, strict=True) if dec.plays]
    tricks: tuple[int, ...] | None = None
    if playing:
        counts = [0] * size
        for seat, k in zip((declarer, *playing), _split(rng, 10, 1 + len(playing)), strict=True):
            counts[seat] = k
        tricks = tuple(counts)
    return Hand(declarer, contract, defence, tricks, auction=_auction(order, declarer, bid)
                if talk else None)  # fmt: skip


def random_protocol(
    rng: random.Random,
    *,
    convention: str = "viennese",
    players: int = 3,
    deals: int | None = None,
    options: Sequence[tuple[str, Any]] = (),
) -> PotProtocol:
    """A random legal game of ``deals`` deals (random 1–12 when ``None``)."""
    conv = find_convention(convention).with_options(**dict(options))
    if conv.game == "german" and players != 3:
        raise ValueError(f"players: {players!r}; German Préférence has three (003 \"Spieler: 3\")")
    count = rng.randint(1, 12) if deals is None else deals
    first = rng.randrange(players)
    protocol = PotProtocol(players=_NAMES[:players], convention=conv.key,
                           options=tuple(sorted(options)), first_dealer=first)  # fmt: skip
    out: list[PotDeal] = []
    dealer = first
    for _ in range(count):
        if rng.random() < 0.04:
            out.append(Penalty(rng.randrange(players), "referee", to_pot=10 * rng.randint(1, 3)))
            continue
        pot = score(protocol.with_deals(tuple(out))).pot + conv.ante_units
        if conv.game == "viennese":
            deal = _viennese(rng, conv, players, dealer, pot)
        else:
            deal = _german(rng, conv, players, dealer)
        if rng.random() < 0.3:
            deal = _with_dealer(deal, dealer)
        out.append(deal)
        dealer = (dealer + 1) % players
    return protocol.with_deals(tuple(out))


def _with_dealer(deal: PotDeal, dealer: int) -> PotDeal:
    return replace(deal, dealer=dealer)  # type: ignore[arg-type]
