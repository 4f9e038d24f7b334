"""What each player writes for one deal: the rules of 001 §3.5–§3.8 and §4.2.3.

Raspasy are written by :mod:`scoring.russian.raspasy`, on the same :class:`Table`.

The scorer keeps the whole sheet in one flat list of ints (speed: no objects per
deal). For ``n`` players the stride is ``n + 2``; player ``p``'s pulya is at
``p * stride``, his gora at ``p * stride + 1`` and the whists he wrote on ``q`` at
``p * stride + 2 + q``. :class:`Table` owns that list; the ``write_*`` functions
apply one deal to it and report illegal records as findings.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

from rules.contracts import WHIST_OBLIGATION
from rules.conventions import Convention

from ..findings import Finding, Severity, gettext_noop, seat_number, templated
from ..model import PENALTY_MAX
from .protocol import Call, Game, Penalty

__all__ = [
    "PENALTY_RULES",
    "Table",
    "write_game",
    "write_penalty",
    "whisting_order",
]

_WHIST = Call.WHIST
_PASS = Call.PASS
_HALF = Call.HALF
_HALF_RETURNED = Call.HALF_RETURNED
_OBLIGATION = WHIST_OBLIGATION


class Table:
    """Mutable scoring state of one pulka (internal to the scorer)."""

    __slots__ = (
        "conv",
        "n",
        "stride",
        "target",
        "cells",
        "helps",
        "findings",
        "deal",
        "orders",
        "writers",
        "why",
    )

    def __init__(self, conv: Convention, n: int, target: int) -> None:
        self.conv = conv
        self.n = n
        self.stride = n + 2
        self.target = target
        self.cells = [0] * (n * (n + 2))
        #: (deal, donor, recipient or -1 for a write-off from the donor's gora, points)
        self.helps: list[tuple[int, int, int, int]] = []
        self.findings: list[Finding] = []
        self.deal: int | None = 0
        #: orders[dealer][declarer]: the two defenders in whisting order;
        #: writers[dealer][declarer]: who writes consolation (001 §3.8.1.2; D5)
        self.orders, self.writers = _seating(n, conv.consolation_writers)
        #: when explaining a deal (:func:`scoring.russian.explain.cell_rules`): (cell, amount, rule)
        #: for every write, so a wrong written cell cites the rule that produces it
        self.why: list[tuple[int, int, str]] | None = None

    def cite(self, at: int, amount: int, rule: str) -> None:
        """``amount`` went into cell ``at`` by ``rule`` (recorded only when explaining)."""
        if self.why is not None and amount:
            self.why.append((at, amount, rule))

    def error(
        self, code: str, message: str, rule: str, params: Mapping[str, object] | None = None,
        **place: object,
    ) -> None:  # fmt: skip
        """An error finding; with ``params``, ``message`` is a :func:`gettext_noop` template
        (``{name}`` fields) filled with them, said in the reader's language by the Django side
        (:func:`scoring.findings.templated`)."""
        self.findings.append(_finding(code, message, rule, self.deal, params, place))

    def warn(
        self, code: str, message: str, rule: str, params: Mapping[str, object] | None = None,
        **place: object,
    ) -> None:  # fmt: skip
        self.findings.append(
            _finding(code, message, rule, self.deal, params, {**place, "severity": Severity.WARNING})
        )

    def pulya(self, p: int, points: int, rule: str) -> None:
        """Write ``points`` into ``p``'s pulya by ``rule``, with help and overflow
        (001 §4.2.3, §4.1.1)."""
        cells, stride, target = self.cells, self.stride, self.target
        at = p * stride
        if not self.conv.help:  # Leningrad: everything into one's own pulya (001 §4.2.3.3)
            cells[at] += points
            if self.why is not None:
                self.cite(at, points, rule)
            return
        room = target - cells[at]
        if room >= points:
            cells[at] += points
            if self.why is not None:
                self.cite(at, points, rule)
            return
        if room > 0:
            cells[at] = target
            if self.why is not None:
                self.cite(at, room, rule)
            points -= room
        n = self.n
        while points > 0:
            best, best_pulya = -1, -1
            for k in range(1, n):  # clockwise from the donor: a tie helps the left (note 72)
                q = (p + k) % n
                v = cells[q * stride]
                if best_pulya < v < target:
                    best, best_pulya = q, v
            if best < 0:  # every pulya closed: off the donor's own gora, even below 0 (001 §4.1.1)
                cells[at + 1] -= points * self.conv.end_conversion
                if self.why is not None:
                    self.cite(at + 1, -points * self.conv.end_conversion, "4.1.1")
                self.helps.append((self.deal or 0, p, -1, points))
                return
            given = min(points, target - best_pulya)
            cells[best * stride] += given
            # 10 whists a point of help (001 §4.2.3); a pulya point worth 20 doubles it (D7)
            cells[at + 2 + best] += 10 * self.conv.end_conversion * given
            if self.why is not None:
                self.cite(best * stride, given, "4.2.3")
            if self.why is not None:
                self.cite(at + 2 + best, 10 * self.conv.end_conversion * given, "4.2.3")
            self.helps.append((self.deal or 0, p, best, given))
            points -= given

    def pulya_closed(self, p: int) -> bool:
        return self.cells[p * self.stride] >= self.target

    def closed(self) -> bool:
        """The pulka is over (001 §4.2.14; Leningrad: Σ pulya ≥ n × target, §4.2.3.3)."""
        pulyas = self.cells[:: self.stride]
        if self.conv.help:
            return min(pulyas) >= self.target
        return sum(pulyas) >= self.n * self.target


def whisting_order(declarer: int, n: int, dealer: int) -> tuple[int, int]:
    """The two defenders, clockwise from the declarer, skipping a 4-player dealer.

    >>> whisting_order(2, 3, 0), whisting_order(3, 4, 0)
    ((0, 1), (1, 2))
    """
    seats = [(declarer + k) % n for k in range(1, n)]
    if n == 4 and dealer in seats:
        seats.remove(dealer)
    return seats[0], seats[1]


_Seating = tuple[tuple[tuple[tuple[int, int], ...], ...], tuple[tuple[tuple[int, ...], ...], ...]]


def _finding(
    code: str, message: str, rule: str, deal: int | None, params: Mapping[str, object] | None,
    place: Mapping[str, object],
) -> Finding:  # fmt: skip
    if params is None:
        return Finding(code, message, rule, deal, **place)  # type: ignore[arg-type]
    return templated(code, message, params, rule=rule, deal=deal, **place)


#: the multiplier a convention refuses (001 §4.1.2), a game's or raspasy's
MULTIPLIER_NOT_ALLOWED = gettext_noop("multiplier {m} is not allowed in this convention")


@functools.cache
def _seating(n: int, mode: str) -> _Seating:
    orders = tuple(tuple(whisting_order(d, n, dealer) for d in range(n)) for dealer in range(n))
    writers = tuple(
        tuple(_consolation_writers(mode, n, d, orders[dealer][d]) for d in range(n))
        for dealer in range(n)
    )
    return orders, writers


def _consolation_writers(
    mode: str, n: int, declarer: int, defenders: tuple[int, int]
) -> tuple[int, ...]:
    if mode == "all":  # every opponent, the 4-player dealer too (001 §3.8.1.2, §3.3.16.3)
        return tuple(q for q in range(n) if q != declarer)
    if mode == "defenders":
        return defenders
    return ()


def write_game(t: Table, g: Game, dealer: int) -> bool:
    """Apply a contract for tricks or a misère; False when the record cannot be scored."""
    conv, n, stride, cells = t.conv, t.n, t.stride, t.cells
    d = g.declarer
    if not 0 <= d < n:
        t.error("BAD_SEAT", gettext_noop("declarer seat {seat} is not at the table"), "3.2.10",
                {"seat": seat_number(d)}, column="declarer")  # fmt: skip
        return False
    if n == 4 and d == dealer:
        t.error("DEALER_DECLARES", gettext_noop("the dealer sits out with four players"), "3.2.10",
                {}, player=d)  # fmt: skip
        return False
    m = g.multiplier
    if m != 1 and not (conv.multipliers and m >= 1):
        t.error("MULTIPLIER", MULTIPLIER_NOT_ALLOWED, "4.1.2", {"m": m})
        return False
    contract = g.contract
    defenders = t.orders[dealer][d]
    tricks = g.declarer_tricks
    if contract.denomination is None:
        return _write_misere(t, g, d, m, t.writers[dealer][d])
    if len(g.calls) != 2:
        t.error(
            "CALLS", gettext_noop("{n} defenders' calls given, expected 2"), "3.8.1",
            {"n": len(g.calls)}, column="calls",
        )
        return False
    first, second = g.calls
    level = contract.level
    price = 2 * level - 10  # 6 → 2 … 10 → 10 (seed 001, "Очки за игры")
    first_half = first is _HALF or first is _HALF_RETURNED
    second_half = second is _HALF or second is _HALF_RETURNED
    if (first_half or second_half) and not _half_whist_ok(
        t, first, second, first_half, second_half, level, defenders
    ):
        return False
    game_cost = price * conv.game_cost_multiplier * m  # U
    if g.talon_premium:
        if not conv.talon_premiums or n != 4 or not 0 < g.talon_premium <= 3:
            t.error(
                "TALON_PREMIUM", gettext_noop("talon premium not allowed here"), "3.4.11", {},
                column="talon_premium",
            )
            return False
    if first is _HALF or second is _HALF or (first is _PASS and second is _PASS):
        # Not played: the game counts as made (001 §3.5.3); полвиста writes half (001 §3.8.7).
        if tricks is not None or g.defender_tricks is not None:
            t.warn("UNPLAYED_TRICKS", gettext_noop("tricks recorded for a deal that is not played"),
                   "3.5.3", {})  # fmt: skip
        t.pulya(d, price * m, "4.2.1")  # not played: counted made (001 §3.5.3)
        if first is _HALF or second is _HALF:
            half_whister = defenders[0] if first is _HALF else defenders[1]
            cells[half_whister * stride + 2 + d] += (_OBLIGATION[level] // 2) * game_cost
            if t.why is not None:
                t.cite(
                    half_whister * stride + 2 + d, (_OBLIGATION[level] // 2) * game_cost, "3.8.7"
                )
        return True
    if tricks is None or not 0 <= tricks <= 10:
        t.error(
            "TRICKS",
            gettext_noop("declarer's tricks None: need 0–10 for a whisted game")
            if tricks is None
            else gettext_noop("declarer's tricks {tricks}: need 0–10 for a whisted game"),
            "3.8.1",
            {} if tricks is None else {"tricks": repr(tricks)},
            player=d,
            column="declarer_tricks",
        )
        return False
    defence = 10 - tricks
    split = g.defender_tricks
    if split is not None and (
        len(split) != 2 or split[0] < 0 or split[1] < 0 or split[0] + split[1] != defence
    ):
        t.error(
            "TRICKS_SUM",
            gettext_noop("tricks {tricks} + {split} do not make 10"),
            "3.2.8",
            {"tricks": tricks, "split": repr(split)},
            column="defender_tricks",
            written=tricks + sum(split),
            expected=10,
        )
        return False
    pair = first is _WHIST and second is _WHIST
    if pair and split is None:
        t.error(
            "SPLIT_NEEDED",
            gettext_noop("two whisters: each one's tricks are needed"),
            "3.8.6",
            {},
            column="defender_tricks",
        )
        return False
    own_tricks = conv.single_whister_tricks == "own"
    if own_tricks and split is None:
        t.error(
            "SPLIT_NEEDED",
            gettext_noop("whists on own tricks need each defender's tricks"),
            "3.8.5",
            {},
            column="defender_tricks",
        )
        return False
    if tricks >= level:  # made (001 §4.2.1)
        at = d * stride
        if cells[at] + price * m <= t.target or not conv.help:
            cells[at] += price * m
            if t.why is not None:
                t.cite(at, price * m, "4.2.1")
        else:
            t.pulya(d, price * m, "4.2.1")
    else:
        under = level - tricks  # remiz: gora per undertrick, consolation from opponents (3.8.1.2)
        cells[d * stride + 1] += under * price * conv.declarer_gora_multiplier * m
        if t.why is not None:
            t.cite(d * stride + 1, under * price * conv.declarer_gora_multiplier * m, "4.2.1")
        per = game_cost if conv.consolation == "game_cost" else conv.consolation_flat * m
        silent = -1  # a writer who writes no consolation on this deal
        if (
            not conv.returned_half_consolation
            and conv.whist_style == "gentleman"
            and (first is _HALF_RETURNED or second is _HALF_RETURNED)
        ):
            # D21, §3.8.14 read as a whole: after a returned whist (001 §3.8.8) the former
            # half-whister "вистов при ремизе разыгрывающего не пишет", consolation included
            silent = defenders[0] if first is _HALF_RETURNED else defenders[1]
        for q in t.writers[dealer][d]:
            if q != silent:
                cells[q * stride + 2 + d] += under * per
                if t.why is not None:
                    t.cite(q * stride + 2 + d, under * per, "3.8.1.2")
    premium = g.talon_premium
    if premium and dealer != d:  # 001 §3.4.11, valued as a trick's consolation
        per = game_cost if conv.consolation == "game_cost" else conv.consolation_flat * m
        cells[dealer * stride + 2 + d] += premium * per
        if t.why is not None:
            t.cite(dealer * stride + 2 + d, premium * per, "3.4.11")
    obligation = 0 if (level == 10 and conv.ten_checked) else _OBLIGATION[level]
    if pair:
        assert split is not None
        cells[defenders[0] * stride + 2 + d] += split[0] * game_cost  # each for himself (3.8.13)
        cells[defenders[1] * stride + 2 + d] += split[1] * game_cost
        if t.why is not None:
            t.cite(defenders[0] * stride + 2 + d, split[0] * game_cost, "3.8.1.1")
        if t.why is not None:
            t.cite(defenders[1] * stride + 2 + d, split[1] * game_cost, "3.8.1.1")
        if obligation > defence or conv.pair_shortfall_6_7 == "each_own":
            _pair_responsibility(t, defenders, split, level, obligation, defence, game_cost)
        return True
    if first is _WHIST:
        w, other = defenders
    else:
        other, w = defenders
    if own_tricks:
        assert split is not None
        cells[w * stride + 2 + d] += split[defenders.index(w)] * game_cost
        if t.why is not None:
            t.cite(w * stride + 2 + d, split[defenders.index(w)] * game_cost, "3.8.1.1")
    elif tricks >= level or conv.whist_style == "greedy" or first_half or second_half:
        cells[w * stride + 2 + d] += defence * game_cost  # 001 §3.8.5, §3.8.13
        if t.why is not None:
            t.cite(w * stride + 2 + d, defence * game_cost, "3.8.1.1")
    else:  # gentleman at the declarer's remiz: halves (001 §3.8.14)
        half = defence * game_cost // 2
        cells[w * stride + 2 + d] += half
        cells[other * stride + 2 + d] += defence * game_cost - half
        if t.why is not None:
            t.cite(w * stride + 2 + d, half, "3.8.14")
        if t.why is not None:
            t.cite(other * stride + 2 + d, defence * game_cost - half, "3.8.14")
    if obligation > defence:  # the single whister answers alone (001 §3.8.5)
        per_trick = _responsibility(t, w, game_cost)
        cells[w * stride + 1] += (obligation - defence) * per_trick
        if t.why is not None:
            t.cite(w * stride + 1, (obligation - defence) * per_trick, _responsibility_rule(t, w))
    return True


def _half_whist_ok(
    t: Table,
    first: Call,
    second: Call,
    first_half: bool,
    second_half: bool,
    level: int,
    defenders: tuple[int, int],
) -> bool:
    """Полвиста (001 §3.8.7): on a 6 or 7, by the second defender after the first passed;
    in gentleman whist also by the first after the second passed (001 §3.8.14). A returned
    half-whist (001 §3.8.8) stands beside the partner's whist."""
    seat = defenders[0] if first_half else defenders[1]
    other = second if first_half else first
    call = first if first_half else second
    if first_half and second_half:
        t.error("HALF_WHIST", gettext_noop("both defenders cannot go for half"), "3.8.7", {},
                player=seat)  # fmt: skip
    elif level > 7:
        t.error("HALF_WHIST", gettext_noop("half-whist on a {level}-level: only 6 and 7"), "3.8.7",
                {"level": level}, player=seat)  # fmt: skip
    elif first_half and t.conv.whist_style != "gentleman":
        t.error(
            "HALF_WHIST",
            gettext_noop(
                "only the second defender may go for half (the first only in gentleman whist, "
                "3.8.14)"
            ),
            "3.8.7",
            {},
            player=seat,
        )
    elif call is _HALF and other is not _PASS:
        t.error(
            "HALF_WHIST",
            gettext_noop("half-whist is only possible after the partner passed"),
            "3.8.7",
            {},
            player=seat,
        )
    elif call is _HALF_RETURNED and other is not _WHIST:
        t.error(
            "HALF_WHIST", gettext_noop("a returned half-whist needs the partner's whist"), "3.8.8",
            {}, player=seat,
        )
    else:
        return True
    return False


def _responsibility(t: Table, whister: int, game_cost: int) -> int:
    """Gora per missing obligatory trick (001 §3.8.11 full, §3.8.12 half)."""
    mode = t.conv.whist_responsibility
    if mode == "full" or (mode == "half_then_full" and t.pulya_closed(whister)):
        return game_cost
    return game_cost // 2


def _responsibility_rule(t: Table, whister: int) -> str:
    """The rule of a whister's shortfall: 001 §3.8.11 (full) or §3.8.12 (half)."""
    mode = t.conv.whist_responsibility
    full = mode == "full" or (mode == "half_then_full" and t.pulya_closed(whister))
    return "3.8.11" if full else "3.8.12"


def _pair_responsibility(
    t: Table,
    defenders: tuple[int, int],
    split: tuple[int, ...],
    level: int,
    obligation: int,
    defence: int,
    game_cost: int,
) -> None:
    """Two whisters' remiz (001 §3.8.6 and its examples; D1–D3)."""
    cells, stride, conv = t.cells, t.stride, t.conv
    short = obligation - defence
    if level <= 7:
        half = obligation // 2
        mode = conv.pair_shortfall_6_7
        if short <= 0 and mode != "each_own":
            return
        for s, own in zip(defenders, split, strict=True):
            missing = half - own
            if missing > 0:
                if mode == "capped":
                    missing = min(missing, short)
                cells[s * stride + 1] += missing * _responsibility(t, s, game_cost)
                t.cite(
                    s * stride + 1,
                    missing * _responsibility(t, s, game_cost),
                    _responsibility_rule(t, s),
                )
        return
    if short > 0:  # 8, 9, 10: the second whister answers (note 58) or, by agreement, both
        payers = defenders[1:] if conv.pair_shortfall_8_10 == "second" else defenders
        for s in payers:
            cells[s * stride + 1] += short * _responsibility(t, s, game_cost)
            t.cite(
                s * stride + 1, short * _responsibility(t, s, game_cost), _responsibility_rule(t, s)
            )


def _write_misere(t: Table, g: Game, d: int, m: int, writers: tuple[int, ...]) -> bool:
    """Misère: 10 in the pulya, or tricks × 10 (Leningrad 20) in the gora; no whists (001 §3.6)."""
    if any(call is not _PASS for call in g.calls):
        t.error(
            "MISERE_WHISTED",
            gettext_noop("a misère is caught, not whisted: no obligation"),
            "2.2.2",
            {},
            column="calls",
        )
        return False
    tricks = g.declarer_tricks
    if tricks is None or not 0 <= tricks <= 10:
        t.error(
            "TRICKS",
            gettext_noop("misère tricks None: need 0–10")
            if tricks is None
            else gettext_noop("misère tricks {tricks}: need 0–10"),
            "3.6.1",
            {} if tricks is None else {"tricks": repr(tricks)},
            player=d,
            column="declarer_tricks",
        )
        return False
    if g.talon_premium:
        t.error("TALON_PREMIUM", gettext_noop("no talon premium on a misère"), "3.4.11", {},
                column="talon_premium")  # fmt: skip
        return False
    if tricks == 0:
        t.pulya(d, 10 * m, "3.6")
        return True
    t.cells[d * t.stride + 1] += tricks * t.conv.misere_gora_per_trick * m
    if t.why is not None:
        t.cite(d * t.stride + 1, tricks * t.conv.misere_gora_per_trick * m, "3.6")
    if t.conv.misere_consolation:  # D18
        conv = t.conv
        per = (
            10 * conv.game_cost_multiplier * m
            if conv.consolation == "game_cost"
            else (conv.consolation_flat * m)
        )
        for q in writers:
            t.cells[q * t.stride + 2 + d] += tricks * per
            if t.why is not None:
                t.cite(q * t.stride + 2 + d, tricks * per, "3.8.1.2")
    return True


#: Penalty rules of seed 001 a Penalty entry may cite, with what the entry holds.
PENALTY_RULES: dict[str, str] = {
    "3.2.21": "looking at the talon: 5 points in the gora",
    "3.3.16.3": "talon exposed during the auction: the lost contracts as whists on the offender",
    "3.4.6": "contract named with more or fewer than 10 cards: remiz without two",
    "3.4.9": "looking at the discard after the first lead: one penalty trick",
    "3.9.11.2": "looking at a closed trick: one trick lost",
    "3.9.16": "revoke (фальшренонс): at least one penalty trick",
    "3.9.18": "wrong number of cards in play: the others' largest lost gain",
    "4.2.7": "false entry: a penalty equal to the overstatement",
}


#: a penalty's amount above what a penalty may be (001 §4.2.16), by the column it is written in
_PENALTY_TOO_BIG = {
    "gora": gettext_noop("a penalty of {amount} in the gora is more than a penalty may be (at "
                         "most {most})"),
    "pulya": gettext_noop("a penalty of {amount} in the pulya is more than a penalty may be (at "
                          "most {most})"),
    "whists": gettext_noop("a penalty of {amount} in the whists is more than a penalty may be "
                           "(at most {most})"),
}  # fmt: skip


def write_penalty(t: Table, pen: Penalty) -> bool:
    """A penalty: gora, pulya written off, whists on the offender (001 §3.2.21, §4.2.7 …)."""
    n, stride, cells = t.n, t.stride, t.cells
    p = pen.player
    if not 0 <= p < n:
        t.error("BAD_SEAT", gettext_noop("penalised seat {seat} is not at the table"), "3.2.10",
                {"seat": seat_number(p)}, column="player")  # fmt: skip
        return False
    for writer, _amount in pen.whists:
        if not 0 <= writer < n or writer == p:
            t.error(
                "BAD_SEAT",
                gettext_noop("seat {writer} cannot write penalty whists on seat {seat}"),
                "4.2.7",
                {"writer": seat_number(writer), "seat": seat_number(p)},
                column="whists",
            )
            return False
    amounts = [("gora", pen.gora), ("pulya", pen.pulya), *(("whists", w) for _, w in pen.whists)]
    for column, amount in amounts:
        if isinstance(amount, int) and abs(amount) > PENALTY_MAX:
            t.error(
                "PENALTY_AMOUNT",
                _PENALTY_TOO_BIG[column],
                "4.2.16",
                {"amount": amount, "most": PENALTY_MAX},
                player=p,
                column=column,
                written=amount,
                expected=PENALTY_MAX,
            )
            return False
    rule = pen.rule.strip().removeprefix("001").strip().removeprefix("§").strip()
    if rule not in PENALTY_RULES:
        t.warn(
            "PENALTY_RULE",
            gettext_noop("rule {rule} is not one of the Kodeks' penalty rules ({rules})"),
            "4.2.16",
            {"rule": repr(pen.rule), "rules": ", ".join(PENALTY_RULES)},
            player=p,
            column="rule",
        )
    elif rule == "3.2.21" and (pen.gora, pen.pulya, pen.whists) != (5, 0, ()):
        t.warn(
            "PENALTY_AMOUNT",
            gettext_noop("looking at the talon costs 5 points in the gora"),
            "3.2.21",
            {},
            player=p,
            column="gora",
            written=pen.gora,
            expected=5,
        )
    cells[p * stride + 1] += pen.gora
    cells[p * stride] -= pen.pulya
    if t.why is not None:
        t.cite(p * stride + 1, pen.gora, rule)
    if t.why is not None:
        t.cite(p * stride, -pen.pulya, rule)
    for writer, amount in pen.whists:
        cells[writer * stride + 2 + p] += amount
        if t.why is not None:
            t.cite(writer * stride + 2 + p, amount, rule)
    return True
