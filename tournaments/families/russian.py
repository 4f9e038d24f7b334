"""Russian Preference's domain face (seed 001, the Kodeks): the deal passes to the left, the
result rows of the pulka's settlement, the penalty entries of the Kodeks' catalogue and the
adjusted result of 001 §3.8.5.1 Б."""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.penalties import CATALOGUE, PenaltyError, find_penalty
from scoring.russian.penalties import adjusted_result_entries, penalty_entries
from scoring.russian.protocol import Game, Penalty, Raspasy
from scoring.russian.pulka import score

from .base import FamilyDomain

__all__ = ["RussianDomain"]


class RussianDomain(FamilyDomain):
    key = "russian"
    result_unit = gettext_lazy("whists")
    game_size_phrase = gettext_lazy("pulkas to %(n)d")
    catalogue = CATALOGUE
    seating_rule = "3.1.1"  # тираж: the seats drawn by lot
    first_dealer_rule = "3.2.1"

    def next_dealer(self, protocol: Any) -> int:
        """The seat that deals next (001 §3.2.2: the deal passes to the left)."""
        try:
            dealers = [d for d in score(protocol).dealers if d is not None]
        except ValueError:
            return protocol.first_dealer
        return (dealers[-1] + 1) % protocol.size if dealers else protocol.first_dealer

    def deal_dealers(self, protocol: Any) -> Sequence[int | None] | None:
        """Each deal's dealer (001 §3.2.2; a penalty entry has none and passes nothing)."""
        try:
            return score(protocol).dealers
        except ValueError:
            return None

    def deal_kind(self, deal: Any) -> str:
        return "game" if type(deal) is Game else "raspasy" if type(deal) is Raspasy else "penalty"

    def result_rows(self, protocol: Any) -> list[dict[str, Any]]:
        scored = score(protocol)
        final = scored.final_row()
        return [
            {
                "exact": str(scored.settlement.exact[p]),
                "whists": str(scored.settlement.totals[p]),
                "pulya": final[p].pulya,
                "gora": final[p].gora,
            }
            for p in range(protocol.size)
        ]

    # --- penalties and rulings ------------------------------------------------------------
    def penalty_from_json(self, data: Mapping[str, Any]) -> Penalty:
        return Penalty(
            int(data["player"]),
            str(data.get("rule", "")),
            int(data.get("gora", 0)),
            int(data.get("pulya", 0)),
            tuple((int(s), int(w)) for s, w in data.get("whists", ())),
            str(data.get("note", "")),
        )

    def penalty_to_json(self, deal: Penalty) -> dict[str, Any]:
        return {
            "player": deal.player,
            "rule": deal.rule,
            "gora": deal.gora,
            "pulya": deal.pulya,
            "whists": [[s, w] for s, w in deal.whists],
            "note": deal.note,
        }

    def catalogue_entries(
        self, code: str, protocol: Any, *, deal: int | None, seat: int, params: Mapping[str, Any]
    ) -> tuple[Any, ...]:
        entry = find_penalty(code)
        return penalty_entries(entry.code, protocol, deal=deal, seat=seat, params=params)

    def adjusted_entries(
        self, protocol: Any, deal: int, params: Mapping[str, Any]
    ) -> tuple[tuple[Any, ...], str, dict[str, Any]]:
        """001 §3.8.5.1 Б: the deal as by the other plan; the declarer's result by lot."""
        played = protocol.deals[deal]
        if type(played) is not Game:
            raise PenaltyError(_("The deal is not a game."))
        if params.get("other_tricks") in (None, ""):
            raise PenaltyError(_("Adjusted result: give the declarer's tricks by the other plan."))
        if params.get("passer") in (None, ""):
            raise PenaltyError(_("Adjusted result: choose the player who passed."))
        split = params.get("other_split")
        other = dataclasses.replace(
            played,
            declarer_tricks=int(params["other_tricks"]),
            defender_tricks=tuple(int(x) for x in split) if split else None,
        )
        params = dict(params)
        params.setdefault("lot", secrets.choice(["played", "other"]))  # drawn by lot
        entries = adjusted_result_entries(
            protocol, deal, other=other, passer=int(params["passer"]), lot=params["lot"]
        )
        return entries, "3.8.5.1", params
