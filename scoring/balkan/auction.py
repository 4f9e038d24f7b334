"""Checking a Balkan auction (seed 002 "The Bidding", "The Contract"; ``variants.md`` §1.4, §3).

A hand's ``auction`` is ``(seat, bid)`` pairs in speaking order, starting at the dealer's next
seat. Bids: ``pass`` (dalje), a number ``2``…``7`` (``8`` with the Serbian preferans), ``same``
(i ja, moje, me too), ``igra`` (game), and a game with its contract: ``igra 5``, ``igra betl``,
``igra sans``, ``igra preferans`` — or the words alone (``betl``, ``sanac``: "game bids of six
or seven are announced as Bettel or Sanac"). The rules enforced:

1. numbers go up by one from two, no jumps; 2. ``same`` only by an earlier number bidder who was
outbid; 3. a pass is final; 4. igra only at a player's first turn, and no numbers after it
(Serbia: plain igra commits to trumps, igra betl / sans / preferans only at the first turn);
5. the contract is at least the final number (after igra: the revealed game); the declarer is
the auction's winner (the highest game; ties to the earlier player).

>>> from rules.balkan import CROATIAN
>>> from scoring.balkan.protocol import Hand
>>> seats = ((0, "2"), (1, "3"), (2, "4"), (0, "pass"), (1, "same"), (2, "5"), (1, "pass"))
>>> check_auction(Hand(2, 5, auction=seats), 2, CROATIAN, 0)
[]
>>> [f.code for f in check_auction(Hand(1, 4, auction=((0, "2"), (1, "4"))), 2, CROATIAN, 0)]
['JUMP_BID', 'AUCTION_INCOMPLETE', 'AUCTION_WINNER']
"""

from __future__ import annotations

from rules.balkan import BalkanConvention

from ..findings import Finding, gettext_noop, seat_number, templated
from .protocol import Hand

__all__ = ["check_auction", "parse_bid"]

_PASS = frozenset({"pass", "p", "-", "dalje", "dalje.", "pas", "naprej"})
_SAME = frozenset({"same", "i ja", "ija", "moje", "me too", "tudi jaz", "jaz"})
_IGRA = frozenset({"igra", "game"})
_WORDS = {
    "list": 2, "pik": 2, "leaves": 2, "bundeva": 3, "karo": 3, "bells": 3, "srce": 4,
    "herc": 4, "hearts": 4, "žir": 5, "zir": 5, "tref": 5, "križ": 5, "kriz": 5, "acorns": 5,
    "betl": 6, "bettel": 6, "berač": 6, "berac": 6, "sans": 7, "sanac": 7, "sans atout": 7,
    "preferans": 8,
}


def parse_bid(text: str) -> tuple[str, int | None]:
    """``(kind, number)``: kind ``pass``, ``same``, ``igra``, ``number``, ``game`` (igra with
    its contract) or ``unknown``.

    >>> parse_bid("i ja"), parse_bid("3"), parse_bid("igra betl"), parse_bid("Sanac")
    (('same', None), ('number', 3), ('game', 6), ('game', 7))
    """
    t = " ".join(str(text).lower().split())
    if t in _PASS:
        return "pass", None
    if t in _SAME:
        return "same", None
    if t in _IGRA:
        return "igra", None
    if t.isdigit():
        return "number", int(t)
    head, _, rest = t.partition(" ")
    if head in _IGRA and rest:
        if rest.isdigit():
            return "game", int(rest)
        if rest in _WORDS:
            return "game", _WORDS[rest]
    if t in _WORDS and _WORDS[t] >= 6:
        return "game", _WORDS[t]
    return "unknown", None


def _f(code: str, text: str, i: int, params: dict[str, object] | None = None,
       rule: str = "The Bidding", **kw: object) -> Finding:
    """A finding whose message is the template ``text`` (marked for the translators) filled
    with ``params`` (:func:`scoring.findings.templated`)."""
    kw.setdefault("column", "auction")
    return templated(code, text, params, rule=rule, deal=i, source="002", **kw)


def check_auction(h: Hand, dealer: int, conv: BalkanConvention, i: int) -> list[Finding]:
    """The findings of hand ``i``'s auction (none when it has none); ``dealer`` is the seat the
    rotation gives."""
    if not h.auction:
        return []
    out: list[Finding] = []
    order = [(dealer + 1 + k) % 3 for k in range(3)]
    pos = {seat: k for k, seat in enumerate(order)}
    top = 8 if conv.preferans else 7
    spoken: set[int] = set()
    passed: set[int] = set()
    numbers: set[int] = set()
    games: dict[int, int | None] = {}  # igra bidders -> revealed contract
    current, holder, last = 0, None, None
    for seat, text in h.auction:
        if seat not in pos:
            out.append(_f("AUCTION_SEAT", gettext_noop("bid {bid} by seat {seat}, not at the table"), i,
                          {"bid": repr(text), "seat": seat_number(seat)}))
            return out
        kind, n = parse_bid(text)
        if kind == "unknown":
            out.append(_f("BID", gettext_noop("{bid} is not a bid (pass, 2–{top}, same/i ja, igra)"), i,
                          {"bid": repr(text), "top": top}, player=seat, written=text))
            return out
        if not games:
            expected = _next(order, last, passed)
            if expected is not None and seat != expected:
                out.append(_f("OUT_OF_TURN", gettext_noop(
                    "seat {seat} spoke where seat {expected} was to bid (the turn passes to the "
                    "next player still bidding)"), i, {"seat": seat_number(seat), "expected": seat_number(expected)},
                    player=seat, written=text))
        first_turn = seat not in spoken
        spoken.add(seat)
        last = seat
        if seat in passed:
            out.append(_f("PASS_FINAL", gettext_noop("{bid} after passing: no player who has passed may "
                                             "reenter the bidding"), i, {"bid": repr(text)},
                          player=seat, written=text))
            continue
        if kind == "pass":
            passed.add(seat)
        elif kind == "number" and seat in games:
            kind = "game"  # a game bidder revealing his contract by its number
        if kind == "number":
            assert n is not None
            if games:
                out.append(_f("NUMBER_AFTER_IGRA", gettext_noop(
                    "{bid} after igra: once game has been bid, no more numerical bids can be "
                    "made"), i, {"bid": repr(text)}, player=seat))
            elif n != (current + 1 if current else 2) or n > top:
                want = current + 1 if current else 2
                jump = (gettext_noop("{bid}: numbers go up by one, the next is {want} (at most "
                                     "{top})") if n > top
                        else gettext_noop("{bid}: numbers go up by one, the next is {want}"))
                out.append(_f("JUMP_BID", jump, i, {"bid": repr(text), "want": want, "top": top},
                              player=seat, written=text, expected=str(want)))
            else:
                current, holder = n, seat
                numbers.add(seat)
        elif kind == "same":
            if games or holder is None or seat not in numbers or holder == seat or (
                pos[seat] > pos[holder]
            ):
                out.append(_f("SAME", gettext_noop("{bid}: only an earlier number bidder who was outbid "
                                           "may hold the number (i ja)"), i, {"bid": repr(text)},
                              player=seat, written=text))
            else:
                holder = seat
        elif kind == "igra":
            if not first_turn:
                out.append(_f("IGRA_FIRST_TURN", gettext_noop("igra only at a player's first turn to speak"),
                              i, player=seat, written=text))
            else:
                games[seat] = None
        elif kind == "game":
            assert n is not None
            if not 2 <= n <= top:
                out.append(_f("BID", gettext_noop("{bid}: no such game"), i, {"bid": repr(text)}, player=seat,
                              written=text))
            elif seat in games and not first_turn:
                if games[seat] is not None:
                    out.append(_f("REVEAL", gettext_noop("{bid}: the game was already revealed"), i,
                                  {"bid": repr(text)}, player=seat, written=text))
                elif conv.igra_commits_to_trumps and n > 5:
                    out.append(_f(
                        "IGRA_COMMITS", gettext_noop(
                            "{bid} after a plain igra: plain igra commits to trumps; igra betl / "
                            "sans / preferans must be said at the first turn"),
                        i, {"bid": repr(text)}, rule="variations played in Serbia", player=seat,
                        written=text))
                    games[seat] = n  # what was said, so that the winner is judged once
                else:
                    games[seat] = n
            elif first_turn:
                games[seat] = n
            else:
                out.append(_f("IGRA_FIRST_TURN", gettext_noop("{bid}: igra only at a player's first turn "
                                                  "to speak"), i, {"bid": repr(text)},
                              player=seat, written=text))
    out += _winner(h, conv, i, games, pos, current, holder, passed)
    return out


def _next(order: list[int], last: int | None, passed: set[int]) -> int | None:
    start = 0 if last is None else order.index(last) + 1
    for k in range(3):
        seat = order[(start + k) % 3]
        if seat not in passed:
            return seat
    return None


def _winner(
    h: Hand, conv: BalkanConvention, i: int, games: dict[int, int | None], pos: dict[int, int],
    current: int, holder: int | None, passed: set[int],
) -> list[Finding]:
    out: list[Finding] = []
    if games:
        revealed = {s: n for s, n in games.items() if n is not None}
        pool = revealed or games
        best = max(revealed.values()) if revealed else None
        winner = min((s for s in pool if best is None or revealed[s] == best), key=pos.__getitem__)
        contract = revealed.get(winner)
        if not h.game:
            out.append(_f("CONTRACT_BID", gettext_noop("the auction was won by igra, so the contract is a "
                                               "game (no talon)"), i, rule="The Contract",
                          column="game"))
        if contract is not None and h.contract != contract:
            out.append(_f("CONTRACT_BID", gettext_noop("contract {contract} is not the game announced "
                                               "({announced})"), i,
                          {"contract": h.contract, "announced": contract}, rule="The Contract",
                          written=h.contract, expected=contract))
        elif contract is None and conv.igra_commits_to_trumps and h.contract > 5:
            out.append(_f("IGRA_COMMITS", gettext_noop("plain igra commits to a trump contract (2–5)"), i,
                          rule="variations played in Serbia", written=h.contract))
    else:
        if holder is None:
            out.append(_f("AUCTION_WINNER", gettext_noop("everybody passed: that is an all-pass deal, not a "
                                                 "contract"), i))
            return out
        winner = holder
        if len(set(pos) - passed) > 1:
            out.append(_f("AUCTION_INCOMPLETE", gettext_noop("the auction ends when all but one have passed"),
                          i))
        if h.game:
            out.append(_f("CONTRACT_BID", gettext_noop("nobody bid igra, so the contract is not a game"), i,
                          rule="The Contract", column="game"))
        if h.contract < current:
            out.append(_f("CONTRACT_BID", gettext_noop("contract {contract} below the winning bid {bid}"), i,
                          {"contract": h.contract, "bid": current}, rule="The Contract",
                          written=h.contract, expected=current))
    if h.declarer != winner:
        out.append(_f("AUCTION_WINNER", gettext_noop("the declarer is seat {declarer}, but the auction "
                                                 "was won by seat {winner}"), i,
                      {"declarer": seat_number(h.declarer), "winner": seat_number(winner)}, written=h.declarer,
                      expected=winner))
    return out
