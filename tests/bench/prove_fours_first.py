"""Experimental (not yet a proof Pulka relies on): one table of four a round, fours first.

    python tests/bench/prove_fours_first.py 19 8      # needs nauty-geng (Debian: nauty)

For sizes with one four a round at the counting bound, where a player can sit at a
four at most twice (n - 1 - 2R = 2: 19 × 8, 31 × 14): two fours share at most one
player, so the fours form a graph H on the rounds (an edge is a player at two
fours), with at most 4 edges at a vertex. nauty-geng lists every H up to
isomorphism; for each, CaDiCaL seats the triples: a pair with a player twice at a
four meets exactly once, the others leave at most 2 - f pairs never met.
19 × 8: 486 graphs, all unsatisfiable (about 1,200 s of one core, 2026-11-22).
The tests check the encoding against 13 × 5 (refuted) and the known 25 × 11
cyclic schedule (its own H, the schedule fixed: satisfiable). Before this goes
into catalogue.NONE_EXISTS it needs review and a second check.
"""

import subprocess
import sys
import time
from itertools import combinations
from pathlib import Path

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Cadical153

sys.path.insert(0, str(Path(__file__).resolve().parent))

from find_schedules import check  # noqa: E402


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


def solve(n, R, edges, known=None):
    """The rounds whose fours are the graph ``edges`` (or ``None``) and the solver's seconds.

    Points: one per edge (at two fours), then each four's own, then those never at a four.
    ``known``: a schedule with that graph of fours, fixed as assumptions (a check of the
    encoding).
    """
    t3 = triples(n, R)
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
        return None, 0.0
    free_pts = list(range(p, n))
    f = [0] * n
    for b in blocks:
        for q in b:
            f[q] += 1
    inblock = set()
    for b in blocks:
        for a, c in combinations(sorted(b), 2):
            inblock.add((a, c))
    pool = IDPool()
    cl = []

    def X(r, q, t):
        return pool.id(("x", r, q, t))

    def M(r, a, c):
        return pool.id(("m", r, a, c))

    for r in range(R):
        others = [q for q in range(n) if q not in blocks[r]]
        for q in others:
            cl += CardEnc.equals([X(r, q, t) for t in range(t3)], 1, vpool=pool).clauses
        for t in range(t3):
            cl += CardEnc.equals(
                [X(r, q, t) for q in others], 3, vpool=pool, encoding=EncType.seqcounter
            ).clauses
            if t + 1 < t3:
                for i, q in enumerate(others):
                    cl.append([-X(r, q, t + 1)] + [X(r, q2, t) for q2 in others[:i]])
    for a, c in combinations(range(n), 2):
        rounds_ok = [r for r in range(R) if a not in blocks[r] and c not in blocks[r]]
        if (a, c) in inblock:
            for r in rounds_ok:
                for t in range(t3):
                    cl.append([-X(r, a, t), -X(r, c, t)])
            continue
        ms = []
        for r in rounds_ok:
            ss = []
            for t in range(t3):
                s = pool.id(("s", r, a, c, t))
                ss.append(s)
                cl += [[-X(r, a, t), -X(r, c, t), M(r, a, c)], [-s, X(r, a, t)], [-s, X(r, c, t)]]
            cl.append([-M(r, a, c)] + ss)
            ms.append(M(r, a, c))
        for u, v in combinations(ms, 2):
            cl.append([-u, -v])
        if f[a] == 2 or f[c] == 2:  # degree 0 in the leave: must meet
            cl.append(ms)
        else:
            never = pool.id(("u", a, c))
            cl.append([never] + ms)
    # leave degree of each point = 2 - f
    for a in range(n):
        if f[a] == 2:
            continue
        lits = [
            pool.id(("u", min(a, c), max(a, c)))
            for c in range(n)
            if c != a and f[c] < 2 and (min(a, c), max(a, c)) not in inblock
        ]
        cl += CardEnc.atmost(lits, 2 - f[a], vpool=pool).clauses
    s = Cadical153(bootstrap_with=cl)
    assume = []
    if known is not None:
        fours = [set([t for t in r if len(t) == 4][0]) for r in known]
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
            tri = sorted(sorted(label[q] for q in t) for t in known[r] if len(t) == 3)
            for t, members in enumerate(tri):
                for q in members:
                    assume.append(X(r, q, t))
    t = time.process_time()
    ok = s.solve(assumptions=assume)
    dt = time.process_time() - t
    sol = None
    if ok:
        mod = set(v for v in s.get_model() if v > 0)
        sol = [
            [blocks[r]] + [[q for q in range(n) if X(r, q, t) in mod] for t in range(t3)]
            for r in range(R)
        ]
    s.delete()
    return sol, dt


def main():
    n, R = int(sys.argv[1]), int(sys.argv[2])
    triples(n, R)
    total = 0
    cnt = 0
    for e in range(int(sys.argv[3]) if len(sys.argv) > 3 else 0, 4 * R // 2 + 1):
        if 4 * R - e > n:
            continue
        gs = graphs(R, e)
        print("edges", e, "graphs", len(gs), flush=True)
        for g in gs:
            nv, edges = decode_g6(g)
            sol, dt = solve(n, R, edges)
            total += dt
            cnt += 1
            if sol:
                check([[tuple(t) for t in r] for r in sol], (4,) + (3,) * triples(n, R))
                print("FOUND", edges, sol, flush=True)
                return
        print("  done e", e, "cum", round(total, 1), cnt, flush=True)
    print("NONE", round(total, 1))


if __name__ == "__main__":
    main()
