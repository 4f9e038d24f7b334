"""Benchmark: the table page's correction forms (issue 42) — every deal's "Correct" values the
phone keeps to correct offline — for long Russian pulkas at tables of three and four, the
family's way (the deals' dealers counted once) against the baseline of every family (each deal's
form made alone, :meth:`FamilyUI.correction_forms`: for the Russian game two scorings of the
pulka's beginning a deal) in the same run, and that both give the same forms.

Run: ``.venv/bin/python tests/bench/bench_correction_forms.py [--target 60] [--pulkas 5]``
(the pulka's target in points: a higher one plays more deals). Not collected by pytest.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournaments.settings.base")

import django  # noqa: E402

django.setup()

from scoring.russian.generate import random_protocol  # noqa: E402
from tournaments.variants import ADAPTERS, FamilyUI  # noqa: E402


def _cpu_ms(work, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        work()
        best = min(best, time.process_time() - t)
    return 1000 * best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", type=int, default=60)
    parser.add_argument("--pulkas", type=int, default=5)
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args()
    ui = ADAPTERS["russian"]
    rng = random.Random(args.seed)
    print("| players | deals | each deal alone (ms CPU) | dealers once (ms CPU) | ratio |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    for players in (3, 4):
        for _ in range(args.pulkas):
            protocol = random_protocol(rng, players=players, target=args.target)
            baseline = FamilyUI.correction_forms(ui, protocol)
            assert ui.correction_forms(protocol) == baseline, "the forms differ"
            before = _cpu_ms(lambda p=protocol: FamilyUI.correction_forms(ui, p))
            after = _cpu_ms(lambda p=protocol: ui.correction_forms(p))
            print(
                f"| {players} | {len(protocol.deals)} | {before:.1f} | {after:.1f} | "
                f"{after / before:.3f} |"
            )


if __name__ == "__main__":
    main()
