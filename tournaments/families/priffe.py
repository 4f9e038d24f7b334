"""Swedish Priffe's domain face (seed 004): the sits being played and the dealer's rotation
through its seating, the result rows (the player totals, with the games and sits won), the
seating per sits a save keeps from the table's record, and a referee's penalty as points above
the line for the offender's opponents in the sits it names (seed 004 defines no penalties)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.priffe import Contract
from scoring.priffe.protocol import Hand, Penalty
from tournaments import rule_sources
from tournaments.errors import UserFacingError, whole_number

from .base import FamilyDomain

__all__ = ["PriffeDomain"]

#: a sits' seating line of the notation ("sits 2: Anna, Cecilia, Bertil, David")
_SITS_LINE = re.compile(r"\s*sits\s+[0-9]+\s*:", re.IGNORECASE)


class PriffeDomain(FamilyDomain):
    key = "priffe"
    result_unit = gettext_lazy("points")
    game_size_phrase = gettext_lazy("%(n)d sits")
    partnerships = True  # two partnerships, partners opposite (seed 004)

    def _score(self, protocol: Any) -> Any:
        return self.variant.score(protocol)

    def notation_lead(self, header: Any, text: str) -> str:
        """The first sits' seating line ("sits 1: …", the draw's) when the referee's deals
        name no sits: a deal stands under its sits' line (docs/priffe-format.md)."""
        if any(_SITS_LINE.match(line) for line in text.splitlines()):
            return ""
        body = self.variant.format_text(header).split("\n\n", 1)
        lines = body[1].splitlines() if len(body) == 2 else []
        return next((line for line in lines if _SITS_LINE.match(line)), "")

    def current_sits(self, protocol: Any) -> int:
        """The sits being played: the last deal's, or the next one once it was won."""
        hands = [d for d in protocol.deals if isinstance(d, Hand)]
        if not hands:
            return 0
        last = hands[-1].sits
        try:
            scored = self._score(protocol)
        except ValueError:
            return last
        won = any(d.sits == last and d.sits_won_by is not None for d in scored.deals)
        return last + 1 if won and last + 1 < len(protocol.sittings) else last

    def next_dealer(self, protocol: Any) -> int:
        """The dealer passes clockwise through the sits' seating; each sits starts with its
        seating's first player (seed 004 "Utgång"; Pulka's schedule, A-PR-5)."""
        sits = self.current_sits(protocol)
        seating = protocol.seating(sits)
        if seating is None:
            return protocol.first_dealer
        played = sum(1 for d in protocol.deals if isinstance(d, Hand) and d.sits == sits)
        return seating[played % 4]

    def deal_kind(self, deal: Any) -> str:
        if isinstance(deal, Penalty):
            return "penalty"
        return "allpass" if deal.contract is Contract.TVANGSNOLL else "game"

    def result_rows(self, protocol: Any) -> list[dict[str, Any]]:
        scored = self._score(protocol)
        games = [0] * protocol.size
        sits_won = [0] * protocol.size
        for s in scored.sits:
            for side in (0, 1):
                for p in s.sides[side]:
                    games[p] += s.games[side]
                    sits_won[p] += s.winner == side
        return [
            {
                "exact": str(scored.player_totals[p]),
                "whists": str(scored.player_totals[p]),  # the standings' result: points
                "games": games[p],
                "sits_won": sits_won[p],
            }
            for p in range(protocol.size)
        ]

    def keep_recorded(self, rebuilt: Any, protocol: Any) -> Any:
        """A protocol rebuilt on the event's rules keeps the seating the table recorded for
        each sits (A-PR-5): only the players, the length and the rules come from the event."""
        if protocol.sittings and all(sorted(s) == [0, 1, 2, 3] for s in protocol.sittings):
            return dataclasses.replace(rebuilt, sittings=tuple(protocol.sittings))
        return rebuilt

    # --- penalties and rulings ------------------------------------------------------------
    def penalty_from_json(self, data: Mapping[str, Any]) -> Any:
        """A referee's penalty: its points (the neutral entry's ``gora``, with what the others
        write against the offender added) above the line for the offender's opponents, in the
        sits it names (0-based). A ruling's entry is given the sits of the deal it follows
        (:meth:`penalty_placement`); an entry that names no sits is refused, naming the field:
        the partnerships differ from sits to sits, so the sits says who the opponents are.

        :raises UserFacingError: no sits, no offender, or points that are not whole numbers.
        """
        if data.get("sits") in (None, ""):
            raise UserFacingError(
                _(
                    "A Priffe penalty needs the sits it was given in: the partnerships change "
                    "from sits to sits (%(rule)s)."
                )
                % {"rule": rule_sources.cite("004", "Utgång")},
                {"field": "sits"},
            )
        if data.get("player") in (None, ""):
            raise UserFacingError(_("Choose the offender."), {"field": "player"})
        sits = whole_number(data.get("sits"), "sits")
        player = whole_number(data.get("player"), "player")
        points = whole_number(data.get("gora", 0), "gora") or 0
        for _writer, amount in data.get("whists", ()):
            points += whole_number(amount, "whists") or 0
        if sits is None or sits < 0:
            raise UserFacingError(_("Choose the sits."), {"field": "sits"})
        if player is None or not 0 <= player < 4:
            raise UserFacingError(_("No such player."), {"field": "player"})
        return Penalty(sits, player, points, str(data.get("rule", "")), str(data.get("note", "")))

    def penalty_placement(self, protocol: Any, after_deal: int | None) -> dict[str, Any]:
        """The sits of the deal a penalty follows (at the end: the last entry's sits; before
        any deal: the first sits), as the text notation places a ``straff`` line under its
        ``sits`` heading."""
        deals = protocol.deals
        if not deals:
            return {"sits": 0}
        if after_deal is None or not 0 <= after_deal < len(deals):
            return {"sits": deals[-1].sits}
        return {"sits": deals[after_deal].sits}

    def penalty_to_json(self, deal: Any) -> dict[str, Any]:
        return {
            "player": deal.player,
            "rule": deal.rule,
            "gora": deal.points,
            "pulya": 0,
            "whists": [],
            "note": deal.note,
            "sits": deal.sits,
        }
