"""What each player writes for a raspasy, all passed (001 §3.7): gora per trick with the
amnesty, or Rostov's whists, the progression of the price, and the contracts too low to leave
raspasy. It writes on the sheet of :class:`scoring.russian.writing.Table`.
"""

from __future__ import annotations

from rules.contracts import Contract, Denomination
from rules.conventions import Convention

from ..findings import gettext_noop
from .protocol import Raspasy
from .writing import MULTIPLIER_NOT_ALLOWED, Table

__all__ = ["raspasy_step", "write_raspasy", "below_exit_level"]


def raspasy_step(conv: Convention, streak: int) -> int:
    """Price factor of a raspasy after ``streak`` raspasy in a row (001 §3.7.4)."""
    mode = conv.raspasy_progression
    if mode == "none":
        return 1
    limit = conv.raspasy_progression_limit
    i = min(streak, limit - 1) if limit else streak
    return i + 1 if mode == "arithmetic" else 1 << i


def write_raspasy(t: Table, r: Raspasy, dealer: int, step: int) -> bool:
    """All passed (001 §3.7): gora per trick with amnesty, or Rostov whists; 0 → pulya."""
    conv, n, stride, cells = t.conv, t.n, t.stride, t.cells
    counts = r.tricks
    m = r.multiplier
    if m != 1 and not (conv.multipliers and m >= 1):
        t.error("MULTIPLIER", MULTIPLIER_NOT_ALLOWED, "4.1.2", {"m": m})
        return False
    if len(counts) != n:
        t.error(
            "RASPASY_TRICKS",
            gettext_noop("{n} trick counts for {players} players"),
            "3.7.1",
            {"n": len(counts), "players": n},
            column="tricks",
        )
        return False
    # seats that take tricks: all three, or with four the dealer for the talon (3.7.6.1)
    talon = n == 4 and conv.raspasy_talon_to_dealer
    seats = range(n) if n == 3 or talon else [p for p in range(n) if p != dealer]
    own: list[int] = []
    for p in seats:
        c = counts[p]
        top = 2 if (n == 4 and p == dealer) else 10
        if c is None or c < 0 or c > top:
            t.error(
                "RASPASY_TRICKS",
                gettext_noop("tricks None: need 0–{top}")
                if c is None
                else gettext_noop("tricks {tricks}: need 0–{top}"),
                "3.7.6.1",
                {"top": top} if c is None else {"tricks": repr(c), "top": top},
                player=p,
                column="tricks",
            )
            return False
        own.append(c)
    if n == 4 and not talon and counts[dealer]:
        t.error(
            "RASPASY_TRICKS",
            gettext_noop("the dealer has no tricks: the talon is not used"),
            "3.7.6.2",
            {},
            player=dealer,
            column="tricks",
        )
        return False
    if sum(own) != 10:
        t.error(
            "TRICKS_SUM",
            gettext_noop("raspasy tricks sum to {n}, not 10"),
            "3.7.6.1",
            {"n": sum(own)},
            column="tricks",
            written=sum(own),
            expected=10,
        )
        return False
    least = min(own)
    if conv.raspasy_mode == "gora":
        price = conv.raspasy_price * step * m
        if not conv.raspasy_amnesty:  # amnesty (001 §3.7.3) by default
            least = 0
        for k, p in enumerate(seats):  # (enumerate: a strict zip costs more here)
            c = own[k]
            if c > least:
                cells[p * stride + 1] += (c - least) * price
                if t.why is not None:
                    t.cite(p * stride + 1, (c - least) * price, "3.7.2.1")
    else:  # Rostov: the least taker writes on the others (001 §3.7.2.2)
        takers = [p for p, c in zip(seats, own, strict=True) if c == least]
        per = conv.raspasy_price * step * m
        full = conv.raspasy_whists_base == "full"
        for q, c in zip(seats, own, strict=True):
            if c == least:
                continue
            amount = per * (c if full else c - least)
            share, extra = divmod(amount, len(takers))
            for i, p in enumerate(takers):  # tied takers write in halves
                cells[p * stride + 2 + q] += share + (1 if i < extra else 0)
                if t.why is not None:
                    t.cite(p * stride + 2 + q, share + (1 if i < extra else 0), "3.7.2.2")
    if least == 0 or n == 4:
        mode = conv.raspasy_zero_bonus
        bonus = (
            step * m if mode == "step" else 1 if mode == "one" else conv.raspasy_price * step * m
        )
        for p in range(n):
            if n == 4 and p == dealer:
                if conv.raspasy_dealer_zero_bonus and not counts[p]:
                    t.pulya(p, bonus, "3.7.6.2")  # D12; Rostov 3.7.6.2
            elif counts[p] == 0:  # "пишет в пульку стоимость одной взятки" (001 §3.7.2.1)
                t.pulya(p, bonus, "3.7.2.2" if conv.raspasy_mode == "whists" else "3.7.2.1")
    return True


def below_exit_level(conv: Convention, contract: Contract) -> bool:
    """A contract too low to leave raspasy (001 §3.7.8; archaic Classic 7, §3.7.7)."""
    return contract < Contract(conv.raspasy_exit_level, Denomination.SPADES)
