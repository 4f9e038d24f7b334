"""Random legal Balkan games played to the end: for property tests, the demo and benchmarks.

Every kind of deal appears (seed 002): all pass (a refa round or nothing), the plain two with and
without kontra, drops, invitations, kontra chains within ``kontra_limit``, bettel won and lost
(now and then with kontra), igra, sans, preferans when the option is on, rare penalties, and
auctions on about a third of the hands. The game ends when the declarer columns sum to zero
(with ``end_cap`` off: to ≥ 0); a game still open after ``max_deals`` stops at the time limit.
Deterministic per seed.

>>> import random
>>> from scoring.balkan.check import check
>>> p = random_protocol(random.Random(3), convention="serbian", bula=60)
>>> p == random_protocol(random.Random(3), convention="serbian", bula=60)
True
>>> check(p).ok, str(p.ending)
(True, 'closed')
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from rules.balkan import BETTEL, PREFERANS, BalkanConvention

from ..model import Ending, OptionValue
from .protocol import AllPass, BalkanDeal, BalkanProtocol, Defence, Hand, Penalty
from .score import Replay

__all__ = ["random_protocol", "PLAYER_NAMES"]

PLAYER_NAMES = ("Ana", "Branko", "Vesna")

PLAY, DROP, INVITE = Defence.PLAY, Defence.DROP, Defence.INVITE
_DEFENCES = (
    ((PLAY, PLAY), 36),
    ((PLAY, DROP), 20),
    ((DROP, PLAY), 14),
    ((INVITE, DROP), 8),
    ((DROP, INVITE), 6),
    ((DROP, DROP), 8),
)
_TEAM = {0: 5, 1: 10, 2: 25, 3: 30, 4: 21, 5: 9}  # defence tricks without kontra
_TEAM_KONTRA = {2: 10, 3: 25, 4: 30, 5: 35}
_WORD = {6: "betl", 7: "sans", 8: "preferans"}


def _weighted(rng: random.Random, table: dict[int, int]) -> int:
    return rng.choices(tuple(table), tuple(table.values()))[0]


def random_protocol(
    rng: random.Random,
    *,
    convention: str = "croatian",
    bula: int = 30,
    options: Sequence[tuple[str, OptionValue]] = (),
    max_deals: int = 400,
) -> BalkanProtocol:
    """A legal game in ``convention`` with ``options``, played to the end or to ``max_deals``.

    :raises rules.conventions.InvalidConventionError: an unknown convention or option.
    """
    protocol = BalkanProtocol(
        players=PLAYER_NAMES, bula=bula, convention=convention,
        options=tuple(sorted(options)), first_dealer=rng.randrange(3),
    )
    replay = Replay(protocol)
    conv = replay.conv
    deals: list[BalkanDeal] = []
    while not replay.ended and len(deals) < max_deals:
        roll = rng.random()
        deal: BalkanDeal
        if roll < 0.01:
            offender = rng.randrange(3)
            deal = Penalty(offender, rule="referee", column=2 * rng.randint(1, 5),
                           soups=((rng.choice([s for s in range(3) if s != offender]), 10),),
                           note="generated")
        elif roll < 0.09:
            deal = AllPass()
        else:
            deal = _hand(rng, conv, replay)
        deals.append(deal)
        replay.apply(deal)
    ending = Ending.CLOSED if replay.ended else Ending.TIME_LIMIT
    return replace(protocol, deals=tuple(deals), ending=ending)


def _hand(rng: random.Random, conv: BalkanConvention, replay: Replay) -> Hand:
    declarer = rng.randrange(3)
    contracts = {2: 22, 3: 18, 4: 16, 5: 14, BETTEL: 8, 7: 6}
    if conv.preferans:
        contracts[PREFERANS] = 3
    contract = _weighted(rng, contracts)
    game = rng.random() < 0.2
    has_refa = replay.unplayed_refas(declarer) > 0
    first, second = (declarer + 1) % 3, (declarer + 2) % 3
    if contract in (BETTEL, PREFERANS):
        defence = (PLAY, PLAY)
    else:
        defence = rng.choices([d for d, _ in _DEFENCES], [w for _, w in _DEFENCES])[0]
    kontra, kontra_by = 0, None
    voluntary = [s for s, d in zip((first, second), defence, strict=True) if d is not DROP]
    plain_two = contract == 2 and not game and not (has_refa and conv.plain_two_refa == "excluded")
    chance = {BETTEL: 0.03, PREFERANS: 0.0}.get(contract, 0.45 if plain_two else 0.12)
    if voluntary and rng.random() < chance:
        kontra_by = rng.choice(voluntary)
        kontra = 1
        while rng.random() < 0.2 and (not conv.kontra_limit or kontra < conv.kontra_limit):
            kontra += 1
    auction = _auction(rng, conv, replay.dealer, declarer, contract, game)
    hand = Hand(declarer, contract, game, defence, kontra, kontra_by, None, auction)
    if (plain_two and not kontra) or (defence == (DROP, DROP)):
        return hand  # no play (seed 002 "Kontra", "The Play")
    return replace(hand, tricks=_tricks(rng, hand))


def _tricks(rng: random.Random, h: Hand) -> tuple[int, ...]:
    first, second = h.defenders()
    tricks = [0, 0, 0]
    if h.contract == PREFERANS:  # a failed preferans is undefined (variants.md §9): never made up
        tricks[h.declarer] = 10
        return tuple(tricks)
    if h.contract == BETTEL:
        taken = 0 if rng.random() < 0.8 else rng.randint(1, 3)
        team = 10 - taken
        stop = taken and rng.random() < 0.3
        if stop:  # play stops at the declarer's first trick
            taken, team = 1, rng.randint(0, 9)
        tricks[h.declarer] = taken
        tricks[first] = rng.randint(0, team)
        tricks[second] = team - tricks[first]
        return tuple(tricks)
    team = _weighted(rng, _TEAM_KONTRA if h.kontra else _TEAM)
    declarer = 10 - team
    if team == 5 and rng.random() < 0.3:
        declarer = rng.randint(0, 4)  # play stops when the defence has five
    tricks[h.declarer] = declarer
    alone = not h.kontra and Defence.INVITE not in h.defence and Defence.DROP in h.defence
    if alone:
        tricks[first if h.defence[0] is not DROP else second] = team
    else:
        tricks[first] = rng.randint(0, team)
        tricks[second] = team - tricks[first]
    return tuple(tricks)


def _auction(
    rng: random.Random, conv: BalkanConvention, dealer: int, declarer: int, contract: int,
    game: bool,
) -> tuple[tuple[int, str], ...] | None:
    """An auction that the declarer wins with this contract (seed 002 "The Bidding")."""
    if rng.random() > 0.33:
        return None
    order = [(dealer + 1 + k) % 3 for k in range(3)]
    bids: list[tuple[int, str]] = []
    if game:
        word = _WORD.get(contract, str(contract))
        cur = 0
        for seat in order:
            if seat == declarer:
                if contract <= 5 and rng.random() < 0.5:
                    bids.append((seat, "igra"))
                else:
                    bids.append((seat, f"igra {word}"))
            elif declarer in (s for s, _ in bids):
                bids.append((seat, "pass"))
            elif cur < 3 and rng.random() < 0.4:
                cur = cur + 1 if cur else 2
                bids.append((seat, str(cur)))
            else:
                bids.append((seat, "pass"))
        if (declarer, "igra") in bids:
            bids.append((declarer, f"igra {word}"))
        return tuple(bids)
    top = min(contract, 8 if conv.preferans else 7)
    final = rng.randint(2, top)
    rival = rng.choice([s for s in order if s != declarer]) if rng.random() < 0.5 else None
    cap = {s: 0 for s in order}
    cap[declarer] = final
    if rival is not None:
        cap[rival] = final - 1
    pos = {s: k for k, s in enumerate(order)}
    passed: set[int] = set()
    numbers: set[int] = set()
    cur, holder, turn = 0, None, 0
    while (len(passed) < 2 or holder is None) and len(bids) < 60:
        seat = order[turn % 3]
        turn += 1
        if seat in passed:
            continue
        if holder is not None and seat in numbers and pos[seat] < pos[holder] and (
            cur <= cap[seat]
        ):
            bids.append((seat, "same"))
            holder = seat
        elif (cur + 1 if cur else 2) <= cap[seat] and holder != seat:
            cur = cur + 1 if cur else 2
            holder = seat
            numbers.add(seat)
            bids.append((seat, str(cur)))
        else:
            bids.append((seat, "pass"))
            passed.add(seat)
    return tuple(bids)
