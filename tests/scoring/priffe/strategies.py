"""Hypothesis strategies for Priffe: protocols of any shape the formats must carry (legal or
not), and legal games from the generator."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from rules.priffe import Contract
from scoring.priffe.generate import random_protocol
from scoring.priffe.protocol import (
    Ending,
    Hand,
    Honours,
    HonoursPattern,
    Penalty,
    PriffeProtocol,
    PriffeSheet,
    SheetEntry,
)
from tests.scoring.strategies import free_text, names

_BIDS = ("pass", "pref", "noll", "hjärter", "ruter", "klöver", "spader")
seatings = st.permutations(range(4)).map(tuple)
pairs = st.tuples(st.integers(0, 13), st.integers(0, 13))


@st.composite
def protocols(draw: st.DrawFn) -> PriffeProtocol:
    players = draw(st.lists(names, min_size=4, max_size=4,
                            unique_by=lambda n: n.strip().lower()))  # fmt: skip
    sittings = tuple(draw(st.lists(seatings, min_size=1, max_size=4)))
    n = len(sittings)
    # The text names the declarer by the contract's place: tvångsnoll has none, a bid contract
    # has one (a record without is expressible in JSON only, and the checker's DECLARER finding).
    contract_declarer = st.one_of(
        st.tuples(st.just(Contract.TVANGSNOLL), st.none()),
        st.tuples(st.sampled_from([c for c in Contract if c is not Contract.TVANGSNOLL]),
                  st.integers(0, 3)),
    )  # fmt: skip
    hand = contract_declarer.flatmap(lambda cd: st.builds(
        Hand,
        sits=st.integers(0, n - 1),
        contract=st.just(cd[0]),
        declarer=st.just(cd[1]),
        tricks=pairs,
        honours=st.lists(st.builds(Honours, st.integers(0, 3), st.sampled_from(list(HonoursPattern))),
                         max_size=2).map(tuple),
        bids=st.one_of(st.none(), st.lists(st.sampled_from(_BIDS), max_size=5).map(tuple)),
        dealer=st.one_of(st.none(), st.integers(0, 3)),
    ))  # fmt: skip
    penalty = st.builds(Penalty, sits=st.integers(0, n - 1), player=st.integers(0, 3),
                        points=st.integers(-100, 500), rule=free_text, note=free_text)  # fmt: skip
    deals = tuple(draw(st.lists(st.one_of(hand, hand, penalty), max_size=12)))
    options = draw(st.sampled_from([(), (("play", "deals"),), (("penalty_points", "above"),),
                                    (("money_divisor", 10), ("straffslam", True))]))  # fmt: skip
    return PriffeProtocol(
        players=tuple(players),
        target=draw(st.integers(1, 200)),
        sittings=sittings,
        deals=deals,
        convention=draw(st.sampled_from(["modern", "old"])),
        options=options,
        ending=draw(st.sampled_from(list(Ending))),
    )


entries = st.builds(SheetEntry, pairs, pairs, st.booleans())
sheets = st.builds(
    PriffeSheet,
    entries=st.lists(st.one_of(st.none(), entries), max_size=6).map(tuple),
    sits=st.lists(st.one_of(st.none(), pairs), max_size=3).map(tuple),
    result=st.one_of(st.none(), st.tuples(*[st.integers(-5, 900)] * 4)),
)

CONVENTIONS = st.sampled_from([
    ("modern", ()), ("old", ()), ("modern", (("penalty_points", "above"),)),
    ("modern", (("play", "deals"),)), ("old", (("play", "total"),)),
    ("old", (("straffslam", True),)), ("modern", (("money_divisor", 10),)),
])  # fmt: skip


@st.composite
def legal_games(draw: st.DrawFn) -> PriffeProtocol:
    convention, options = draw(CONVENTIONS)
    seed = draw(st.integers(0, 2**32))
    return random_protocol(random.Random(seed), convention=convention, options=options)
