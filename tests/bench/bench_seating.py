"""Benchmark of the seating draw (issue 4): repeats, left neighbours, seat balance, time.

Run: ``.venv/bin/python tests/bench/bench_seating.py [--quick]`` (not a timed test).
Prints a Markdown table. Methods compared on the same sizes and seeds:

* ``random`` — the referees' draw (001 note 8), round by round;
* ``no_repeats`` — round by round, knowing nothing of the rounds to come;
* ``no_repeats+plan`` — round by round with ``rounds_total`` (plans the rest);
  every round-by-round method draws each round with its own seed, as the site does;
* ``schedule`` — all rounds at once (``draw_schedule``).

Columns: *repeats* = extra meetings (a pair meeting c times counts c − 1);
*left rep.* = repeated (player, left neighbour) pairs; *seat spread* = the
largest gap between a player's most and least used seat of 0–2;
*dealer spread* = max − min first deals per player; times in seconds.

``--teams`` instead prints the team draws of issue 40 (20 teams of three over 7 rounds, 50
over 9): the repeats, how often teammates sat together, the spread of the teams' meetings
(min–max and standard deviation of the meetings of each pair of teams, and the pairs that never
met) and the slowest round, for the random draw and ``no_repeats+plan`` with the teams, beside
``no_repeats+plan`` without them (the draw before teams).

``--grid LO HI`` instead prints, for every count of players from LO to HI and
every number of rounds from 2 up to the counting bound (a player meets at
least two new opponents a round; ``--max-rounds M`` stops at M), the repeats of ``draw_schedule`` and how
the engine settled it: ``K``/``NK`` (nearly) Kirkman triple system, ``R``
resolvable design of fours, ``Y`` cyclic schedule, ``S`` symmetric
schedule (:mod:`tournaments.seating.symmetric`), ``T``
tabu search, ``C`` CP-SAT found it, ``P`` proved that repeats cannot be
avoided (by CP-SAT in the draw, or offline: ``catalogue.NONE_EXISTS``),
``?`` neither: repeats are left and we do not know whether they are avoidable.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tournaments.seating import (  # noqa: E402
    Constraints,
    Entry,
    Method,
    PastTable,
    SeatingError,
    TablePolicy,
    draw_round,
    draw_schedule,
)
from tournaments.seating.sizes import table_sizes  # noqa: E402

SIZES = [(14, 4), (15, 7), (18, 8), (21, 10), (24, 11), (30, 6), (60, 9), (150, 9), (300, 9)]
QUICK = [(14, 4), (15, 7), (18, 8), (21, 10), (24, 11), (30, 6), (60, 9), (150, 9)]
METHODS = ["random", "no_repeats", "no_repeats+plan", "schedule"]


def run(n: int, rounds: int, method: str, seed: str) -> dict[str, float]:
    entries = [Entry(i) for i in range(n)]
    history: list[PastTable] = []
    tables: list[tuple[int, ...]] = []
    times: list[float] = []
    if method == "schedule":
        start = time.perf_counter()
        draws = draw_schedule(entries, rounds, seed=seed, policy=TablePolicy.MIXED)
        times.append(time.perf_counter() - start)
    else:
        draws = []
        for k in range(rounds):
            start = time.perf_counter()
            d = draw_round(
                entries,
                history,
                seed=f"{seed}/{k + 1}",  # as on the site: every round its own seed
                method=Method.RANDOM if method == "random" else Method.NO_REPEATS,
                rounds_total=rounds if method.endswith("+plan") else None,
            )
            times.append(time.perf_counter() - start)
            draws.append(d)
            history += [PastTable(d.round, t.seats, t.first_dealer) for t in d.tables]
    tables = [t.seats for d in draws for t in d.tables]
    pairs = Counter(frozenset(p) for t in tables for p in combinations(t, 2))
    left = Counter((t[i], t[(i + 1) % len(t)]) for t in tables for i in range(len(t)))
    seats: dict[int, Counter[int]] = {i: Counter() for i in range(n)}
    dealer: Counter[int] = Counter()
    for d in draws:
        for t in d.tables:
            for i, x in enumerate(t.seats):
                seats[x][i] += 1
            dealer[t.seats[t.first_dealer]] += 1
    return {
        "repeats": sum(c - 1 for c in pairs.values()),
        "left": sum(c - 1 for c in left.values()),
        "seat_spread": max(
            max(c[s] for s in range(3)) - min(c[s] for s in range(3)) for c in seats.values()
        ),
        "dealer_spread": max(dealer.get(i, 0) for i in range(n))
        - min(dealer.get(i, 0) for i in range(n)),
        "round_max": max(times) if method != "schedule" else times[0] / rounds,
        "total": sum(times),
    }


TEAM_SIZES = [(20, 3, 7), (50, 3, 9)]  #: teams, members, rounds


def run_teams(n_teams: int, size: int, rounds: int, method: str, seed: str) -> dict[str, float]:
    """One team event drawn round by round: ``method`` is ``random``, ``no_repeats+plan`` (with
    the teams) or ``without teams`` (``no_repeats+plan`` not told the teams)."""
    team = {t * size + i: t for t in range(n_teams) for i in range(size)}
    entries = [Entry(x) for x in team]
    constraints = (
        Constraints()
        if method == "without teams"
        else Constraints(teams={x: f"T{t:02d}" for x, t in team.items()})
    )
    history: list[PastTable] = []
    times = []
    for k in range(rounds):
        start = time.perf_counter()
        d = draw_round(
            entries,
            history,
            seed=f"{seed}/{k + 1}",
            method=Method.RANDOM if method == "random" else Method.NO_REPEATS,
            policy=TablePolicy.THREES,
            constraints=constraints,
            rounds_total=None if method == "random" else rounds,
        )
        times.append(time.perf_counter() - start)
        history += [PastTable(d.round, t.seats, t.first_dealer) for t in d.tables]
    pairs = Counter(frozenset(p) for t in history for p in combinations(t.seats, 2))
    met = Counter()
    mates = 0
    for pair, c in pairs.items():
        a, b = sorted(team[x] for x in pair)
        if a == b:
            mates += c
        else:
            met[(a, b)] += c
    counts = [met[(a, b)] for a in range(n_teams) for b in range(a + 1, n_teams)]
    return {
        "repeats": sum(c - 1 for c in pairs.values()),
        "teammates": mates,
        "min": min(counts),
        "max": max(counts),
        "sd": statistics.pstdev(counts),
        "never": sum(1 for c in counts if c == 0),
        "round_max": max(times),
    }


def teams_table(seed: str) -> None:
    print(
        "| teams × members × rounds | draw | repeats | teammates together | team meetings "
        "min–max | sd | pairs never met | slowest round |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for n_teams, size, rounds in TEAM_SIZES:
        for method in ("random", "no_repeats+plan", "without teams"):
            r = run_teams(n_teams, size, rounds, method, seed)
            print(
                f"| {n_teams} × {size} × {rounds} | {method} | {r['repeats']} | {r['teammates']} "
                f"| {r['min']}–{r['max']} | {r['sd']:.2f} | {r['never']} "
                f"| {r['round_max']:.3f} s |",
                flush=True,
            )


def how(construction: str, repeats: int = 0) -> str:
    if construction.startswith("nearly Kirkman"):
        return "NK"
    if construction.startswith("Kirkman"):
        return "K"
    if construction.startswith("resolvable design"):
        return "R"
    if construction.startswith("cyclic"):
        return "Y"
    if construction.startswith("symmetric"):
        return "S"
    if construction.startswith("schedule found offline"):
        return "O"
    if construction.startswith("CP-SAT found"):
        return "C"
    if "CP-SAT proved" in construction or "proved offline" in construction:
        return "P"
    return "?" if repeats or "CP-SAT" in construction else "T"


def grid(lo: int, hi: int, policy: TablePolicy, seed: str, most: int | None = None) -> None:
    print(f"policy {policy}: rounds → repeats + how (K NK R Y S O T C P ?), seconds where over 1 s")
    print("| players | tables 3/4 | rounds: result |")
    print("|---:|---|---|")
    for n in range(lo, hi + 1):
        try:
            sizes = table_sizes(n, policy)
        except SeatingError:
            continue
        bound = min((n - 1) // 2, n * (n - 1) // 2 // sum(k * (k - 1) // 2 for k in sizes))
        cells = []
        for rounds in range(2, min(bound, most or bound) + 1):
            start = time.perf_counter()
            draws = draw_schedule([Entry(i) for i in range(n)], rounds, seed=seed, policy=policy)
            took = time.perf_counter() - start
            pairs = Counter(
                frozenset(p) for d in draws for t in d.tables for p in combinations(t.seats, 2)
            )
            left = sum(c - 1 for c in pairs.values())
            cell = f"{rounds}: {left} {how(draws[0].parameters['construction'], left)}"
            cells.append(cell + (f" ({took:.0f} s)" if took >= 1 else ""))
        print(f"| {n} | {sizes.count(3)}/{sizes.count(4)} | {' · '.join(cells)} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip 300 × 9")
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--grid", nargs=2, type=int, metavar=("LO", "HI"))
    parser.add_argument("--policy", default="mixed", help="table policy for --grid")
    parser.add_argument(
        "--max-rounds", type=int, help="for --grid: stop at this many rounds, below the bound"
    )
    parser.add_argument("--teams", action="store_true", help="the team draws (issue 40)")
    args = parser.parse_args()
    if args.teams:
        teams_table(args.seed)
        return
    if args.grid:
        grid(*args.grid, TablePolicy(args.policy), args.seed, args.max_rounds)
        return
    print(
        "| players × rounds | method | repeats | left rep. | seat spread | dealer spread | max s/round | total s |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for n, rounds in QUICK if args.quick else SIZES:
        for method in METHODS:
            r = run(n, rounds, method, args.seed)
            per_round = f"{r['round_max']:.3f}" + (" (avg)" if method == "schedule" else "")
            print(
                f"| {n} × {rounds} | {method} | {r['repeats']} | {r['left']} | {r['seat_spread']} "
                f"| {r['dealer_spread']} | {per_round} | {r['total']:.2f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
