"""Property tests of the Balkan scoring identities (variants.md §2) on random legal games."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.balkan.check import check
from scoring.balkan.generate import random_protocol
from scoring.balkan.protocol import Penalty
from scoring.balkan.score import pairwise_results, score

OPTION_SETS = (
    (),
    (("end_cap", False),),
    (("defender_quota", "each"),),
    (("kontra_soups", "own"), ("kontra_limit", 2)),
    (("refa_count", "per_player"), ("refa_limit", 2)),
    (("preferans", True), ("bettel_kontra", "each")),
    (("plain_two", "refa_or_score"),),
    (("plain_two", "thrown_in"), ("kontra_limit", 1)),
)

games = st.builds(
    lambda seed, convention, options, bula: random_protocol(
        random.Random(seed), convention=convention, bula=bula, options=options),
    st.integers(0, 2**32 - 1),
    st.sampled_from(("croatian", "serbian", "slovenian")),
    st.sampled_from(OPTION_SETS),
    st.sampled_from((30, 30, 50, 60)),
)


@settings(max_examples=60, deadline=None)
@given(games)
def test_columns_move_only_by_the_rules(protocol):
    # variants.md §2: (+v or −v) − v × failed defenders; penalties by their column points
    s = score(protocol)
    before = -3 * protocol.bula
    for d, deal in zip(s.deals, protocol.deals, strict=True):
        if isinstance(deal, Penalty):
            expected = -deal.column
        elif d.made is None:
            expected = 0
        else:
            expected = (d.capped_value if d.made else -d.value) - d.value * len(d.failed)
        assert sum(d.columns) - before == expected
        before = sum(d.columns)


@settings(max_examples=60, deadline=None)
@given(games)
def test_soups_never_fall_and_settlement_identities(protocol):
    s = score(protocol)
    assert all(x >= 0 for d in s.deals for row in d.soup_delta for x in row)
    assert sum(s.settlement) == 10 * sum(s.columns)  # variants.md §2
    if s.ended and s.convention.end_cap:
        assert s.zero_sum and sum(s.columns) == 0
        r = pairwise_results(protocol)
        assert tuple(sum(row) for row in r) == s.settlement
    assert s.ended == (str(protocol.ending) == "closed")


@settings(max_examples=60, deadline=None)
@given(games)
def test_checker_clean_on_generator_output(protocol):
    report = check(protocol)
    assert report.ok, [str(f) for f in report.errors]


def test_generator_covers_every_convention_and_deal_kind():
    outcomes = set()
    for convention, options in (("croatian", ()), ("serbian", (("preferans", True),)),
                                ("slovenian", ())):
        for seed in range(6):
            p = random_protocol(random.Random(seed), convention=convention, options=options)
            assert p.convention == convention and check(p).ok
            s = score(p)
            outcomes |= {(d.kind, d.outcome) for d in s.deals}
            outcomes |= {("contract", d.contract, d.game) for d in s.deals if d.contract}
            outcomes |= {("kontra", d.kontra) for d in s.deals if d.kontra}
            outcomes |= {("auction",) for deal in p.deals if getattr(deal, "auction", None)}
    for kind in (("all-pass", "refa"), ("all-pass", "no-effect"), ("played", "made"),
                 ("played", "lost"), ("no-play", "made"), ("plain-two", "declarer-wins"),
                 ("plain-two", "thrown-in"), ("plain-two", "refa"), ("penalty", "penalty"),
                 ("contract", 6, False), ("contract", 7, True), ("contract", 8, False),
                 ("kontra", 1), ("kontra", 2), ("auction",)):
        assert kind in outcomes, kind


def test_time_limit_fallback():
    p = random_protocol(random.Random(5), bula=100, max_deals=10)
    assert str(p.ending) == "time-limit" and len(p.deals) == 10
    s = score(p)
    assert s.stopped_early and not s.zero_sum and check(p).ok
