"""Russian Preference's pages (seed 001, the Kodeks): the phone form's deals (contract, whists,
tricks), the pulka's pulya / gora / whists cells, the Kodeks' penalties catalogue."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from rules.contracts import LADDER, Contract, InvalidContractError
from scoring.russian.notation import RESULT_WORDS
from scoring.russian.protocol import Call, Game, Penalty, Raspasy
from scoring.russian.pulka import score
from scoring.russian.writing import whisting_order
from tournaments import rule_sources
from tournaments.errors import UserFacingError, whole_number
from tournaments.families.russian import RussianDomain

from . import russian_sheet as paper
from . import russian_words as words
from .base import FamilyUI, PulkaCells

__all__ = ["RussianUI", "CALLS"]

CALLS = [
    ("", "—"),
    (Call.WHIST.value, gettext_lazy("whist")),
    (Call.PASS.value, gettext_lazy("pass")),
    (Call.HALF.value, gettext_lazy("half-whist")),
    (Call.HALF_RETURNED.value, gettext_lazy("half, returned")),
]


def _call(value: str | None, field: str) -> Call:
    """A whister's call from the form (empty: pass); anything else is a form error naming the
    field, never a 500 (issue 25 item 8)."""
    try:
        return Call(value or Call.PASS.value)
    except ValueError:
        raise UserFacingError(
            _("%(value)r is not a call: whist, pass, half-whist or half, returned.")
            % {"value": value},
            {"field": field},
        ) from None


def _tricks(post: Mapping[str, Any], seat: int, name: str) -> int | None:
    """A seat's tricks from the form: 0–10 (a deal has ten tricks, 001 §3.2.8), or none; the
    app's own message names the field, whatever the browser let through."""
    field = f"tricks_{seat}"
    value = (post.get(field) or "").strip()
    if not value:
        return None
    try:
        tricks = int(value)
    except ValueError:
        tricks = -1
    if not 0 <= tricks <= 10:
        raise UserFacingError(
            _("Tricks of %(name)s: %(value)s is not possible, a deal has 10 tricks (%(rule)s).")
            % {"name": name, "value": value, "rule": rule_sources.cite("001", "3.2.8")},
            {"field": field, "rule": "3.2.8"},
        )
    return tricks


def _num(x: Any) -> str:
    f = Fraction(str(x))
    if f.denominator == 1:
        return str(f.numerator)
    return f"{float(f):.2f}".rstrip("0").rstrip(".")


#: A call of the Kodeks' auction as :class:`rules.bidding.AuctionCall` writes it in a finding
#: (``мизер``, ``pass``, ``take``, ``здесь``), in the reader's words (issue 36: no Russian
#: "мизер" on a Croatian page, no English "pass" on a Russian one); a bid (6♠) as written
CALL_WORDS: dict[str, Any] = {
    "мизер": pgettext_lazy("a call of the Russian auction", "misère"),
    "pass": pgettext_lazy("a call of the Russian auction", "pass"),
    "take": pgettext_lazy("a call of the Russian auction", "take"),
    "здесь": pgettext_lazy("a call of the Russian auction", "here"),
}


class RussianUI(RussianDomain, FamilyUI):
    entry_template = "tournaments/protocols/entry/russian.html"
    pulka_template = "tournaments/protocols/cells/russian.html"
    filled_layout = "pulka"  # the pulka grid (tournaments.pdf.layouts, issue 28)
    finding_sources = ("001",)
    result_label = gettext_lazy("Result (whists)")
    result_heading = gettext_lazy("Whists")
    criterion_text = rule_sources.with_rule(
        gettext_lazy("Criterion: the sum of whists over approved protocols (%(rule)s)."),
        "001",
        "4.1.3",
    )
    ending_closed_label = gettext_lazy("closed (every pulya reached the target)")
    random_draw_rule = "note 8"
    adjusted_result_rule = "3.8.5.1 Б"
    ruling_params_template = "tournaments/protocols/_ruling_params.html"

    finding_titles = words.FINDING_TITLES

    # --- the table's deal entry ----------------------------------------------------------

    def contract_said(self, value: str, source: str) -> str:
        """A call of a finding in the reader's words (:data:`CALL_WORDS`: ``6♣ здесь`` says
        its ``здесь`` so); a bid or contract as written (the suits' signs read alike)."""
        head, _sep, last = str(value).rpartition(" ")
        if head and last in CALL_WORDS:
            return f"{head} {CALL_WORDS[last]}"
        word = CALL_WORDS.get(str(value))
        return str(word) if word is not None else str(value)

    def entry_context(self, protocol: Any) -> dict[str, Any]:
        return {
            "contracts": [(str(c), words.contract_words(c)) for c in LADDER],
            "calls": CALLS,
        }

    def deal_from_post(self, post: Mapping[str, Any], protocol: Any, dealer: int) -> Any:
        """A deal from the table's form: declarer, contract, each player's call and tricks."""
        n = protocol.size
        names = protocol.players
        tricks = [_tricks(post, p, names[p]) for p in range(n)]
        if post.get("kind") == "raspasy":
            return Raspasy(tuple(tricks[p] for p in range(n)))
        declarer = whole_number(post.get("declarer"))
        if declarer is None or not 0 <= declarer < n:
            raise UserFacingError(_("Choose the declarer."), {"field": "declarer"})
        try:
            contract = Contract.from_str(post.get("contract", ""))
        except InvalidContractError as exc:
            raise UserFacingError(
                _("Choose the contract: %s") % exc, {"field": "contract"}
            ) from exc
        if n == 4:  # the dealer sits out a game (001 §3.2.10): what was entered for him is
            # refused, naming it, never dropped unsaid
            out = {
                "declarer": declarer == dealer,
                f"call_{dealer}": bool(post.get(f"call_{dealer}")),
                f"tricks_{dealer}": tricks[dealer] is not None,
            }
            for field, given in out.items():
                if given:
                    raise UserFacingError(
                        _(
                            "%(name)s deals and sits out this deal (001 §3.2.10): leave his "
                            "call and tricks blank; only at raspasy may he take tricks from "
                            "the talon."
                        )
                        % {"name": names[dealer]},
                        {"field": field, "rule": "3.2.10"},
                    )
        if contract.is_misere:
            return Game(declarer, contract, (), tricks[declarer], open=bool(post.get("open")))
        defenders = whisting_order(declarer, n, dealer)
        calls = tuple(_call(post.get(f"call_{d}"), f"call_{d}") for d in defenders)
        played = Call.WHIST in calls and Call.HALF not in calls
        split = tuple(tricks[d] for d in defenders)
        declarer_tricks = tricks[declarer]
        if played and calls == (Call.WHIST, Call.WHIST):
            for d in defenders:  # each answers for his own tricks (001 §3.8.6)
                if tricks[d] is None:
                    raise UserFacingError(
                        _("Both whisted: give the tricks of %(name)s too (%(rule)s).")
                        % {"name": names[d], "rule": rule_sources.cite("001", "3.8.6")},
                        {"field": f"tricks_{d}", "rule": "3.8.6"},
                    )
        if played and declarer_tricks is None and None not in split:
            declarer_tricks = 10 - sum(split)  # type: ignore[arg-type]
        if played and declarer_tricks is None:
            raise UserFacingError(
                _("Give the tricks of %(name)s (the declarer), or each whister's.")
                % {"name": names[declarer]},
                {"field": f"tricks_{declarer}", "rule": "3.8.1"},
            )
        given = [t for t in (declarer_tricks, *split) if t is not None]
        if played and (len(given) == 3 and sum(given) != 10 or sum(given) > 10):
            raise UserFacingError(
                _("The tricks add up to %(n)d: a deal has 10 (%(rule)s).")
                % {"n": sum(given), "rule": rule_sources.cite("001", "3.2.8")},
                {"field": f"tricks_{declarer}", "rule": "3.2.8"},
            )
        return Game(
            declarer,
            contract,
            calls,
            declarer_tricks if played else None,
            split if played and None not in split else None,
            open=bool(post.get("open")),
        )

    def form_values(
        self, protocol: Any, index: int | None, post: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        """The deal form's values: deal ``index`` as entered ("Correct"), what was posted (a
        refused form keeps it), or blank. Per seat (``rows``) its call and tricks: the
        declarer's, and each whister's where they are known."""
        return self._form_values(protocol, index, post, None)

    def correction_forms(self, protocol: Any) -> list[dict[str, Any] | None]:
        """Every deal's correction form (:meth:`FamilyUI.correction_forms`) with the deals'
        dealers counted once, by one scoring of the whole pulka (001 §3.2.2), instead of two
        scorings of its beginning for each deal (a pulka of 120 deals scored 240 times)."""
        dealers = self.deal_dealers(protocol)
        return self._corrections(
            protocol, lambda index: self._form_values(protocol, index, None, dealers)
        )

    def _form_values(
        self,
        protocol: Any,
        index: int | None,
        post: Mapping[str, Any] | None,
        dealers: Sequence[int | None] | None,
    ) -> dict[str, Any]:
        """:meth:`form_values`; ``dealers``: each deal's dealer if known (``None``: counted from
        the deals before ``index``; a pulka the scoring refuses counts them so too)."""
        n = protocol.size
        rows = [
            {
                "position": p,
                "name": protocol.players[p],
                "field": f"tricks_{p}",
                "call": "",
                "tricks": "",
            }
            for p in range(n)
        ]
        form: dict[str, Any] = {"kind": "game", "declarer": "", "contract": "", "open": False}
        if post is not None:
            form.update(
                kind=post.get("kind", "game"),
                declarer=str(post.get("declarer", "")),
                contract=post.get("contract", ""),
                open=bool(post.get("open")),
            )
            for row in rows:
                row["call"] = post.get(f"call_{row['position']}", "")
                row["tricks"] = post.get(f"tricks_{row['position']}", "")
            raw = str(post.get("index") or "")
            index = int(raw) if post.get("action") == "replace" and raw.isdigit() else None
            return dict(form, rows=rows, **self._form_dealer(protocol, index, None))
        deal = protocol.deals[index] if index is not None else None
        if type(deal) is Raspasy:
            for row, c in zip(rows, deal.tricks, strict=False):
                row["tricks"] = "" if c is None else str(c)
            form["kind"] = "raspasy"
        elif type(deal) is Game and 0 <= deal.declarer < n:
            form.update(declarer=str(deal.declarer), contract=str(deal.contract), open=deal.open)
            if deal.declarer_tricks is not None:
                rows[deal.declarer]["tricks"] = str(deal.declarer_tricks)
            if dealers is not None:
                dealer = dealers[index]
            else:
                try:
                    dealer = score(protocol.with_deals(protocol.deals[: index + 1])).dealers[index]
                except ValueError:
                    dealer = None
            if dealer is not None and deal.calls:
                defenders = whisting_order(deal.declarer, n, dealer)
                for d, call in zip(defenders, deal.calls, strict=False):
                    rows[d]["call"] = str(call)
                for d, t in zip(defenders, deal.defender_tricks or (), strict=False):
                    rows[d]["tricks"] = str(t)
        return dict(form, rows=rows, **self._form_dealer(protocol, index, dealers))

    def _form_dealer(
        self, protocol: Any, index: int | None, dealers: Sequence[int | None] | None
    ) -> dict[str, Any]:
        """Who deals the deal the form enters (deal ``index``'s, else the next), and at a
        table of four who therefore sits out a game (001 §3.2.10). ``dealers``: each deal's
        dealer, when known (the seat after the last dealer before ``index``: the deal passes to
        the left, 001 §3.2.2, and a penalty passes nothing)."""
        if index is not None and 0 <= index < len(protocol.deals) and dealers is not None:
            before = [d for d in dealers[:index] if d is not None]
            dealer = (before[-1] + 1) % protocol.size if before else protocol.first_dealer
        elif index is not None and 0 <= index < len(protocol.deals):
            dealer = self.next_dealer(protocol.with_deals(protocol.deals[:index]))
        else:
            dealer = self.next_dealer(protocol)
        return {"dealer": dealer, "sitting_out": dealer if protocol.size == 4 else None}

    # --- what the players wrote ------------------------------------------------------------
    sheet_template = "tournaments/protocols/sheet/russian.html"

    def sheet_rows(self, protocol: Any) -> list[tuple[str, str]]:
        return paper.sheet_rows(protocol)

    def sheet_form(
        self, protocol: Any, sheet: Any, row: str, post: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        return paper.sheet_form(protocol, sheet, row, post)

    def sheet_from_post(self, post: Mapping[str, Any], protocol: Any, sheet: Any) -> Any:
        return paper.sheet_from_post(post, protocol, sheet)

    # --- showing a protocol -------------------------------------------------------------
    def deal_words(self, protocol: Any, index: int, dealer: int | None) -> str:
        return words.deal_words(protocol, index, dealer)

    def finding_sentence(self, finding: Mapping[str, Any], names: Any, title: str) -> str:
        return words.finding_sentence(finding, names, title)

    def penalty_words(self, entry: Mapping[str, Any], names: Any) -> str:
        return words.penalty_words(entry, names)

    def pulka_cells(self, protocol: Any) -> PulkaCells | None:
        try:
            scored = score(protocol)
        except ValueError:
            return None
        out = PulkaCells()
        n = protocol.size
        for i in range(len(protocol.deals)):
            if i >= len(scored.totals):
                break
            delta, totals = scored.delta(i), scored.row(i)
            out.written.append(
                [
                    {
                        "pulya": delta[p].pulya,
                        "gora": delta[p].gora,
                        "whists": sum(delta[p].whists),
                        # on whom: "W10 → Boris", "W10 → Boris 6, Vera 4"
                        "whists_on": _whists_on(delta[p].whists, protocol.players),
                        "total_pulya": totals[p].pulya,
                        "total_gora": totals[p].gora,
                    }
                    for p in range(n)
                ]
            )
            out.dealers.append(scored.dealers[i])
        return out

    def filled_sheet(self, protocol: Any, origin: list[int | None]) -> dict[str, Any]:
        """The pulka as on paper: per deal the running pulya, gora and whists of every player."""
        scored = score(protocol)
        n = protocol.size
        names = list(protocol.players)
        deals = []
        number = 0
        for i, deal in enumerate(protocol.deals):
            is_penalty = isinstance(deal, Penalty)
            if not is_penalty:
                number += 1
            row = scored.row(i)
            dealer = scored.dealers[i]
            deals.append(
                {
                    "number": "" if is_penalty else number,
                    "dealer": names[dealer] if dealer is not None else "",
                    "text": self.named_deal_text(protocol, i, _sheet_words),
                    "penalty": is_penalty,
                    "from_ruling": origin[i] is None,
                    "rule": deal.rule if is_penalty else "",
                    "cells": [
                        {
                            "pulya": row[p].pulya,
                            "gora": row[p].gora,
                            "whists": [row[p].whists[q] for q in range(n) if q != p],
                        }
                        for p in range(n)
                    ],
                }
            )
        final = scored.final_row()
        return {
            "whist_headers": [[names[q] for q in range(n) if q != p] for p in range(n)],
            "deals": deals,
            "settlement_rounding": scored.settlement.rounding,
            "settlement": [
                {
                    "name": names[p],
                    "pulya": final[p].pulya,
                    "gora": final[p].gora,
                    "gora_settled": scored.settlement.gora[p],
                    "exact": _num(scored.settlement.exact[p]),
                }
                for p in range(n)
            ],
        }


#: a defenders' calls word of the notation ("w/p", "w3/p1", "h", "hr")
_CALLS = re.compile(r"(?:w|p|hr|h)\d*(?:/(?:w|p|hr|h)\d*)*")
_CALL = re.compile(r"(hr|w|p|h)(\d*)")


def _sheet_words(text: str) -> str:
    """A deal's notation line as the filled sheet writes it: without its dealer (a column of
    its own), the defenders' calls and the notation's Russian words in the page's language
    ("в/п", "ровно", "без одной", "мизер", "распасы", "штраф" on a Russian page; "točno",
    "genau", "jämnt" … on the others, issue 36)."""
    codes = {
        "w": pgettext("a whist call on the sheet", "w"),
        "p": pgettext("a pass call on the sheet", "p"),
        "h": pgettext("a half-whist call on the sheet", "h"),
        "hr": pgettext("a half-whist returned on the sheet", "hr"),
    }
    said = {
        "ровно": pgettext("a contract made exactly, on the sheet", "exactly"),
        "мизер": words.contract_words(Contract(0, None)),
        "распасы": pgettext("all passed, on the sheet", "raspasy"),
        "штраф": pgettext("a penalty entry, on the sheet", "penalty"),
    }
    out: list[str] = []
    for word in text.split():
        if word.startswith("dealer="):
            continue
        if out and out[-1] == "без" and word in RESULT_WORDS:  # "без одной": one down
            out[-1] = words.down(RESULT_WORDS.index(word) + 1)
            continue
        if _CALLS.fullmatch(word):
            word = _CALL.sub(lambda m: codes[m.group(1)] + m.group(2), word)
        out.append(said.get(word, word))
    return " ".join(out)


def _whists_on(whists: Any, names: tuple[str, ...]) -> str:
    """The whists a player wrote in a deal, by the player they are written on."""
    on = [(names[q], w) for q, w in enumerate(whists) if w]
    if len(on) == 1:
        return on[0][0]
    return ", ".join(f"{name} {w}" for name, w in on)
