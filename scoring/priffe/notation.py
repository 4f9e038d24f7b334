"""The text notation of a Priffe game, in the players' words (``docs/priffe-format.md``)::

    format: priffe 1
    convention: modern
    target: 3
    players: Anna, Bertil, Cecilia, David
    ending: in-progress

    sits 1: Anna, Bertil, Cecilia, David     # clockwise from the first dealer: Anna+Cecilia
    1. Bertil hjärter 9/4 honnörer Cecilia 3 {pass hjärter pass pass}
    2. tvångsnoll Anna 5/8 {spader pass pass pass}
    3. Cecilia noll 6/7
    4. David pref 12/1 lillslam
    5. straff Bertil 50 rule="revoke" note="the referee's ruling"
    sheet 1: under 0 30, över 30 0
    sheet 4: under 0 60, över 0 10, utgång

A deal names the player who made the final bid, the contract (``pref``/``preference``/
``spelut``, ``noll``/``nollissimo``, ``hjärter``, ``ruter``; old-fashioned also ``klöver``,
``spader``), and the tricks of **that player's side** first; at ``tvångsnoll`` a player names
the side whose tricks come first. ``lillslam`` / ``storslam`` may stand for the tricks or follow
them (then they must agree). :func:`parse` reads it, :func:`format` writes the canonical text,
so ``parse(format(p)) == p``.

>>> text = ("players: A, B, C, D\\nsits 1: A, B, C, D\\nB hjärter 8 honnörer C 3+1\\n"
...         "tvångsnoll C 6 {klöver pass pass pass}\\n")
>>> p = parse(text)
>>> p.deals[0].tricks, p.deals[1].tricks, p.deals[1].bids
((5, 8), (6, 7), ('klöver', 'pass', 'pass', 'pass'))
>>> print(format(p).splitlines()[-1])
2. tvångsnoll A 6/7 {klöver pass pass pass}
>>> parse(format(p)) == p
True
"""

from __future__ import annotations

import re
from typing import Final

from rules.priffe import Contract, parse_bid, parse_contract

from ..notation_lexer import (
    MAX_DEALS,
    Cursor,
    Expected,
    NotationError,
    Token,
    is_bare,
    players_named,
    quote,
    squash,
    tokenize,
)
from .protocol import (
    Ending,
    Hand,
    Honours,
    HonoursPattern,
    Penalty,
    PriffeDeal,
    PriffeProtocol,
    PriffeSheet,
    Seating,
    SheetEntry,
)

__all__ = ["NotationError", "FORMAT_LINE", "parse", "parse_with_sheet", "parse_sheet",
           "format", "format_sheet", "deal_text"]  # fmt: skip

FORMAT_LINE: Final = "format: priffe 1"
_HEADERS: Final = {
    "format": "format", "convention": "convention", "konvention": "convention",
    "variant": "convention", "options": "options", "alternativ": "options",
    "target": "target", "längd": "target", "players": "players", "spelare": "players",
    "ending": "ending", "slut": "ending",
}  # fmt: skip
_ENDINGS: Final = {e.value: e for e in Ending} | {
    "avslutad": Ending.CLOSED, "pågår": Ending.IN_PROGRESS, "tid": Ending.TIME_LIMIT,
    "överenskommelse": Ending.AGREEMENT,
}  # fmt: skip
_PENALTY: Final = ("straff", "penalty")
_TVANGSNOLL: Final = ("tvångsnoll", "tvangsnoll")
_HONOURS: Final = ("honnörer", "honnorer", "honours")
_SLAMS: Final = {"lillslam": 12, "storslam": 13}
_KEYWORDS: Final = {"sits", "sheet", *_TVANGSNOLL, *_PENALTY, *_HONOURS, *_SLAMS, "pass",
                    *(c.value for c in Contract)}  # fmt: skip


class _Reader:
    def __init__(self) -> None:
        self.headers: dict[str, object] = {}
        self.sittings: list[Seating] = []
        self.deals: list[PriffeDeal] = []
        self.entries: dict[int, SheetEntry | None] = {}
        self.sits: dict[int, tuple[int, int] | None] = {}
        self.result: tuple[int, ...] | None = None

    @property
    def players(self) -> tuple[str, ...]:
        players = self.headers.get("players")
        return players if isinstance(players, tuple) else ()

    def player(self, cur: Cursor) -> int:
        tok = cur.peek()
        names = self.players
        if tok is not None and tok.kind == "word" and re.fullmatch(r"[1-4]", tok.text):
            cur.i += 1  # a bare 1–4 is a player number; a name that is a number is quoted
            return int(tok.text) - 1
        if tok is not None and tok.kind in ("word", "string"):
            named = players_named(names, tok.text)  # a name, or a first name
            if named:
                cur.i += 1
                return named[0]
        if names:
            raise cur.error(Expected("player_priffe", names=", ".join(names)), tok)
        raise cur.error("player_priffe_no_players", tok)


def _unknown(number: int, tok: Token, *, bid: bool = False) -> NotationError:
    """A word that is no contract (or, as a bid, tvångsnoll, which is never bid)."""
    try:
        if bid and parse_contract(tok.text) is Contract.TVANGSNOLL:
            return NotationError(number, tok.col, "NEVER_BID")
    except ValueError:
        pass
    known = ", ".join(c.value for c in Contract)
    return NotationError(number, tok.col, "UNKNOWN_CONTRACT", word=repr(tok.text), known=known)


def _word(cur: Cursor) -> str:
    tok = cur.peek()
    return tok.text.lower() if tok is not None and tok.kind == "word" else ""


def _header(r: _Reader, cur: Cursor, key: str, number: int) -> None:
    if key == "format":
        words = cur.text("priffe_1").split()
        if words[0].lower() != "priffe" or words[1:] not in ([], ["1"]):
            raise NotationError(
                number,
                1,
                "EXPECTED",
                expected=Expected("quoted_word", word="priffe 1"),
                found=repr(" ".join(words)),
            )
    elif key == "players":
        names = [cur.text("player_name")]
        while cur.at(","):
            cur.i += 1
            names.append(cur.text("player_name"))
        if len(names) != 4 or len({n.lower() for n in names}) != 4:
            raise NotationError(number, 1, "FOUR_PLAYERS", found=names, names=", ".join(names))
        r.headers["players"] = tuple(names)
    elif key == "target":
        r.headers["target"] = cur.integer("whole_number_1", 1)
    elif key == "ending":
        word = cur.text("ending_priffe")
        if word.lower() not in _ENDINGS:
            raise NotationError(
                number,
                1,
                "EXPECTED",
                expected=Expected("an_ending", endings=", ".join(e.value for e in Ending)),
                found=repr(word),
            )
        r.headers["ending"] = _ENDINGS[word.lower()]
    elif key == "convention":
        r.headers["convention"] = cur.text("convention_priffe")
    else:
        options: list[tuple[str, object]] = []
        while not cur.done():
            name = cur.expect("word", "option_name").text
            cur.expect("=", "equals")
            options.append((name, _value(cur.text("a_value", stop=",;"))))
            if cur.at(","):
                cur.i += 1
        r.headers["options"] = tuple(sorted(options))
    if not cur.done():
        raise cur.error("end_of_line", cur.peek())


def _value(text: str) -> object:
    if text.lower() in ("true", "ja", "yes"):
        return True
    if text.lower() in ("false", "nej", "no"):
        return False
    return int(text) if re.fullmatch(r"-?[0-9]+", text) else text


def _tricks(cur: Cursor, contract: Contract) -> tuple[int, int]:
    word = _word(cur)
    slam_word = word if word in _SLAMS else None
    if slam_word is None:
        own = cur.integer("side_tricks", 0, 13)
        other = 13 - own
        if cur.at("/"):
            cur.i += 1
            other = cur.integer("other_side_tricks", 0, 13)
        tok = cur.peek()
        if _word(cur) in _SLAMS:
            slam_word = _word(cur)
    else:
        tok = cur.peek()
    if slam_word is not None:
        assert tok is not None
        cur.i += 1
        if contract is Contract.TVANGSNOLL:
            raise NotationError(cur.number, tok.col, "TVANGSNOLL_SLAM")
        need = _SLAMS[slam_word] if not contract.is_noll else 13 - _SLAMS[slam_word]
        if word in _SLAMS:
            own, other = need, 13 - need
        elif own != need:
            raise NotationError(
                cur.number,
                tok.col,
                "SLAM_TRICKS",
                slam=slam_word,
                contract=contract,
                need=need,
                own=own,
            )
    return own, other


def _deal(r: _Reader, cur: Cursor, number: int) -> None:
    tok = cur.peek()
    if tok is not None and tok.kind == "word" and re.fullmatch(r"[0-9]+\.", tok.text):
        if int(tok.text[:-1]) != len(r.deals) + 1:
            raise cur.error(Expected("deal_number", n=len(r.deals) + 1), tok)
        cur.i += 1
    if not r.sittings:
        raise cur.error("sits_first", cur.peek())
    sits = len(r.sittings) - 1
    deal: PriffeDeal
    if _word(cur) in _PENALTY:
        cur.i += 1
        player = r.player(cur)
        points = cur.integer("points_opponents", -(10**6))
        extra = _keys(r, cur, ("rule", "note", "sits"))
        sits = int(extra.get("sits", sits + 1)) - 1
        deal = Penalty(sits, player, points, str(extra.get("rule", "")),
                       str(extra.get("note", "")))  # fmt: skip
    else:
        declarer: int | None
        if _word(cur) in _TVANGSNOLL:
            cur.i += 1
            contract, declarer = Contract.TVANGSNOLL, None
            named = r.player(cur)
        else:
            declarer = named = r.player(cur)
            word = cur.expect("word", "contract_priffe")
            try:
                contract = parse_contract(word.text)
            except ValueError:
                raise _unknown(number, word) from None
        own, other = _tricks(cur, contract)
        honours: list[Honours] = []
        bids: tuple[str, ...] | None = None
        while True:  # honours and bids, in any order
            if _word(cur) in _HONOURS:
                cur.i += 1
                holder = r.player(cur)
                tok = cur.expect("word", "honours")
                try:
                    honours.append(Honours(holder, HonoursPattern(tok.text)))
                except ValueError:
                    raise cur.error("honours", tok) from None
            elif cur.at("{") and bids is None:
                cur.i += 1
                said: list[str] = []
                while not cur.at("}"):
                    tok = cur.expect("word", "bid_or_brace")
                    try:
                        said.append(parse_bid(tok.text))
                    except ValueError:
                        raise _unknown(number, tok, bid=True) from None
                cur.i += 1
                bids = tuple(said)
            else:
                break
        extra = _keys(r, cur, ("dealer", "sits"))
        sits = int(extra.get("sits", sits + 1)) - 1
        if not 0 <= sits < len(r.sittings):
            raise NotationError(number, 1, "NO_SITS_LINE", n=sits + 1)
        seating = r.sittings[sits]
        first = seating.index(named) % 2
        tricks = (own, other) if first == 0 else (other, own)
        dealer = extra.get("dealer")
        deal = Hand(
            sits,
            contract,
            declarer,
            tricks,
            tuple(honours),
            bids,
            None if dealer is None else int(dealer),
        )
    if not 0 <= deal.sits < len(r.sittings):
        raise NotationError(number, 1, "NO_SITS_LINE", n=deal.sits + 1)
    r.deals.append(deal)


def _keys(r: _Reader, cur: Cursor, allowed: tuple[str, ...]) -> dict[str, int | str]:
    out: dict[str, int | str] = {}
    while not cur.done():
        keys = Expected("keys_or_end", keys=", ".join(k + "=" for k in allowed))
        key = cur.expect("word", keys)
        if key.text.lower() not in allowed:
            raise cur.error(keys, key)
        cur.expect("=", "equals")
        name = key.text.lower()
        if name == "dealer":
            out[name] = r.player(cur)
        elif name == "sits":
            out[name] = cur.integer("sits_number", 1)
        else:
            tok = cur.peek()
            if tok is None or tok.kind not in ("word", "string"):
                raise cur.error(Expected("one_word_priffe", what=Expected(name)), tok)
            cur.i += 1
            out[name] = tok.text
    return out


def _sheet(r: _Reader, cur: Cursor) -> None:
    cur.i += 1
    if _word(cur) == "result":
        cur.i += 1
        cur.expect(":", "colon")
        totals = [cur.integer("player_total", -(10**9))]
        while cur.at(","):
            cur.i += 1
            totals.append(cur.integer("player_total", -(10**9)))
        if len(totals) != 4:
            raise cur.error("four_totals", cur.peek())
        r.result = tuple(totals)
        return
    is_sits = _word(cur) == "sits"
    cur.i += is_sits
    index = cur.integer(Expected("sheet_deal_priffe", most=MAX_DEALS), 1, MAX_DEALS) - 1
    cur.expect(":", "colon")
    if _word(cur) == "-":
        cur.i += 1
        (r.sits if is_sits else r.entries)[index] = None
    elif is_sits:
        r.sits[index] = (
            cur.integer("side_1_total", -(10**9)),
            cur.integer("side_2_total", -(10**9)),
        )
    else:
        below = above = (0, 0)
        game = False
        while not cur.done():
            word = _word(cur)
            cur.expect("word", "sheet_words_priffe")
            if word in ("under", "below"):
                below = (
                    cur.integer("points_priffe", -(10**9)),
                    cur.integer("points_priffe", -(10**9)),
                )
            elif word in ("över", "over", "above"):
                above = (
                    cur.integer("points_priffe", -(10**9)),
                    cur.integer("points_priffe", -(10**9)),
                )
            elif word in ("utgång", "utgang", "game"):
                game = True
            else:
                cur.i -= 1
                raise cur.error("sheet_words_priffe", cur.peek())
            if cur.at(","):
                cur.i += 1
        r.entries[index] = SheetEntry(below, above, game)
    if not cur.done():
        raise cur.error("end_of_line", cur.peek())


def _header_key(tokens: list[Token]) -> str | None:
    for j, tok in enumerate(tokens):
        if tok.kind == ":":
            return _HEADERS.get(squash("".join(t.text for t in tokens[:j])))
    return None


def _read(text: str, *, sheet_only: bool = False, players: tuple[str, ...] = ()) -> _Reader:
    r = _Reader()
    if players:
        r.headers["players"] = players
    for number, line in enumerate(text.splitlines(), 1):
        tokens = tokenize(line, number)
        if not tokens:
            continue
        cur = Cursor(tokens, number, len(line))
        first = tokens[0].text.lower()
        if first == "sheet":
            _sheet(r, cur)
        elif sheet_only:
            raise cur.error("sheet_line", tokens[0])
        elif first == "sits" and len(tokens) > 2 and tokens[2].kind == ":":
            cur.i += 1
            k = cur.integer(Expected("sits_number_n", n=len(r.sittings) + 1), 1)
            if k != len(r.sittings) + 1:
                raise NotationError(
                    number, tokens[1].col, "SITS_NUMBER", n=len(r.sittings) + 1, found=k
                )
            cur.expect(":", "colon")
            seats = [r.player(cur)]
            while cur.at(","):
                cur.i += 1
                seats.append(r.player(cur))
            if sorted(seats) != [0, 1, 2, 3]:
                raise NotationError(number, 1, "CLOCKWISE")
            if not cur.done():
                raise cur.error("end_of_line", cur.peek())
            r.sittings.append((seats[0], seats[1], seats[2], seats[3]))
        elif (key := _header_key(tokens)) is not None and not r.sittings:
            while cur.peek() is not None and cur.peek().kind != ":":  # type: ignore[union-attr]
                cur.i += 1
            cur.i += 1
            _header(r, cur, key, number)
        else:
            if not r.players:
                raise cur.error("players_before_deals", tokens[0])
            _deal(r, cur, number)
    return r


def parse_with_sheet(text: str) -> tuple[PriffeProtocol, PriffeSheet | None]:
    """Read the notation: the protocol and the sheet lines, if any.

    :raises scoring.notation_lexer.NotationError: naming the line, the column and what was
        expected.
    """
    r = _read(text)
    if not r.players:
        raise NotationError(1, 1, "PLAYERS_FOUR_NAMES")
    if not r.sittings:
        raise NotationError(1, 1, "SITS_1")
    protocol = PriffeProtocol(
        players=r.players,
        target=int(r.headers.get("target", 3)),  # type: ignore[call-overload]
        sittings=tuple(r.sittings),
        deals=tuple(r.deals),
        convention=str(r.headers.get("convention", "modern")),
        options=r.headers.get("options", ()),  # type: ignore[arg-type]
        ending=r.headers.get("ending", Ending.CLOSED),  # type: ignore[arg-type]
    )
    return protocol, _sheet_of(r)


def _sheet_of(r: _Reader) -> PriffeSheet | None:
    if not r.entries and not r.sits and r.result is None:
        return None
    entries = tuple(r.entries.get(i) for i in range(max(r.entries, default=-1) + 1))
    sits = tuple(r.sits.get(i) for i in range(max(r.sits, default=-1) + 1))
    return PriffeSheet(entries=entries, sits=sits, result=r.result)


def parse(text: str) -> PriffeProtocol:
    """Read the notation (sheet lines are read and dropped)."""
    return parse_with_sheet(text)[0]


def parse_sheet(text: str, players: tuple[str, ...]) -> PriffeSheet:
    """Read ``sheet`` lines alone (``python -m scoring check --sheet``)."""
    return _sheet_of(_read(text, sheet_only=True, players=players)) or PriffeSheet()


# --- writing -------------------------------------------------------------------------------


def _ref(protocol: PriffeProtocol, player: int) -> str:
    name = protocol.players[player]
    bare = is_bare(name, word=True) and name.lower() not in _KEYWORDS
    bare = bare and not re.fullmatch(r"[0-9].*", name)
    return name if bare else str(player + 1)


def deal_text(protocol: PriffeProtocol, index: int, *, ascii: bool = False) -> str:
    """One entry as the notation writes it (without its number).

    ``ascii`` writes ``hjarter``, ``klover``, ``tvangsnoll``, ``honnorer`` instead.
    """
    deal = protocol.deals[index]
    def ref(player: int) -> str:
        return _ref(protocol, player)

    current = _current_sits(protocol, index)
    if isinstance(deal, Penalty):
        parts = ["straff", ref(deal.player), str(deal.points)]
        if deal.rule:
            parts.append(f"rule={quote(deal.rule, word=True)}")
        if deal.note:
            parts.append(f"note={quote(deal.note, word=True)}")
        if deal.sits != current:
            parts.append(f"sits={deal.sits + 1}")
        return " ".join(parts)
    seating = protocol.sittings[deal.sits]
    named = seating[0] if deal.declarer is None else deal.declarer
    side = seating.index(named) % 2
    own, other = deal.tricks[side], deal.tricks[1 - side]
    if deal.contract is Contract.TVANGSNOLL:
        parts = [_ascii("tvångsnoll", ascii), ref(named), f"{own}/{other}"]
    else:
        parts = [ref(named), _ascii(deal.contract.value, ascii), f"{own}/{other}"]
        slam = {12: "lillslam", 13: "storslam"}
        taken = 13 - own if deal.contract.is_noll else own
        if taken in slam and own + other == 13:
            parts.append(slam[taken])
    for h in deal.honours:
        parts += [_ascii("honnörer", ascii), ref(h.holder), h.pattern.value]
    if deal.bids is not None:
        parts.append("{" + " ".join(_ascii(b, ascii) for b in deal.bids) + "}")
    if deal.dealer is not None:
        parts.append(f"dealer={ref(deal.dealer)}")
    if deal.sits != current:
        parts.append(f"sits={deal.sits + 1}")
    return " ".join(parts)


def _ascii(text: str, ascii: bool) -> str:
    return text.translate(str.maketrans("åäöÅÄÖ", "aaoAAO")) if ascii else text


def _current_sits(protocol: PriffeProtocol, index: int) -> int:
    """The sits whose ``sits K:`` line the canonical text has written before entry ``index``."""
    current = 0
    for deal in protocol.deals[: index + 1]:
        current = max(current, deal.sits)
    return current


def format_sheet(sheet: PriffeSheet, *, ascii: bool = False) -> list[str]:
    """The sheet as ``sheet`` lines."""
    over, game = _ascii("över", ascii), _ascii("utgång", ascii)
    lines: list[str] = []
    for i, e in enumerate(sheet.entries):
        if e is None:
            lines.append(f"sheet {i + 1}: -")
            continue
        text = f"sheet {i + 1}: under {e.below[0]} {e.below[1]}, {over} {e.above[0]} {e.above[1]}"
        lines.append(text + (f", {game}" if e.game else ""))
    for k, s in enumerate(sheet.sits):
        lines.append(f"sheet sits {k + 1}: " + ("-" if s is None else f"{s[0]} {s[1]}"))
    if sheet.result is not None:
        lines.append("sheet result: " + ", ".join(str(t) for t in sheet.result))
    return lines


def format(  # noqa: A001 - pairs with parse
    protocol: PriffeProtocol, sheet: PriffeSheet | None = None, *, ascii: bool = False
) -> str:
    """The canonical text: ``parse(format(p)) == p``."""
    names = protocol.players
    lines = [FORMAT_LINE, f"convention: {protocol.convention}"]
    if protocol.options:
        lines.append("options: " + ", ".join(f"{k}={_option(v)}" for k, v in protocol.options))
    lines += [f"target: {protocol.target}", "players: " + ", ".join(quote(n) for n in names),
              f"ending: {Ending(protocol.ending).value}", ""]  # fmt: skip
    written = 0

    def sits_line(k: int) -> str:
        return f"sits {k + 1}: " + ", ".join(_ref(protocol, p) for p in protocol.sittings[k])

    for i, deal in enumerate(protocol.deals):
        while written <= deal.sits:
            lines.append(sits_line(written))
            written += 1
        lines.append(f"{i + 1}. {deal_text(protocol, i, ascii=ascii)}")
    while written < len(protocol.sittings):
        lines.append(sits_line(written))
        written += 1
    if sheet is not None:
        lines += ["", *format_sheet(sheet, ascii=ascii)]
    return "\n".join(lines) + "\n"


def _option(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return quote(str(value), word=True)
