"""Fours-first prover: one table of four a round, at the counting bound.

    python tests/seating_catalogue/prove_fours_first.py 19 8                   # CaDiCaL, numbered triples
    python tests/seating_catalogue/prove_fours_first.py 19 8 --solver glucose4 # another solver
    python tests/seating_catalogue/prove_fours_first.py 19 8 --check cadical195  # the second encoding

Needs nauty-geng (Debian: nauty). It applies where each round has one four and
n - 1 - 2R = 2 (19 × 8, 31 × 14). The argument, step by step:

1. Without a repeat a player meets 2 new players a round at a triple and 3 at the
   four, so 2R + f <= n - 1 where f is how often they sit at a four: f <= 2, and a
   player with f = 2 meets every other player exactly once; one with f < 2 leaves
   exactly 2 - f players unmet.
2. Two fours share at most one player (two shared players would meet twice), and a
   player is at most at two fours. So the players at two fours are the edges of a
   simple graph H on the rounds, at most 4 edges at a round (its four's seats).
   With 4R seats at fours and n players, H has 4R - n to 2R edges.
3. Which rounds hold which four does not matter, nor which player is which: every
   schedule is, after renaming rounds and players, one with H among the graphs
   nauty-geng lists up to isomorphism, its players numbered as :func:`layout` does.
4. For each H a SAT solver seats the remaining players at triples under step 1.
   Every clause is a consequence of steps 1-2, so "unsatisfiable" for every H
   means no schedule without a repeat exists.

Two encodings, so that neither a modelling slip nor a solver bug can decide alone:
:func:`solve` (numbered triples, their order fixed by their smallest player;
CaDiCaL 1.5.3) and :func:`solve_meetings` (a variable per round and pair, no
numbering; Glucose 4 by default). The tests check both against 13 × 5 (refuted
for every graph), the known 25 × 11 cyclic schedule (fixed on its own graph:
satisfiable) and that schedule with two players swapped (unsatisfiable).
19 × 8 (2026-11-22, recorded in catalogue.NONE_EXISTS): all 486 graphs
unsatisfiable on the triples with CaDiCaL 1.5.3 (1,232 s of one core), 485 of
them on the meetings with ``--check cadical195`` (5,043 s); the last, K4,4,
ran 40 minutes there without an answer and Glucose 4 refuted it on the triples
(79 s); ``--solver glucose4`` then refuted all 486 on the triples (2,509 s).
Glucose 4 is slow on the meetings (about 20 s a graph).
"""

import argparse
import subprocess
import sys
import time
from itertools import combinations
from pathlib import Path

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver

sys.path.insert(0, str(Path(__file__).resolve().parent))

from find_schedules import check  # noqa: E402
from sat_rounds import at_most_once, by_pair, seat_round  # noqa: E402


def triples(n: int, rounds: int) -> int:
    """Tables of three a round; the split holds only where a player is at most twice at a four."""
    if (n - 4) % 3 or n - 1 - 2 * rounds != 2:
        raise ValueError(f"{n} x {rounds}: not one four a round with n - 1 - 2R = 2")
    return (n - 4) // 3


def graphs(rounds: int, e: int) -> list[str]:
    """Every graph on ``rounds`` vertices with ``e`` edges and degrees at most 4 (graph6)."""
    return subprocess.run(
        ["nauty-geng", "-q", "-D4", str(rounds), f"{e}:{e}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()


def decode_g6(s):
    """(vertices, edges) of a graph6 line of nauty (its upper triangle, column by column)."""
    data = [ord(c) - 63 for c in s]
    nv = data[0]
    bits = []
    for d in data[1:]:
        for k in range(5, -1, -1):
            bits.append((d >> k) & 1)
    edges = []
    k = 0
    for j in range(1, nv):
        for i in range(j):
            if bits[k]:
                edges.append((i, j))
            k += 1
    return nv, edges


def layout(n, R, edges):
    """The fours of graph ``edges``: blocks per round, times at a four, pairs met at a four.

    Points: one per edge (at two fours), then each four's own, then those never at a four.
    ``None`` where the graph needs more than ``n`` players.
    """
    blocks = [[] for _ in range(R)]
    p = 0
    for i, j in edges:
        blocks[i].append(p)
        blocks[j].append(p)
        p += 1
    private = []
    for b in range(R):
        while len(blocks[b]) < 4:
            blocks[b].append(p)
            private.append(p)
            p += 1
    if p > n:
        return None
    f = [0] * n
    for b in blocks:
        for q in b:
            f[q] += 1
    inblock = set()
    for b in blocks:
        for a, c in combinations(sorted(b), 2):
            inblock.add((a, c))
    return blocks, f, inblock, private, list(range(p, n))


def relabel(known, edges, blocks, private, free_pts):
    """Player -> point of :func:`layout`, for a schedule ``known`` whose fours have graph ``edges``."""
    n, R = sum(len(t) for t in known[0]), len(known)
    fours = [set(next(t for t in r if len(t) == 4)) for r in known]
    label = {}
    for k, (i, j) in enumerate(edges):
        (pt,) = fours[i] & fours[j]
        label[pt] = k
    for b in range(R):
        mine = sorted(q for q in fours[b] if q not in label)
        privs = [q for q in blocks[b] if q in private]
        for q, lab in zip(mine, privs, strict=True):
            label[q] = lab
    rest = [q for q in range(n) if q not in label]
    for q, lab in zip(rest, free_pts, strict=True):
        label[q] = lab
    assert sorted(label.values()) == list(range(n))
    for r in range(R):
        assert sorted(label[q] for q in fours[r]) == sorted(blocks[r])
    return label


def solve(n, R, edges, known=None, solver="cadical153"):
    """The rounds whose fours are the graph ``edges`` (or ``None``) and the solver's seconds.

    Seats players at numbered triples (``solver``: a python-sat name, CaDiCaL 1.5.3 by
    default). ``known``: a schedule with that graph of fours, fixed as assumptions (a check
    of the encoding).
    """
    t3 = triples(n, R)
    fours = layout(n, R, edges)
    if fours is None:
        return None, 0.0
    blocks, f, inblock, private, free_pts = fours
    pool = IDPool()
    cl, meets = [], []
    for r in range(R):
        others = [q for q in range(n) if q not in blocks[r]]
        seating, round_meets = seat_round(pool, r, others, (3,) * t3, apart=inblock)
        cl += seating
        meets.append(round_meets)
    rounds_met = by_pair(meets)
    for a, c in combinations(range(n), 2):
        if (a, c) in inblock:
            continue
        ms = rounds_met.get((a, c), [])
        cl += at_most_once(ms)
        if f[a] == 2 or f[c] == 2:  # they meet everyone: no pair left unmet
            cl.append(ms)
        else:
            cl.append([pool.id(("u", a, c))] + ms)
    for a in range(n):  # a player f times at a four leaves 2 - f players unmet
        if f[a] < 2:
            unmet = [
                pool.id(("u", min(a, c), max(a, c)))
                for c in range(n)
                if c != a and f[c] < 2 and (min(a, c), max(a, c)) not in inblock
            ]
            cl += CardEnc.atmost(unmet, 2 - f[a], vpool=pool).clauses

    def X(r, q, t):
        return pool.id(("x", r, q, t))

    assume = []
    if known is not None:
        label = relabel(known, edges, blocks, private, free_pts)
        for r in range(R):
            tri = sorted(sorted(label[q] for q in t) for t in known[r] if len(t) == 3)
            for t, members in enumerate(tri):
                assume += [X(r, q, t) for q in members]
    with Solver(name=solver, bootstrap_with=cl) as s:
        t = time.process_time()
        ok = s.solve(assumptions=assume)
        dt = time.process_time() - t
        model = set(s.get_model() or ()) if ok else set()
    if not ok:
        return None, dt
    rounds = [[[q for q in range(n) if X(r, q, t) in model] for t in range(t3)] for r in range(R)]
    return [[blocks[r]] + rounds[r] for r in range(R)], dt


def solve_meetings(n, R, edges, solver="glucose4", known=None):
    """The second check: the same question, encoded independently of :func:`solve`.

    No numbered tables: a variable per round and pair says the two share a triple. Each
    player off the four has exactly two table-mates, and two of them are table-mates of
    each other, so the round is cut into triples. Over the rounds a pair meets at most
    once; a player twice at a four meets everyone (2R + 2 = n - 1); the others leave at
    most 2 - f players unmet. Returns (satisfiable, solver seconds); ``solver`` is any
    python-sat name (Glucose 4 by default, not CaDiCaL, so a solver bug cannot repeat).
    """
    triples(n, R)
    fours = layout(n, R, edges)
    if fours is None:
        return False, 0.0
    blocks, f, inblock, private, free_pts = fours
    pool = IDPool()
    cl = []

    def meet(r, a, c):
        return pool.id(("meet", r, min(a, c), max(a, c)))

    met = {}
    for r in range(R):
        seated = [q for q in range(n) if q not in blocks[r]]
        for a in seated:
            mates = [meet(r, a, c) for c in seated if c != a]
            cl += CardEnc.equals(mates, 2, vpool=pool, encoding=EncType.seqcounter).clauses
        for a, b, c in combinations(seated, 3):
            cl += [
                [-meet(r, a, b), -meet(r, a, c), meet(r, b, c)],
                [-meet(r, a, b), -meet(r, b, c), meet(r, a, c)],
                [-meet(r, a, c), -meet(r, b, c), meet(r, a, b)],
            ]
        for a, c in combinations(seated, 2):
            if (a, c) in inblock:
                cl.append([-meet(r, a, c)])  # met at their four already
            else:
                met.setdefault((a, c), []).append(meet(r, a, c))
    unmet = {}
    for a, c in combinations(range(n), 2):
        if (a, c) in inblock:
            continue
        rounds = met.get((a, c), [])
        cl += CardEnc.atmost(rounds, 1, vpool=pool, encoding=EncType.pairwise).clauses
        if f[a] == 2 or f[c] == 2:
            if not rounds:  # never both off a four, yet they must meet
                return False, 0.0
            cl.append(rounds)
        else:
            unmet[a, c] = pool.id(("unmet", a, c))
            cl.append([unmet[a, c]] + rounds)
    for a in range(n):
        if f[a] < 2:
            lits = [unmet[p] for p in unmet if a in p]
            cl += CardEnc.atmost(lits, 2 - f[a], vpool=pool).clauses
    assume = []
    if known is not None:  # a check of the encoding: fix that schedule's triples
        label = relabel(known, edges, blocks, private, free_pts)
        for r in range(R):
            for t in known[r]:
                if len(t) == 3:
                    a, b, c = sorted(label[q] for q in t)
                    assume += [meet(r, a, b), meet(r, a, c), meet(r, b, c)]
    with Solver(name=solver, bootstrap_with=cl) as s:
        t = time.process_time()
        ok = s.solve(assumptions=assume)
        return ok, time.process_time() - t


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("players", type=int)
    parser.add_argument("rounds", type=int)
    parser.add_argument("--from-edges", type=int, default=0, help="skip graphs with fewer edges")
    parser.add_argument("--solver", default="cadical153", help="python-sat solver for the triples")
    parser.add_argument(
        "--check",
        metavar="SOLVER",
        help="the second check: the meeting encoding on this python-sat solver (glucose4)",
    )
    args = parser.parse_args()
    n, R = args.players, args.rounds
    triples(n, R)
    total = 0
    cnt = 0
    for e in range(args.from_edges, 4 * R // 2 + 1):
        if 4 * R - e > n:
            continue
        gs = graphs(R, e)
        print("edges", e, "graphs", len(gs), flush=True)
        for g in gs:
            nv, edges = decode_g6(g)
            if args.check:
                ok, dt = solve_meetings(n, R, edges, args.check)
                sol = "satisfiable" if ok else None
            else:
                sol, dt = solve(n, R, edges, solver=args.solver)
                if sol:
                    check([[tuple(t) for t in r] for r in sol], (4,) + (3,) * triples(n, R))
            total += dt
            cnt += 1
            if cnt % 25 == 0:
                print(f"  {cnt} graphs, {total:.0f} s", flush=True)
            if sol:
                print("FOUND", edges, sol, flush=True)
                return
        print("  done e", e, "cum", round(total, 1), cnt, flush=True)
    print("NONE", round(total, 1))


if __name__ == "__main__":
    main()
