"""Russian Preference in the variant registry (:mod:`scoring.variants`): seed 001, the Kodeks.

The family's work is done by its modules (:mod:`scoring.russian.jsonio`,
:mod:`scoring.russian.notation`, :mod:`scoring.russian.pulka`, :mod:`scoring.russian.check`,
:mod:`scoring.russian.result_json`, :mod:`scoring.russian.render`, :mod:`scoring.russian.stats`);
``settlement`` is each player's exact result in whists (001 §4.2.14).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from rules.variants import RUSSIAN

from ..variant_base import ModuleVariant
from .generate import random_protocol
from .protocol import Ending, Protocol
from .stats import STAT_KEYS

__all__ = ["RussianVariant"]


class RussianVariant(ModuleVariant):
    """Russian Preference, seed 001 (the Kodeks): pulya, gora, whists."""

    family = RUSSIAN
    protocol_format = "pulka-protocol"
    sheet_format = "pulka-sheet"
    result_format = "pulka-result"
    text_format = "pulka"
    package = "scoring.russian"
    functions = {
        "score": "pulka.score",
        "pairwise": "stats.pairwise_results",
        "deal_stats": "stats.deal_stats",
    }
    sheet_takes_deals = True

    protocol_type = Protocol
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
        return Protocol(
            players=players,
            target=target,
            convention=convention,
            options=tuple(sorted(options)),
            first_dealer=first_dealer,
            ending=Ending.IN_PROGRESS,
        )

    def settlement(self, protocol: Any) -> tuple[Fraction, ...]:
        return tuple(self.score(protocol).settlement.exact)

    def random_protocol(
        self,
        rng: random.Random,
        *,
        convention: str | None = None,
        players: int = 3,
        target: int | None = None,
        options: Sequence[tuple[str, Any]] = (),
    ) -> Any:
        return random_protocol(
            rng,
            convention=convention or self.family.default_convention,
            players=players,
            target=target or 10,
            options=options,
        )
