"""Benchmark: score and check 10,000 generated pulkas; deals per second and peak memory.

Run: ``.venv/bin/python tests/bench/bench_scoring.py [--pulkas N] [--convention sochi]
[--players 3] [--target 20] [--seed 1] [--repeat 1]``; ``--repeat N`` times each
measurement N times and reports the best (least disturbed) run. Not collected by pytest (no ``test_`` name);
the issue's target is at least 100,000 deals/s on one core.
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from scoring import Protocol, Sheet, check, score  # noqa: E402
from scoring.generate import random_protocol  # noqa: E402


def _sheet(p: Protocol) -> Sheet:
    s = score(p)
    return Sheet(tuple(s.row(i) for i in range(len(p.deals))), s.final_row(), s.settlement.totals)


def _timed(label: str, deals: int, work: Callable[[], str], repeat: int = 1) -> None:
    best_wall = best_cpu = float("inf")
    note = ""
    for _ in range(max(1, repeat)):
        wall, cpu = time.perf_counter(), time.process_time()
        note = work()
        best_wall = min(best_wall, time.perf_counter() - wall)
        best_cpu = min(best_cpu, time.process_time() - cpu)
    wall, cpu = best_wall, best_cpu
    print(
        f"{label:15} wall {wall:6.2f} s {deals / wall:10,.0f} deals/s | "
        f"cpu {cpu:6.2f} s {deals / cpu:10,.0f} deals/s {note}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pulkas", type=int, default=10_000)
    parser.add_argument("--convention", default="sochi")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--target", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=1, help="best of N runs per measurement")
    args = parser.parse_args()

    started = time.perf_counter()
    rng = random.Random(args.seed)
    protocols = [
        random_protocol(rng, convention=args.convention, players=args.players, target=args.target)
        for _ in range(args.pulkas)
    ]
    deals = sum(len(p.deals) for p in protocols)
    print(
        f"generated {args.pulkas} pulkas ({args.convention}, {args.players} players, "
        f"to {args.target}), {deals} deals in {time.perf_counter() - started:.2f} s"
    )

    _timed("score", deals, lambda: [score(p) for p in protocols] and "", args.repeat)
    _timed(
        "score+check",
        deals,
        lambda: f"({sum(not check(p).ok for p in protocols)} with errors)",
        args.repeat,
    )
    sheets = [_sheet(p) for p in protocols]

    def check_with_sheets() -> str:
        found = sum(len(check(p, s).findings) for p, s in zip(protocols, sheets, strict=True))
        return f"({found} findings)"

    _timed("check w/ sheet", deals, check_with_sheets, args.repeat)

    tracemalloc.start()
    for p in protocols[:1000]:
        check(p)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"peak traced memory while checking 1,000 pulkas one by one: {peak / 1024:.0f} KiB")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(
        f"peak RSS of the process (all {args.pulkas} protocols and sheets held): "
        f"{rss / 1024:.0f} MiB"
    )


if __name__ == "__main__":
    main()
