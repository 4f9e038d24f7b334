"""Settlement of a finished pulka in whists (001 §4.2.14) with the rounding of §4.2.12.

Variant 1: amnesty of the gora (the smallest gora is written down to 0, the
others by as much); each gora × 10 / n (n includes its owner) is what its owner
loses to each other player; then the whists written on each other are netted.
Variant 2: the same through the average gora. Without rounding both are
algebraically identical; :attr:`Settlement.exact` keeps the exact values.

Rounding (001 §4.2.12, three players), by the method the convention's option
``rounding`` names, since 4.2.14 calls its two variants "equivalent" and each
sends a division that leaves a remainder to 4.2.12:

* ``"kodeks"``, Variant 1 (the default): each gora is divided by three, so each
  gora that does not divide is rounded: after the amnesty, a gora ``a`` with
  ``a mod 3 == 1`` is written down by 1 and each other player writes 3 whists on
  its owner (the Kodeks' example); with ``a mod 3 == 2`` one point is added and
  the owner writes 3 whists on each other player;
* ``"average"``, Variant 2: only the sum of the goras is divided, so only a sum
  that does not divide is rounded, once: remainder 1, the largest gora (after the
  amnesty; the first in seat order on a tie) is written down by 1 and each other
  player writes 3 whists on him; remainder 2, the largest gora gets one point and
  its owner writes 3 whists on each other player. 4.2.12 says "one of the
  players" without saying which: the largest gora is this module's reading;
* ``"exact"``: no rounding; results may be thirds.

The two variants with the same goras and whists are the same numbers; they differ
only in what they round. With four players the shares are exact (halves can
occur): the Kodeks defines no rounding there.

The issue #37 example: goras 20, 28, 18 (amnesty 2, 10, 0). Variant 1 rounds the
2 and the 10; the sum 12 divides, so Variant 2 rounds nothing and is exact:

>>> whists = [[0, 0, 0], [0, 0, 0], [0, 0, 0]]
>>> [int(x) for x in settle([20, 28, 18], whists).totals]
[19, -59, 40]
>>> [int(x) for x in settle([20, 28, 18], whists, rounding="average").totals]
[20, -60, 40]

>>> s = settle([4, 0, 0], [[0, 0, 0], [0, 0, 0], [0, 0, 0]])
>>> [str(x) for x in s.exact], [int(x) for x in s.variant1], s.adjustments
(['-80/3', '40/3', '40/3'], [-26, 13, 13], (-1, 0, 0))
>>> sum(s.variant1), sum(s.variant2) == 0
(Fraction(0, 1), True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

__all__ = ["Settlement", "settle"]


@dataclass(frozen=True, slots=True)
class Settlement:
    """Each player's result in whists, positive = won.

    Results are kept as integer numerators over :attr:`denominator` (the number of
    players) and read as :class:`~fractions.Fraction` through the properties:
    ``exact`` is variant 1 without rounding and ``exact_variant2`` variant 2 without
    rounding (equal by algebra; both kept as a self-check). ``variant1`` and
    ``variant2`` apply the 4.2.12 adjustments (``adjustments[p]`` = gora point added
    (+1) or written off (−1)); they are the same numbers, integral with three players.
    ``gora`` is the gora after the amnesty and the adjustments.
    """

    denominator: int
    exact_numerators: tuple[int, ...]
    exact_variant2_numerators: tuple[int, ...]
    variant1_numerators: tuple[int, ...]
    variant2_numerators: tuple[int, ...]
    gora: tuple[int, ...]
    adjustments: tuple[int, ...]
    #: The method used (option ``rounding``): ``"kodeks"`` (Variant 1, each gora rounded),
    #: ``"average"`` (Variant 2, the average gora rounded) or ``"exact"``; with four players
    #: nothing is rounded whatever the option says.
    rounding: str = "kodeks"

    def _fractions(self, numerators: tuple[int, ...]) -> tuple[Fraction, ...]:
        return tuple(Fraction(x, self.denominator) for x in numerators)

    @property
    def exact(self) -> tuple[Fraction, ...]:
        return self._fractions(self.exact_numerators)

    @property
    def exact_variant2(self) -> tuple[Fraction, ...]:
        return self._fractions(self.exact_variant2_numerators)

    @property
    def variant1(self) -> tuple[Fraction, ...]:
        return self._fractions(self.variant1_numerators)

    @property
    def variant2(self) -> tuple[Fraction, ...]:
        return self._fractions(self.variant2_numerators)

    @property
    def totals(self) -> tuple[Fraction, ...]:
        """The results to publish: after the rounding of :attr:`rounding` (Variant 1 and
        Variant 2 are the same numbers once the same goras are rounded)."""
        return self.variant1


def _variant1(gora: Sequence[int], whists: Sequence[Sequence[int]], n: int) -> tuple[int, ...]:
    """Variant 1 literally, times n: each gora × 10 / n is added to the whists every other
    player writes on its owner, then each pair is netted (001 §4.2.14)."""
    result = [0] * n
    for p in range(n):
        row = whists[p]
        for q in range(n):
            if q != p:
                written = n * row[q] + 10 * gora[q]  # p's whists on q, and q's gora share to p
                result[p] += written
                result[q] -= written
    return tuple(result)


def _variant2(gora: Sequence[int], net: Sequence[int], n: int) -> tuple[int, ...]:
    """Variant 2, times n: net whists + 10 × (average gora − own gora) (001 §4.2.14)."""
    total = sum(gora)
    return tuple([n * net[p] + 10 * (total - n * gora[p]) for p in range(n)])


def settle(
    gora: Sequence[int], whists: Sequence[Sequence[int]], *, rounding: str = "kodeks"
) -> Settlement:
    """Settle goras and whists (``whists[p][q]``: what ``p`` wrote on ``q``).

    ``rounding`` is ``"kodeks"`` (Variant 1: each gora, 001 §4.2.12, three players only),
    ``"average"`` (Variant 2: the sum of the goras, three players only) or ``"exact"``.
    The results always sum to zero.
    """
    n = len(gora)
    net = [0] * n
    for p in range(n):
        row = whists[p]
        for q in range(n):
            if q != p:
                net[p] += row[q]
                net[q] -= row[q]
    low = min(gora)
    amnestied = [g - low for g in gora]  # 001 §4.2.14, variant 1: "амнистия"
    exact = _variant1(amnestied, whists, n)
    exact2 = _variant2(gora, net, n)
    adjustments = [0] * n
    rounded_gora = amnestied
    variant1, variant2 = exact, exact2  # nothing to round: the same numbers
    if rounding == "kodeks" and n == 3:  # Variant 1: every gora that does not divide
        rests = [(p, amnestied[p] % 3) for p in range(n)]
    elif rounding == "average" and n == 3:  # Variant 2: the sum, on the largest gora
        rests = [(amnestied.index(max(amnestied)), sum(amnestied) % 3)]
    else:
        rests = []
    if any(rest for _, rest in rests):
        rounded_gora = list(amnestied)
        matrix = [list(row) for row in whists]
        rounded_net = list(net)
        for p, rest in rests:
            if rest == 1:  # written down by 1; the other two write 3 whists each on him
                rounded_gora[p] -= 1
                adjustments[p] = -1
                for q in range(n):
                    if q != p:
                        matrix[q][p] += 3
                        rounded_net[q] += 3
                        rounded_net[p] -= 3
            elif rest == 2:  # one point added; he writes 3 whists on each of the others
                rounded_gora[p] += 1
                adjustments[p] = 1
                for q in range(n):
                    if q != p:
                        matrix[p][q] += 3
                        rounded_net[p] += 3
                        rounded_net[q] -= 3
        variant1 = _variant1(rounded_gora, matrix, n)
        variant2 = _variant2(rounded_gora, rounded_net, n)
    return Settlement(
        denominator=n,
        exact_numerators=exact,
        exact_variant2_numerators=exact2,
        variant1_numerators=variant1,
        variant2_numerators=variant2,
        gora=tuple(rounded_gora),
        adjustments=tuple(adjustments),
        rounding=rounding if n == 3 else "exact",
    )
