"""Swedish Priffe in the variant registry (:mod:`scoring.variants`): seed 004.

``settlement`` gives each player's total (every point his sides scored, seed 004 "Alla poäng som
ett bolag får ges givetvis till bägge spelarna"); Priffe totals are not zero-sum. ``pairwise``
gives ``(total[p] − total[q]) / 4``: antisymmetric, each row summing to the player's total minus
the table's mean, so that a tie-break on results against the tied players compares their totals.
``deal_stats`` counts per player what he bid and made (:attr:`PriffeVariant.stat_keys`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from rules.variants import PRIFFE

from ..variant_base import ModuleVariant
from .generate import random_protocol
from .protocol import Ending, Penalty, PriffeProtocol, default_sittings
from .score import score

__all__ = ["PriffeVariant", "STAT_KEYS", "deal_stats"]

STAT_KEYS = (
    "deals",
    "contracts",
    "contracts_made",
    "contracts_failed",
    "nolls",
    "tvangsnolls",
    "slams",
    "honours",
    "games_won",
    "sits_won",
    "penalties",
)


def deal_stats(protocol: PriffeProtocol) -> tuple[dict[str, int], ...]:
    """Per player the counters of :data:`STAT_KEYS`: deals played, contracts he bid (made,
    failed; nolls among them), tvångsnolls played, slams his side made, honours he held, games
    and sits his sides won, penalties against him."""
    scored = score(protocol)
    stats = tuple(dict.fromkeys(STAT_KEYS, 0) for _ in protocol.players)
    for d in scored.deals:
        deal = protocol.deals[d.index]
        seating = protocol.sittings[d.sits]
        side_players = ((seating[0], seating[2]), (seating[1], seating[3]))
        if isinstance(deal, Penalty):
            stats[deal.player]["penalties"] += 1
            continue
        for p in seating:
            stats[p]["deals"] += 1
            stats[p]["tvangsnolls"] += deal.declarer is None
        if deal.declarer is not None and d.declaring_side is not None:
            own = stats[deal.declarer]
            own["contracts"] += 1
            own["nolls"] += deal.contract.is_noll
            made = any(x.side == d.declaring_side and x.reason == "tricks" for x in d.parts)
            own["contracts_made" if made else "contracts_failed"] += 1
        for part in d.parts:
            if part.reason in ("lillslam", "storslam"):
                for p in side_players[part.side]:
                    stats[p]["slams"] += 1
        for h in deal.honours:
            stats[h.holder]["honours"] += 1
        for won, key in ((d.game_won_by, "games_won"), (d.sits_won_by, "sits_won")):
            if won is not None:
                for p in side_players[won]:
                    stats[p][key] += 1
    return stats


class PriffeVariant(ModuleVariant):
    """Swedish Priffe, seed 004: bolag, under and över strecket, utgång, sits."""

    family = PRIFFE
    package = "scoring.priffe"
    functions = {"deal_stats": "variant.deal_stats"}
    protocol_type = PriffeProtocol
    protocol_format = "pulka-priffe-protocol"
    sheet_format = "pulka-priffe-sheet"
    result_format = "pulka-priffe-result"
    text_format = "priffe"
    stat_keys = STAT_KEYS

    def blank(
        self,
        *,
        players: tuple[str, ...],
        target: int,
        convention: str,
        options: tuple[tuple[str, Any], ...] = (),
        first_dealer: int = 0,
    ) -> Any:
        """An empty game with Pulka's seating schedule (A-PR-5): the simpler variant plays the
        first seating only."""
        conv = self.family.find(convention).with_options(**dict(options))
        sittings = default_sittings(first_dealer)
        return PriffeProtocol(
            players=players,
            target=target,
            sittings=sittings[:1] if conv.simple else sittings,
            convention=convention,
            options=tuple(sorted(options)),
            ending=Ending.IN_PROGRESS,
        )

    def settlement(self, protocol: Any) -> tuple[Fraction, ...]:
        return tuple(Fraction(t) for t in self.score(protocol).player_totals)

    def random_protocol(
        self,
        rng: random.Random,
        *,
        convention: str | None = None,
        players: int = 4,
        target: int | None = None,
        options: Sequence[tuple[str, Any]] = (),
    ) -> Any:
        if players != 4:
            raise ValueError(f"players: {players!r}; Priffe has four (seed 004 \"Antal spelare\")")
        return random_protocol(
            rng,
            convention=convention or self.family.default_convention,
            target=target,
            options=options,
        )
