"""Croatian, Serbian and Slovenian Preference's pages (seed 002): the phone form's deals
(contract, igra, the defenders' decisions, kontra and who said it, tricks per player; all pass),
the sheet's three columns per player (soups, declarer column, soups) with hats and refa marks.

Seed 002 defines no penalties: the catalogue is empty, and a referee's or the event's own
penalty writes points into the offender's declarer column (the neutral entry's ``gora``) and
soups against him (its ``whists``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.balkan import CONTRACT_VALUES, PREFERANS
from scoring.balkan.protocol import AllPass, Defence, Hand
from tournaments import rule_sources
from tournaments.errors import UserFacingError
from tournaments.families.balkan import BalkanDomain

from .base import FamilyUI, PulkaCells

__all__ = ["BalkanUI", "DEFENCES", "KONTRAS"]

#: a defender's decision (seed 002 "The Defenders' Decisions"), in the players' words
DEFENCES = [
    ("play", gettext_lazy("plays (ide)")),
    ("drop", gettext_lazy("drops (ne ide)")),
    ("invite", gettext_lazy("invites (zove)")),
]
#: the doubling levels (seed 002 "Kontra")
KONTRAS = [
    (0, gettext_lazy("no kontra")),
    (1, "kontra"),
    (2, "rekontra"),
    (3, "subkontra"),
    (4, "mortkontra"),
]

FINDING_TITLES: dict[str, Any] = {
    "TRICKS": gettext_lazy("Tricks out of range"),
    "TRICKS_SUM": gettext_lazy("The tricks do not add up"),
    "TRICKS_MISSING": gettext_lazy("The tricks are missing"),
    "TRICKS_DROPPED": gettext_lazy("Tricks for a defender who dropped"),
    "TRICKS_UNPLAYED": gettext_lazy("Tricks for a hand not played"),
    "DEFENCE": gettext_lazy("The defenders' decisions do not fit"),
    "DEFENCE_TRICKS": gettext_lazy("More than five defence tricks"),
    "DROP_IN_BETTEL": gettext_lazy("A defender dropped in bettel"),
    "KONTRA_BY": gettext_lazy("Kontra by a seat that cannot say it"),
    "KONTRA_LEVEL": gettext_lazy("Doubling beyond the agreed limit"),
    "KONTRA_MISSING": gettext_lazy("A plain two needs a kontra"),
    "BETTEL_KONTRA": gettext_lazy("Bettel with kontra: the rules leave it undefined"),
    "UNDEFINED": gettext_lazy("A result the rules leave undefined"),
    "REFA_BEYOND_LIMIT": gettext_lazy("A refa beyond the limit"),
    "DEAL_AFTER_END": gettext_lazy("A deal after the game ended"),
    "NOT_ENDED": gettext_lazy("Marked ended, but the columns do not sum to zero"),
    "STOPPED_EARLY": gettext_lazy("Stopped before the columns summed to zero"),
    "DEALER": gettext_lazy("Dealer out of turn"),
    "OUT_OF_TURN": gettext_lazy("Dealer out of turn"),
    "CONTRACT": gettext_lazy("No such contract"),
    "JUMP_BID": gettext_lazy("A jump bid"),
    "SOUP_DOWN": gettext_lazy("A soup went down"),
    "SHEET_CELL": gettext_lazy("The sheet differs from the computed game"),
    "SHEET_RESULT": gettext_lazy("Written result differs"),
    "SHEET_ROWS": gettext_lazy("More written rows than deals"),
    "SHEET_SHAPE": gettext_lazy("A written row has the wrong shape"),
    "SEAT": gettext_lazy("No such seat at the table"),
    "PENALTY": gettext_lazy("Penalty entry"),
    "TABLE": gettext_lazy("The table cannot be scored"),
    "DEAL_TYPE": gettext_lazy("Not a deal"),
    "ODD_BULA": gettext_lazy("An odd bula"),
    "INVITATION": gettext_lazy("An invitation that does not fit"),
    "BID": gettext_lazy("Not a bid"),
    "PASS_FINAL": gettext_lazy("A bid after passing"),
    "NUMBER_AFTER_IGRA": gettext_lazy("A number bid after igra"),
    "SAME": gettext_lazy("“I ja” by a player who may not hold"),
    "IGRA_FIRST_TURN": gettext_lazy("Igra only at the first turn"),
    "REVEAL": gettext_lazy("The game revealed twice"),
    "IGRA_COMMITS": gettext_lazy("Plain igra commits to trumps"),
    "CONTRACT_BID": gettext_lazy("The contract does not fit the auction"),
}


def _int(value: Any, field: str) -> int | None:
    """A form field's whole number (``None`` when blank); garbage is the user's error, naming
    the field, never a crash."""
    value = str(value or "").strip()
    if not value:
        return None
    try:
        return int(value)
    except ValueError:
        raise UserFacingError(
            _("%(field)s: %(value)r is not a whole number.") % {"field": field, "value": value},
            {"field": field},
        ) from None


class BalkanUI(BalkanDomain, FamilyUI):
    entry_template = "tournaments/protocols/entry/balkan.html"
    pulka_template = "tournaments/protocols/cells/balkan.html"
    filled_layout = "soups"  # the declarer column between the soups (tournaments.pdf.layouts)
    blank_template = "pdf/blank_protocol_balkan.html"
    result_label = gettext_lazy("Result (points)")
    result_heading = gettext_lazy("Points")
    criterion_text = rule_sources.with_rule(
        gettext_lazy(
            "Criterion: the sum of the final calculation's points over approved protocols "
            "(%(rule)s)."
        ),
        "002",
        "Scoring",
    )
    round_score_names = {
        **FamilyUI.round_score_names,
        "whists": gettext_lazy("Points (the final calculation)"),
        "capped": gettext_lazy("Capped points"),
        "scaled": gettext_lazy("Scaled points"),
    }
    metric_names = {"whists": (gettext_lazy("Points"), gettext_lazy("Pts"))}
    own_column_label = gettext_lazy("Declarer column (bula)")
    in_own_column = gettext_lazy("in the declarer column")
    penalty_terms = {  # seed 002: the declarer column and the soups written against him
        "gora": gettext_lazy("%(n)s into the declarer column"),
        "whists": gettext_lazy("soup of %(name)s: %(n)s"),
    }
    deduction_label = gettext_lazy("Points deducted")
    penalty_kind_names = {
        "fixed_whists": gettext_lazy("Fixed points"),
        "fixed_gora": gettext_lazy("Fixed points in the declarer column"),
    }
    ending_closed_label = gettext_lazy("ended (the declarer columns sum to zero)")
    game_label = gettext_lazy("The game (partija)")  # seed 002 has no pulka
    opponents_heading = gettext_lazy("Opponents (points won from each)")
    # scoring.balkan.score.pairwise_results
    cross_table_note = rule_sources.with_rule(
        gettext_lazy(
            "Each cell: the points the player in the row won from the player in the column "
            "where they met (the soups they wrote against each other, netted, plus ten times "
            "the difference of their declarer columns shared by three; %(rule)s), with the "
            "rounds."
        ),
        "002",
        "Ending the Game",
    )
    # docs/balkan-format.md; tests/tournaments/balkan/test_balkan_pages.py parses them
    notation_hint = gettext_lazy(
        "Deals, one a line (e.g. “Ana bundeva ide/ide štihovi 6-2-2”, “Branko igra žir ne "
        "ide/ide kontra Ana 5-5-0”, “dalje”, “kazna Branko §3 bula=10”)"
    )
    sheet_hint = gettext_lazy(
        "Optionally what the players wrote, to check it: “sheet 1: Ana -24 0 0 0; Branko -30 12 "
        "0 0; Cvijeta -30 12 0 0” (the declarer column signed, the soups against the others in "
        "seat order, the unplayed refas)."
    )
    finding_titles = FINDING_TITLES
    # Seed 002 "Players and Deal" says the deal rotates, not how the seats or the first dealer
    # are drawn, nor how a tournament draws its tables: no rule is cited for them
    # (FamilyUI.seating_rule).

    # --- the table's deal entry ----------------------------------------------------------
    def entry_context(self, protocol: Any) -> dict[str, Any]:
        conv = self.variant.convention(protocol)
        contracts = [
            (c, f"{c} — {conv.contract_word(c)}")
            for c in CONTRACT_VALUES
            if c != PREFERANS or conv.preferans
        ]
        return {
            "contracts": contracts,
            "defences": DEFENCES,
            "kontras": KONTRAS if not conv.kontra_limit else KONTRAS[: conv.kontra_limit + 1],
            "refa_word": conv.refa_word,
        }

    def form_values(
        self, protocol: Any, index: int | None, post: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        """The deal form's values: deal ``index`` as entered ("Correct"), what was posted (a
        refused form keeps it), or blank. Per seat its decision (the defenders') and tricks."""
        values: dict[str, str] = {}
        if post is not None:
            values = self.posted(post)
        elif index is not None and 0 <= index < len(protocol.deals):
            deal = protocol.deals[index]
            if type(deal) is AllPass:
                values["kind"] = "allpass"
            elif type(deal) is Hand:
                values.update(
                    kind="hand",
                    declarer=str(deal.declarer),
                    contract=str(deal.contract),
                    igra="on" if deal.game else "",
                    kontra=str(deal.kontra),
                    kontra_by="" if deal.kontra_by is None else str(deal.kontra_by),
                )
                defenders = ((deal.declarer + 1) % 3, (deal.declarer + 2) % 3)
                for d, decision in zip(defenders, deal.defence, strict=False):
                    values[f"defence_{d}"] = decision.value
                for p, t in enumerate(deal.tricks or ()):
                    values[f"tricks_{p}"] = str(t)
        return self.seat_form(
            protocol, values, ("defence", "tricks"), kind="hand", declarer="", contract="",
            igra="", kontra="0", kontra_by="",
        )  # fmt: skip

    def deal_from_post(self, post: Mapping[str, Any], protocol: Any, dealer: int) -> Any:
        """A hand from the phone form (seed 002): declarer, contract, igra, each defender's
        decision, the kontra level and who said it, each player's tricks; or all passed."""
        if post.get("kind") == "allpass":
            return AllPass()
        declarer = _int(post.get("declarer"), "declarer")
        if declarer is None or not 0 <= declarer < 3:
            raise UserFacingError(_("Choose the declarer."), {"field": "declarer"})
        contract = _int(post.get("contract"), "contract")
        if contract not in CONTRACT_VALUES:
            raise UserFacingError(_("Choose the contract."), {"field": "contract"})
        defenders = ((declarer + 1) % 3, (declarer + 2) % 3)
        try:
            defence = tuple(Defence(post.get(f"defence_{d}") or "play") for d in defenders)
        except ValueError:
            raise UserFacingError(
                _("Choose each defender's decision."), {"field": "defence"}
            ) from None
        kontra = _int(post.get("kontra"), "kontra") or 0
        if kontra not in dict(KONTRAS):
            raise UserFacingError(
                _("kontra: %(value)r is not a doubling level (0 to %(top)d).")
                % {"value": post.get("kontra"), "top": len(KONTRAS) - 1},
                {"field": "kontra"},
            )
        kontra_by = _int(post.get("kontra_by"), "kontra_by") if kontra else None
        if kontra and kontra_by is None:
            raise UserFacingError(_("Who said kontra?"), {"field": "kontra_by"})
        if kontra_by is not None and not 0 <= kontra_by < 3:
            raise UserFacingError(
                _("kontra_by: there is no seat %(n)d at this table.") % {"n": kontra_by + 1},
                {"field": "kontra_by"},
            )
        given = [_int(post.get(f"tricks_{p}"), f"tricks_{p}") for p in range(3)]
        for p, t in enumerate(given):
            if t is not None and not 0 <= t <= 10:
                raise UserFacingError(
                    _("tricks_%(p)d: %(value)d tricks; a player takes 0 to 10.")
                    % {"p": p, "value": t},
                    {"field": f"tricks_{p}"},
                )
        tricks: tuple[int, ...] | None = None
        if any(t is not None for t in given):
            invited = Defence.INVITE in defence
            for k, d in enumerate(defenders):  # a defender out of play took nothing
                if given[d] is None and defence[k] is Defence.DROP and not invited and not kontra:
                    given[d] = 0
            if given[declarer] is None and None not in (given[d] for d in defenders):
                given[declarer] = 10 - sum(given[d] or 0 for d in defenders)
            if None in given:
                raise UserFacingError(
                    _(
                        "Give each player's tricks (or the defenders' and the declarer's is "
                        "counted)."
                    ),
                    {"field": "tricks"},
                )
            tricks = tuple(int(t or 0) for t in given)
        return Hand(
            declarer,
            contract,
            game=bool(post.get("igra")),
            defence=defence,
            kontra=kontra,
            kontra_by=kontra_by,
            tricks=tricks,
        )

    # --- showing a protocol -------------------------------------------------------------
    @staticmethod
    def _hat(d: Any, seat: int) -> str:
        return next((kind for s, kind in d.hats if s == seat), "")

    def pulka_cells(self, protocol: Any) -> PulkaCells | None:
        try:
            scored = self._score(protocol)
        except ValueError:
            return None
        out = PulkaCells()
        for d in scored.deals:
            out.dealers.append(d.dealer)
            out.written.append(
                [
                    {
                        "column": d.column_delta[p],
                        "soups": sum(d.soup_delta[p]),
                        # written as on paper: the bula and what is left of it without a
                        # minus sign, the hat telling the side of zero (002 "Scoring")
                        "total_column": abs(d.columns[p]),
                        "total_soups": sum(d.soups[p]),
                        "refas": d.refas[p],
                        "refa_marks": "—" * d.refas[p],  # a refa line without its stroke
                        "refa_used": d.refa_used and d.declarer == p,
                        "hat": self._hat(d, p),
                    }
                    for p in range(protocol.size)
                ]
            )
        return out

    def sheet_terms(self, convention: Any, *, target: int) -> dict[str, Any]:
        """The refas allowed at the event's bula (seed 002 "Scoring": "Starting from 50, a
        maximum of three refas … from 30, just one"; or the convention's own limit)."""
        return {"refa_limit": convention.refa_limit_for(target)}

    def filled_sheet(self, protocol: Any, origin: list[int | None]) -> dict[str, Any]:
        """The sheet as the players keep it: per player the soup against his left opponent,
        his declarer column, the soup against his right opponent (seed 002 "Scoring"), with
        the hats and the unplayed refas."""
        scored = self._score(protocol)
        names = list(protocol.players)
        sides = [((p + 1) % 3, (p + 2) % 3) for p in range(3)]
        deals = []
        number = 0
        for i, d in enumerate(scored.deals):
            is_penalty = self.deal_kind(protocol.deals[i]) == "penalty"
            if not is_penalty:
                number += 1
            try:  # the players by name, never by seat number
                text = self.named_deal_text(protocol, i)
            except ValueError:
                text = repr(protocol.deals[i])
            deals.append(
                {
                    "number": "" if is_penalty else number,
                    "dealer": names[d.dealer] if d.dealer is not None else "",
                    "text": text,
                    "penalty": is_penalty,
                    "from_ruling": origin[i] is None if i < len(origin) else False,
                    "rule": getattr(protocol.deals[i], "rule", "") if is_penalty else "",
                    "value": d.capped_value or d.value,
                    "cells": [
                        {
                            "left": d.soups[p][sides[p][0]],
                            "column": abs(d.columns[p]),  # as on paper (002 "Scoring")
                            "right": d.soups[p][sides[p][1]],
                            "changed": bool(d.column_delta[p]),
                            "hat": self._hat(d, p),
                            "refas": d.refas[p],
                            "refa_marks": "—" * d.refas[p],
                            "refa_used": d.refa_used and d.declarer == p,
                        }
                        for p in range(3)
                    ],
                }
            )
        return {
            "soup_headers": [[names[q] for q in sides[p]] for p in range(3)],
            "deals": deals,
            "bula": protocol.bula,
            "refa_limit": scored.refa_limit,
            "ended": scored.ended,
            "stopped_early": scored.stopped_early,
            "settlement": [
                {
                    "name": names[p],
                    "column": scored.columns[p],
                    "soups": sum(scored.soups[p]),
                    "soups_against": sum(scored.soups[q][p] for q in range(3)),
                    "exact": str(scored.settlement[p]),
                }
                for p in range(3)
            ],
        }
