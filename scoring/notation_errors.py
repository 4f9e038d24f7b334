"""The words of the text notations' errors, by stable code: what a reader of a protocol's text
says when a line does not read ("line 3, column 9: expected a contract such as 6♠, 7NT or mis,
found 'x'"), and what it expected there.

Each error of :mod:`scoring.notation_lexer` and the families' notations
(:class:`~scoring.notation_lexer.NotationError`) carries a code of :data:`NOTATION_ERRORS` and
its parameters; a parameter that says what was expected is an :class:`Expected`, a code of
:data:`EXPECTED` with its own parameters. Each template is English, marked with
:func:`~scoring.findings.gettext_noop` for the translators' catalogue: filled in English it is the
message of the command line, the API and the logs (``python -m scoring`` prints it byte for
byte as before the codes), and the Django side says it in the reader's language
(``tournaments.errors.said_error``). The offending token (``found``) is quoted as Python quotes
it, in every language. This module imports only :mod:`scoring.findings`.

>>> str(Expected("player_seat", n=3))
'a player (a name or a seat number 1–3)'
>>> words("EXPECTED", {"expected": Expected("end_of_line"), "found": "'x'"})
"expected end of line, found 'x'"
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from .findings import gettext_noop

__all__ = ["EXPECTED", "NOTATION_ERRORS", "PEOPLE", "Expected", "words"]


class Expected:
    """What a place of a line expected, by its code in :data:`EXPECTED`, with the values its
    template names (themselves :class:`Expected` where they are words too).

    :raises KeyError: for a code that :data:`EXPECTED` does not have.
    """

    __slots__ = ("code", "params")

    def __init__(self, code: str, /, **params: object) -> None:
        if code not in EXPECTED:
            raise KeyError(f"no words for the notation's expected {code!r}")
        self.code = code
        self.params = params

    @property
    def text(self) -> str:
        """The English template (``%(name)s``), marked for the catalogue."""
        return EXPECTED[self.code]

    def __str__(self) -> str:
        return words(self.text, self.params)

    def __repr__(self) -> str:
        return f"Expected({self.code!r}, {self.params!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Expected) and (self.code, self.params) == (
            other.code,
            other.params,
        )

    def __hash__(self) -> int:
        return hash(self.code)


def words(template: str, params: Mapping[str, object]) -> str:
    """``template`` (a code of :data:`NOTATION_ERRORS` or an English template) filled in
    English with ``params``."""
    text = NOTATION_ERRORS.get(template, template)
    return text % {k: str(v) for k, v in params.items()} if params else text


#: Every error of the text notations: its code and its English template. ``found`` is the
#: offending token as Python quotes it; ``expected`` an :class:`Expected`.
NOTATION_ERRORS: Final[dict[str, str]] = {
    # a place of a line: what was expected, and what stands there
    "EXPECTED": gettext_noop("expected %(expected)s, found %(found)s"),
    "EXPECTED_END": gettext_noop("expected %(expected)s, found end of line"),
    # the shared machinery (scoring.notation_lexer)
    "UNTERMINATED_QUOTE": gettext_noop("unterminated quoted text (expected '\"')"),
    "BAD_QUOTE": gettext_noop("bad quoted text: %(detail)s"),
    "NUMBER_TOO_LONG": gettext_noop(
        "a number of %(digits)s digits: no count, score or amount of a protocol has more than "
        "%(most)s"
    ),
    "PLAYERS_3_OR_4": gettext_noop("expected 3 or 4 players, found %(n)s"),
    "SAME_NAME": gettext_noop("two players have the same name"),
    "PLAYERS_FIRST": gettext_noop("expected a 'players:' line before this one"),
    "HEADER_TWICE": gettext_noop("the %(header)s is given twice"),
    "HEADERS_FIRST": gettext_noop("headers come before the first deal"),
    "HEADER_BEFORE_DEALS": gettext_noop("expected a '%(header)s:' line before the first deal"),
    "HEADER_MISSING": gettext_noop("expected a '%(header)s:' line"),
    "DEAL_NUMBER": gettext_noop("expected deal number %(n)s."),
    "SHEET_TWICE": gettext_noop("sheet %(n)s is given twice"),
    "FINAL_TWICE": gettext_noop("the final sheet is given twice"),
    "RESULT_TWICE": gettext_noop("the result is given twice"),
    "OPTION_TWICE": gettext_noop("option %(name)s twice"),
    "GIVEN_TWICE": gettext_noop("%(token)s: %(name)s given twice"),
    "UNKNOWN_FORMAT": gettext_noop("unknown format %(value)s; known: %(known)s"),
    # the rules' own refusal (an unknown convention or option, a contract they do not have)
    "RULES": gettext_noop("%(reason)s"),
    # the Russian pulka (scoring.russian.notation)
    "SHEET_NO_DEAL": gettext_noop(
        "sheet %(n)s: there is no deal %(n)s, the pulka has %(deals)s deals"
    ),
    "SPLIT_TWICE": gettext_noop("defenders' tricks given twice (w3/p1 and split=)"),
    "SPLIT_X": gettext_noop("split= needs numbers, not x"),
    "TRICKS_RANGE": gettext_noop("%(token)s on %(contract)s gives %(tricks)s tricks, not 0–10"),
    "DEFENDERS_TRICKS": gettext_noop("give every defender's tricks (w3/p1) or none (w/p)"),
    # the Balkan games (scoring.balkan.notation)
    "PLAYERS_3": gettext_noop("expected 3 players, found %(n)s"),
    "SHEET_AT_MOST": gettext_noop("sheet %(n)s: a deal number is at most %(most)s"),
    "TRICKS_0_10": gettext_noop("%(token)s: a player takes 0 to 10 tricks"),
    # the pot games (scoring.pot.notation)
    "LEDGER_TWICE": gettext_noop("ledger line %(n)s is given twice"),
    "PLAYERS_BEFORE_LEDGER": gettext_noop("expected a 'players:' line before the ledger"),
    "LEDGER_LINE": gettext_noop("expected a ledger line (kassa N: …; pott …)"),
    "PLAYERS_BEFORE_DEALS": gettext_noop("expected a 'players:' line before the deals"),
    "DEAL_NUMBER_DOT": gettext_noop("expected a deal number such as '3.'"),
    "DEALS_BEFORE_LEDGER": gettext_noop("deals must come before the ledger lines"),
    # Priffe (scoring.priffe.notation)
    "FOUR_PLAYERS": gettext_noop("expected four different players, found %(found)s"),
    "TVANGSNOLL_SLAM": gettext_noop("tvångsnoll has no slam (A-PR-4)"),
    "SLAM_TRICKS": gettext_noop("%(slam)s at %(contract)s is %(need)s tricks, not %(own)s"),
    "UNKNOWN_CONTRACT": gettext_noop("unknown contract %(word)s; known: %(known)s"),
    "NEVER_BID": gettext_noop("tvångsnoll is never bid: it is played when no contract was bid"),
    "NO_SITS_LINE": gettext_noop("sits %(n)s has no 'sits %(n)s:' line"),
    "SITS_NUMBER": gettext_noop("expected sits %(n)s, found %(found)s"),
    "CLOCKWISE": gettext_noop("expected the four players clockwise, each once"),
    "PLAYERS_FOUR_NAMES": gettext_noop("expected a 'players:' line with four names"),
    "SITS_1": gettext_noop("expected a 'sits 1:' line with the first seating"),
}

#: What the Django side says for people where it words an error otherwise than the command line
#: does (the code's English template stays the command line's).
PEOPLE: Final[dict[str, str]] = {
    "UNTERMINATED_QUOTE": gettext_noop("A quoted text is not closed (a '\"' is missing)."),
    "PLAYERS_3_OR_4": gettext_noop("A table has 3 or 4 players, not %(n)s."),
    "SAME_NAME": gettext_noop("Two players have the same name."),
    "HEADERS_FIRST": gettext_noop("The header lines come before the first deal."),
    "DEAL_NUMBER": gettext_noop("Deal number %(n)s. is expected here."),
    "FOUR_PLAYERS": gettext_noop("A Priffe table has four different players, not: %(names)s."),
    "TVANGSNOLL_SLAM": gettext_noop("tvångsnoll has no slam"),
}

#: What a place of a line expected: a code and its English words (a noun phrase that follows
#: "expected").
EXPECTED: Final[dict[str, str]] = {
    "end_of_line": gettext_noop("end of line"),
    # the shared machinery
    "quote_it": gettext_noop("%(what)s (quote it to use %(token)s)"),
    "several": gettext_noop("%(what)s; %(token)s matches several"),
    "one_word": gettext_noop("the %(what)s (a word, or quoted text)"),
    "n_of": gettext_noop("%(n)s %(what)s"),
    "quoted_word": gettext_noop("'%(word)s'"),
    "player_name": gettext_noop("a player's name"),
    "player_seat": gettext_noop("a player (a name or a seat number 1–%(n)s)"),
    "notation_version": gettext_noop("the notation version 1"),
    "sheet_which": gettext_noop("a deal number, final or result"),
    "colon": gettext_noop("':'"),
    "open_brace": gettext_noop("'{'"),
    "close_brace": gettext_noop("'}'"),
    "semicolon_or_brace": gettext_noop("';' or '}'"),
    "equals_after": gettext_noop("'=' after %(word)s"),
    "option_value": gettext_noop(
        "an option value (a word, number, true/false, none or quoted text)"
    ),
    "option_name": gettext_noop("an option name"),
    "equals_value_after": gettext_noop("'=' and a value after %(name)s"),
    "ending": gettext_noop("closed, agreement, time-limit or in-progress"),
    "integer": gettext_noop("an integer"),
    "each_player_once": gettext_noop("each player once"),
    "denominator": gettext_noop("a denominator after '/'"),
    # the headers, by the key a notation reads them into
    "header_format": gettext_noop("format"),
    "header_convention": gettext_noop("convention"),
    "header_target": gettext_noop("target"),
    "header_players": gettext_noop("players"),
    "header_first_dealer": gettext_noop("first dealer"),
    "header_ending": gettext_noop("ending"),
    "header_bula": gettext_noop("bula"),
    # a deal's attributes and a penalty's fields, as the notation names them
    "auction": gettext_noop("auction"),
    "open": gettext_noop("open"),
    "multiplier": gettext_noop("multiplier"),
    "talon_premium": gettext_noop("talon_premium"),
    "dealer": gettext_noop("dealer"),
    "split": gettext_noop("split"),
    "gora": gettext_noop("gora"),
    "pulya": gettext_noop("pulya"),
    "whists": gettext_noop("whists"),
    "note": gettext_noop("note"),
    "rule": gettext_noop("rule"),
    # the Russian pulka
    "convention_russian": gettext_noop("a convention such as sochi, leningrad, rostov or classic"),
    "pulka_size": gettext_noop("the pulka size, a whole number of points (e.g. 10, 20, 50)"),
    "results_per_seat": gettext_noop("%(n)s results, one per seat"),
    "result_whists": gettext_noop("a result in whists: 14, -80/3 or 12.5"),
    "written_number": gettext_noop("a written number"),
    "next_row_russian": gettext_noop("'; ' and %(name)s's pulya, gora and whists"),
    "deal_russian": gettext_noop("a deal: a player and a contract, raspasy or penalty"),
    "game_attribute": gettext_noop("open, x2, premium=, dealer=, split= or {auction}"),
    "raspasy_attribute": gettext_noop("x2 or dealer="),
    "defenders_tricks": gettext_noop("defenders' tricks such as 3-1"),
    "call_russian": gettext_noop("a call such as 6♠, pass or mis"),
    "tricks_per_seat": gettext_noop("tricks per seat such as 4-3-3 (x for none)"),
    "penalty_russian": gettext_noop("§rule, gora=, pulya=, whists= or note="),
    "rule_russian": gettext_noop("rule number, e.g. 3.2.21"),
    "colon_whists": gettext_noop("':' and the whists, as in Boris:52"),
    "whists_number": gettext_noop("a number of whists"),
    "contract_russian": gettext_noop("a contract such as 6♠, 7NT or mis"),
    "result_russian": gettext_noop("a result: ровно, без одной, -1, +1 or the declarer's tricks"),
    "misere_result": gettext_noop("a misère result: ровно or the tricks taken (no overtricks)"),
    "how_many_down": gettext_noop("how many down: одной, двух … десяти, всех or a number"),
    "defender_call": gettext_noop("a defender's call: w, p, h or hr (вист, пас, пол, возврат)"),
    "next_defender_call": gettext_noop("the next defender's call after '/'"),
    # the Balkan games
    "deal_balkan": gettext_noop("a deal: a player and a contract, dalje (all passed) or kazna"),
    "convention_balkan": gettext_noop(
        "a convention: croatian, serbian or slovenian (hrvatski, srpski, slovenski …)"
    ),
    "bula_size": gettext_noop("the bula, a whole number such as 30 or 50"),
    "ending_balkan": gettext_noop(
        "closed, agreement, time-limit or in-progress (gotovo, dogovor, vrijeme, traje)"
    ),
    "result_points": gettext_noop("a result in points such as 506 or -496"),
    "results_balkan": gettext_noop("3 results, one per player in seat order"),
    "declarer_column": gettext_noop("the declarer column, signed (-30 at a bula of 30)"),
    "soup": gettext_noop("a soup (juha) against the next player"),
    "refas": gettext_noop("the number of unplayed refas (0 if none)"),
    "next_row_balkan": gettext_noop("'; ' and %(name)s's column, soups and refas"),
    "all_pass_attribute": gettext_noop("dijeli= (the dealer) or end of line"),
    "hand_attribute": gettext_noop("kontra, rekontra …, štihovi 6-2-2, dijeli= or {auction}"),
    "doubling_above": gettext_noop("a doubling above %(level)s (each word doubles again)"),
    "bid_balkan": gettext_noop("a bid: dalje, 2 … 8, i ja, igra, igra žir, betl …"),
    "penalty_balkan": gettext_noop("§rule, bula=, juha=, napomena= (or column=, soups=, note=)"),
    "rule_balkan": gettext_noop("rule, e.g. 5.1"),
    "points": gettext_noop("a whole number of points"),
    "colon_points": gettext_noop("':' and the points, as in Ana:20"),
    "contract_balkan": gettext_noop(
        "a contract: 2 … 8 or list, bundeva, srce, žir, pik, karo, herc, tref, betl, sans …"
    ),
    "after_ne": gettext_noop("ide, idem or igram after 'ne'"),
    "second_decision": gettext_noop("the second defender's decision: ide, ne ide or zove"),
    "tricks_balkan": gettext_noop("the tricks of the 3 players in seat order, such as 6-2-2"),
    "kontra": gettext_noop("kontra"),
    "tricks": gettext_noop("tricks"),
    "column": gettext_noop("column"),
    "soups": gettext_noop("soups"),
    # the pot games
    "header_opening_pot": gettext_noop("opening pot"),
    "player_name_of": gettext_noop("a player's name (%(names)s)"),
    "a_contract": gettext_noop("a contract"),
    "efterkop_contract": gettext_noop("the efterköp's contract"),
    "contract_viennese": gettext_noop(
        "%(what)s (1–4, 1–3 utan köp, hjärter, fem … åtta [utan köp])"
    ),
    "contract_german": gettext_noop("%(what)s (Eins, Zwei, Drei, Prämie [aus der Hand])"),
    "tricks_pot": gettext_noop("tricks per seat in seat order, %(n)s numbers such as %(example)s"),
    "open_brace_bids": gettext_noop("'{' and the bids"),
    "bid_pot": gettext_noop("a bid (pass, spel or a contract)"),
    "comma_or_brace": gettext_noop("',' or '}'"),
    "a_deal": gettext_noop("a deal"),
    "decision": gettext_noop(
        "a decision: går med, stannar hemma, bjuder in, inbjuden, tvång, mitgehen or daheim bleiben"
    ),
    "equals_chips": gettext_noop("'=' and the chips paid to this player"),
    "chips": gettext_noop("chips"),
    "penalty_pot": gettext_noop("pott=, regel=, not= or a player's name and '='"),
    "chips_into_pot": gettext_noop("chips paid into the pot"),
    "rule_pot": gettext_noop("the rule, one word or quoted"),
    "note_pot": gettext_noop("a note, one word or quoted"),
    "penalty_key_pot": gettext_noop("pott=, regel= or not="),
    "convention_pot": gettext_noop("a convention: viennese (wiener) or german (deutsch)"),
    "opening_pot": gettext_noop("the chips in the pot before the first deal"),
    "number_or_fraction": gettext_noop("a whole number or a fraction such as -80/3"),
    "ledger_number": gettext_noop("the deal number the ledger line follows (1 to %(most)s)"),
    "net": gettext_noop("a net in chips"),
    "nets_per_seat": gettext_noop("%(n)s nets, one per seat"),
    "semicolon_pot": gettext_noop("';' and the pot"),
    "pott": gettext_noop("pott"),
    "pot_chips": gettext_noop("the pot in chips"),
    "end_of_deal": gettext_noop("end of the deal"),
    # Priffe
    "player_priffe": gettext_noop("a player (%(names)s, or 1–4)"),
    "player_priffe_no_players": gettext_noop("a player (no players: line yet, or 1–4)"),
    "priffe_1": gettext_noop("priffe 1"),
    "whole_number_1": gettext_noop("a whole number ≥ 1"),
    "ending_priffe": gettext_noop("closed, in-progress, time-limit or agreement"),
    "an_ending": gettext_noop("an ending (%(endings)s)"),
    "convention_priffe": gettext_noop("a convention (modern, old)"),
    "equals": gettext_noop("'='"),
    "a_value": gettext_noop("a value"),
    "side_tricks": gettext_noop("the tricks of the side (0–13), lillslam or storslam"),
    "other_side_tricks": gettext_noop("the other side's tricks (0–13)"),
    "deal_number": gettext_noop("deal number %(n)s."),
    "sits_first": gettext_noop("a 'sits 1: …' line before the first deal (its seating)"),
    "points_opponents": gettext_noop("the points for the opponents"),
    "contract_priffe": gettext_noop("a contract (pref, noll, hjärter, ruter …)"),
    "honours": gettext_noop("how the honours lie: 4, 3+1 or 3"),
    "bid_or_brace": gettext_noop("a bid or '}'"),
    "keys_or_end": gettext_noop("%(keys)s or end of line"),
    "sits_number": gettext_noop("a sits number from 1"),
    "one_word_priffe": gettext_noop("the %(what)s (one word, or quoted text)"),
    "player_total": gettext_noop("a player's total"),
    "four_totals": gettext_noop("four totals"),
    "sheet_deal_priffe": gettext_noop("a deal number from 1 to %(most)s (or sits K, result)"),
    "side_1_total": gettext_noop("side 1's total"),
    "side_2_total": gettext_noop("side 2's total"),
    "sheet_words_priffe": gettext_noop("under, över or utgång"),
    "points_priffe": gettext_noop("points"),
    "sheet_line": gettext_noop("a 'sheet' line"),
    "sits_number_n": gettext_noop("sits number %(n)s"),
    "players_before_deals": gettext_noop("a 'players:' line before the deals"),
}
