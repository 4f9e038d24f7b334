"""Benchmark: score and check 10,000 generated pulkas; deals per second and peak memory.

Run: ``.venv/bin/python tests/bench/bench_scoring.py [--pulkas N] [--convention sochi]
[--players 3] [--target 20] [--seed 1] [--repeat 1]``; ``--repeat N`` times each
measurement N times and reports the best (least disturbed) run. Not collected by pytest (no ``test_`` name);
the issue's target is at least 100,000 deals/s on one core.

``--families [N]`` measures every registered family instead, through the variant registry
(:mod:`scoring.variants`): N generated games of each family's conventions, scored and then scored
and checked, in deals per second and as a ratio to Russian (Sochi) measured in the same run.

``--priffe-generate`` times the Priffe generator on games of growing length (the simpler variant,
a fixed number of deals): linear generation keeps the deals per second level as games grow.
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

from scoring.russian import Protocol, Sheet, check, score  # noqa: E402
from scoring.russian.generate import random_protocol  # noqa: E402


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
    parser.add_argument(
        "--families",
        type=int,
        nargs="?",
        const=300,
        default=0,
        help="measure every registered family through the registry, N games each (300)",
    )
    parser.add_argument(
        "--priffe-generate",
        action="store_true",
        help="the Priffe generator's deals per second on games of 100 to 10,000 deals",
    )
    args = parser.parse_args()
    if args.priffe_generate:
        priffe_generation(args.seed, args.repeat)
        return
    if args.families:
        families(args.families, args.seed, args.repeat)
        return

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


#: The conventions each family's row measures, and the table size and game size they use.
FAMILY_RUNS: dict[str, tuple[tuple[str, int, int], ...]] = {
    "russian": (("sochi", 3, 20),),
    "balkan": (("croatian", 3, 50), ("serbian", 3, 60), ("slovenian", 3, 50)),
    "pot": (("viennese", 3, 10), ("viennese", 4, 10), ("german", 3, 10)),
    "priffe": (("modern", 4, 3), ("old", 4, 3)),
}


def _rate(deals: int, work: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(max(1, repeat)):
        cpu = time.process_time()
        work()
        best = min(best, time.process_time() - cpu)
    return deals / best if best else float("inf")


def families(games: int, seed: int, repeat: int) -> None:
    """Deals per second of every family, and the ratio to Russian in the same run."""
    from scoring.variants import VARIANTS

    rows = []
    for key, variant in VARIANTS.items():
        runs = FAMILY_RUNS.get(key, ((variant.family.default_convention, 3, 0),))
        rng = random.Random(seed)
        started = time.perf_counter()
        protocols = [
            variant.random_protocol(rng, convention=conv, players=n, target=size or None)
            for conv, n, size in runs
            for _ in range(max(1, games // len(runs)))
        ]
        made = time.perf_counter() - started
        deals = sum(len(p.deals) for p in protocols)
        scored = _rate(deals, lambda v=variant, ps=protocols: [v.score(p) for p in ps], repeat)
        checked = _rate(deals, lambda v=variant, ps=protocols: [v.check(p) for p in ps], repeat)
        errors = sum(not variant.check(p).ok for p in protocols)
        rows.append((key, len(protocols), deals, made, scored, checked, errors))
    base = {r[0]: r for r in rows}["russian"]
    print(f"{'family':8} {'games':>6} {'deals':>8} {'score deals/s':>14} {'ratio':>6} "
          f"{'check deals/s':>14} {'ratio':>6}  generated in, errors")  # fmt: skip
    for key, n, deals, made, scored, checked, errors in rows:
        print(
            f"{key:8} {n:6} {deals:8} {scored:14,.0f} {scored / base[4]:6.2f} "
            f"{checked:14,.0f} {checked / base[5]:6.2f}  {made:.1f} s, {errors} with errors"
        )


def priffe_generation(seed: int, repeat: int) -> None:
    """Deals per second of :func:`scoring.priffe.generate.random_protocol` for one game of
    100, 1,000 and 10,000 deals (``play=deals``): level when generation is linear."""
    from scoring.priffe.generate import random_protocol as priffe_protocol

    print(f"{'deals per game':>14} {'games':>6} {'generated deals/s':>18}")
    for length in (100, 1_000, 10_000):
        games = max(1, 10_000 // length)
        made: list[int] = []

        def work(n: int = length, k: int = games, out: list[int] = made) -> None:
            rng = random.Random(seed)
            out[:] = [
                len(priffe_protocol(rng, target=n, options=(("play", "deals"),), cut=False).deals)
                for _ in range(k)
            ]

        work()
        print(f"{length:14,} {games:6} {_rate(sum(made), work, repeat):18,.0f}")


if __name__ == "__main__":
    main()
