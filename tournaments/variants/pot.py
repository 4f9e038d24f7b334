"""Viennese and German Préférence's pages (seeds 000 and 003): the pot games keep no score sheet,
so the pulka view and the protocol PDFs are a **ledger**: a column per player and one for the
pot, a line per deal, what changed hands and the cumulative nets (``python -m scoring score``
prints the same ledger).

The phone form takes a deal in the players' words: the declarer, the contract (with or without
the talon: utan köp, aus der Hand; the premium contracts hjärter, fem … åtta; German Herz is the
Prämie), an efterköp, each defender's decision (går med, stannar hemma, bjuder in, inbjuden,
tvång; mitgehen, daheim bleiben), the tricks per seat, a negotiated split; or a rundpass (the
krypspel's tricks; German "alle passen" is thrown in). With four players the dealer sits out
(000 "Spel på fyra personer").

The seeds define no penalties: the catalogue is empty, and a referee's or the event's own penalty
is paid into the pot (the neutral entry's ``gora``) or to other players (its ``whists``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import get_language, gettext_lazy, pgettext_lazy
from django.utils.translation import gettext as _

from rules.pot import GERMAN, VIENNESE, InvalidPotContractError, PotContract
from scoring.pot.protocol import Decision, Hand, Rundpass, active_seats, defenders_of
from scoring.pot.score import dealers
from tournaments import rule_sources
from tournaments.errors import UserFacingError, whole_number
from tournaments.families.pot import PotDomain, _fraction

from .base import FamilyUI, PulkaCells

__all__ = ["PotUI", "DECISION_SAID", "DECISION_WORDS", "FINDING_TITLES", "GAME_SAID", "LINE_WORDS"]

#: A defender's decision in the players' words, by the convention's language (000 "Gå med eller
#: stanna hemma", "Inbjudan", "Tvång"; 003 "mitgehen", "daheim bleiben"). German has neither
#: invitation nor forced play.
DECISION_WORDS: dict[str, list[tuple[str, str]]] = {
    "sv": [
        ("go", "går med"),
        ("home", "stannar hemma"),
        ("invite", "bjuder in"),
        ("invited", "inbjuden"),
        ("forced", "tvång"),
    ],
    "de": [("go", "mitgehen"), ("home", "daheim bleiben")],
}
#: The pot games' words said in the reader's language where it is not the game's own (issue 36:
#: a Viennese club in Vienna reads German, one in Zagreb Croatian; the Swedish words of seed 000
#: are for /sv/, the German of seed 003 for /de/): a defender's decision
DECISION_SAID: dict[str, Any] = {
    "go": pgettext_lazy("a pot game's decision", "goes along"),
    "home": pgettext_lazy("a pot game's decision", "stays home"),
    "invite": pgettext_lazy("a pot game's decision", "invites"),
    "invited": pgettext_lazy("a pot game's decision", "invited"),
    "forced": pgettext_lazy("a pot game's decision", "forced play"),
}
#: a level's word (the Viennese fem … åtta; the others a number where the language says so)
LEVEL_SAID: dict[int, Any] = {
    5: pgettext_lazy("a pot game's level", "5"),
    6: pgettext_lazy("a pot game's level", "6"),
    7: pgettext_lazy("a pot game's level", "7"),
    8: pgettext_lazy("a pot game's level", "8"),
}
#: the game's other words
GAME_SAID: dict[str, Any] = {
    "no talon": pgettext_lazy("a pot game", "without the talon"),
    "efterkop": pgettext_lazy("a pot game", "after-purchase"),
    "rundpass": pgettext_lazy("a pot game", "all pass"),
    "negotiated": pgettext_lazy("a pot game", "negotiated"),
    "penalty": pgettext_lazy("a pot game", "penalty"),
    "pot": pgettext_lazy("a pot game", "pot"),
    "dealer": pgettext_lazy("a pot game", "dealer"),
    "auction": pgettext_lazy("a pot game", "bids"),
    "rule": pgettext_lazy("a pot game", "rule"),
    "note": pgettext_lazy("a pot game", "note"),
}

#: "all passed" in the players' words
RUNDPASS_WORDS = {"sv": "rundpass", "de": "alle passen"}
#: the pot in the players' words
POT_WORDS = {"sv": "pott", "de": "Topf"}

#: A bid or contract of a finding in the reader's words where they are not the game's own
#: (issue 36: no Swedish contract on a Croatian page): the Viennese hjärter and the German
#: Prämie are a game in hearts, a level without the talon says so, spel is the Viennese bid of a
#: game without the talon
FINDING_CONTRACT_WORDS: dict[str, Any] = {
    "hearts": pgettext_lazy("a pot game's contract", "hearts"),
    "hand": pgettext_lazy("a pot game's contract", "%(level)s without the talon"),
    "hand hearts": pgettext_lazy("a pot game's contract", "hearts without the talon"),
    "spel": pgettext_lazy("a pot game's contract", "a game without the talon (spel)"),
    "pass": pgettext_lazy("a pot game's contract", "pass"),
}
#: the game a finding's rule source is about (seeds 000 and 003)
_GAME_OF_SOURCE = {"000": VIENNESE, "003": GERMAN}


def _said(word: str) -> Callable[[], str]:
    """What a word of a deal line is said as: its entry of :data:`GAME_SAID`,
    :data:`DECISION_SAID`, :data:`LEVEL_SAID` or :data:`FINDING_CONTRACT_WORDS`, or itself."""
    kind, _sep, key = word.partition(":")
    table: Mapping[Any, Any] = {
        "game": GAME_SAID, "decision": DECISION_SAID, "contract": FINDING_CONTRACT_WORDS,
        "level": LEVEL_SAID,
    }[kind]  # fmt: skip
    value = table[int(key) if kind == "level" else key]
    return lambda: str(value)


def _line_words(pairs: tuple[tuple[str, str], ...]) -> tuple[tuple[re.Pattern[str], Any], ...]:
    """A game's notation words (longest first) and what each is said as; a key before ``=``
    (``regel=``) only there."""
    out = []
    for word, said in sorted(pairs, key=lambda p: len(p[0]), reverse=True):
        if word.endswith("="):
            pattern = re.compile(rf"(?<![\w]){re.escape(word[:-1])}(?==)")
        else:
            pattern = re.compile(rf"(?<![\w=]){re.escape(word)}(?![\w])")
        out.append((pattern, said if word[0].isdigit() or said.isdigit() else _said(said)))
    return tuple(out)


#: a deal line's words, by game (seed 000's Swedish, seed 003's German), said in the reader's
#: language where it is not the game's (:func:`_line_in_words`); a player's name is out of the
#: way (FamilyUI.named_deal_text)
LINE_WORDS = {
    "viennese": _line_words((
        ("stannar hemma", "decision:home"), ("går med", "decision:go"),
        ("bjuder in", "decision:invite"), ("inbjuden", "decision:invited"),
        ("tvång", "decision:forced"), ("utan köp", "game:no talon"),
        ("efterköp", "game:efterkop"), ("hjärter", "contract:hearts"),
        ("rundpass", "game:rundpass"), ("förhandling", "game:negotiated"),
        ("straff", "game:penalty"), ("pott", "game:pot"), ("giv", "game:dealer"),
        ("bud", "game:auction"), ("spel", "contract:spel"), ("pass", "contract:pass"),
        ("fem", "level:5"), ("sex", "level:6"), ("sju", "level:7"), ("åtta", "level:8"),
        ("regel=", "game:rule"), ("not=", "game:note"),
    )),
    "german": _line_words((
        ("daheim bleiben", "decision:home"), ("mitgehen", "decision:go"),
        ("aus der Hand", "game:no talon"), ("Prämie", "contract:hearts"),
        ("alle passen", "game:rundpass"), ("verhandelt", "game:negotiated"),
        ("Strafe", "game:penalty"), ("Topf", "game:pot"), ("Geber", "game:dealer"),
        ("Gebote", "game:auction"), ("pass", "contract:pass"),
        ("Eins", "1"), ("Zwei", "2"), ("Drei", "3"), ("Regel=", "game:rule"),
        ("Notiz=", "game:note"),
    )),
}  # fmt: skip


def _line_in_words(line: str, game: str) -> str:
    """A pot game's deal line in the reader's words (:data:`LINE_WORDS`); a quoted rule or note
    is the referee's own and stays as written."""
    out = []
    for k, part in enumerate(re.split(r'("(?:[^"\\]|\\.)*")', line)):
        if not k % 2:
            for pattern, said in LINE_WORDS[game]:
                part = pattern.sub(lambda _m, said=said: said if isinstance(said, str) else said(),
                                   part)  # fmt: skip
        out.append(part)
    return "".join(out)


def _page_language() -> str:
    return (get_language() or "en").split("-")[0]


def _own_words(conv: Any) -> bool:
    """Whether the page reads the game's own words: the rule text's language (Swedish for the
    Viennese game, German for the German one); every other page the reader's (issue 36)."""
    return _page_language() == str(conv.language)

FINDING_TITLES: dict[str, Any] = {
    "CONVENTION": gettext_lazy("Unknown convention or option"),
    "PLAYERS": gettext_lazy("Wrong number of players"),
    "PLAYER_NAMES": gettext_lazy("Two players with the same name"),
    "SEAT": gettext_lazy("No such seat at the table"),
    "DEALER": gettext_lazy("Dealer out of turn"),
    "CONTRACT": gettext_lazy("A contract these rules do not play"),
    "UNSCORABLE": gettext_lazy("A deal that cannot be scored"),
    "TRICKS_SUM": gettext_lazy("The tricks do not add up"),
    "TRICKS_SEATS": gettext_lazy("Tricks for the wrong number of seats"),
    "TRICKS_MISSING": gettext_lazy("The tricks are missing"),
    "TRICKS_NOT_PLAYING": gettext_lazy("Tricks for a player who did not play"),
    "TRICKS_UNPLAYED": gettext_lazy("Tricks for a hand not played"),
    "DEFENCE_COUNT": gettext_lazy("The defenders' decisions do not fit"),
    "DEFENCE_NOT_ASKED": gettext_lazy("A decision where nobody is asked"),
    "DECISION": gettext_lazy("A decision these rules do not have"),
    "TVANG": gettext_lazy("Forced play (tvång) not recorded"),
    "NOT_FORCED": gettext_lazy("Forced play where the pot did not force it"),
    "INVITATION": gettext_lazy("An invitation that does not fit"),
    "NEGOTIATION": gettext_lazy("A negotiation these rules do not allow"),
    "NEGOTIATION_FALL": gettext_lazy("A negotiated split that makes someone fall"),
    "EFTERKOP": gettext_lazy("An efterköp that does not fit"),
    "EFTERKOP_LEVEL": gettext_lazy("An efterköp at a level not allowed"),
    "EFTERKOP_NOT_HIGHER": gettext_lazy("An efterköp not higher than the one before"),
    "EFTERKOP_ORDER": gettext_lazy("Efterköp out of order"),
    "EFTERKOP_BIDDER": gettext_lazy("Efterköp by a player who may not"),
    "ALL_PASS": gettext_lazy("All passed"),
    "CONTRACT_BID": gettext_lazy("The contract is not the last bid"),
    "LEDGER_NET": gettext_lazy("A written net differs from the computed one"),
    "LEDGER_POT": gettext_lazy("The written pot differs from the computed one"),
    "LEDGER_RESULT": gettext_lazy("Written result differs"),
    "LEDGER_SEATS": gettext_lazy("A written ledger line has the wrong shape"),
    "LEDGER_EXTRA": gettext_lazy("More written lines than deals"),
    "PENALTY": gettext_lazy("Penalty entry"),
}
for _code in (
    "AUCTION_BID", "AUCTION_DEAL", "AUCTION_DECLARER", "AUCTION_HAND_AFTER_BID",
    "AUCTION_HAND_TIE", "AUCTION_HOLD", "AUCTION_INCOMPLETE", "AUCTION_LEVEL_LOCK",
    "AUCTION_NOT_HIGHER", "AUCTION_PASSED", "AUCTION_PRAEMIE", "AUCTION_SEAT", "AUCTION_SPEL",
    "AUCTION_TURN", "AUCTION_VORHAND", "AUCTION_AFTER_END",
):  # fmt: skip
    FINDING_TITLES[_code] = gettext_lazy("The auction breaks the bidding rules")


#: the phone form's numbered efterköp rows: ``efterkop_by_1``, ``efterkop_contract_1`` …
_EFTERKOP_FIELD = re.compile(r"efterkop_(?:by|contract)_([1-9][0-9]?)")


def _four_players() -> str:
    """The Viennese text's rule of four at a table: the dealer sits out (000 "Spel på fyra
    personer"), as a referee knows it."""
    return rule_sources.cite("000", "Spel på fyra personer")


class PotUI(PotDomain, FamilyUI):
    entry_template = "tournaments/protocols/entry/pot.html"
    pulka_template = "tournaments/protocols/cells/pot.html"
    filled_layout = "ledger"  # the players' and the pot's changes (tournaments.pdf.layouts)
    blank_template = "pdf/blank_protocol_pot.html"
    penalty_terms = {  # seeds 000 and 003: chips paid into the pot, or to a player
        "gora": gettext_lazy("%(n)s into the pot"),
        "whists": gettext_lazy("to %(name)s: %(n)s"),
    }
    result_label = gettext_lazy("Result (chips)")
    result_heading = gettext_lazy("Chips")
    ending_closed_label = gettext_lazy("played to the end of the round")
    finding_titles = FINDING_TITLES
    finding_sources = tuple(_GAME_OF_SOURCE)

    # docs/pot-format.md; tests/tournaments/protocols/test_desk_notation.py reads them
    notation_hints_by_game = {
        "viennese": (
            gettext_lazy(
                "Deals, one a line (e.g. “Anna 3 / går med, går med / 5-1-4”, “Cecilia 2 "
                "efterköp Anna fem / 0-5-5”, “rundpass 3-3-4”, “straff Bertil pott=10”); a "
                "first name will do where no one else at the table has it"
            ),
            gettext_lazy(
                "Optionally what the players wrote, to check it: “kassa 1: -30, -18, -2; pott "
                "60” (each player's net and the pot after the deal)."
            ),
        ),
        "german": (
            gettext_lazy(
                "Deals, one a line (e.g. “Bertil Eins / mitgehen, mitgehen / 2-5-3”, “Cecilia "
                "Prämie / daheim bleiben, mitgehen / 0-3-7”, “alle passen”); a first name will "
                "do where no one else at the table has it"
            ),
            gettext_lazy(
                "Optionally what the players wrote, to check it: “Kasse 1: -8, -15, 3; Topf 20” "
                "(each player's net and the pot after the deal)."
            ),
        ),
    }

    def notation_hints(self, header: Any) -> tuple[Any, Any]:
        return self.notation_hints_by_game[self._rules(header).game]

    # --- helpers ------------------------------------------------------------------------------
    def _pot_word(self, conv: Any) -> str:
        """The pot in the players' words: the game's own (pott, Topf) or the reader's."""
        return POT_WORDS[conv.language] if _own_words(conv) else str(GAME_SAID["pot"])

    def _contract_name(self, c: PotContract, conv: Any) -> str:
        """A contract in the game's own words on its rule text's page, else the reader's
        (issue 36): hearts, a level (the Viennese fem … åtta), without the talon."""
        if _own_words(conv):
            return c.name(conv.game)
        if c.is_hearts or (conv.game == "german" and c.level == 4):
            return str(FINDING_CONTRACT_WORDS["hand hearts" if c.hand and not c.is_hearts
                                              else "hearts"])  # fmt: skip
        word = str(LEVEL_SAID[c.level]) if c.level in LEVEL_SAID else str(c.level)
        return str(FINDING_CONTRACT_WORDS["hand"]) % {"level": word} if c.hand else word

    def contract_said(self, value: str, source: str) -> str:
        """A bid or contract of a finding (its code: ``2u``, ``spel``, ``herz``, ``pass``) in
        the reader's words: the game's own where the page reads them (the Viennese game in
        Swedish on /sv/, in German on /de/; the German game on /de/), else the page language's
        (:data:`FINDING_CONTRACT_WORDS`); what is none as written."""
        conv = _GAME_OF_SOURCE.get(source)
        if conv is None:
            return str(value)
        if value in ("spel", "pass"):
            return str(FINDING_CONTRACT_WORDS[value])
        try:
            c = PotContract(4) if value == "herz" else PotContract.from_code(value)
        except InvalidPotContractError:
            return str(value)
        if _own_words(conv) or _page_language() == "de":  # the game's or German words
            return self._contract_name(c, conv)
        if c.is_hearts or (conv.game == "german" and c.level == 4):
            return str(FINDING_CONTRACT_WORDS["hand hearts" if c.hand and not c.is_hearts
                                              else "hearts"])  # fmt: skip
        if c.hand:
            return str(FINDING_CONTRACT_WORDS["hand"]) % {"level": c.level}
        return str(c.level)

    def named_deal_text(
        self, protocol: Any, index: int, words: Callable[[str], str] | None = None
    ) -> str:
        """The deal's line with the names, in the game's own words on its rule text's page,
        else in the reader's (issue 36)."""
        conv = self._rules(protocol)
        if words is None and not _own_words(conv):
            game = str(conv.game)
            words = lambda line: _line_in_words(line, game)  # noqa: E731
        return super().named_deal_text(protocol, index, words)

    def contract_choices(self, protocol: Any) -> list[tuple[str, str]]:
        """The contracts these rules play, in the players' words (000 "Kontrakten"; 003)."""
        conv = self._rules(protocol)
        out = []
        for level in range(1, 9):
            for hand in (False, True):
                c = PotContract(level, hand)
                if conv.allows(c) and not (conv.game == "german" and level > 4):
                    out.append((c.code, self._contract_name(c, conv)))
        return sorted(out, key=lambda item: PotContract.from_code(item[0]).rank)

    # --- the table's deal entry ----------------------------------------------------------
    def entry_context(self, protocol: Any) -> dict[str, Any]:
        conv = self._rules(protocol)
        own = _own_words(conv)
        efterkop_contracts = self._efterkop_contracts(protocol)
        dealer = self.next_dealer(protocol)
        # the game's own words on its rule text's page, the reader's elsewhere (issue 36)
        words = (
            DECISION_WORDS[conv.language]
            if own
            else [(v, str(DECISION_SAID[v])) for v, _w in DECISION_WORDS[conv.language]]
        )
        rundpass = RUNDPASS_WORDS[conv.language] if own else str(GAME_SAID["rundpass"])
        return {
            "contracts": self.contract_choices(protocol),
            "decisions": words,
            # the game's word beside "All passed", unless it says that word (on a German page
            # "Alle passen (alle passen)" would say the same twice)
            "rundpass_word": None
            if str(_("All passed")).casefold() == rundpass.casefold()
            else rundpass,
            "krypspel": conv.game == "viennese",
            # the form's rows (form_values): one per level of fem … åtta with köp
            "efterkop_contracts": efterkop_contracts,
            "negotiation": conv.game == "viennese" and conv.negotiation,
            "next_dealer_seat": dealer,
            "pot_word": self._pot_word(conv),
        }

    def _efterkop_contracts(self, protocol: Any) -> list[tuple[str, str]]:
        """The contracts an efterköp may buy: fem … åtta with köp (000 "Efterköp")."""
        conv = self._rules(protocol)
        return [
            (code, label)
            for code, label in self.contract_choices(protocol)
            if conv.game == "viennese"
            and PotContract.from_code(code).level >= 5
            and not PotContract.from_code(code).hand
        ]

    def _dealer_at(self, protocol: Any, index: int | None) -> int:
        """The dealer of deal ``index`` (``None``, or a penalty: of the next deal)."""
        if index is not None and 0 <= index < len(protocol.deals):
            dealer = dealers(protocol)[index]
            if dealer is not None:
                return dealer
            return self.next_dealer(protocol.with_deals(protocol.deals[:index]))
        return self.next_dealer(protocol)

    def form_values(
        self, protocol: Any, index: int | None, post: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        """The deal form's values: deal ``index`` as entered ("Correct"), what was posted (a
        refused form keeps it), or blank; per seat its decision and tricks, the efterköp rows,
        and at a table of four who deals and sits out the deal (000 "Spel på fyra personer")."""
        values: dict[str, str] = {}
        if post is not None:
            values = self.posted(post)
            if values.get("action") == "replace" and values.get("index", "").isdigit():
                index = int(values["index"])
            else:
                index = None
        elif index is not None and 0 <= index < len(protocol.deals):
            deal = protocol.deals[index]
            if type(deal) is Rundpass:
                values["kind"] = "rundpass"
                for p, t in enumerate(deal.tricks or ()):
                    values[f"tricks_{p}"] = str(t)
            elif type(deal) is Hand:
                values.update(
                    kind="hand",
                    declarer=str(deal.declarer),
                    contract=deal.contract.code,
                    negotiated="on" if deal.negotiated else "",
                )
                for k, (by, bought) in enumerate(deal.efterkop, start=1):
                    values[f"efterkop_by_{k}"] = str(by)
                    values[f"efterkop_contract_{k}"] = bought.code
                player = deal.efterkop[-1][0] if deal.efterkop else deal.declarer
                try:
                    defenders = defenders_of(
                        protocol.size, self._dealer_at(protocol, index), player
                    )
                except ValueError:
                    defenders = ()
                for d, decision in zip(defenders, deal.defence, strict=False):
                    values[f"defence_{d}"] = decision.value
                for p, t in enumerate(deal.tricks or ()):
                    values[f"tricks_{p}"] = str(t)
        else:
            index = None
        dealer = self._dealer_at(protocol, index)
        form = self.seat_form(
            protocol, values, ("defence", "tricks"), kind="hand", declarer="", contract="",
            negotiated="",
        )  # fmt: skip
        # 000 "Efterköp": a chain in turn order, each at a higher level of fem … åtta with köp,
        # so as many rows as these rules have such levels (none where only hjärter is played)
        form["efterkop"] = [
            {
                "number": k,
                "by": values.get(f"efterkop_by_{k}", ""),
                "contract": values.get(f"efterkop_contract_{k}", ""),
            }
            for k in range(1, len(self._efterkop_contracts(protocol)) + 1)
        ]
        form["dealer"] = dealer
        form["sitting_out"] = dealer if protocol.size == 4 else None
        return form

    def deal_from_post(self, post: Mapping[str, Any], protocol: Any, dealer: int) -> Any:
        """A deal from the phone form: a contract with the defenders' decisions and the tricks
        (the declarer's counted from the others'), or a rundpass (000 "Budgivningen"; 003)."""
        size = protocol.size
        actives = active_seats(size, dealer)
        conv = self._rules(protocol)
        if post.get("kind") == "rundpass":
            if conv.game != "viennese":
                return Rundpass()  # 003 says nothing: thrown in, the pot stays
            tricks = self._tricks(post, size, actives, declarer=None)
            return Rundpass(tricks=tricks)
        declarer = whole_number(post.get("declarer"), "declarer")
        if declarer is None or not 0 <= declarer < size:
            raise UserFacingError(_("Choose the declarer."), {"field": "declarer"})
        if declarer not in actives:
            raise UserFacingError(
                _("%(name)s deals and sits out this deal (%(rule)s).")
                % {"name": protocol.players[declarer], "rule": _four_players()},
                {"field": "declarer"},
            )
        try:
            contract = PotContract.from_code(str(post.get("contract") or ""))
        except InvalidPotContractError:
            raise UserFacingError(_("Choose the contract."), {"field": "contract"}) from None
        efterkop = self._efterkop(post, size)
        player = efterkop[-1][0] if efterkop else declarer
        if player not in actives:
            raise UserFacingError(
                _("%(name)s deals and sits out this deal (%(rule)s).")
                % {"name": protocol.players[player], "rule": _four_players()},
                {"field": f"efterkop_by_{len(efterkop)}"},
            )
        played = efterkop[-1][1] if efterkop else contract
        defence: tuple[Decision, ...] = ()
        if played.asks_defenders and not efterkop:
            try:
                defence = tuple(
                    Decision(post.get(f"defence_{d}") or "go")
                    for d in defenders_of(size, dealer, player)
                )
            except ValueError:
                raise UserFacingError(
                    _("Choose each defender's decision."), {"field": "defence"}
                ) from None
        tricks: tuple[int, ...] | None
        if defence and not any(d.plays for d in defence):
            tricks = None  # both stayed home: no play
            if any(whole_number(post.get(f"tricks_{p}"), f"tricks_{p}") for p in range(size)):
                raise UserFacingError(
                    _("Both defenders stayed home: nobody played, so leave the tricks blank."),
                    {"field": "tricks"},
                )
        else:
            home = [
                d
                for d, dec in zip(defenders_of(size, dealer, player), defence, strict=False)
                if not dec.plays
            ]
            tricks = self._tricks(post, size, actives, declarer=player, zero=home)
        return Hand(
            declarer,
            contract,
            defence=defence,
            tricks=tricks,
            efterkop=efterkop,
            negotiated=bool(post.get("negotiated")),
        )

    @staticmethod
    def _efterkop(post: Mapping[str, Any], size: int) -> tuple[tuple[int, Any], ...]:
        """The efterköp chain from the numbered rows, in turn order (000 "Efterköp"): a row needs
        both the buyer and the contract, and the rows are filled from the first without a gap.
        The checker judges the turn order and the levels, citing the seed."""
        numbers = sorted(
            {int(m.group(1)) for name in post if (m := _EFTERKOP_FIELD.fullmatch(str(name)))}
        )
        rows = [
            (k, whole_number(post.get(f"efterkop_by_{k}"), f"efterkop_by_{k}"),
             str(post.get(f"efterkop_contract_{k}") or "").strip())
            for k in numbers
        ]  # fmt: skip
        filled = [row for row in rows if row[1] is not None or row[2]]
        chain: list[tuple[int, PotContract]] = []
        for k, by, code in filled:
            if k != len(chain) + 1:
                raise UserFacingError(
                    _("Fill the efterköp rows in turn order, from the first, without a gap."),
                    {"field": f"efterkop_by_{len(chain) + 1}"},
                )
            if by is None:
                raise UserFacingError(
                    _("Choose who made efterköp %(n)d.") % {"n": k}, {"field": f"efterkop_by_{k}"}
                )
            if not 0 <= by < size:
                raise UserFacingError(
                    _("No such seat at the table."), {"field": f"efterkop_by_{k}"}
                )
            try:
                chain.append((by, PotContract.from_code(code)))
            except InvalidPotContractError:
                raise UserFacingError(
                    _("Choose the efterköp's contract."), {"field": f"efterkop_contract_{k}"}
                ) from None
        return tuple(chain)

    @staticmethod
    def _tricks(
        post: Mapping[str, Any],
        size: int,
        actives: tuple[int, ...],
        *,
        declarer: int | None,
        zero: list[int] | tuple[int, ...] = (),
    ) -> tuple[int, ...]:
        """Each seat's tricks; a seat sitting out or at home took none, and a blank declarer's
        are counted from the others' (ten in all)."""
        given = [whole_number(post.get(f"tricks_{p}"), f"tricks_{p}") for p in range(size)]
        for p in range(size):
            if given[p] is None and (p not in actives or p in zero):
                given[p] = 0
        if declarer is not None and given[declarer] is None:
            others = [given[p] for p in range(size) if p != declarer]
            if None not in others:
                given[declarer] = 10 - sum(int(t or 0) for t in others)
        if None in given:
            raise UserFacingError(
                _("Give each player's tricks (or the defenders' and the declarer's is counted)."),
                {"field": "tricks"},
            )
        return tuple(int(t or 0) for t in given)

    # --- showing a protocol -------------------------------------------------------------
    def pulka_cells(self, protocol: Any) -> PulkaCells | None:
        """Per deal and seat what changed hands and the cumulative net; the last cell is the
        pot's (its change and what it holds)."""
        try:
            scored, _partial = self._scored(protocol)
        except ValueError:
            return None
        out = PulkaCells(extra_headers=[self._pot_word(self._rules(protocol))])
        before = protocol.opening_pot
        for d in scored.deals:
            out.dealers.append(d.dealer)
            row = [
                {
                    "change": d.change(p),
                    "net": d.nets[p],
                    "out": d.sitting_out == p,
                    "declarer": d.declarer == p,
                    "fell": p in d.fell,
                }
                for p in range(protocol.size)
            ]
            row.append({"pot": True, "change": d.pot - before, "net": d.pot})
            before = d.pot
            out.written.append(row)
        return out

    def filled_sheet(self, protocol: Any, origin: list[int | None]) -> dict[str, Any]:
        """The ledger as the players keep it: a line per deal with the dealer, the deal in the
        players' words, the amount played for, and per player and for the pot the change and
        the running total; then the pot's handling and each player's result."""
        scored, partial = self._scored(protocol)
        conv = scored.convention
        names = list(protocol.players)
        deals = []
        number = 0
        before = protocol.opening_pot
        for i, d in enumerate(scored.deals):
            is_penalty = d.kind == "penalty"
            if not is_penalty:
                number += 1
            try:
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
                    "amount": d.amount if d.amount is not None else "",
                    "forced": d.forced,
                    "cells": [
                        {
                            "change": d.change(p),
                            "net": d.nets[p],
                            "out": d.sitting_out == p,
                            "fell": p in d.fell,
                        }
                        for p in range(protocol.size)
                    ],
                    "pot": {"change": d.pot - before, "net": d.pot},
                }
            )
            before = d.pot
        return {
            "deals": deals,
            "pot_word": self._pot_word(conv),
            "rules_name": rule_sources.cite(conv.seed),
            "ante": conv.ante_units,
            "stake": conv.stake,
            "max_amount": conv.max_units() if conv.game == "viennese" else conv.cap or None,
            "opening_pot": protocol.opening_pot,
            "pot_left": scored.pot,
            "pot_end": conv.pot_end,
            "partial": partial,
            "unplayed": len(protocol.deals) - len(scored.deals),
            "settlement": [
                {
                    "name": names[p],
                    "net": scored.nets[p],
                    "share": _fraction(scored.shares[p]),
                    "exact": _fraction(scored.final[p]),
                }
                for p in range(protocol.size)
            ],
        }

    def blank_context(self, convention: Any) -> dict[str, Any]:
        """The ledger's terms: the stake, the dealer's ante, the maximum, the pot's handling."""
        return {
            "pot_word": self._pot_word(convention),
            "rules_name": rule_sources.cite(convention.seed),
            **self.sheet_terms(convention, target=0),
            "pot_end": convention.pot_end,
        }

    def sheet_terms(self, convention: Any, *, target: int) -> dict[str, Any]:
        """The stake, the dealer's ante and the maximum played for (seed 000 "Förberedelser":
        the grundinsats and the maxbelopp; seed 003 "Der Ablauf des Spiels": the dealer sets
        ten chips); ``target`` is not used (a pot game has none)."""
        return {
            "stake": convention.stake,
            "ante": convention.ante_units,
            "max_amount": (
                convention.max_units() if convention.game == "viennese" else convention.cap or None
            ),
        }

    def standings_criterion(self, convention: Any) -> str:
        if convention.pot_end == "keep":
            return str(
                _(
                    "Criterion: the sum of each player's net in chips over approved protocols; "
                    "the pot left at the end of a round is kept (not shared), so a table sums "
                    "to minus that pot."
                )
            )
        return str(
            _(
                "Criterion: the sum of each player's net in chips over approved protocols; the "
                "pot left at the end of a round is shared equally among the table's players, so "
                "every table sums to zero."
            )
        )
