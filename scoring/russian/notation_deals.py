"""Deal lines of the text notation (:mod:`scoring.russian.notation`): reading and writing games,
raspasy and penalties, and the players named in them.

>>> from rules.contracts import Contract
>>> from scoring.notation_lexer import tokenize
>>> reader = DealReader(("Anna", "Boris", "Vera"))
>>> reader.deal(Cursor(tokenize("Bor 8 / без одной w2/w1", 1), 1, 23))
Game(declarer=1, contract=Contract(level=8, denomination=<Denomination.SPADES: 0>), calls=(<Call.WHIST: 'whist'>, <Call.WHIST: 'whist'>), declarer_tricks=7, defender_tricks=(2, 1), open=False, auction=None, multiplier=1, talon_premium=0, dealer=None)
>>> write_deal(Game(0, Contract.from_str("7NT"), (), 8), referrer(("Anna", "Boris", "Vera")), False)
'Anna 7БК / +1'
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from rules.contracts import Contract, Denomination, InvalidContractError

from ..notation_lexer import Cursor, Expected, NotationError, SeatReader, quote, single_text
from ..notation_lexer import referrer as seat_referrer
from .protocol import Call, Deal, Game, Penalty, Raspasy

__all__ = ["DealReader", "write_deal", "referrer", "RESULT_WORDS", "RESERVED"]

# --- vocabulary ----------------------------------------------------------------------------

#: "без одной" … "без десяти": undertricks in words, as on the 001 §4.2.11 column.
RESULT_WORDS: Final = ("одной", "двух", "трёх", "четырёх", "пяти", "шести", "семи", "восьми",
                       "девяти", "десяти")  # fmt: skip
_NUMBER_WORDS: Final = {w: i + 1 for i, w in enumerate(RESULT_WORDS)} | {
    "трех": 3, "четырех": 4, "одну": 1, "одна": 1, "два": 2, "две": 2, "три": 3, "четыре": 4,
}  # fmt: skip
_EXACT: Final = frozenset({"=", "ровно", "made", "exactly", "сыграна", "сыграно", "сыгран"})
_CALLS: Final = {
    "w": Call.WHIST, "в": Call.WHIST, "вист": Call.WHIST, "whist": Call.WHIST,
    "p": Call.PASS, "пас": Call.PASS, "pass": Call.PASS,
    "h": Call.HALF, "пол": Call.HALF, "полвиста": Call.HALF, "half": Call.HALF,
    "hr": Call.HALF_RETURNED, "возврат": Call.HALF_RETURNED,
    "half-returned": Call.HALF_RETURNED,
}  # fmt: skip
_CALL_CODE: Final = {Call.WHIST: "w", Call.PASS: "p", Call.HALF: "h", Call.HALF_RETURNED: "hr"}
_CALL_RE: Final = re.compile(r"^(.*?[^0-9])([0-9]+)?$")
_RASPASY: Final = frozenset({"raspasy", "распасы", "распас", "распасовка", "rasp", "allpass"})
_PENALTY: Final = frozenset({"penalty", "штраф"})
RESERVED: Final = _RASPASY | _PENALTY


@dataclass
class DealReader(SeatReader):
    """Reads deal lines for a table of ``players``."""

    def deal(self, cur: Cursor) -> Deal:
        head = cur.peek()
        assert head is not None
        if head.kind == "word" and head.text.lower() in _RASPASY:
            cur.i += 1
            return self.raspasy(cur)
        if head.kind == "word" and head.text.lower() in _PENALTY:
            cur.i += 1
            return self.penalty(cur)
        return self.game(cur)

    # --- games ---------------------------------------------------------------------------

    def game(self, cur: Cursor) -> Game:
        self.columns.clear()
        declarer = self.seat(cur)
        contract = _contract(cur)
        tricks: int | None = None
        if cur.at("/"):
            cur.i += 1
            tricks = _result(cur, contract, required=True)
        else:
            tricks = _result(cur, contract, required=False)
        calls, split = _defence(cur)
        fields: dict[str, object] = {}
        self.attributes(cur, fields, game=True)
        if "split" in fields:
            if split is not None:
                column = self.columns.get("split", 1)
                raise NotationError(cur.number, column, "SPLIT_TWICE")
            split = fields.pop("split")  # type: ignore[assignment]
        return Game(declarer, contract, calls, tricks, split, **fields)  # type: ignore[arg-type]

    def attributes(self, cur: Cursor, fields: dict[str, object], *, game: bool) -> None:
        keys = ("premium", "премия", "dealer", "сдавал", "split", "взятки")
        expected = "game_attribute" if game else "raspasy_attribute"
        while (tok := cur.peek()) is not None:
            low = tok.text.lower()
            if game and tok.kind == "{":
                self.put(cur, fields, "auction", tok, self.auction(cur))
            elif tok.kind != "word":
                raise cur.error(expected, tok)
            elif game and low in ("open", "светлую", "светлая", "light"):
                cur.i += 1
                self.put(cur, fields, "open", tok, True)
            elif game and low in ("closed", "втёмную", "тёмная", "dark"):
                cur.i += 1
                self.put(cur, fields, "open", tok, False)
            elif re.fullmatch(r"[x×][0-9]+", low):
                cur.i += 1
                self.put(cur, fields, "multiplier", tok, int(low[1:]))
            elif low in keys and (game or low in ("dealer", "сдавал")):
                cur.i += 1
                cur.expect("=", Expected("equals_after", word=tok.text))
                if low in ("dealer", "сдавал"):
                    self.put(cur, fields, "dealer", tok, self.seat(cur))
                elif low in ("premium", "премия"):
                    self.put(cur, fields, "talon_premium", tok, cur.integer("integer", 0))
                else:
                    split = _counts(cur, None, "defenders_tricks")
                    if None in split:
                        raise NotationError(cur.number, tok.col, "SPLIT_X")
                    self.put(cur, fields, "split", tok, split)
            else:
                raise cur.error(expected, tok)

    def auction(self, cur: Cursor) -> tuple[tuple[int, str], ...]:
        cur.expect("{", "open_brace")
        bids: list[tuple[int, str]] = []
        while not cur.at("}"):
            if bids:
                cur.expect(";", "semicolon_or_brace")
            seat = self.seat(cur)
            bids.append((seat, cur.text("call_russian", stop=";}")))
        cur.expect("}", "close_brace")
        return tuple(bids)

    # --- raspasy and penalties -------------------------------------------------------------

    def raspasy(self, cur: Cursor) -> Raspasy:
        assert self.players is not None
        tricks = _counts(cur, len(self.players), "tricks_per_seat")
        fields: dict[str, object] = {}
        self.attributes(cur, fields, game=False)
        return Raspasy(tricks, **fields)  # type: ignore[arg-type]

    def penalty(self, cur: Cursor) -> Penalty:
        player = self.seat(cur)
        fields: dict[str, object] = {}
        names = {"gora": "gora", "гора": "gora", "pulya": "pulya", "пуля": "pulya",
                 "whists": "whists", "висты": "whists", "note": "note",
                 "примечание": "note", "rule": "rule", "правило": "rule"}  # fmt: skip
        expected = "penalty_russian"
        while (tok := cur.peek()) is not None:
            if self.rule(cur, fields, "rule_russian"):
                continue
            name = names.get(tok.text.lower()) if tok.kind == "word" else None
            if name is None:
                raise cur.error(expected, tok)
            cur.i += 1
            cur.expect("=", Expected("equals_after", word=tok.text))
            value: object
            if name in ("gora", "pulya"):
                value = cur.integer("integer", -(10**9))
            elif name == "whists":
                pairs = [self.whist_pair(cur)]
                while cur.at(","):
                    cur.i += 1
                    pairs.append(self.whist_pair(cur))
                value = tuple(pairs)
            else:
                value = single_text(cur, name)
            self.put(cur, fields, name, tok, value)
        rule = str(fields.pop("rule", ""))
        return Penalty(player, rule, **fields)  # type: ignore[arg-type]

    def whist_pair(self, cur: Cursor) -> tuple[int, int]:
        seat = self.seat(cur)
        cur.expect(":", "colon_whists")
        return seat, cur.integer("whists_number", -(10**9))


def _contract(cur: Cursor) -> Contract:
    expected = "contract_russian"
    tok = cur.peek()
    if tok is None or tok.kind != "word":
        raise cur.error(expected, tok)
    cur.i += 1
    try:
        return Contract.from_str(tok.text)
    except InvalidContractError:
        pass
    if tok.text not in ("6", "7", "8", "9", "10"):
        raise cur.error(expected, tok)
    suit = cur.peek()
    if suit is not None and suit.kind == "word" and suit.text.lower() not in _CALLS:
        try:
            denomination = Denomination.from_str(suit.text)
        except InvalidContractError:
            pass
        else:
            cur.i += 1
            return Contract(int(tok.text), denomination)
    # "8 / без одной" (001 §4.2.11): the suit changes no price; read it as the lowest, ♠.
    return Contract(int(tok.text), Denomination.SPADES)


def _result(cur: Cursor, contract: Contract, *, required: bool) -> int | None:
    expected = "result_russian"
    tok = cur.peek()
    level = contract.level  # misère is level 0: "без одной" is one trick taken
    if tok is None or tok.kind not in ("word", "="):
        if required:
            raise cur.error(expected, tok)
        return None
    low = tok.text.lower()
    if low in _EXACT:
        cur.i += 1
        return level
    if m := re.fullmatch(r"\+([0-9]+)", low):
        if contract.is_misere:
            raise cur.error("misere_result", tok)
        tricks = level + int(m[1])
    elif m := re.fullmatch(r"[-−–]([0-9]+)", low):
        tricks = level - int(m[1]) if level else int(m[1])
    elif low == "без":
        cur.i += 1
        word = cur.peek()
        count = word.text.lower() if word is not None and word.kind == "word" else ""
        if re.fullmatch("[0-9]+", count):
            under = int(count)
        elif count in _NUMBER_WORDS:
            under = _NUMBER_WORDS[count]
        elif count == "всех" and not contract.is_misere:
            under = level
        else:
            raise cur.error("how_many_down", word)
        tok = word
        tricks = level - under if level else under
    elif re.fullmatch("[0-9]+", low):
        tricks = int(low)
    else:
        if required:
            raise cur.error(expected, tok)
        return None
    assert tok is not None
    if not 0 <= tricks <= 10:
        raise NotationError(
            cur.number,
            tok.col,
            "TRICKS_RANGE",
            token=repr(tok.text),
            contract=contract,
            tricks=tricks,
        )
    cur.i += 1
    return tricks


def _defence(cur: Cursor) -> tuple[tuple[Call, ...], tuple[int, ...] | None]:
    calls: list[Call] = []
    tricks: list[int | None] = []
    first = cur.peek()
    while (tok := cur.peek()) is not None and tok.kind == "word":
        m = _CALL_RE.match(tok.text.lower())
        if m is None or m[1] not in _CALLS:
            if calls:
                raise cur.error("defender_call", tok)
            break
        cur.i += 1
        calls.append(_CALLS[m[1]])
        tricks.append(int(m[2]) if m[2] else None)
        if not cur.at("/"):
            break
        cur.i += 1
        if cur.peek() is None or cur.peek().kind != "word":  # type: ignore[union-attr]
            raise cur.error("next_defender_call", cur.peek())
    if not calls or all(t is None for t in tricks):
        return tuple(calls), None
    if any(t is None for t in tricks):
        column = first.col if first is not None else 1
        raise NotationError(cur.number, column, "DEFENDERS_TRICKS")
    return tuple(calls), tuple(t for t in tricks if t is not None)


def _counts(cur: Cursor, n: int | None, what: str) -> tuple[int | None, ...]:
    tok = cur.peek()
    expected = Expected(what) if n is None else Expected("n_of", n=n, what=Expected(what))
    if tok is None or tok.kind != "word":
        raise cur.error(expected, tok)
    parts = tok.text.lower().split("-")
    if not all(re.fullmatch(r"[0-9]+|x", p) for p in parts) or (n is not None and len(parts) != n):
        raise cur.error(expected, tok)
    cur.i += 1
    return tuple(None if p == "x" else int(p) for p in parts)


def _result_text(contract: Contract, tricks: int, ascii: bool) -> str:
    level = contract.level
    if not 0 <= tricks <= 10:
        raise ValueError(f"{tricks} tricks on {contract} cannot be written (0–10)")
    if tricks == level:
        return "=" if ascii else "ровно"
    under = tricks if contract.is_misere else level - tricks
    if under > 0:
        return f"-{under}" if ascii else f"без {RESULT_WORDS[under - 1]}"
    return f"+{tricks - level}"


def referrer(
    names: tuple[str, ...], reserved: Callable[[str], bool] | None = None
) -> Callable[[int], str]:
    """How the notation names a seat (:func:`scoring.notation_lexer.referrer`); ``reserved``
    tells a name that is a keyword of the notation, by default the Russian :data:`RESERVED`
    words."""
    return seat_referrer(names, reserved if reserved is not None else (lambda low: low in RESERVED))


def write_deal(deal: Deal, ref: Callable[[int], str], ascii: bool) -> str:
    if isinstance(deal, Penalty):
        parts = ["penalty" if ascii else "штраф", ref(deal.player)]
        if deal.rule:
            parts.append("§" + quote(deal.rule, word=True))
        parts += [f"gora={deal.gora}"] if deal.gora else []
        parts += [f"pulya={deal.pulya}"] if deal.pulya else []
        if deal.whists:
            parts.append("whists=" + ",".join(f"{ref(s)}:{w}" for s, w in deal.whists))
        if deal.note:
            parts.append("note=" + json.dumps(deal.note, ensure_ascii=False))
        return " ".join(parts)
    if isinstance(deal, Raspasy):
        counts = "-".join("x" if t is None else str(t) for t in deal.tricks)
        parts = ["raspasy" if ascii else "распасы", counts]
    else:
        contract = deal.contract
        parts = [ref(deal.declarer), contract.ascii if ascii else str(contract)]
        if deal.declarer_tricks is not None:
            parts += ["/", _result_text(contract, deal.declarer_tricks, ascii)]
        split = deal.defender_tricks
        attach = split is not None and len(split) == len(deal.calls) and bool(split)
        if deal.calls:
            codes = [_CALL_CODE[Call(c)] for c in deal.calls]
            if attach and split is not None:
                codes = [f"{c}{t}" for c, t in zip(codes, split, strict=True)]
            parts.append("/".join(codes))
        if split is not None and not attach:
            if not split:
                raise ValueError("an empty defenders' split cannot be written")
            parts.append("split=" + "-".join(str(t) for t in split))
        parts += ["open"] if deal.open else []
    parts += [f"x{deal.multiplier}"] if deal.multiplier != 1 else []
    if isinstance(deal, Game) and deal.talon_premium:
        parts.append(f"premium={deal.talon_premium}")
    if deal.dealer is not None:
        parts.append(f"dealer={ref(deal.dealer)}")
    if isinstance(deal, Game) and deal.auction is not None:
        bids = "; ".join(f"{ref(s)} {quote(t)}" for s, t in deal.auction)
        parts.append("{" + bids + "}")
    return " ".join(parts)
