"""Swedish Priffe's pages (seed 004): four players in two partnerships (bolag), three sits in
which everyone partners everyone, points below and above the line (under / över strecket).

The phone form enters a deal: its sits, the contract (pref, noll, hjärter, ruter; in the
old-fashioned scoring also klöver and spader) and who bid it, or tvångsnoll; the tricks of the
declarer's side and of the other side (13 together); honours (honnörer) and who held them. The
pulka view shows per player what his side wrote below and above the line, the side's points in
the current game, its games, and a game line (utgång) or the sits won. The filled and blank
protocols are the players' sheet: per sits the two partnerships, above the line, the line, below
the line with a line under every game.

Seed 004 defines no penalties: the catalogue is empty, and a referee's or the event's own
penalty writes its points above the line for the offender's opponents (bridge practice; the
neutral entry's ``gora``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from rules.priffe import PASS, Contract, auction_outcome, auction_problems, parse_bid
from scoring.priffe.protocol import Hand, Honours, HonoursPattern, Penalty, default_sittings
from scoring.priffe.score import convention_of
from tournaments import rule_sources
from tournaments.errors import UserFacingError, whole_number
from tournaments.families.priffe import PriffeDomain

from .base import FamilyUI, PulkaCells

__all__ = ["CONTRACT_WORDS", "HONOURS", "LINE_WORDS", "PriffeUI", "line_in_words"]

#: how the honours lay (seed 004 "poäng för att ha fått honnörerna")
HONOURS = [
    ("4", gettext_lazy("all four in one hand")),
    ("3+1", gettext_lazy("three in one hand, the fourth with the partner")),
    ("3", gettext_lazy("three in one hand")),
]

FINDING_TITLES: dict[str, Any] = {
    "INFORMATION_BID_CONTRACT": gettext_lazy("An information bid is not a contract"),
    "AUCTION": gettext_lazy("A bid against the bidding rules"),  # stored before issue #37
    # one code a rule of 004 "Budgivning" (issue #37), under the same heading
    **dict.fromkeys(
        ("AUCTION_ROUND", "AUCTION_TVANGSNOLL", "AUCTION_INFORMATION", "AUCTION_NOT_HIGHER"),
        gettext_lazy("A bid against the bidding rules"),
    ),
    "AUCTION_CONTRACT": gettext_lazy("The contract is not what the bids give"),
    "DECLARER": gettext_lazy("No such declarer"),
    "TRICKS_SUM": gettext_lazy("The tricks do not make thirteen"),
    "HONOURS_IMPOSSIBLE": gettext_lazy("Honours that cannot exist"),
    "DEALER": gettext_lazy("Dealer out of turn"),
    "FOURTH_SITS": gettext_lazy("A fourth sits"),
    "PARTNERSHIP_REPEATED": gettext_lazy("The same partnership twice"),
    "TARGET": gettext_lazy("More sits agreed than there are partnerships"),
    "SITS_NOT_WON": gettext_lazy("A new sits before the last one was won"),
    "DEAL_AFTER_SITS": gettext_lazy("A deal after its sits was won"),
    "DEAL_AFTER_END": gettext_lazy("A deal after the game ended"),
    "SITS_ORDER": gettext_lazy("The sits are out of order"),
    "NOT_CLOSED": gettext_lazy("Marked ended, but the agreed sits were not played"),
    "ENDING": gettext_lazy("Stopped before the end"),
    "SIMPLE_SITS": gettext_lazy("The simpler variant plays one partnership"),
    "PENALTY": gettext_lazy("Penalty entry"),
    "SEATING": gettext_lazy("The seating is not the four players"),
    "PLAYERS": gettext_lazy("Priffe is played by four"),
    "CONVENTION": gettext_lazy("Unknown scoring or option"),
    "SHEET_BELOW": gettext_lazy("Written below the line differs"),
    "SHEET_ABOVE": gettext_lazy("Written above the line differs"),
    "SHEET_GAME": gettext_lazy("A game line differs"),
    "SHEET_SITS": gettext_lazy("Written sits totals differ"),
    "SHEET_RESULT": gettext_lazy("Written result differs"),
    "SHEET_LENGTH": gettext_lazy("More written rows than deals"),
}


#: A contract or bid a finding names (its Swedish name in the notation and the command line's
#: message), in the reader's words (issue 36: "Gebot 3: Pik …", not "spader" on a German page);
#: the Swedish page says the rule text's own words
CONTRACT_WORDS: dict[str, Any] = {
    Contract.PREFERENCE: pgettext_lazy("a Priffe contract", "no trumps"),
    Contract.NOLL: pgettext_lazy("a Priffe contract", "misère"),
    Contract.HJARTER: pgettext_lazy("a Priffe contract", "hearts"),
    Contract.RUTER: pgettext_lazy("a Priffe contract", "diamonds"),
    Contract.KLOVER: pgettext_lazy("a Priffe contract", "clubs"),
    Contract.SPADER: pgettext_lazy("a Priffe contract", "spades"),
    Contract.TVANGSNOLL: pgettext_lazy("a Priffe contract", "forced misère"),
    PASS: pgettext_lazy("a Priffe contract", "pass"),
}

#: The other words of a Priffe deal line (the notation's, seed 004's Swedish) in the reader's
#: words (issue 36: the deal lines and the filled sheet say "spades", "honours", "penalty" on an
#: English page; the Swedish page the rule text's own words); the contracts and bids are
#: :data:`CONTRACT_WORDS`
LINE_WORDS: dict[str, Any] = {
    "honnörer": pgettext_lazy("a Priffe deal line", "honours"),
    "lillslam": pgettext_lazy("a Priffe deal line", "small slam"),
    "storslam": pgettext_lazy("a Priffe deal line", "grand slam"),
    "straff": pgettext_lazy("a Priffe deal line", "penalty"),
    "rule=": pgettext_lazy("a Priffe deal line", "rule="),
    "note=": pgettext_lazy("a Priffe deal line", "note="),
    "dealer=": pgettext_lazy("a Priffe deal line", "dealer="),
    "sits=": pgettext_lazy("a Priffe deal line", "sits="),
}
#: a word of the notation's line: a contract, a bid or a keyword, not inside another word
_LINE_WORD = re.compile(
    r"(?<![\w=])("
    + "|".join(re.escape(w) for w in sorted({*CONTRACT_WORDS, *LINE_WORDS}, key=len, reverse=True))
    + r")(?:(?<==)|(?!\w))"
)


def line_in_words(line: str) -> str:
    """A Priffe deal line (the notation's Swedish words, names already out of the way) in the
    reader's words: :data:`CONTRACT_WORDS` and :data:`LINE_WORDS`. A quoted rule or note is
    left as written."""
    out = []
    for k, part in enumerate(re.split(r'("(?:[^"\\]|\\.)*")', line)):
        if k % 2:  # a quoted value: the referee's own words
            out.append(part)
            continue
        out.append(
            _LINE_WORD.sub(
                lambda m: str(CONTRACT_WORDS.get(m.group(1)) or LINE_WORDS[m.group(1)]), part
            )
        )
    return "".join(out)


class PriffeUI(PriffeDomain, FamilyUI):
    entry_template = "tournaments/protocols/entry/priffe.html"
    pulka_template = "tournaments/protocols/cells/priffe.html"
    filled_layout = "sits"  # a box per sits, the deals listed (tournaments.pdf.layouts)
    blank_template = "pdf/blank_protocol_priffe.html"
    #: seed 004: a penalty's points written above the line for the offender's opponents
    penalty_terms = {"gora": gettext_lazy("%(n)s above the line for the opponents")}
    result_label = gettext_lazy("Player total (points)")
    result_heading = gettext_lazy("Points")
    criterion_text = rule_sources.with_rule(
        gettext_lazy(
            "Criterion: the sum of the player totals over approved protocols, every point a "
            "side writes credited to both partners (%(rule)s)."
        ),
        "004",
        "Poängräkning",
    )
    ending_closed_label = gettext_lazy("ended (the agreed sits were won)")
    finding_titles = FINDING_TITLES
    finding_sources = ("004",)
    form_takes_penalties = True  # the form's straff
    # docs/priffe-format.md; tests/tournaments/protocols/test_desk_notation.py reads them
    notation_hint = gettext_lazy(
        "Deals, one a line, under their sits’ seating (e.g. “sits 1: Anna, Bertil, Cecilia, "
        "David”, “Bertil hjärter 8/5 honnörer Cecilia 3”, “tvångsnoll Anna 4/9”, “straff "
        "David 50 rule=revoke”); a first name will do where no one else at the table has it"
    )
    sheet_hint = gettext_lazy(
        "Optionally what the players wrote, to check it: “sheet 1: under 0 20, över 30 0” "
        "(below and above the line, the first side first; “utgång” after a game line)."
    )

    def contract_said(self, value: str, source: str) -> str:
        """A contract or bid of a finding (its Swedish name) in the reader's words
        (:data:`CONTRACT_WORDS`); what is none as written."""
        word = CONTRACT_WORDS.get(value)
        return str(word) if word is not None else str(value)

    def named_deal_text(
        self, protocol: Any, index: int, words: Callable[[str], str] | None = None
    ) -> str:
        """The deal's line with the names, its Swedish words in the reader's
        (:func:`line_in_words`; on /sv/ the rule text's own)."""
        return super().named_deal_text(protocol, index, words or line_in_words)

    # --- sits ----------------------------------------------------------------------------
    @staticmethod
    def _side_names(protocol: Any, sits: int) -> list[str]:
        """The two partnerships of a sits as "Anna & Cecilia" (side 0 first)."""
        seating = protocol.seating(sits)
        if seating is None:
            return ["", ""]
        names = protocol.players
        return [f"{names[seating[k]]} & {names[seating[k + 2]]}" for k in (0, 1)]

    # --- the table's deal entry ----------------------------------------------------------
    def entry_context(self, protocol: Any) -> dict[str, Any]:
        try:
            conv = convention_of(protocol)
            contracts = [c for c in conv.ladder if conv.is_contract(c)]
        except ValueError:
            contracts = [Contract.PREFERENCE, Contract.NOLL, Contract.HJARTER, Contract.RUTER]
        try:
            ladder = list(convention_of(protocol).ladder)
        except ValueError:
            ladder = [c for c in Contract if c is not Contract.TVANGSNOLL]
        current = self.current_sits(protocol)
        return {
            # the value the notation's code, the label the reader's word (issue 36)
            "contracts": [(c.value, str(CONTRACT_WORDS.get(c, c.value))) for c in contracts],
            "bids": [
                (PASS, str(CONTRACT_WORDS[PASS])),
                *((c.value, str(CONTRACT_WORDS.get(c, c.value))) for c in ladder),
            ],
            "honours": HONOURS,
            "sittings": [
                {"index": k, "number": k + 1, "sides": self._side_names(protocol, k)}
                for k in range(len(protocol.sittings))
            ],
            "current_sits": current,
        }

    def form_values(
        self, protocol: Any, index: int | None, post: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        """The deal form's values: deal ``index`` as entered ("Correct": a hand with its sits,
        bids, contract, declarer, tricks and honours, or a straff), what was posted (a refused
        form keeps it), or blank in the sits being played. Per seat its bid."""
        values: dict[str, str] = {"sits": str(self.current_sits(protocol) + 1)}
        if post is not None:
            values.update(self.posted(post))
        elif index is not None and 0 <= index < len(protocol.deals):
            deal = protocol.deals[index]
            values["sits"] = str(deal.sits + 1)
            if isinstance(deal, Penalty):
                values.update(
                    kind="straff",
                    offender=str(deal.player),
                    penalty_points=str(deal.points),
                    penalty_rule=deal.rule,
                )
            elif isinstance(deal, Hand) and protocol.seating(deal.sits) is not None:
                seating = protocol.sittings[deal.sits]
                forced = deal.contract is Contract.TVANGSNOLL
                # at tvångsnoll "a player of the side whose tricks you give": side 0's first
                player = seating[0] if forced or deal.declarer is None else deal.declarer
                side = seating.index(player) % 2
                values.update(
                    kind="tvangsnoll" if forced else "hand",
                    contract="" if forced else deal.contract.value,
                    declarer=str(player),
                    tricks_own=str(deal.tricks[side]),
                    tricks_other=str(deal.tricks[1 - side]),
                )
                if deal.honours:
                    values.update(
                        honours_holder=str(deal.honours[0].holder),
                        honours_pattern=deal.honours[0].pattern.value,
                    )
                if deal.bids:
                    dealer = (
                        deal.dealer
                        if deal.dealer is not None
                        else self._dealer_of(
                            protocol, {"action": "replace", "index": str(index)}, deal.sits
                        )
                    )
                    start = seating.index(dealer) + 1
                    for k, bid in enumerate(deal.bids[:4]):
                        values[f"bid_{seating[(start + k) % 4]}"] = bid
        return self.seat_form(protocol, values, ("bid",), kind="hand", declarer="", contract="")

    def deal_from_post(self, post: Mapping[str, Any], protocol: Any, dealer: int) -> Any:
        """A deal from the phone form (seed 004): its sits; the auction as each player spoke it
        (optional: all four or none); the contract and who bid it — taken from the auction when
        left blank — or tvångsnoll and a player of the side whose tricks are given; the tricks
        of that side and of the other (13 together: the other is counted when left blank);
        honours. Or (``kind=straff``) a penalty the referee gave: the offender, the points
        written above the line for his opponents in the sits chosen, the rule.

        The auction is stored as spoken, in order from forehand; its legality (one round, each
        bid higher, information bids of the first two speakers only) and the contract it gives
        are the checker's findings, shown next to the deal (seed 004 "Budgivning")."""
        sits = whole_number(post.get("sits"), "sits")
        if sits is None:
            sits = self.current_sits(protocol)
        else:
            sits -= 1
        if not 0 <= sits < len(protocol.sittings):
            raise UserFacingError(_("Choose the sits."), {"field": "sits"})
        seating = protocol.sittings[sits]
        if post.get("kind") == "straff":
            return self._penalty_from_post(post, sits)
        bids = self._bids_from_post(post, protocol, sits, seating)
        forced = post.get("kind") == "tvangsnoll"
        player = whole_number(post.get("declarer"), "declarer")
        contract_word = str(post.get("contract") or "")
        if not forced and not contract_word and bids is not None:
            try:
                contract, speaker = auction_outcome(bids, convention_of(protocol))
            except ValueError:
                contract, speaker = None, None
            if contract is Contract.TVANGSNOLL:
                forced = True
            elif contract is not None and speaker is not None:
                contract_word = contract.value
                if player is None and not auction_problems(bids, convention_of(protocol)):
                    player = seating[(seating.index(self._dealer_of(protocol, post, sits)) + 1
                                      + speaker) % 4]  # fmt: skip
        if player is None or not 0 <= player < 4:
            if forced:
                raise UserFacingError(
                    _("Choose a player of the side whose tricks you give."), {"field": "declarer"}
                )
            raise UserFacingError(_("Choose the declarer."), {"field": "declarer"})
        if forced:
            contract = Contract.TVANGSNOLL
        else:
            try:
                contract = Contract(contract_word)
            except ValueError:
                raise UserFacingError(_("Choose the contract."), {"field": "contract"}) from None
            if contract is Contract.TVANGSNOLL:
                raise UserFacingError(_("Choose the contract."), {"field": "contract"})
        own = whole_number(post.get("tricks_own"), "tricks_own")
        other = whole_number(post.get("tricks_other"), "tricks_other")
        if own is None and other is None:
            raise UserFacingError(
                _("Give the tricks of the declarer's side (the other side's are counted)."),
                {"field": "tricks_own"},
            )
        for value, field in ((own, "tricks_own"), (other, "tricks_other")):
            if value is not None and not 0 <= value <= 13:
                raise UserFacingError(
                    _("Tricks are counted from 0 to 13."), {"field": field, "value": value}
                )
        own = 13 - other if own is None and other is not None else own
        other = 13 - own if other is None and own is not None else other
        side = seating.index(player) % 2
        tricks = (own, other) if side == 0 else (other, own)
        honours: tuple[Honours, ...] = ()
        holder = whole_number(post.get("honours_holder"), "honours_holder")
        if holder is not None:
            if not 0 <= holder < 4:
                raise UserFacingError(_("No such player."), {"field": "honours_holder"})
            try:
                pattern = HonoursPattern(str(post.get("honours_pattern") or ""))
            except ValueError:
                raise UserFacingError(
                    _("Choose how the honours lay."), {"field": "honours_pattern"}
                ) from None
            honours = (Honours(holder, pattern),)
        return Hand(
            sits,
            contract,
            None if forced else player,
            (int(tricks[0]), int(tricks[1])),
            honours=honours,
            bids=bids,
        )

    @staticmethod
    def _dealer_of(protocol: Any, post: Mapping[str, Any], sits: int) -> int:
        """The dealer of the deal posted, by the rotation (seed 004: clockwise through the
        sits' seating, one seat per deal): a new deal follows the sits' deals so far, a
        corrected one (``action=replace``, ``index``) those before it."""
        deals = list(protocol.deals)
        index = whole_number(post.get("index"), "index")
        if post.get("action") == "replace" and index is not None and 0 <= index < len(deals):
            deals = deals[:index]
        played = sum(1 for d in deals if isinstance(d, Hand) and d.sits == sits)
        return int(protocol.sittings[sits][played % 4])

    def _bids_from_post(
        self, post: Mapping[str, Any], protocol: Any, sits: int, seating: Any
    ) -> tuple[str, ...] | None:
        """Each player's bid (``bid_<seat>``), in speaking order from forehand (the dealer's
        left); ``None`` when the table recorded no auction. A partial auction is refused,
        naming the first player whose bid is missing."""
        said = {p: str(post.get(f"bid_{p}") or "").strip() for p in range(4)}
        if not any(said.values()):
            return None
        start = seating.index(self._dealer_of(protocol, post, sits)) + 1
        order = [seating[(start + k) % 4] for k in range(4)]
        bids = []
        for p in order:
            if not said[p]:
                raise UserFacingError(
                    _(
                        "Give %(name)s's bid (pass if he passed), or leave every bid blank: "
                        "one round of four bids (%(rule)s)."
                    )
                    % {"name": protocol.players[p], "rule": rule_sources.cite("004", "Budgivning")},
                    {"field": f"bid_{p}"},
                )
            try:
                bids.append(parse_bid(said[p]))
            except ValueError:
                raise UserFacingError(
                    _("%(value)r is not a bid.") % {"value": said[p]}, {"field": f"bid_{p}"}
                ) from None
        return tuple(bids)

    def _penalty_from_post(self, post: Mapping[str, Any], sits: int) -> Penalty:
        """A penalty entered at the table: the offender, whole points (above the line for
        his opponents in ``sits``), the rule or reason."""
        player = whole_number(post.get("offender"), "offender")
        if player is None or not 0 <= player < 4:
            raise UserFacingError(_("Choose the offender."), {"field": "offender"})
        points = whole_number(post.get("penalty_points"), "penalty_points")
        if points is None or points <= 0:
            raise UserFacingError(
                _("Give the penalty's points (a whole number above 0)."),
                {"field": "penalty_points"},
            )
        rule = str(post.get("penalty_rule") or "").strip()
        if not rule:
            raise UserFacingError(
                _("Give the rule or the reason for the penalty."), {"field": "penalty_rule"}
            )
        return Penalty(sits, player, points, rule)

    # --- showing a protocol -------------------------------------------------------------
    def _running_totals(self, protocol: Any, scored: Any) -> list[list[int]]:
        """Each player's total after each deal (every point his side wrote, seed 004)."""
        totals = [0] * protocol.size
        out = []
        for d in scored.deals:
            seating = protocol.sittings[d.sits]
            for side in (0, 1):
                for p in (seating[side], seating[side + 2]):
                    totals[p] += d.below[side] + d.above[side]
            out.append(list(totals))
        return out

    def pulka_cells(self, protocol: Any) -> PulkaCells | None:
        try:
            scored = self._score(protocol)
        except ValueError:
            return None
        out = PulkaCells()
        running = self._running_totals(protocol, scored)
        for i, d in enumerate(scored.deals):
            seating = protocol.sittings[d.sits]
            out.dealers.append(d.dealer)
            cells = []
            for p in range(protocol.size):
                side = seating.index(p) % 2
                cells.append(
                    {
                        "sits": d.sits + 1,
                        "partner": protocol.players[seating[(seating.index(p) + 2) % 4]],
                        "below": d.below[side],
                        "above": d.above[side],
                        "game_points": d.game_points[side],
                        "games": d.games[side],
                        "game_won": d.game_won_by == side,
                        "sits_won": d.sits_won_by == side,
                        "total": running[i][p],
                    }
                )
            out.written.append(cells)
        return out

    def filled_sheet(self, protocol: Any, origin: list[int | None]) -> dict[str, Any]:
        """The players' sheet: per sits the two partnerships, what each wrote above the line
        (nearest the line last, as written), the line, below the line with a line under each
        game won (utgång); the sits' games and totals; then the player totals."""
        scored = self._score(protocol)
        names = list(protocol.players)
        deals = []
        per_sits: dict[int, dict[str, Any]] = {}
        for i, d in enumerate(scored.deals):
            is_penalty = isinstance(protocol.deals[i], Penalty)
            try:
                text = self.named_deal_text(protocol, i)
            except ValueError:
                text = repr(protocol.deals[i])
            # numbered as the web page numbers its rows (and the findings their deals): every
            # line of the pulka in turn, a penalty's too (issue 36)
            label = i + 1
            deals.append(
                {
                    "number": label,
                    "sits": d.sits + 1,
                    "dealer": names[d.dealer] if d.dealer is not None else "",
                    "text": text,
                    "penalty": is_penalty,
                    "from_ruling": origin[i] is None if i < len(origin) else False,
                    "rule": getattr(protocol.deals[i], "rule", "") if is_penalty else "",
                }
            )
            box = per_sits.setdefault(d.sits, {"above": [], "below": []})
            if any(d.above):
                box["above"].append(
                    {"number": f"{label} ✎" if is_penalty else label, "cells": list(d.above)}
                )
            if any(d.below) or d.game_won_by is not None:
                box["below"].append(
                    {
                        "number": f"{label} ✎" if is_penalty else label,
                        "cells": list(d.below),
                        "game_line": d.game_won_by is not None,
                        "game_points": list(d.game_points),
                    }
                )
        sits = []
        for s in scored.sits:
            box = per_sits.get(s.index, {"above": [], "below": []})
            sits.append(
                {
                    "number": s.index + 1,
                    "sides": self._side_names(protocol, s.index),
                    "above": list(reversed(box["above"])),  # written upwards from the line
                    "below": box["below"],
                    "games": list(s.games),
                    "below_total": list(s.below),
                    "above_total": list(s.above),
                    "totals": list(s.totals),
                    "winner": self._side_names(protocol, s.index)[s.winner]
                    if s.winner is not None
                    else "",
                }
            )
        rows = self.result_rows(protocol)
        return {
            "deals": deals,
            "sits": sits,
            "game_points": scored.convention.game_points if not scored.convention.simple else None,
            "ended": protocol.ending == "closed",
            "settlement": [
                {
                    "name": names[p],
                    "games": rows[p]["games"],
                    "sits_won": rows[p]["sits_won"],
                    "exact": rows[p]["exact"],
                }
                for p in range(protocol.size)
            ],
        }

    def sheet_terms(self, convention: Any, *, target: int) -> dict[str, Any]:
        """The trick points of a game (seed 004 "Utgång": 30, the old way 20); none in the
        simpler variant ("Enklare variant av Priffe": no games)."""
        return {"game_points": None if convention.simple else convention.game_points}

    def blank_sheet(self, *, players: list[str], first_dealer: int, options: Any) -> dict:
        """The blank sheet's sits boxes: Pulka's partnership schedule from the table's first
        dealer (a+c, a+b, a+d; A-PR-5), one box in the simpler variant."""
        sittings = default_sittings(first_dealer)
        try:
            simple = options.simple
        except AttributeError:
            simple = False
        if simple:
            sittings = sittings[:1]
        if len(players) != 4:
            return {"sits": []}
        return {
            "above_rows": range(6),
            "below_rows": range(14),
            "sits": [
                {
                    "number": k + 1,
                    "sides": [f"{players[s[j]]} & {players[s[j + 2]]}" for j in (0, 1)],
                    "first_dealer": players[s[0]],
                }
                for k, s in enumerate(sittings)
            ],
        }
