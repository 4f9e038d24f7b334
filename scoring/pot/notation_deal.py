"""Reading one deal line of the pot-game notation (:mod:`scoring.pot.notation`): a contract with
its efterköp chain, the defenders' decisions, the tricks, a negotiated split and the auction; a
rundpass; a penalty (``docs/pot-format.md``, "The text notation")."""

from __future__ import annotations

import re

from rules.pot import PotContract
from scoring.notation_lexer import Cursor, Expected, Token, players_named

from .notation_words import (
    AUCTION,
    CONTRACT_HINT,
    DEALER,
    DECISIONS,
    EFTERKOP,
    NEGOTIATED,
    NOTE_KEYS,
    PENALTY,
    POT_KEYS,
    RULE_KEYS,
    RUNDPASS,
    contract_from_words,
    fold,
)
from .protocol import Decision, Hand, Penalty, PotDeal, Rundpass

__all__ = ["DealReader", "read_deal", "next_is"]


class DealReader:
    """The players and the game a deal line is read against (seats by name, contracts in the
    game's words)."""

    def __init__(self) -> None:
        self.players: tuple[str, ...] | None = None
        self.game = "viennese"

    def seat(self, cur: Cursor) -> int:
        tok = cur.peek()
        assert self.players is not None
        if tok is not None and tok.kind in ("word", "string"):
            named = players_named(self.players, tok.text)  # a name, or a first name
            if named:
                cur.i += 1
                return named[0]
        names = ", ".join(self.players)
        raise cur.error(Expected("player_name_of", names=names), tok)

    def phrase(self, cur: Cursor, stops: str = ",;/{}") -> tuple[str, Token | None]:
        """Words up to a stop character or a keyword; ``("", tok)`` if none."""
        first = cur.peek()
        words: list[str] = []
        while (tok := cur.peek()) is not None and tok.kind == "word" and tok.kind not in stops:
            if words and fold(tok.text) in (EFTERKOP | AUCTION | NEGOTIATED | DEALER):
                break
            words.append(tok.text)
            cur.i += 1
        return " ".join(words), first

    def contract(self, cur: Cursor, what: str = "a_contract") -> PotContract:
        text, tok = self.phrase(cur)
        try:
            found = contract_from_words(text, self.game)
        except ValueError:
            found = None
        if not isinstance(found, PotContract):
            cur.i -= len(text.split())
            raise cur.error(Expected(CONTRACT_HINT[self.game], what=Expected(what)), tok)
        return found


def _tricks(reader: DealReader, cur: Cursor) -> tuple[int, ...]:
    assert reader.players is not None
    n = len(reader.players)
    tok = cur.peek()
    expected = Expected("tricks_pot", n=n, example="-".join(["3"] * n))
    if tok is None or tok.kind != "word" or not re.fullmatch(r"[0-9]+(-[0-9]+)+", tok.text):
        raise cur.error(expected, tok)
    values = tuple(int(x) for x in tok.text.split("-"))
    if len(values) != n or any(v > 10 for v in values):
        raise cur.error(expected, tok)
    cur.i += 1
    return values


def _auction(reader: DealReader, cur: Cursor) -> tuple[tuple[int, str], ...]:
    cur.expect("{", "open_brace_bids")
    bids: list[tuple[int, str]] = []
    while not cur.at("}"):
        seat = reader.seat(cur)
        text, tok = reader.phrase(cur)
        if fold(text) in ("pass", "passe", "passar"):
            bids.append((seat, "pass"))
        else:
            try:
                found = contract_from_words(text, reader.game)
            except ValueError:
                raise cur.error("bid_pot", tok) from None
            bids.append((seat, found if isinstance(found, str) else found.code))
        if cur.at(","):
            cur.i += 1
        elif not cur.at("}"):
            raise cur.error("comma_or_brace", cur.peek())
    cur.i += 1
    return tuple(bids)


def read_deal(reader: DealReader, cur: Cursor) -> PotDeal:
    first = cur.peek()
    assert first is not None
    word = fold(first.text)
    if word in PENALTY:
        cur.i += 1
        return _penalty(reader, cur)
    dealer: int | None = None
    if word in DEALER:
        cur.i += 1
        dealer = reader.seat(cur)
        first = cur.peek()
        if first is None:
            raise cur.error("a_deal", first)
        word = fold(first.text)
    if word in RUNDPASS or (word == "alle" and fold(getattr(cur.peek(1), "text", "")) == "passen"):
        cur.i += 2 if word == "alle" else 1
        tricks: tuple[int, ...] | None = None
        tok = cur.peek()
        if tok is not None and tok.kind == "word" and re.fullmatch(r"[0-9-]+", tok.text):
            tricks = _tricks(reader, cur)
        auction = None
        if next_is(cur, AUCTION):
            cur.i += 1
            auction = _auction(reader, cur)
        return Rundpass(tricks=tricks, auction=auction, dealer=dealer)
    declarer = reader.seat(cur)
    contract = reader.contract(cur)
    efterkop: list[tuple[int, PotContract]] = []
    while next_is(cur, EFTERKOP):
        cur.i += 1
        seat = reader.seat(cur)
        efterkop.append((seat, reader.contract(cur, "efterkop_contract")))
    defence: list[Decision] = []
    tricks = None
    negotiated = False
    if cur.at("/"):
        cur.i += 1
        tok = cur.peek()
        if tok is not None and tok.kind == "word" and re.fullmatch(r"[0-9]+(-[0-9]+)+", tok.text):
            tricks = _tricks(reader, cur)
        else:
            while True:
                text, tok = reader.phrase(cur)
                if fold(text) not in DECISIONS:
                    cur.i -= len(text.split())
                    raise cur.error("decision", tok)
                defence.append(DECISIONS[fold(text)])
                if not cur.at(","):
                    break
                cur.i += 1
            if cur.at("/"):
                cur.i += 1
                tricks = _tricks(reader, cur)
    if next_is(cur, NEGOTIATED):
        cur.i += 1
        negotiated = True
    auction = None
    if next_is(cur, AUCTION):
        cur.i += 1
        auction = _auction(reader, cur)
    return Hand(declarer, contract, tuple(defence), tricks, tuple(efterkop), negotiated, auction,
                dealer)  # fmt: skip


def next_is(cur: Cursor, words: frozenset[str]) -> bool:
    tok = cur.peek()
    return tok is not None and tok.kind == "word" and fold(tok.text) in words


def _penalty(reader: DealReader, cur: Cursor) -> Penalty:
    assert reader.players is not None
    player = reader.seat(cur)
    to_pot, to_players, rule, note = 0, [], "", ""
    while not cur.done():
        tok = cur.peek()
        assert tok is not None
        key = fold(tok.text)
        if tok.kind in ("word", "string") and key in {fold(n) for n in reader.players}:
            seat = reader.seat(cur)
            cur.expect("=", "equals_chips")
            to_players.append((seat, cur.integer("chips", 0)))
            continue
        cur.i += 1
        if tok.kind != "word" or not cur.at("="):
            raise cur.error("penalty_pot", tok)
        cur.i += 1
        if key in POT_KEYS:
            to_pot = cur.integer("chips_into_pot", 0)
        elif key in RULE_KEYS:
            rule = _free(cur, "rule_pot")
        elif key in NOTE_KEYS:
            note = _free(cur, "note_pot")
        else:
            raise cur.error("penalty_key_pot", tok)
    return Penalty(player, rule, to_pot, tuple(to_players), note)


def _free(cur: Cursor, expected: str) -> str:
    tok = cur.peek()
    if tok is None or tok.kind not in ("word", "string"):
        raise cur.error(expected, tok)
    cur.i += 1
    return tok.text
