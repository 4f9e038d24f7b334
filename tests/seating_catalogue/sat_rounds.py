"""SAT clauses the offline provers share: players seated at tables, pairs that meet.

Used by ``prove_schedules.py`` and ``prove_fours_first.py`` (python-sat, the
``test`` extra). Variables, named in the caller's :class:`~pysat.formula.IDPool`:
``("x", r, p, t)`` player ``p`` at table ``t`` of round ``r``; ``("m", r, a, b)``
(``a < b``) exactly when ``a`` and ``b`` share a table in round ``r``.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from itertools import combinations


def seat_round(
    pool, r: int, seated: Sequence[int], sizes: Sequence[int], apart: Collection = ()
) -> tuple[list[list[int]], dict[tuple[int, int], int]]:
    """Clauses seating ``seated`` at tables of ``sizes`` in round ``r``, and its meetings.

    Every player at one table, every table full; tables of one size in the
    order of their smallest player (in the order of ``seated``), which any
    round can be brought to by renumbering its tables. A pair in ``apart``
    (``a < b``) never shares a table and gets no meeting variable. Returns
    the clauses and ``{(a, b): m}`` for the other pairs.
    """
    from pysat.card import CardEnc, EncType

    def x(p, t):
        return pool.id(("x", r, p, t))

    clauses: list[list[int]] = []
    for p in seated:
        clauses += CardEnc.equals([x(p, t) for t in range(len(sizes))], 1, vpool=pool).clauses
    for t, size in enumerate(sizes):
        full = CardEnc.equals(
            [x(p, t) for p in seated], size, vpool=pool, encoding=EncType.seqcounter
        )
        clauses += full.clauses
        if t + 1 < len(sizes) and sizes[t + 1] == size:  # smallest players increase
            for i, p in enumerate(seated):
                clauses.append([-x(p, t + 1)] + [x(q, t) for q in seated[:i]])
    meets = {}
    for a, b in combinations(sorted(seated), 2):
        if (a, b) in apart:
            clauses += [[-x(a, t), -x(b, t)] for t in range(len(sizes))]
            continue
        meets[a, b] = m = pool.id(("m", r, a, b))
        at = [pool.id(("s", r, a, b, t)) for t in range(len(sizes))]
        for t, s in enumerate(at):
            clauses += [[-x(a, t), -x(b, t), m], [-s, x(a, t)], [-s, x(b, t)]]
        clauses.append([-m] + at)
    return clauses, meets


def by_pair(meets: Sequence[dict[tuple[int, int], int]]) -> dict[tuple[int, int], list[int]]:
    """The meeting variables of each pair over the rounds (``meets``: one dict a round)."""
    pairs: dict[tuple[int, int], list[int]] = {}
    for round_meets in meets:
        for pair, m in round_meets.items():
            pairs.setdefault(pair, []).append(m)
    return pairs


def at_most_once(rounds: Sequence[int]) -> list[list[int]]:
    """A pair meets in at most one of these rounds (its meeting variables)."""
    return [[-u, -v] for u, v in combinations(rounds, 2)]
