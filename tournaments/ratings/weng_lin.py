"""Pulka's default rating: the Weng–Lin Bayesian rating with the Plackett–Luce model, as the
``openskill`` library computes it (Weng & Lin, "A Bayesian Approximation Method for Online
Ranking", JMLR 12, 2011). Every table is one free-for-all match of its players in the order of
their table results, equal results as ties.

A person's skill is a normal belief N(μ, σ²): a new player starts at μ = 25, σ = 25/3; each
table moves μ by how much better or worse the place was than the opponents' beliefs expected,
and shrinks σ (``tau`` adds a little back before each table, so that a rating can still move
after years). What people read is conservative: the skill the player has at least with 99.7 %
belief, μ − 3σ, on a familiar scale:

    shown = 1500 + 40 × (μ − 3σ − 15)

so that a new player shows 900 and rises as his results make the rating certain; an average
player after a season of tables shows about 1,500. The ± beside it is 40 × σ. The change of a
table is made of two parts that add up to it: ``skill`` (40 × Δμ) and ``certainty``
(−120 × Δσ).

The table is given to the library as the players' results divided by the game's size (the bula,
the pulka), with openskill's ``margin`` of 5: the order decides, and a win by far more than 5
game sizes (log(1 + difference / 5) > 1, i.e. more than about 8.6 game sizes) counts as an
impressive one. Measured on simulated seasons (tests/bench/bench_ratings.py, docs/ratings.md):
with the margin Pulka's rating predicts the next event's tables better than prefko's formula and
than the average place; with the order alone it tied prefko on the pairs ordered right.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from openskill import models as openskill_models

from .model import PlayerState, RatedTable, RatingModel

__all__ = ["LIBRARY_MODELS", "WengLin"]

#: openskill's Weng–Lin models a rating may use (Plackett–Luce by default)
LIBRARY_MODELS = (
    "PlackettLuce",
    "BradleyTerryFull",
    "BradleyTerryPart",
    "ThurstoneMostellerFull",
    "ThurstoneMostellerPart",
)


class WengLin(RatingModel):
    key = "weng-lin"
    version = 1

    def __init__(
        self,
        *,
        mu: float = 25.0,
        sigma: float = 25.0 / 3,
        beta: float = 25.0 / 6,
        kappa: float = 0.0001,
        tau: float = 25.0 / 300,
        offset: float = 1500.0,
        scale: float = 40.0,
        centre: float = 15.0,
        provisional_below: int = 12,
        library_model: str = "PlackettLuce",
        margin: float = 5.0,
    ) -> None:
        self.mu, self.sigma, self.beta, self.kappa, self.tau = mu, sigma, beta, kappa, tau
        self.offset, self.scale, self.centre = offset, scale, centre
        self.provisional_below = provisional_below
        if library_model not in LIBRARY_MODELS:
            raise ValueError(f"unknown openskill model {library_model!r}")
        self.library_model = library_model
        self.margin = margin
        self._seats = threading.local()
        self._model = getattr(openskill_models, library_model)(
            mu=mu,
            sigma=sigma,
            beta=beta,
            kappa=kappa,
            tau=tau,
            limit_sigma=False,
            balance=False,
            **({"margin": margin} if margin else {}),
        )

    def params(self) -> dict[str, Any]:
        return {
            "library": "openskill",
            "library_model": self.library_model,
            "margin": self.margin,
            "mu": self.mu,
            "sigma": self.sigma,
            "beta": self.beta,
            "kappa": self.kappa,
            "tau": self.tau,
            "offset": self.offset,
            "scale": self.scale,
            "centre": self.centre,
            "provisional_below": self.provisional_below,
        }

    def initial(self) -> PlayerState:
        return PlayerState(self.mu, self.sigma)

    def rate_table(
        self, table: RatedTable, states: Sequence[PlayerState], places: Sequence[int]
    ) -> list[PlayerState]:
        model = self._model
        # the library's ratings made once per thread and seat and given new numbers per table:
        # ``rate`` copies its input and never changes it (a new rating draws a uuid, which cost
        # a sixth of the table's time)
        pool = getattr(self._seats, "pool", None)
        if pool is None:
            pool = self._seats.pool = []
        while len(pool) < len(states):
            pool.append(model.rating(mu=self.mu, sigma=self.sigma))
        teams = []
        for seat, s in zip(pool, states, strict=False):
            seat.mu, seat.sigma = s.mu, s.sigma
            teams.append([seat])
        if self.margin:  # the margins of victory count, in units of the game's size
            size = table.game_size or 1
            rated = model.rate(teams, scores=[r.score / size for r in table.results])
        else:
            rated = model.rate(teams, ranks=list(places))
        return [
            PlayerState(team[0].mu, team[0].sigma, s.tables, s.last_event)
            for team, s in zip(rated, states, strict=True)
        ]

    def shown(self, state: PlayerState) -> float:
        return self.offset + self.scale * (state.mu - 3 * state.sigma - self.centre)

    def spread(self, state: PlayerState) -> float | None:
        return self.scale * state.sigma

    def parts(
        self,
        table: RatedTable,
        i: int,
        states: Sequence[PlayerState],
        after: PlayerState,
    ) -> list[tuple[str, float, int | None]]:
        before = states[i]
        skill = self.scale * (after.mu - before.mu)
        certainty = -3 * self.scale * (after.sigma - before.sigma)
        return [("skill", skill, None), ("certainty", certainty, None)]
