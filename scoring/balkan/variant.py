"""The Balkan games in the variant registry (:mod:`scoring.variants`): seed 002.

The family's work is done by its modules in the layout :class:`~scoring.variant_base.ModuleVariant`
expects (``jsonio``, ``notation``, ``score``, ``check``, ``result_json``, ``render``);
``settlement`` is each player's final calculation (seed 002 "Ending the Game").
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from rules.variants import BALKAN

from ..model import Ending
from ..notation_lexer import header_fields
from ..variant_base import ModuleVariant
from . import notation
from .generate import random_protocol
from .protocol import BalkanProtocol

__all__ = ["BalkanVariant"]


class BalkanVariant(ModuleVariant):
    """Croatian, Serbian and Slovenian Preference, seed 002: bula, juha/supa, refa."""

    family = BALKAN
    protocol_format = "pulka-balkan-protocol"
    sheet_format = "pulka-balkan-sheet"
    result_format = "pulka-balkan-result"
    text_format = "balkan"
    package = "scoring.balkan"
    stat_keys = (
        "games",
        "games_made",
        "games_lost",
        "bettels",
        "defences",
        "defences_failed",
        "kontras",
        "refas_used",
        "penalties",
    )

    protocol_type = BalkanProtocol

    def header_fields(self, text: str) -> frozenset[str]:
        return header_fields(text, notation._header_key, {"bula": "target"})

    def blank(
        self,
        *,
        players: tuple[str, ...],
        target: int,
        convention: str,
        options: tuple[tuple[str, Any], ...] = (),
        first_dealer: int = 0,
    ) -> Any:
        return BalkanProtocol(
            players=players,
            bula=target,
            convention=convention,
            options=tuple(sorted(options)),
            first_dealer=first_dealer,
            ending=Ending.IN_PROGRESS,
        )

    def settlement(self, protocol: Any) -> tuple[Fraction, ...]:
        return tuple(Fraction(x) for x in self.score(protocol).settlement)

    def random_protocol(
        self,
        rng: random.Random,
        *,
        convention: str | None = None,
        players: int = 3,
        target: int | None = None,
        options: Sequence[tuple[str, Any]] = (),
    ) -> Any:
        if players != 3:
            raise ValueError(f"players: {players!r}; the Balkan games have three (seed 002)")
        return random_protocol(
            rng,
            convention=convention or self.family.default_convention,
            bula=target or 30,
            options=options,
        )
