"""The double-dummy count of a duplicate board (scoring/duplicate/double_dummy.py): seconds for
one board's fifteen counts (three declarers × five denominations) on boards dealt from a seed.
The target: under 1 s of CPU a board (the job ``tournaments.duplicate_board_makeable`` counts
each board once).

    .venv/bin/python tests/bench/bench_double_dummy.py --boards 12

Not collected by pytest; docs/performance.md keeps the figures."""

from __future__ import annotations

import argparse
import os
import time

from scoring.duplicate.boards import generate_boards
from scoring.duplicate.double_dummy import makeable


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--boards", type=int, default=2)
    parser.add_argument("--seed", default="bench")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    worst = 0.0
    for board in generate_boards(args.seed, args.boards):
        wall, cpu = time.perf_counter(), time.process_time()
        makeable(board)
        spent = time.process_time() - cpu
        worst = max(worst, spent)
        print(f"board {board.number}: {time.perf_counter() - wall:.2f} s wall, {spent:.2f} s CPU")
    print(f"the most CPU a board: {worst:.2f} s")


if __name__ == "__main__":
    main()
