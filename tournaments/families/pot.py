"""Viennese and German Préférence's domain face (seeds 000 and 003): the deal passes clockwise
(a penalty does not pass it), the result rows of the ledger (each player's net and his share of
the pot left at the end), and the neutral penalty entry paid into the pot (its ``gora``) or to
other players (its ``whists``); the seeds define no penalties."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext_lazy

from rules.pot import with_stake
from scoring.pot.protocol import Hand, Penalty, Rundpass
from scoring.pot.score import PotScoringError, dealers, score

from .base import FamilyDomain

__all__ = ["PotDomain"]


def _fraction(value: Fraction) -> str:
    return str(value)


class PotDomain(FamilyDomain):
    key = "pot"
    result_unit = gettext_lazy("chips")
    game_size_phrase = gettext_lazy("a stake of %(n)d")

    def sized_options(self, convention: str, size: int | None, options: dict) -> dict:
        """The stake is the event's game size (G in Vienna, the dealer's chips in Germany),
        unless an option sets it: as the protocol's header reads it (:func:`rules.pot.
        with_stake`), so that the sheets, the settings page and the scoring agree."""
        return with_stake(convention, size, options)

    @staticmethod
    def _rules(protocol: Any) -> Any:
        return protocol.rules()

    def _scored(self, protocol: Any) -> tuple[Any, bool]:
        """The game scored, or the deals before the first that cannot be scored (then
        ``partial``: the checker's UNSCORABLE finding says which; nothing is "fixed")."""
        try:
            return score(protocol), False
        except PotScoringError as error:
            upto = error.deal if error.deal is not None else 0
            return score(protocol.with_deals(protocol.deals[:upto])), True

    def next_dealer(self, protocol: Any) -> int:
        """The deal passes clockwise (000 "Giv"); a penalty does not pass it."""
        given = [d for d in dealers(protocol) if d is not None]
        return (given[-1] + 1) % protocol.size if given else protocol.first_dealer

    def deal_dealers(self, protocol: Any) -> Sequence[int | None] | None:
        """Each entry's dealer by the rotation (000 "Giv"; a penalty has none)."""
        return dealers(protocol)

    def deal_kind(self, deal: Any) -> str:
        return "game" if type(deal) is Hand else "allpass" if type(deal) is Rundpass else "penalty"

    def result_rows(self, protocol: Any) -> list[dict[str, Any]]:
        """Each player's net, his share of the pot left at the end (``pot_end``: shared equally
        by default, so the table sums to zero; or kept) and the result the standings count."""
        scored, partial = self._scored(protocol)
        return [
            {
                "exact": _fraction(scored.final[p]),
                "whists": _fraction(scored.final[p]),  # the standings' result: chips
                "net": scored.nets[p],
                "share": _fraction(scored.shares[p]),
                "pot": scored.pot,
                "pot_end": scored.convention.pot_end,
                **({"partial": True} if partial else {}),
            }
            for p in range(protocol.size)
        ]

    # --- penalties and rulings ------------------------------------------------------------
    def penalty_from_json(self, data: Mapping[str, Any]) -> Any:
        """The neutral entry's ``gora`` is paid into the pot; its ``whists`` ``[seat, chips]``
        to those players (the seeds define no penalties)."""
        return Penalty(
            int(data["player"]),
            str(data.get("rule", "")),
            to_pot=int(data.get("gora", 0)),
            to_players=tuple((int(s), int(w)) for s, w in data.get("whists", ())),
            note=str(data.get("note", "")),
        )

    def penalty_to_json(self, deal: Any) -> dict[str, Any]:
        return {
            "player": deal.player,
            "rule": deal.rule,
            "gora": deal.to_pot,
            "pulya": 0,
            "whists": [[s, w] for s, w in deal.to_players],
            "note": deal.note,
        }
