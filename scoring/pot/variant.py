"""The pot games in the variant registry (:mod:`scoring.variants`), built on :mod:`scoring.variant_base`.

``settlement`` is each player's final result in chips: his net plus his share of the pot left at
the end (option ``pot_end``: shared equally by default, so the table sums to zero).

``pairwise`` (what p won from q): direct payments between players count as they were made, and
every payment into or out of the pot is read as made to or from the whole table in equal shares,
as the pot is shared at the end: r[p][q] = (paid by q to p − paid by p to q)
+ (p's net receipts from the pot − q's) / n. It is antisymmetric and each row sums to the
player's result under ``pot_end="share"`` when the game began with an empty pot.

>>> import random
>>> v = PotVariant()
>>> p = v.random_protocol(random.Random(3), players=4)
>>> sum(v.settlement(p)), v.check(p).ok
(Fraction(0, 1), True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, cast

from rules.pot import with_stake
from rules.variants import POT

from ..findings import CheckReport
from ..model import OptionValue
from ..variant_base import ModuleVariant
from .check import check as check_game
from .generate import random_protocol
from .protocol import Ending, Hand, Ledger, Penalty, PotProtocol, Rundpass, defenders_of
from .score import POT as POT_PARTY
from .score import score

__all__ = ["PotVariant", "STAT_KEYS", "pairwise_results", "deal_stats"]

#: Per seat: contracts declared, made and failed (as playing declarer), defences played, falls
#: as a defender, times stayed home, efterköp bought, rundpass top trick-taker, penalties.
STAT_KEYS = (
    "games",
    "games_made",
    "games_lost",
    "defences",
    "defences_failed",
    "stayed_home",
    "efterkop",
    "rundpass_top",
    "penalties",
)


def pairwise_results(protocol: PotProtocol) -> tuple[tuple[Fraction, ...], ...]:
    """See the module docstring."""
    game = score(protocol)
    n = protocol.size
    direct = [[Fraction(0)] * n for _ in range(n)]
    from_pot = [0] * n
    for d in game.deals:
        for t in d.transfers:
            if t.payer == POT_PARTY:
                from_pot[t.payee] += t.amount  # type: ignore[index]
            elif t.payee == POT_PARTY:
                from_pot[t.payer] -= t.amount  # type: ignore[index]
            else:
                direct[t.payee][t.payer] += t.amount  # type: ignore[index]
                direct[t.payer][t.payee] -= t.amount  # type: ignore[index]
    return tuple(
        tuple(
            Fraction(0) if p == q else direct[p][q] + Fraction(from_pot[p] - from_pot[q], n)
            for q in range(n)
        )
        for p in range(n)
    )


def deal_stats(protocol: PotProtocol) -> tuple[dict[str, int], ...]:
    game = score(protocol)
    stats = [dict.fromkeys(STAT_KEYS, 0) for _ in protocol.players]
    for deal, scored in zip(protocol.deals, game.deals, strict=True):
        if isinstance(deal, Penalty):
            stats[deal.player]["penalties"] += 1
        elif isinstance(deal, Rundpass):
            for s in scored.fell:
                stats[s]["rundpass_top"] += 1
        else:
            player = deal.player
            stats[player]["games"] += 1
            stats[player]["games_made" if scored.made else "games_lost"] += 1
            for seat, _ in deal.efterkop:
                stats[seat]["efterkop"] += 1
            assert scored.dealer is not None
            defs = defenders_of(protocol.size, scored.dealer, player)
            decisions = dict(zip(defs, deal.defence, strict=False))
            for d in defs:
                dec = decisions.get(d)
                if dec is not None and not dec.plays:
                    stats[d]["stayed_home"] += 1
                else:
                    stats[d]["defences"] += 1
                    if d in scored.fell:
                        stats[d]["defences_failed"] += 1
    return tuple(stats)


class PotVariant(ModuleVariant):
    """Viennese (seed 000) and German (seed 003) Préférence: chips, a pot, no score sheet."""

    family = POT
    package = "scoring.pot"
    functions = {
        "sheet_from_dict": "jsonio.ledger_from_dict",
        "sheet_to_dict": "jsonio.ledger_to_dict",
        "loads_sheet": "jsonio.loads_ledger",
        "parse_text": "notation.parse",
        "parse_sheet": "notation.parse_ledger",
        "render": "render.render_ledger",
        "pairwise": "variant.pairwise_results",
        "deal_stats": "variant.deal_stats",
    }
    protocol_type = PotProtocol
    protocol_format = "pulka-pot-protocol"
    sheet_format = "pulka-pot-ledger"
    result_format = "pulka-pot-result"
    text_format = "pot"
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
        """``target`` is the stake: G in Vienna, the dealer's chips in Germany."""
        merged = with_stake(convention, target, dict(options))
        return PotProtocol(
            players=players,
            convention=convention,
            options=tuple(sorted(cast("dict[str, OptionValue]", merged).items())),
            first_dealer=first_dealer,
            ending=Ending.IN_PROGRESS,
        )

    def check(self, protocol: Any, sheet: Any = None) -> CheckReport:
        return check_game(protocol, sheet if isinstance(sheet, Ledger) or sheet is None else None)

    def settlement(self, protocol: Any) -> tuple[Fraction, ...]:
        return score(protocol).final

    def random_protocol(
        self,
        rng: random.Random,
        *,
        convention: str | None = None,
        players: int = 3,
        target: int | None = None,
        options: Sequence[tuple[str, Any]] = (),
    ) -> Any:
        name = convention or self.family.default_convention
        merged = with_stake(name, target, dict(options))
        return random_protocol(rng, convention=name, players=players,
                               options=tuple(sorted(merged.items())))  # fmt: skip


_ = Hand  # re-exported types are used through annotations only
