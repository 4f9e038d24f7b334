"""The Priffe generator (scoring.priffe.generate): legal games built deal by deal in linear
time, and the incremental scorer it uses agreeing with :func:`scoring.priffe.score.score`."""

from __future__ import annotations

import random

import pytest

from scoring.priffe import generate
from scoring.priffe.generate import random_protocol
from scoring.priffe.score import Scoring, score


@pytest.mark.parametrize("length", [50, 400])
def test_generation_scores_each_deal_once(monkeypatch, length) -> None:
    """Linear, not quadratic: a game of n deals costs n incremental scorings and no full
    rescoring (before, every deal rescored the whole game: n(n+1)/2 deal scorings)."""
    added = 0
    full = 0
    real_add, real_score = Scoring.add, generate.score

    def counting_add(self, deal):
        nonlocal added
        added += 1
        return real_add(self, deal)

    def counting_score(protocol):
        nonlocal full
        full += 1
        return real_score(protocol)

    monkeypatch.setattr(Scoring, "add", counting_add)
    monkeypatch.setattr(generate, "score", counting_score)
    p = random_protocol(
        random.Random(length), target=length, options=(("play", "deals"),), cut=False
    )
    hands = sum(1 for d in p.deals if not isinstance(d, generate.Penalty))
    assert hands == length  # the simpler variant: the agreed number of deals
    assert added == len(p.deals) and full == 0


def test_a_long_game_reaches_its_length() -> None:
    """The loop's guard grows with an agreed number of deals (it stopped at 2,000 entries)."""
    p = random_protocol(random.Random(1), target=3000, options=(("play", "deals"),), cut=False)
    assert sum(1 for d in p.deals if not isinstance(d, generate.Penalty)) == 3000
    assert score(p).closed_at == len(p.deals) - 1


@pytest.mark.parametrize("seed", range(40))
def test_the_incremental_scorer_is_the_scorer(seed) -> None:
    rng = random.Random(seed)
    p = random_protocol(rng, convention=rng.choice(("modern", "old")))
    scoring = Scoring(p)
    step = [scoring.add(d) for d in p.deals]
    whole = score(p)
    assert tuple(step) == whole.deals
    assert scoring.result() == whole
