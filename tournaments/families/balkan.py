"""Croatian, Serbian and Slovenian Preference's domain face (seed 002): the deal rotates in
playing order, the result rows of the final calculation (points, with the declarer columns,
soups and refas), and the neutral penalty entry as points in the offender's declarer column
(its ``gora``) and soups against him (its ``whists``); seed 002 defines no penalties."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy

from scoring.balkan.protocol import AllPass, Hand, Penalty

from .base import FamilyDomain

__all__ = ["BalkanDomain"]


class BalkanDomain(FamilyDomain):
    key = "balkan"
    result_unit = gettext_lazy("points")
    game_size_phrase = gettext_lazy("bula %(n)d")

    def _score(self, protocol: Any) -> Any:
        return self.variant.score(protocol)

    def next_dealer(self, protocol: Any) -> int:
        """The next seat in playing order deals (seed 002 "Players and Deal")."""
        try:
            dealers = [d.dealer for d in self._score(protocol).deals if d.dealer is not None]
        except ValueError:
            return protocol.first_dealer
        return (dealers[-1] + 1) % protocol.size if dealers else protocol.first_dealer

    def deal_kind(self, deal: Any) -> str:
        return "game" if type(deal) is Hand else "allpass" if type(deal) is AllPass else "penalty"

    def result_rows(self, protocol: Any) -> list[dict[str, Any]]:
        scored = self._score(protocol)
        return [
            {
                "exact": str(scored.settlement[p]),
                "whists": str(scored.settlement[p]),  # the standings' result: points
                "column": scored.columns[p],
                "soups": sum(scored.soups[p]),
                "refas": scored.refas[p],
            }
            for p in range(protocol.size)
        ]

    # --- penalties and rulings ------------------------------------------------------------
    def penalty_from_json(self, data: Mapping[str, Any]) -> Any:
        return Penalty(
            int(data["player"]),
            str(data.get("rule", "")),
            column=int(data.get("gora", 0)),
            soups=tuple((int(s), int(w)) for s, w in data.get("whists", ())),
            note=str(data.get("note", "")),
        )

    def penalty_to_json(self, deal: Any) -> dict[str, Any]:
        return {
            "player": deal.player,
            "rule": deal.rule,
            "gora": deal.column,
            "pulya": 0,
            "whists": [[s, w] for s, w in deal.soups],
            "note": deal.note,
        }
