"""The text notation of a protocol: a referee types it from a paper sheet, one deal a line.

The grammar, with examples, is in ``docs/protocol-format.md``. In short::

    format: pulka 1
    convention: sochi
    options: whist_style=gentleman, raspasy_progression_limit=3
    target: 10
    players: Anna, Boris, Vera
    first dealer: Vera
    ending: closed

    1. Anna 6♠ / ровно w/p          # the 001 §4.2.11 column: "6♠ / ровно"
    2. Boris 8♦ / без одной w2/w1 open
    3. raspasy 4-3-3
    4. Vera мизер / ровно
    5. penalty Boris §3.2.21 gora=5 note="looked at the talon"

:func:`parse` reads it into a :class:`~scoring.protocol.Protocol`; :func:`format` writes the
canonical text back, so ``parse(format(p)) == p`` and ``format(parse(t))`` is canonical.

>>> text = "players: Anna, Boris, Vera\\ntarget: 10\\nAnna 6S = w/p\\nraspasy 4-3-3\\n"
>>> p = parse(text)
>>> p.deals[0].declarer_tricks, p.deals[1].tricks
(6, (4, 3, 3))
>>> print(format(p).splitlines()[-2])
1. Anna 6♠ / ровно w/p
>>> parse(format(p)) == p
True
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Final

from rules.contracts import Contract, Denomination, InvalidContractError

from .protocol import (
    Call,
    Deal,
    Ending,
    Game,
    OptionValue,
    Penalty,
    Protocol,
    Raspasy,
    Sheet,
    SheetLine,
    SheetRow,
)

__all__ = [
    "NotationError",
    "parse",
    "parse_with_sheet",
    "parse_sheet",
    "format",
    "format_sheet",
    "deal_text",
    "FORMAT_LINE",
    "RESULT_WORDS",
]

#: The first line :func:`format` writes; a file may omit it (version 1 is assumed).
FORMAT_LINE: Final = "format: pulka 1"


class NotationError(ValueError):
    """A line of the notation that cannot be read: ``line`` and ``column`` are 1-based."""

    def __init__(self, line: int, column: int, message: str) -> None:
        super().__init__(f"line {line}, column {column}: {message}")
        self.line = line
        self.column = column
        self.reason = message


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
_CALL_RE: Final = re.compile(r"^(.*?[^\d])(\d+)?$")
_RASPASY: Final = frozenset({"raspasy", "распасы", "распас", "распасовка", "rasp", "allpass"})
_PENALTY: Final = frozenset({"penalty", "штраф"})
_HEADERS: Final = {
    "format": "format", "формат": "format",
    "convention": "convention", "variant": "convention", "конвенция": "convention",
    "options": "options", "option": "options", "опции": "options", "договорённости": "options",
    "target": "target", "pulka": "target", "пулька": "target", "до": "target",
    "players": "players", "игроки": "players",
    "firstdealer": "first_dealer", "dealer": "first_dealer", "первыйсдающий": "first_dealer",
    "сдаёт": "first_dealer", "сдает": "first_dealer",
    "ending": "ending", "end": "ending", "окончание": "ending",
}  # fmt: skip
_ENDINGS: Final = {e.value: e for e in Ending} | {
    "закрыта": Ending.CLOSED, "сыграна": Ending.CLOSED, "соглашение": Ending.AGREEMENT,
    "time": Ending.TIME_LIMIT, "время": Ending.TIME_LIMIT, "играется": Ending.IN_PROGRESS,
}  # fmt: skip
_SAFE_NAME: Final = re.compile(r"^[^\W\d_][\w.'’-]*$")
_RESERVED: Final = _RASPASY | _PENALTY
_PUNCT: Final = "/{};,=:§"


# --- tokens --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Tok:
    kind: str  # "word", "string" or the punctuation character itself
    text: str
    col: int


def _tokens(line: str, number: int) -> list[_Tok]:
    out: list[_Tok] = []
    i = 0
    while i < len(line):
        ch = line[i]
        if ch.isspace():
            i += 1
        elif ch == "#":
            break
        elif ch in _PUNCT:
            out.append(_Tok(ch, ch, i + 1))
            i += 1
        elif ch == '"':
            end = i + 1
            while end < len(line) and line[end] != '"':
                end += 2 if line[end] == "\\" else 1
            if end >= len(line):
                raise NotationError(number, i + 1, "unterminated quoted text (expected '\"')")
            try:
                value = json.loads(line[i : end + 1])
            except json.JSONDecodeError as error:
                raise NotationError(number, i + 1, f"bad quoted text: {error.msg}") from None
            out.append(_Tok("string", value, i + 1))
            i = end + 1
        else:
            start = i
            while i < len(line) and not line[i].isspace() and line[i] not in _PUNCT + '#"':
                i += 1
            out.append(_Tok("word", line[start:i], start + 1))
    return out


class _Line:
    """A cursor over one line's tokens that raises :class:`NotationError` with the column."""

    def __init__(self, tokens: list[_Tok], number: int, length: int) -> None:
        self.toks, self.number, self.i, self.end = tokens, number, 0, length + 1

    def peek(self, ahead: int = 0) -> _Tok | None:
        j = self.i + ahead
        return self.toks[j] if j < len(self.toks) else None

    def take(self) -> _Tok:
        tok = self.peek()
        if tok is None:
            raise self.error("more", None)
        self.i += 1
        return tok

    def at(self, kind: str) -> bool:
        tok = self.peek()
        return tok is not None and tok.kind == kind

    def error(self, expected: str, tok: _Tok | None) -> NotationError:
        if tok is None:
            return NotationError(self.number, self.end, f"expected {expected}, found end of line")
        return NotationError(self.number, tok.col, f"expected {expected}, found {tok.text!r}")

    def expect(self, kind: str, expected: str) -> _Tok:
        tok = self.peek()
        if tok is None or tok.kind != kind:
            raise self.error(expected, tok)
        self.i += 1
        return tok

    def integer(self, expected: str, low: int = 0, high: int | None = None) -> int:
        tok = self.peek()
        if tok is None or tok.kind != "word" or not re.fullmatch(r"-?\d+", tok.text):
            raise self.error(expected, tok)
        value = int(tok.text)
        if value < low or (high is not None and value > high):
            raise self.error(expected, tok)
        self.i += 1
        return value

    def text(self, expected: str, stop: str = ",;}") -> str:
        """A quoted string, or the words up to a stop character, joined by single spaces."""
        tok = self.peek()
        if tok is not None and tok.kind == "string":
            self.i += 1
            return tok.text
        words: list[str] = []
        while (tok := self.peek()) is not None and tok.kind not in stop:
            if tok.kind != "word":
                raise self.error(f"{expected} (quote it to use {tok.text!r})", tok)
            words.append(tok.text)
            self.i += 1
        if not words:
            raise self.error(expected, tok)
        return " ".join(words)

    def done(self) -> bool:
        return self.i >= len(self.toks)


def _key(text: str) -> str:
    return re.sub(r"[\s_\-]", "", text.lower())


# --- reading -------------------------------------------------------------------------------


@dataclass
class _Reader:
    players: tuple[str, ...] | None = None

    def seat(self, cur: _Line) -> int:
        """A player: name (any case, or a unique prefix), quoted name, or seat number."""
        assert self.players is not None
        n = len(self.players)
        expected = f"a player (a name or a seat number 1–{n})"
        tok = cur.peek()
        if tok is None or tok.kind not in ("word", "string"):
            raise cur.error(expected, tok)
        if tok.kind == "word" and tok.text.isdigit():
            if not 1 <= int(tok.text) <= n:
                raise cur.error(expected, tok)
            cur.i += 1
            return int(tok.text) - 1
        low = tok.text.lower()
        exact = [s for s, name in enumerate(self.players) if name.lower() == low]
        found = exact or [s for s, name in enumerate(self.players) if name.lower().startswith(low)]
        if len(found) != 1:
            more = f"{expected}; {tok.text!r} matches several" if found else expected
            raise cur.error(more, tok)
        cur.i += 1
        return found[0]

    def deal(self, cur: _Line) -> Deal:
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

    def game(self, cur: _Line) -> Game:
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
                raise NotationError(
                    cur.number, 1, "defenders' tricks given twice (w3/p1 and split=)"
                )
            split = fields.pop("split")  # type: ignore[assignment]
        return Game(declarer, contract, calls, tricks, split, **fields)  # type: ignore[arg-type]

    def attributes(self, cur: _Line, fields: dict[str, object], *, game: bool) -> None:
        keys = ("premium", "премия", "dealer", "сдавал", "split", "взятки")
        expected = "open, x2, premium=, dealer=, split= or {auction}" if game else "x2 or dealer="
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
            elif re.fullmatch(r"[x×]\d+", low):
                cur.i += 1
                self.put(cur, fields, "multiplier", tok, int(low[1:]))
            elif low in keys and (game or low in ("dealer", "сдавал")):
                cur.i += 1
                cur.expect("=", f"'=' after {tok.text}")
                if low in ("dealer", "сдавал"):
                    self.put(cur, fields, "dealer", tok, self.seat(cur))
                elif low in ("premium", "премия"):
                    self.put(cur, fields, "talon_premium", tok, cur.integer("an integer", 0))
                else:
                    split = _counts(cur, None, "defenders' tricks such as 3-1")
                    if None in split:
                        raise NotationError(cur.number, tok.col, "split= needs numbers, not x")
                    self.put(cur, fields, "split", tok, split)
            else:
                raise cur.error(expected, tok)

    @staticmethod
    def put(cur: _Line, fields: dict[str, object], name: str, tok: _Tok, value: object) -> None:
        if name in fields:
            raise NotationError(cur.number, tok.col, f"{tok.text!r}: {name} given twice")
        fields[name] = value

    def auction(self, cur: _Line) -> tuple[tuple[int, str], ...]:
        cur.expect("{", "'{'")
        bids: list[tuple[int, str]] = []
        while not cur.at("}"):
            if bids:
                cur.expect(";", "';' or '}'")
            seat = self.seat(cur)
            bids.append((seat, cur.text("a call such as 6♠, pass or mis", stop=";}")))
        cur.expect("}", "'}'")
        return tuple(bids)

    # --- raspasy and penalties -------------------------------------------------------------

    def raspasy(self, cur: _Line) -> Raspasy:
        assert self.players is not None
        tricks = _counts(cur, len(self.players), "tricks per seat such as 4-3-3 (x for none)")
        fields: dict[str, object] = {}
        self.attributes(cur, fields, game=False)
        return Raspasy(tricks, **fields)  # type: ignore[arg-type]

    def penalty(self, cur: _Line) -> Penalty:
        player = self.seat(cur)
        fields: dict[str, object] = {}
        names = {"gora": "gora", "гора": "gora", "pulya": "pulya", "пуля": "pulya",
                 "whists": "whists", "висты": "whists", "note": "note",
                 "примечание": "note", "rule": "rule", "правило": "rule"}  # fmt: skip
        expected = "§rule, gora=, pulya=, whists= or note="
        while (tok := cur.peek()) is not None:
            if tok.kind == "§":
                cur.i += 1
                self.put(cur, fields, "rule", tok, _single_text(cur, "rule number, e.g. 3.2.21"))
                continue
            if tok.kind == "word" and re.fullmatch(r"\d+(\.\d+)+", tok.text):
                cur.i += 1
                self.put(cur, fields, "rule", tok, tok.text)
                continue
            name = names.get(tok.text.lower()) if tok.kind == "word" else None
            if name is None:
                raise cur.error(expected, tok)
            cur.i += 1
            cur.expect("=", f"'=' after {tok.text}")
            value: object
            if name in ("gora", "pulya"):
                value = cur.integer("an integer", -(10**9))
            elif name == "whists":
                pairs = [self.whist_pair(cur)]
                while cur.at(","):
                    cur.i += 1
                    pairs.append(self.whist_pair(cur))
                value = tuple(pairs)
            else:
                value = _single_text(cur, name)
            self.put(cur, fields, name, tok, value)
        rule = str(fields.pop("rule", ""))
        return Penalty(player, rule, **fields)  # type: ignore[arg-type]

    def whist_pair(self, cur: _Line) -> tuple[int, int]:
        seat = self.seat(cur)
        cur.expect(":", "':' and the whists, as in Boris:52")
        return seat, cur.integer("a number of whists", -(10**9))


def _single_text(cur: _Line, what: str) -> str:
    tok = cur.peek()
    if tok is None or tok.kind not in ("word", "string"):
        raise cur.error(f"the {what} (a word, or quoted text)", tok)
    cur.i += 1
    return tok.text


def _contract(cur: _Line) -> Contract:
    expected = "a contract such as 6♠, 7NT or mis"
    tok = cur.peek()
    if tok is None or tok.kind != "word":
        raise cur.error(expected, tok)
    cur.i += 1
    try:
        return Contract.from_str(tok.text)
    except InvalidContractError:
        pass
    if tok.text not in ("6", "7", "8", "9", "10"):
        raise NotationError(cur.number, tok.col, f"expected {expected}, found {tok.text!r}")
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


def _result(cur: _Line, contract: Contract, *, required: bool) -> int | None:
    expected = "a result: ровно, без одной, -1, +1 or the declarer's tricks"
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
    if m := re.fullmatch(r"\+(\d+)", low):
        if contract.is_misere:
            raise cur.error("a misère result: ровно or the tricks taken (no overtricks)", tok)
        tricks = level + int(m[1])
    elif m := re.fullmatch(r"[-−–](\d+)", low):
        tricks = level - int(m[1]) if level else int(m[1])
    elif low == "без":
        cur.i += 1
        word = cur.peek()
        count = word.text.lower() if word is not None and word.kind == "word" else ""
        if count.isdigit():
            under = int(count)
        elif count in _NUMBER_WORDS:
            under = _NUMBER_WORDS[count]
        elif count == "всех" and not contract.is_misere:
            under = level
        else:
            raise cur.error("how many down: одной, двух … десяти, всех or a number", word)
        tok = word
        tricks = level - under if level else under
    elif low.isdigit():
        tricks = int(low)
    else:
        if required:
            raise cur.error(expected, tok)
        return None
    assert tok is not None
    if not 0 <= tricks <= 10:
        raise NotationError(
            cur.number, tok.col, f"{tok.text!r} on {contract} gives {tricks} tricks, not 0–10"
        )
    cur.i += 1
    return tricks


def _defence(cur: _Line) -> tuple[tuple[Call, ...], tuple[int, ...] | None]:
    calls: list[Call] = []
    tricks: list[int | None] = []
    while (tok := cur.peek()) is not None and tok.kind == "word":
        m = _CALL_RE.match(tok.text.lower())
        if m is None or m[1] not in _CALLS:
            if calls:
                raise cur.error("a defender's call: w, p, h or hr (вист, пас, пол, возврат)", tok)
            break
        cur.i += 1
        calls.append(_CALLS[m[1]])
        tricks.append(int(m[2]) if m[2] else None)
        if not cur.at("/"):
            break
        cur.i += 1
        if cur.peek() is None or cur.peek().kind != "word":  # type: ignore[union-attr]
            raise cur.error("the next defender's call after '/'", cur.peek())
    if not calls or all(t is None for t in tricks):
        return tuple(calls), None
    if any(t is None for t in tricks):
        raise NotationError(cur.number, 1, "give every defender's tricks (w3/p1) or none (w/p)")
    return tuple(calls), tuple(t for t in tricks if t is not None)


def _counts(cur: _Line, n: int | None, expected: str) -> tuple[int | None, ...]:
    tok = cur.peek()
    if tok is None or tok.kind != "word":
        raise cur.error(expected, tok)
    parts = tok.text.lower().split("-")
    if not all(re.fullmatch(r"\d+|x", p) for p in parts) or (n is not None and len(parts) != n):
        raise cur.error(expected if n is None else f"{n} {expected}", tok)
    cur.i += 1
    return tuple(None if p == "x" else int(p) for p in parts)


# --- headers and the whole text --------------------------------------------------------------


def _option_value(cur: _Line) -> OptionValue:
    tok = cur.peek()
    if tok is None or tok.kind not in ("word", "string"):
        raise cur.error("an option value (a word, number, true/false, none or quoted text)", tok)
    cur.i += 1
    if tok.kind == "string":
        return tok.text
    low = tok.text.lower()
    if re.fullmatch(r"-?\d+", low):
        return int(low)
    if low in ("true", "yes", "да", "on"):
        return True
    if low in ("false", "no", "нет", "off"):
        return False
    if low in ("none", "null"):
        return None
    return tok.text


def _header(reader: _Reader, cur: _Line, key: str, found: dict[str, object]) -> None:
    head = cur.toks[0]
    if key in found and key != "options":
        raise NotationError(cur.number, head.col, f"the {key.replace('_', ' ')} is given twice")
    if key == "format":
        word = cur.expect("word", "'pulka'")
        if word.text.lower() != "pulka":
            raise cur.error("'pulka'", word)
        found[key] = cur.integer("the notation version 1", 1, 1)
    elif key == "convention":
        found[key] = cur.text("a convention such as sochi, leningrad, rostov or classic")
    elif key == "options":
        options = dict(found.get("options", {}))  # type: ignore[call-overload]
        while True:
            tok = cur.peek()
            name = cur.text("an option name", stop=",=")
            cur.expect("=", f"'=' and a value after {name}")
            if name in options:
                raise NotationError(cur.number, tok.col if tok else 1, f"option {name!r} twice")
            options[name] = _option_value(cur)
            if not cur.at(","):
                break
            cur.i += 1
        found[key] = options
    elif key == "target":
        found[key] = cur.integer("the pulka size, a whole number of points (e.g. 10, 20, 50)", 1)
    elif key == "players":
        names = [cur.text("a player's name")]
        while cur.at(","):
            cur.i += 1
            names.append(cur.text("a player's name"))
        if len(names) not in (3, 4):
            raise NotationError(
                cur.number, head.col, f"expected 3 or 4 players, found {len(names)}"
            )
        if len({name.lower() for name in names}) != len(names):
            raise NotationError(cur.number, head.col, "two players have the same name")
        reader.players = tuple(names)
        found[key] = reader.players
    elif key == "first_dealer":
        if reader.players is None:
            raise NotationError(cur.number, head.col, "expected a 'players:' line before this one")
        found[key] = reader.seat(cur)
    else:
        tok = cur.expect("word", "closed, agreement, time-limit or in-progress")
        if tok.text.lower() not in _ENDINGS:
            raise cur.error("closed, agreement, time-limit or in-progress", tok)
        found[key] = _ENDINGS[tok.text.lower()]
    if not cur.done():
        raise cur.error("end of line", cur.peek())


def _header_key(tokens: list[_Tok]) -> tuple[str, int] | None:
    for j, tok in enumerate(tokens):
        if tok.kind == ":":
            key = _HEADERS.get(_key("".join(t.text for t in tokens[:j])))
            return (key, j + 1) if key and j else None
        if tok.kind != "word":
            return None
    return None


_SHEET_WORDS: Final = frozenset({"sheet", "запись", "written"})
_FINAL_WORDS: Final = frozenset({"final", "итог"})
_RESULT_SHEET_WORDS: Final = frozenset({"result", "результат"})


@dataclass
class _SheetLines:
    """The ``sheet …:`` lines: what the players wrote, for :mod:`scoring.check`."""

    running: dict[int, SheetRow] = field(default_factory=dict)
    final: SheetRow | None = None
    result: tuple[Fraction, ...] | None = None
    seen: bool = False

    def line(self, reader: _Reader, cur: _Line) -> None:
        assert reader.players is not None
        self.seen = True
        cur.i = 1
        which = cur.peek()
        expected = "a deal number, final or result"
        if which is None or which.kind != "word":
            raise cur.error(expected, which)
        low = which.text.lower()
        cur.i += 1
        cur.expect(":", "':'")
        if low.isdigit() and int(low) >= 1:
            if int(low) in self.running:
                raise NotationError(cur.number, which.col, f"sheet {low} is given twice")
            self.running[int(low)] = _sheet_row(reader, cur)
        elif low in _FINAL_WORDS:
            if self.final is not None:
                raise NotationError(cur.number, which.col, "the final sheet is given twice")
            self.final = _sheet_row(reader, cur)
        elif low in _RESULT_SHEET_WORDS:
            if self.result is not None:
                raise NotationError(cur.number, which.col, "the result is given twice")
            values = [_fraction(cur)]
            while cur.at(","):
                cur.i += 1
                values.append(_fraction(cur))
            if len(values) != len(reader.players):
                raise cur.error(f"{len(reader.players)} results, one per seat", cur.peek())
            self.result = tuple(values)
        else:
            raise NotationError(cur.number, which.col, f"expected {expected}, found {which.text!r}")
        if not cur.done():
            raise cur.error("end of line", cur.peek())

    def sheet(self) -> Sheet | None:
        if not self.seen:
            return None
        last = max(self.running, default=0)
        running = tuple(self.running.get(i) for i in range(1, last + 1))
        return Sheet(running=running, final=self.final, result=self.result)


def _fraction(cur: _Line) -> Fraction:
    tok = cur.peek()
    expected = "a result in whists: 14, -80/3 or 12.5"
    if tok is None or tok.kind != "word" or not re.fullmatch(r"[-+]?\d+(\.\d+)?", tok.text):
        raise cur.error(expected, tok)
    cur.i += 1
    if "." in tok.text or not cur.at("/"):
        return Fraction(tok.text)
    cur.i += 1
    below = cur.peek()
    if below is None or below.kind != "word" or not re.fullmatch(r"[1-9]\d*", below.text):
        raise cur.error("a denominator after '/'", below)
    cur.i += 1
    return Fraction(int(tok.text), int(below.text))


def _sheet_row(reader: _Reader, cur: _Line) -> SheetRow:
    """``Anna 10 1 18 32; Boris …``: pulya, gora, then the whists on each other seat."""
    assert reader.players is not None
    n = len(reader.players)
    lines: dict[int, SheetLine] = {}
    while True:
        tok = cur.peek()
        seat = reader.seat(cur)
        if seat in lines:
            raise cur.error("each player once", tok)
        numbers = [cur.integer("a written number", -(10**9)) for _ in range(n + 1)]
        whists = numbers[2:]
        whists.insert(seat, 0)
        lines[seat] = SheetLine(numbers[0], numbers[1], tuple(whists))
        if not cur.at(";"):
            break
        cur.i += 1
    missing = [reader.players[s] for s in range(n) if s not in lines]
    if missing:
        raise cur.error(f"'; ' and {missing[0]}'s pulya, gora and whists", cur.peek())
    return tuple(lines[s] for s in range(n))


def parse(text: str) -> Protocol:
    """Read a protocol written in the text notation (``sheet`` lines are read and dropped;
    :func:`parse_with_sheet` keeps them).

    :raises NotationError: naming the line and column and what was expected there.
    """
    return parse_with_sheet(text)[0]


def parse_with_sheet(text: str) -> tuple[Protocol, Sheet | None]:
    """Read a protocol and the sheet the players wrote (``None`` without ``sheet`` lines).

    :raises NotationError: naming the line and column and what was expected there.
    """
    reader = _Reader()
    found: dict[str, object] = {}
    deals: list[Deal] = []
    sheet = _SheetLines()
    lines = text.splitlines()
    for number, raw in enumerate(lines, 1):
        tokens = _tokens(raw, number)
        if not tokens:
            continue
        cur = _Line(tokens, number, len(raw))
        header = _header_key(tokens)
        if header is not None:
            if deals or sheet.seen:
                raise NotationError(number, 1, "headers come before the first deal")
            cur.i = header[1]
            _header(reader, cur, header[0], found)
            continue
        for key, what in (("players", "a 'players:' line"), ("target", "a 'target:' line")):
            if key not in found:
                raise NotationError(number, 1, f"expected {what} before the first deal")
        head = tokens[0]
        if head.kind == "word" and head.text.lower() in _SHEET_WORDS:
            sheet.line(reader, cur)
            continue
        if head.kind == "word" and re.fullmatch(r"\d+\.", head.text):
            if int(head.text[:-1]) != len(deals) + 1:
                raise NotationError(number, head.col, f"expected deal number {len(deals) + 1}.")
            cur.i = 1
        if cur.done():
            raise cur.error("a deal: a player and a contract, raspasy or penalty", None)
        try:
            deals.append(reader.deal(cur))
        except (TypeError, ValueError) as error:
            if isinstance(error, NotationError):
                raise
            raise NotationError(number, 1, str(error)) from None
    for key in ("players", "target"):
        if key not in found:
            raise NotationError(len(lines) + 1, 1, f"expected a '{key}:' line")
    options = found.get("options", {})
    assert isinstance(options, dict)
    protocol = Protocol(
        players=reader.players or (),
        target=found["target"],  # type: ignore[arg-type]
        deals=tuple(deals),
        convention=found.get("convention", "sochi"),  # type: ignore[arg-type]
        options=tuple(options.items()),
        first_dealer=found.get("first_dealer", 0),  # type: ignore[arg-type]
        ending=found.get("ending", Ending.CLOSED),  # type: ignore[arg-type]
    )
    return protocol, sheet.sheet()


def parse_sheet(text: str, players: tuple[str, ...]) -> Sheet:
    """Read a file of ``sheet`` lines alone, for the table of ``players``.

    :raises NotationError: naming the line and column and what was expected there.
    """
    reader = _Reader(players)
    sheet = _SheetLines()
    for number, raw in enumerate(text.splitlines(), 1):
        tokens = _tokens(raw, number)
        if not tokens:
            continue
        head = tokens[0]
        if head.kind != "word" or head.text.lower() not in _SHEET_WORDS:
            raise NotationError(number, head.col, f"expected 'sheet', found {head.text!r}")
        sheet.line(reader, _Line(tokens, number, len(raw)))
    return sheet.sheet() or Sheet()


# --- writing -------------------------------------------------------------------------------


def _is_bare(text: str, *, word: bool = False) -> bool:
    """Whether ``text`` reads back unchanged without quotes."""
    if not text or text != text.strip() or "  " in text:
        return False
    try:
        tokens = _tokens(text, 0)
    except NotationError:
        return False
    if not all(t.kind == "word" for t in tokens) or " ".join(t.text for t in tokens) != text:
        return False
    return len(tokens) == 1 if word else True


def _quote(text: str, *, word: bool = False) -> str:
    return text if _is_bare(text, word=word) else json.dumps(text, ensure_ascii=False)


def _value(value: OptionValue) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    cur = _Line(_tokens(value, 0), 0, len(value)) if _is_bare(value, word=True) else None
    if cur is not None and _option_value(cur) == value:
        return value
    return json.dumps(value, ensure_ascii=False)


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


def _referrer(names: tuple[str, ...]) -> Callable[[int], str]:
    lowered = [name.lower() for name in names]

    def ref(seat: int) -> str:
        if not 0 <= seat < len(names):
            raise ValueError(f"seat {seat} is not at a table of {len(names)}")
        name = names[seat]
        safe = _SAFE_NAME.match(name) and lowered.count(name.lower()) == 1
        return name if safe and name.lower() not in _RESERVED else str(seat + 1)

    return ref


def format(  # noqa: A001 - pairs with parse
    protocol: Protocol, sheet: Sheet | None = None, *, ascii: bool = False
) -> str:
    """The canonical text of a protocol (``ascii=True``: 6S, mis, =, -1, raspasy, penalty),
    followed by the ``sheet`` lines of the written sheet, if given.

    :raises ValueError: for a value the notation cannot hold (a seat not at the table, tricks
        outside 0–10, an empty defenders' split).
    """
    names = protocol.players
    ref = _referrer(names)
    lines = [FORMAT_LINE, f"convention: {_quote(protocol.convention)}"]
    if protocol.options:
        pairs = (f"{_quote(k, word=True)}={_value(v)}" for k, v in protocol.options)
        lines.append("options: " + ", ".join(pairs))
    lines.append(f"target: {protocol.target}")
    lines.append("players: " + ", ".join(_quote(n) for n in names))
    lines.append(f"first dealer: {ref(protocol.first_dealer)}")
    lines.append(f"ending: {Ending(protocol.ending).value}")
    lines.append("")
    for i, deal in enumerate(protocol.deals, 1):
        lines.append(f"{i}. {_deal_text(deal, ref, ascii)}")
    written = "" if sheet is None else format_sheet(sheet, protocol.players)
    if written:
        lines += ["", written.rstrip("\n")]
    return "\n".join(lines) + "\n"


def format_sheet(sheet: Sheet, players: tuple[str, ...]) -> str:
    """The ``sheet`` lines of a written sheet: ``sheet 3: Anna 2 1 6 0; …``, ``sheet final:
    …``, ``sheet result: 14, -80/3, …``. Rows left empty at the end of ``running`` are not
    written (they mean the same: nothing copied).

    :raises ValueError: for a row that is not one line per player with a whist per seat, or
        whists a player wrote on himself.
    """
    ref = _referrer(players)
    n = len(players)

    def row_text(row: SheetRow) -> str:
        if len(row) != n or any(len(x.whists) != n or x.whists[s] for s, x in enumerate(row)):
            raise ValueError(f"a sheet row needs {n} lines of {n} whists, 0 at the writer's seat")
        return "; ".join(
            " ".join([ref(s), str(x.pulya), str(x.gora)] + [str(w) for q, w in enumerate(x.whists)
                                                          if q != s])
            for s, x in enumerate(row)
        )  # fmt: skip

    lines = [f"sheet {i}: {row_text(r)}" for i, r in enumerate(sheet.running, 1) if r is not None]
    if sheet.final is not None:
        lines.append(f"sheet final: {row_text(sheet.final)}")
    if sheet.result is not None:
        if len(sheet.result) != n:
            raise ValueError(f"a sheet result needs {n} numbers")
        lines.append("sheet result: " + ", ".join(str(Fraction(r)) for r in sheet.result))
    return "".join(line + "\n" for line in lines)


def deal_text(protocol: Protocol, index: int, *, ascii: bool = False) -> str:
    """One deal of ``protocol`` as its notation line, without the number.

    :raises ValueError: as :func:`format`.
    """
    return _deal_text(protocol.deals[index], _referrer(protocol.players), ascii)


def _deal_text(deal: Deal, ref: Callable[[int], str], ascii: bool) -> str:
    if isinstance(deal, Penalty):
        parts = ["penalty" if ascii else "штраф", ref(deal.player)]
        if deal.rule:
            parts.append("§" + _quote(deal.rule, word=True))
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
        bids = "; ".join(f"{ref(s)} {_quote(t)}" for s, t in deal.auction)
        parts.append("{" + bids + "}")
    return " ".join(parts)
