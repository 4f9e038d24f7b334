"""Properties of the penalties catalogue over generated pulkas (pure, no database)."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.penalties import CATALOGUE, PenaltyError
from scoring.model import Ending
from scoring.russian.check import check
from scoring.russian.generate import random_protocol
from scoring.russian.penalties import penalty_entries
from scoring.russian.pulka import score


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    players=st.sampled_from([3, 4]),
    convention=st.sampled_from(["sochi", "leningrad", "rostov"]),
    code=st.sampled_from([p.code for p in CATALOGUE]),
    pick=st.integers(0, 10**6),
)
def test_every_penalty_writes_entries_the_scorer_accepts(seed, players, convention, code, pick):
    """Whatever the deal and the offender, a penalty either refuses with a reason or writes
    entries that score without error and keep the settlement at zero (001 §4.2.14)."""
    protocol = random_protocol(
        random.Random(seed), convention=convention, players=players, target=10, max_deals=60
    )
    deal = pick % len(protocol.deals)
    seat = pick % players
    params = {"column": "whists", "on": (seat + 1) % players, "amount": 4}
    try:
        entries = penalty_entries(code, protocol, deal=deal, seat=seat, params=params)
    except PenaltyError as exc:
        assert str(exc)  # a reason, quoting the input
        return
    penalised = dataclasses.replace(
        protocol,
        deals=protocol.deals[: deal + 1] + entries + protocol.deals[deal + 1 :],
        ending=Ending.IN_PROGRESS,
    )
    report = check(penalised)
    assert not [f for f in report.errors if f.code != "DEAL_AFTER_CLOSE"], report.errors
    assert sum(score(penalised).settlement.exact, Fraction(0)) == 0
    for e in entries:
        assert e.rule and e.note
