"""Settlement of a finished pulka in whists (001 §4.2.14) with the rounding of §4.2.12.

Variant 1: amnesty of the gora (the smallest gora is written down to 0, the
others by as much); each gora × 10 / n (n includes its owner) is what its owner
loses to each other player; then the whists written on each other are netted.
Variant 2: the same through the average gora. Without rounding both are
algebraically identical; :attr:`Settlement.exact` keeps the exact values.

Rounding (001 §4.2.12, three players): after the amnesty, a gora ``a`` with
``a mod 3 == 1`` is written down by 1 and each other player writes 3 whists on
its owner (the Kodeks' example); with ``a mod 3 == 2`` one point is added and the
owner writes 3 whists on each other player. With four players the shares are
exact (halves can occur): the Kodeks defines no rounding there.

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
        """The results to publish: variant 1 after rounding."""
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

    ``rounding`` is ``"kodeks"`` (001 §4.2.12, three players only) or ``"exact"``.
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
    if (
        rounding == "kodeks"
        and n == 3
        and (amnestied[0] % 3 or amnestied[1] % 3 or amnestied[2] % 3)
    ):
        rounded_gora = list(amnestied)
        matrix = [list(row) for row in whists]
        rounded_net = list(net)
        for p in range(n):
            rest = rounded_gora[p] % 3
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
    )
