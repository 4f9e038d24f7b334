"""Settle offline whether a size has a schedule without a repeat: find one or prove none exists.

    python tests/seating_catalogue/prove_schedules.py 17x6 [19x8 …] [--policy mixed] [--classes 0,3]

For ``tournaments/seating/catalogue.py``: a schedule found goes into
``CATALOGUE``, a proof into ``NONE_EXISTS``. The question is split so that a
SAT solver settles each part in seconds where one model over the whole
schedule gets no answer in half an hour (17 × 6 with round 0 fixed):

* **Round 0** may be taken to seat the players in order, table by table
  (relabel the players).
* **Round 1** meets each table of round 0 at most once per table (no pair
  twice), so it is described, up to relabelling the players within each
  table of round 0, by a 0/1 matrix: row ``i`` a table of round 1, column
  ``j`` a table of round 0, a 1 where they share a player. Rows and columns
  sum to the table sizes. Tables of one size are interchangeable in either
  round, so only one matrix per class under permuting rows and columns
  within a size is needed (:func:`second_rounds`): 8 classes for 17 players
  at 4-4-3-3-3.
* **The other rounds** are a SAT problem given rounds 0 and 1
  (:func:`rest_of_schedule`), with the symmetry breaking of
  :mod:`tournaments.seating.exact`: each round's tables of one size in the
  order of their smallest players, the rounds in the order of player 0's
  smallest table-mate.

No schedule exists if and only if every class is unsatisfiable. The solver
is CaDiCaL 1.5.3 through python-sat (the ``test`` extra): for these proofs it
answers in seconds where CP-SAT on one worker had no answer after 20 minutes
on the first class of 17 × 6. A schedule found is checked pair by pair here
before it is printed.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from itertools import combinations, permutations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tournaments.seating.model import TablePolicy  # noqa: E402
from tournaments.seating.sizes import table_sizes  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))

from find_schedules import check, entry  # noqa: E402
from sat_rounds import at_most_once, by_pair, seat_round  # noqa: E402

Round = list[list[int]]


def first_round(sizes: Sequence[int]) -> Round:
    """Round 0: players ``0 … n-1`` in order, table by table."""
    tables, start = [], 0
    for size in sizes:
        tables.append(list(range(start, start + size)))
        start += size
    return tables


def second_rounds(sizes: Sequence[int]) -> list[Round]:
    """One round 1 per class of matrices (module docstring), in a fixed order.

    ``sizes`` in the order of round 0's tables; round 1's table ``i`` has
    ``sizes[i]`` players too. Column ``j``'s players go to its rows in order.
    """
    count = len(sizes)
    same: dict[int, list[int]] = {}  # tables of one size, in order: permuted among themselves
    for t, size in enumerate(sizes):
        same.setdefault(size, []).append(t)
    orders = [[]]
    for group in same.values():
        orders = [o + list(p) for o in orders for p in permutations(group)]

    def matrices(row: int, left: list[int], rows: list[tuple[int, ...]], kinds: list[int]):
        """Matrices with the rows of each size, and the columns of each size, in decreasing
        order (any matrix can be sorted so): columns still alike (``kinds``) are used first
        to last, and a row is never above the row before it of the same size."""
        if row == count:
            if not any(left):
                yield tuple(rows)
            return
        alike: dict[int, list[int]] = {}
        for j in range(count):
            if left[j]:
                alike.setdefault(kinds[j], []).append(j)
        for takes in _compositions(sizes[row], [len(js) for js in alike.values()]):
            columns = {j for js, k in zip(alike.values(), takes, strict=True) for j in js[:k]}
            cells = tuple(int(j in columns) for j in range(count))
            if row and sizes[row - 1] == sizes[row] and cells > rows[-1]:
                continue
            rest = [left[j] - cells[j] for j in range(count)]
            split = [2 * kinds[j] + cells[j] for j in range(count)]
            yield from matrices(row + 1, rest, rows + [cells], split)

    def column_sorted(matrix) -> tuple:  # the same for any order of each size's columns
        columns = [tuple(row[j] for row in matrix) for j in range(count)]
        ordered = [c for group in same.values() for c in sorted(columns[j] for j in group)]
        return tuple(zip(*ordered, strict=True))

    classes: dict[tuple, tuple] = {}
    first_kinds = [2 * count * size for size in sizes]  # columns of one size alike at first
    for matrix in matrices(0, list(sizes), [], first_kinds):
        if len(orders) > 5040:  # the double ordering alone: a class may come more than once
            classes[matrix] = matrix
            continue
        canonical = min(column_sorted([matrix[r] for r in rows]) for rows in orders)
        classes.setdefault(canonical, matrix)
    zero = first_round(sizes)
    out = []
    for _, matrix in sorted(classes.items()):
        tables: Round = [[] for _ in sizes]
        for j, members in enumerate(zero):
            for player, i in zip(members, [i for i in range(count) if matrix[i][j]], strict=True):
                tables[i].append(player)
        out.append(tables)
    return out


def _compositions(total: int, caps: list[int]):
    """Every way to take ``total`` with at most ``caps[i]`` from part ``i``."""
    if not caps:
        if total == 0:
            yield ()
        return
    for k in range(min(total, caps[0]), -1, -1):
        for rest in _compositions(total - k, caps[1:]):
            yield (k, *rest)


def rest_of_schedule(sizes: Sequence[int], rounds: int, given: Sequence[Round]):
    """Rounds ``len(given) … rounds-1`` with no pair meeting twice, or ``None`` if none exist.

    The SAT model: ``x[r, p, t]`` player ``p`` at table ``t`` in round ``r``;
    ``m[r, a, b]`` exactly when ``a`` and ``b`` share a table in round ``r``,
    at most one per pair and none for a pair that met in ``given``.
    Returns ``(rounds or None, seconds)``.
    """
    from pysat.formula import IDPool
    from pysat.solvers import Cadical153

    n, count = sum(sizes), len(sizes)
    met = {pair for tables in given for t in tables for pair in combinations(sorted(t), 2)}
    free = range(len(given), rounds)
    pool, clauses, meets = IDPool(), [], []
    for r in free:
        seating, round_meets = seat_round(pool, r, range(n), sizes, apart=met)
        clauses += seating
        meets.append(round_meets)
    for rounds_met in by_pair(meets).values():
        clauses += at_most_once(rounds_met)
    for r in list(free)[:-1]:  # player 0's smallest table-mate increases with the round
        for q in range(1, n):
            if (0, q) not in met:
                smaller = [meets[r - free[0]][0, k] for k in range(1, q) if (0, k) not in met]
                clauses.append([-meets[r + 1 - free[0]][0, q]] + smaller)

    started = time.process_time()
    with Cadical153(bootstrap_with=clauses) as solver:
        satisfiable = solver.solve()
        model = set(solver.get_model() or ()) if satisfiable else set()
    took = time.process_time() - started
    if not satisfiable:
        return None, took
    found = [
        [[p for p in range(n) if pool.id(("x", r, p, t)) in model] for t in range(count)]
        for r in free
    ]
    return found, took


def settle(sizes: Sequence[int], rounds: int, only: Sequence[int] = (), log=print):
    """A schedule of ``rounds`` rounds without a repeat, or ``None`` once every class is refuted.

    ``only``: the class numbers to try (all when empty); a ``None`` then
    proves nothing about the others. Logs one line per class.
    """
    sizes = tuple(sorted(sizes, reverse=True))
    zero = first_round(sizes)
    if rounds == 1:
        return [zero]
    for k, one in enumerate(second_rounds(sizes)):
        if only and k not in only:
            continue
        rest, took = rest_of_schedule(sizes, rounds, [zero, one])
        log(f"#   class {k}: round 1 {one}: {'schedule' if rest else 'none'} ({took:.1f} s)")
        if rest is not None:
            schedule = [zero, one, *rest]
            check([[tuple(t) for t in tables] for tables in schedule], sizes)
            return schedule
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cells", nargs="+", help="PLAYERSxROUNDS, e.g. 17x6")
    parser.add_argument("--policy", default="mixed", choices=[p.value for p in TablePolicy])
    parser.add_argument("--classes", default="", help="only these classes of round 1, e.g. 0,3")
    options = parser.parse_args()
    only = [int(k) for k in options.classes.split(",") if k]
    for cell in options.cells:
        n, rounds = map(int, cell.split("x"))
        sizes = tuple(sorted(table_sizes(n, TablePolicy(options.policy))))
        classes = len(second_rounds(tuple(sorted(sizes, reverse=True))))
        print(f"# {n} x {rounds} {sizes}: {classes} classes of round 1", flush=True)
        started = time.process_time()
        found = settle(sizes, rounds, only, log=lambda line: print(line, flush=True))
        took = time.process_time() - started
        took = f"{took:.0f}" if took >= 10 else f"{took:.1f}"
        if found is not None:
            entry(sizes, f"CaDiCaL 1.5.3 (python-sat), rounds 0 and 1 fixed, {took} s", found)
        elif only:
            print(f"# {n} x {rounds}: none in classes {options.classes} ({took} s)")
        else:  # an entry of catalogue.NONE_EXISTS
            refuted = f"{classes} class{'es' if classes != 1 else ''} of round 1 refuted"
            print(f'    {sizes}: ({rounds}, "SAT: {refuted} by CaDiCaL 1.5.3, {took} s"),')


if __name__ == "__main__":
    main()
