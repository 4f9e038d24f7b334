"""prefko's rating formula for three-player Balkan tables, as the Serbian online site prefko
publishes it in its npm package ``preferans-rating-js`` (Predrag Stojadinovic, Unlicense;
versions 2.3.2 and 2.4.5 compute alike; docs/ratings.md has the details and how Pulka is
checked against the package itself).

For players i and j of a table with game size (bula) b, scores s and ratings R::

    D_ij = round3((s_i − s_j) / b)              the score difference over the bula
    T_ij = round3((R_j − R_i) × 2.8 / 100)      the rating difference ("the magic number" 2.8)
    N_ij = sign(s_i − s_j) × b / 100            the bula factor
    C_ij = D_ij + T_ij + N_ij,   C_ji = −C_ij
    change_i = round(Σ_j C_ij / 2)              the average over the two opponents

``round3`` and ``round`` are mathjs' rounding (half away from zero, on the number's shortest
decimal form). A new player starts at 1,000.

**Signs.** The package's README says a player's score is "negative = good" and its worked
example gives the player with the best score (−500) a change of −27. The code rewards the
player whose ``score`` is *larger* (D and N grow with it, as T shrinks with one's own rating,
Elo's way), so the formula works as meant when ``score`` is the points a player won: Pulka's
Balkan table result (the settlement, seed 002: own soups − soups against + 10 × the signed
column; more is better) is passed as it is. On the README's example with that sign (500, −40,
−460) the best player gains 23.

At a table of four (the Balkan dealer sits out each deal) Pulka averages over the three
opponents (``Σ_j C_ij / 3``): prefko rates only tables of three, this is Pulka's extension.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from .model import PlayerState, RatedTable, RatingError, RatingModel

__all__ = ["Prefko", "mathjs_round", "pair_term"]

MAGIC = 2.8

_QUANTA = {0: Decimal(1), 3: Decimal("0.001")}


def mathjs_round(value: float, decimals: int = 0) -> float:
    """mathjs' ``round`` on a number: the shortest decimal form rounded half away from zero.

    >>> mathjs_round(-2.5), mathjs_round(2.5), mathjs_round(1.0005, 3), mathjs_round(-0.0015, 3)
    (-3.0, 3.0, 1.001, -0.002)
    """
    quantum = _QUANTA.get(decimals) or Decimal(1).scaleb(-decimals)
    return float(Decimal(repr(value)).quantize(quantum, rounding=ROUND_HALF_UP))


def pair_term(score_i: float, score_j: float, rating_i: float, rating_j: float, bula: int) -> float:
    """C_ij of the formula: what player i's change takes from the pair (i, j)."""
    d = mathjs_round((score_i - score_j) / bula, 3)
    t = mathjs_round((rating_j - rating_i) * MAGIC / 100, 3)
    n = (bula if score_i > score_j else -bula if score_i < score_j else 0) / 100
    return d + t + n


class Prefko(RatingModel):
    key = "prefko"
    version = 1

    def __init__(self, *, start: float = 1000.0, provisional_below: int = 12) -> None:
        self.start = start
        self.provisional_below = provisional_below

    def params(self) -> dict[str, Any]:
        return {
            "source": "npm preferans-rating-js 2.3.2",
            "magic": MAGIC,
            "start": self.start,
            "provisional_below": self.provisional_below,
        }

    def initial(self) -> PlayerState:
        return PlayerState(self.start, 0.0)

    def _terms(self, table: RatedTable, i: int, states: Sequence[PlayerState]) -> list[float]:
        if table.game_size <= 0:
            raise RatingError(
                f"round {table.round}, table {table.table}: prefko's formula needs the game's "
                "size (the bula)"
            )
        res = table.results
        # the package computes C_ij once per pair with the first-seated player as i and uses
        # −C_ij for the other (C_ji is the same number, the rounding of D and T being symmetric)
        terms = []
        for j in range(len(res)):
            if j == i:
                continue
            a, b = (i, j) if i < j else (j, i)
            c = pair_term(res[a].score, res[b].score, states[a].mu, states[b].mu, table.game_size)
            terms.append(c if a == i else -c)
        return terms

    def _change(self, terms: list[float]) -> float:
        if len(terms) == 2:  # as the package adds them: (C_ij + C_ik) / 2
            return mathjs_round((terms[0] + terms[1]) / 2)
        return mathjs_round(sum(terms) / len(terms))

    def rate_table(
        self, table: RatedTable, states: Sequence[PlayerState], places: Sequence[int]
    ) -> list[PlayerState]:
        out = []
        for i, s in enumerate(states):
            change = self._change(self._terms(table, i, states))
            out.append(PlayerState(s.mu + change, 0.0, s.tables, s.last_event))
        return out

    def shown(self, state: PlayerState) -> float:
        return state.mu

    def parts(
        self,
        table: RatedTable,
        i: int,
        states: Sequence[PlayerState],
        after: PlayerState,
    ) -> list[tuple[str, float, int | None]]:
        terms = self._terms(table, i, states)
        others = [r.person for j, r in enumerate(table.results) if j != i]
        parts: list[tuple[str, float, int | None]] = [
            ("against", t / len(terms), p) for t, p in zip(terms, others, strict=True)
        ]
        change = after.mu - states[i].mu
        parts.append(("rounding", change - sum(p[1] for p in parts), None))
        return parts
