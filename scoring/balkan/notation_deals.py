"""Deal lines of the Balkan text notation (:mod:`scoring.balkan.notation`): hands, all-pass
lines and penalties, in the players' own words (seed 002; Croatian, Serbian, Slovenian, Latin
script, with or without č, ć, đ, š, ž).

>>> from scoring.notation_lexer import Cursor, tokenize
>>> reader = HandReader(("Ana", "Boris", "Cvita"))
>>> line = "Boris igra žir ne ide/zove kontra Ana štihovi 2-6-2"
>>> reader.deal(Cursor(tokenize(line, 1), 1, len(line)))
Hand(declarer=1, contract=5, game=True, defence=(<Defence.DROP: 'drop'>, <Defence.INVITE: 'invite'>), kontra=1, kontra_by=0, tricks=(2, 6, 2), auction=None, dealer=None)
>>> write_deal(Hand(2, 7, True, tricks=(0, 2, 8)), referrer(("Ana", "Boris", "Cvita")), "serbian")
'Cvita igra sans ide/ide štihovi 0-2-8'
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable
from typing import Final, cast

from rules.balkan import CROATIAN, contract_name, find_convention
from rules.conventions import InvalidConventionError
from scoring.notation_lexer import Cursor, Expected, NotationError, SeatReader, quote, single_text
from scoring.notation_lexer import referrer as _referrer

from .protocol import AllPass, BalkanDeal, Defence, Hand, Penalty

__all__ = [
    "HandReader",
    "write_deal",
    "referrer",
    "fold",
    "bid_from_text",
    "bid_text",
    "CONTRACT_WORDS",
    "KONTRA_WORDS",
    "RESERVED",
]

SEATS: Final = 3


def fold(text: str) -> str:
    """Lower case without diacritics, as a keyword is matched: ``Štihovi`` → ``stihovi``,
    ``Berač`` → ``berac``, ``đ`` → ``dj``."""
    text = text.lower().replace("đ", "dj")
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


# --- vocabulary (folded) --------------------------------------------------------------------

#: Contract words (seed 002 "Bid / Value" and the variations): German-suited Croatian names,
#: French-suited Serbian and Slovenian ones, English, and the special contracts.
CONTRACT_WORDS: Final = {
    "list": 2, "pik": 2, "leaves": 2, "spades": 2,
    "bundeva": 3, "tikva": 3, "karo": 3, "bells": 3, "diamonds": 3,
    "srce": 4, "herc": 4, "hearts": 4,
    "zir": 5, "tref": 5, "kriz": 5, "acorns": 5, "clubs": 5,
    "betl": 6, "bettel": 6, "berac": 6,
    "sans": 7, "sanac": 7,
    "preferans": 8,
}  # fmt: skip
_GAME: Final = frozenset({"igra", "game"})
_PLAY: Final = frozenset({"ide", "idem", "igram", "plays", "play"})
_DROP: Final = frozenset({"dalje", "pas", "drops", "drop"})
_NOT: Final = "ne"  # "ne ide", "ne idem", "ne igram"
_INVITE: Final = frozenset({"zove", "zovem", "poziva", "invites", "invite"})
#: The doublings (seed 002 "Kontra"): kontra ×2, rekontra ×4, subkontra (sukontra) ×8 …
KONTRA_WORDS: Final = {"kontra": 1, "rekontra": 2, "subkontra": 3, "sukontra": 3, "mortkontra": 4}
_KONTRA_N: Final = re.compile(r"kontra[x×*]([0-9]+)")
_WRITTEN_KONTRA: Final = {2: "rekontra", 3: "subkontra", 4: "mortkontra"}
_TRICKS: Final = frozenset({"stihovi", "stiha", "tricks"})
_TRICK_COUNTS: Final = re.compile(r"[0-9]+(-[0-9]+)+")
_DEALER: Final = frozenset({"dijeli", "deli", "dijelio", "delil", "dealer"})
_ALL_PASS: Final = frozenset({"dalje", "refa", "radlc", "allpass"})
_PENALTY: Final = frozenset({"kazna", "kazen", "penalty"})
_PENALTY_KEYS: Final = {
    "bula": "column", "column": "column", "stupac": "column", "kolona": "column",
    "juha": "soups", "supa": "soups", "juhe": "soups", "soups": "soups",
    "napomena": "note", "note": "note", "pravilo": "rule", "rule": "rule",
}  # fmt: skip
_PASS_BIDS: Final = frozenset({"dalje", "pas", "pass", "ne"})
_SAME_BIDS: Final = frozenset({"i ja", "ija", "same", "me too", "moje", "isto"})

#: Every keyword; a player with such a name is written as his seat number.
RESERVED: Final = (
    frozenset(CONTRACT_WORDS) | _GAME | _PLAY | _DROP | _INVITE | frozenset(KONTRA_WORDS)
    | _TRICKS | _DEALER | _ALL_PASS | _PENALTY | frozenset(_PENALTY_KEYS)
    | {_NOT, "all", "pass", "atout", "x"}
)  # fmt: skip


def _reserved(low: str) -> bool:
    word = fold(low)
    return word in RESERVED or _KONTRA_N.fullmatch(word) is not None


def referrer(names: tuple[str, ...]) -> Callable[[int], str]:
    """How a seat is written: the name, or the seat number 1–3 for a name that is not a plain
    word or is a keyword of this notation."""
    return _referrer(names, _reserved)


# --- bids -------------------------------------------------------------------------------------


def _contract_of(words: list[str]) -> int | None:
    """A contract number from words: ``5``, ``žir``, ``sans atout``; ``None`` if not one."""
    if words[-1:] == ["atout"] and len(words) == 2:
        words = words[:1] if words[0] == "sans" else words
    if len(words) != 1:
        return None
    word = words[0]
    if re.fullmatch("[2-8]", word):
        return int(word)
    return CONTRACT_WORDS.get(word)


def bid_from_text(text: str) -> str | None:
    """A spoken bid in the stored form (:data:`scoring.balkan.jsonio.BIDS`), or ``None``.

    ``dalje`` → ``pass``, ``i ja`` → ``same``, ``igra`` → ``igra``, ``3`` → ``3``, ``igra žir``
    → ``igra 5``; a bare ``betl``/``sans``/``preferans`` is a game bid (seed 002: "game bids
    of six or seven are announced as Bettel or Sanac").
    """
    low = " ".join(fold(text).split())
    if low in _PASS_BIDS:
        return "pass"
    if low in _SAME_BIDS:
        return "same"
    words = low.split()
    if low in _GAME:
        return "igra"
    game = bool(words) and words[0] in _GAME
    number = _contract_of(words[1:] if game else words)
    if number is None:
        return None
    if game:
        return contract_name(number, True)
    spoken_word = not words[0].isdigit()
    return contract_name(number, True) if spoken_word and number >= 6 else str(number)


def bid_text(bid: str) -> str:
    """A stored bid as the notation writes it: ``dalje``, ``i ja``, or the bid itself."""
    return {"pass": "dalje", "same": "i ja"}.get(bid, bid)


# --- reading ----------------------------------------------------------------------------------


class HandReader(SeatReader):
    """Reads Balkan deal lines for a table of ``players`` (seats from :class:`SeatReader`)."""

    def deal(self, cur: Cursor) -> BalkanDeal:
        head = cur.peek()
        assert head is not None
        low = fold(head.text) if head.kind == "word" else ""
        nxt = cur.peek(1)
        if low == "all" and nxt is not None and fold(nxt.text) == "pass":
            cur.i += 2
            return self.all_pass(cur)
        if low in _ALL_PASS:
            cur.i += 1
            return self.all_pass(cur)
        if low in _PENALTY:
            cur.i += 1
            return self.penalty(cur)
        return self.hand(cur)

    def all_pass(self, cur: Cursor) -> AllPass:
        dealer = None
        while (tok := cur.peek()) is not None:
            if tok.kind == "word" and fold(tok.text) in _DEALER and dealer is None:
                cur.i += 1
                cur.expect("=", Expected("equals_after", word=tok.text))
                dealer = self.seat(cur)
            else:
                raise cur.error("all_pass_attribute", tok)
        return AllPass(dealer)

    # --- hands ------------------------------------------------------------------------------

    def hand(self, cur: Cursor) -> Hand:
        declarer = self.seat(cur)
        game, contract = _contract(cur)
        defence = _defence(cur)
        fields: dict[str, object] = {}
        expected = "hand_attribute"
        while (tok := cur.peek()) is not None:
            low = fold(tok.text) if tok.kind == "word" else ""
            if tok.kind == "{":
                self.put(cur, fields, "auction", tok, self.auction(cur))
            elif low in KONTRA_WORDS or _KONTRA_N.fullmatch(low):
                self.put(cur, fields, "kontra", tok, self.kontra(cur))
            elif low in _TRICKS or _TRICK_COUNTS.fullmatch(low):
                cur.i += low in _TRICKS
                self.put(cur, fields, "tricks", tok, _counts(cur))
            elif low in _DEALER:
                cur.i += 1
                cur.expect("=", Expected("equals_after", word=tok.text))
                self.put(cur, fields, "dealer", tok, self.seat(cur))
            else:
                raise cur.error(expected, tok)
        level, by = cast("tuple[int, int | None]", fields.pop("kontra", (0, None)))
        return Hand(
            declarer,
            contract,
            game,
            defence,
            level,
            by,
            **fields,  # type: ignore[arg-type]
        )

    def kontra(self, cur: Cursor) -> tuple[int, int | None]:
        """``kontra Ana``, ``kontra Ana rekontra``, ``rekontra``, ``kontra×5 Ana``: the level
        (the last word said) and who said kontra (the host of the defence)."""
        level = -1
        by: int | None = None
        while (tok := cur.peek()) is not None and tok.kind == "word":
            low = fold(tok.text)
            if low in KONTRA_WORDS or (m := _KONTRA_N.fullmatch(low)):
                said = KONTRA_WORDS[low] if low in KONTRA_WORDS else int(m[1])  # type: ignore[index]
                if said <= level:
                    raise cur.error(Expected("doubling_above", level=level), tok)
                level = said
                cur.i += 1
            elif by is None and not _reserved(low) and not _TRICK_COUNTS.fullmatch(low):
                by = self.seat(cur)
            else:
                break
        return level, by

    def auction(self, cur: Cursor) -> tuple[tuple[int, str], ...]:
        cur.expect("{", "open_brace")
        bids: list[tuple[int, str]] = []
        while not cur.at("}"):
            if bids:
                cur.expect(";", "semicolon_or_brace")
            seat = self.seat(cur)
            tok = cur.peek()
            said = cur.text("bid_balkan", stop=";}")
            bid = bid_from_text(said)
            if bid is None:
                raise cur.error("bid_balkan", tok)
            bids.append((seat, bid))
        cur.expect("}", "close_brace")
        return tuple(bids)

    # --- penalties ----------------------------------------------------------------------------

    def penalty(self, cur: Cursor) -> Penalty:
        player = self.seat(cur)
        fields: dict[str, object] = {}
        expected = "penalty_balkan"
        while (tok := cur.peek()) is not None:
            if self.rule(cur, fields, "rule_balkan"):
                continue
            name = _PENALTY_KEYS.get(fold(tok.text)) if tok.kind == "word" else None
            if name is None:
                raise cur.error(expected, tok)
            cur.i += 1
            cur.expect("=", Expected("equals_after", word=tok.text))
            value: object
            if name == "column":
                value = cur.integer("points", -(10**9), 10**9)
            elif name == "soups":
                pairs = [self.soup_pair(cur)]
                while cur.at(","):
                    cur.i += 1
                    pairs.append(self.soup_pair(cur))
                value = tuple(pairs)
            else:
                value = single_text(cur, name)
            self.put(cur, fields, name, tok, value)
        return Penalty(player, **fields)  # type: ignore[arg-type]

    def soup_pair(self, cur: Cursor) -> tuple[int, int]:
        seat = self.seat(cur)
        cur.expect(":", "colon_points")
        return seat, cur.integer("points", -(10**9), 10**9)


def _contract(cur: Cursor) -> tuple[bool, int]:
    expected = "contract_balkan"
    tok = cur.peek()
    game = tok is not None and tok.kind == "word" and fold(tok.text) in _GAME
    cur.i += game
    tok = cur.peek()
    if tok is None or tok.kind != "word":
        raise cur.error(expected, tok)
    number = _contract_of([fold(tok.text)])
    if number is None:
        raise cur.error(expected, tok)
    cur.i += 1
    after = cur.peek()
    if number == 7 and after is not None and after.kind == "word" and fold(after.text) == "atout":
        cur.i += 1
    return game, number


def _decision(cur: Cursor) -> Defence | None:
    tok = cur.peek()
    low = fold(tok.text) if tok is not None and tok.kind == "word" else ""
    if low == _NOT:
        after = cur.peek(1)
        if after is None or after.kind != "word" or fold(after.text) not in _PLAY:
            raise cur.error("after_ne", after)
        cur.i += 2
        return Defence.DROP
    for words, decision in (
        (_PLAY, Defence.PLAY),
        (_DROP, Defence.DROP),
        (_INVITE, Defence.INVITE),
    ):
        if low in words:
            cur.i += 1
            return decision
    return None


def _defence(cur: Cursor) -> tuple[Defence, ...]:
    """``ide/ne ide``: the two defenders' decisions in defending order; ``ide/ide`` if none."""
    first = _decision(cur)
    if first is None:
        return (Defence.PLAY, Defence.PLAY)
    slash = cur.at("/")
    cur.i += slash
    second = _decision(cur)
    if second is None:
        raise cur.error("second_decision", cur.peek())
    return (first, second)


def _counts(cur: Cursor) -> tuple[int, ...]:
    expected = "tricks_balkan"
    tok = cur.peek()
    if tok is None or tok.kind != "word":
        raise cur.error(expected, tok)
    parts = tok.text.split("-")
    if len(parts) != SEATS or not all(re.fullmatch("[0-9]{1,2}", p) for p in parts):
        raise cur.error(expected, tok)
    if any(int(p) > 10 for p in parts):
        raise NotationError(cur.number, tok.col, "TRICKS_0_10", token=repr(tok.text))
    cur.i += 1
    return tuple(int(p) for p in parts)


# --- writing ----------------------------------------------------------------------------------


def _ascii(text: str, ascii: bool) -> str:
    return fold(text) if ascii else text


def contract_words(convention: str) -> Callable[[int], str]:
    """The convention's word for each contract (Croatian words for an unknown convention)."""
    try:
        conv = find_convention(convention)
    except InvalidConventionError:
        conv = CROATIAN
    return conv.contract_word


_DECISION_TEXT: Final = {Defence.PLAY: "ide", Defence.DROP: "ne ide", Defence.INVITE: "zove"}


def write_deal(
    deal: BalkanDeal, ref: Callable[[int], str], convention: str, ascii: bool = False
) -> str:
    """One deal as its canonical notation line (without its number).

    :raises ValueError: for what the notation cannot hold (a seat not at the table, a contract
        outside 2–8, not two defenders' decisions, not three trick counts, an unknown bid).
    """
    if isinstance(deal, Penalty):
        parts = ["kazna", ref(deal.player)]
        if deal.rule:
            parts.append("§" + quote(deal.rule, word=True))
        parts += [f"bula={deal.column}"] if deal.column else []
        if deal.soups:
            parts.append("juha=" + ",".join(f"{ref(s)}:{p}" for s, p in deal.soups))
        if deal.note:
            parts.append("napomena=" + json.dumps(deal.note, ensure_ascii=False))
        return " ".join(parts)
    if isinstance(deal, AllPass):
        parts = ["dalje"]
    else:
        if not 2 <= deal.contract <= 8:
            raise ValueError(f"contract {deal.contract} is not 2–8")
        if len(deal.defence) != 2:
            raise ValueError("a hand needs the two defenders' decisions")
        word = contract_words(convention)(deal.contract)
        parts = [ref(deal.declarer)] + (["igra"] if deal.game else []) + [_ascii(word, ascii)]
        parts.append("/".join(_DECISION_TEXT[Defence(d)] for d in deal.defence))
        by = None if deal.kontra_by is None else ref(deal.kontra_by)
        parts += _kontra_words(deal.kontra, by, ascii)
        if deal.tricks is not None:
            if len(deal.tricks) != SEATS or not all(0 <= t <= 10 for t in deal.tricks):
                raise ValueError(f"tricks {deal.tricks}: three counts from 0 to 10")
            parts += [_ascii("štihovi", ascii), "-".join(str(t) for t in deal.tricks)]
    if deal.dealer is not None:
        parts.append(f"dijeli={ref(deal.dealer)}")
    if isinstance(deal, Hand) and deal.auction is not None:
        bids = []
        for seat, bid in deal.auction:
            if bid_from_text(bid) != bid:
                raise ValueError(f"bid {bid!r} is not one the notation knows")
            bids.append(f"{ref(seat)} {_ascii(bid_text(bid), ascii)}")
        parts.append("{" + "; ".join(bids) + "}")
    return " ".join(parts)


def _kontra_words(level: int, by: str | None, ascii: bool) -> list[str]:
    if level < 0:
        raise ValueError(f"kontra level {level} is below 0")
    if level == 0 and by is None:
        return []
    if level == 1 or (level in _WRITTEN_KONTRA and by is None):
        return [_WRITTEN_KONTRA.get(level, "kontra")] + ([by] if by else [])
    if level in _WRITTEN_KONTRA:
        return ["kontra", by, _WRITTEN_KONTRA[level]]  # type: ignore[list-item]
    return [f"kontra{'x' if ascii else '×'}{level}"] + ([by] if by else [])
