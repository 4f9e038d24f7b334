"""Search offline for schedules without a repeat, for tournaments/seating/catalogue.py.

    python tests/seating_catalogue/find_schedules.py 20x7 29x11 [--policy mixed] [--seeds 1-8]
        [--steps 20000000] [--seconds 600]
    python tests/seating_catalogue/find_schedules.py 38x16 --developed 16,2,6 [--budget 200]
    python tests/seating_catalogue/find_schedules.py 26x10 --developed 5,5,1 --bases 2
    python tests/seating_catalogue/find_schedules.py 23x9 --developed 3,6,5 --bases 3 --sat
    python tests/seating_catalogue/find_schedules.py 29x12 --developed 9,3,2 --bases 1 --invariant 1 --sat
    python tests/seating_catalogue/find_schedules.py --near-bound 41-100 --seconds 300
    python tests/seating_catalogue/find_schedules.py 76x25 --policy 4 --turned [--seeds 1-8] [--steps 20000000]
    python tests/seating_catalogue/find_schedules.py 92x28 --policy 4 --turned --sat
    python tests/seating_catalogue/find_schedules.py 92x29 --policy 4 --turned --sat --extra 1

Compiles ``find_schedule.c`` (the tabu search of :mod:`tournaments.seating.search`
over whole schedules, in C) with the system's ``cc``, runs it for each size
and seed in turn until one gives a schedule without a repeat, checks that
schedule here, and prints it as a catalogue entry with the seed and the
number of steps: the same seed and ``--steps`` at least that many give the
same schedule again. ``--seconds`` only stops a search early.

``--developed G,L,F`` instead asks CP-SAT for a base round over ``Z_G × L`` and
``F`` points ∞ (:func:`tournaments.seating.symmetric.developed_schedule`'s model,
seed 0) with a budget of deterministic time units far over what a draw may
spend; the entry records the units it took. ``--bases B`` develops B base
rounds together (round ``h · B + i`` is base round ``i`` shifted by ``h``).
``--sat`` decides the shape with CaDiCaL instead (``sat_developed.py``: the
same model plus what the count of pairs forces), with no budget: it prints
the schedule, or that the shape has none. ``--near-bound FIRST-LAST`` does
that for each count of players with a table of four, at the counting bound
(or one round under it), shape after shape for ``--seconds`` each.
``--invariant K`` (with ``--sat``) adds K rounds that ``G / 3`` shifts keep,
each shifted ``G / 3`` times (``G`` odd, a multiple of 3): 29 × 12 over
``Z_9 × 3`` and 2 ∞ has one base round and one such round.

``--turned --sat`` (fours only) decides the same shape with CaDiCaL for
``NxR``, over ``Z_R × 3`` with the ∞ left over (``sat_turned.py``): short of the
bound, some ∞ fixed and the rest moved round by the turn. ``--extra K`` takes
the base round over ``Z_(R-K) × 3`` and adds K rounds, each seated once, of
pairs the shifts of the base round leave (92 × 29: 28 shifts and one round).

``--turned`` (fours only, v ≡ 0 mod 4) runs the construction of
:func:`tournaments.seating.designs.turned_fours` (a base round over ``Z_g × 3``
and one, two or three ∞ that turning the levels keeps) from ``random.Random(seed)`` with
``--steps`` steps, seed after seed, where the budget of a draw is too small:
the entry records the seed and the steps it took, and that seed with at
least as many steps gives the same round again.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tournaments.seating.model import TablePolicy  # noqa: E402
from tournaments.seating.sizes import table_sizes  # noqa: E402
from tournaments.seating.symmetric import _check  # noqa: E402

SOURCE = Path(__file__).with_name("find_schedule.c")


def compiled(workdir: Path) -> Path:
    binary = workdir / "find_schedule"
    subprocess.run(["cc", "-O2", "-o", str(binary), str(SOURCE)], check=True)
    return binary


def check(rounds: list[list[tuple[int, ...]]], sizes: tuple[int, ...]) -> None:
    """Every round seats each player once at tables of ``sizes``; no pair meets twice."""
    if any(sorted(map(len, tables)) != sorted(sizes) for tables in rounds):
        raise AssertionError("a round has other table sizes")
    _check(rounds, sum(sizes))


def search(binary: Path, sizes: tuple[int, ...], rounds: int, seed: int, steps: int, seconds: int):
    arguments = [str(sum(sizes)), str(rounds), ",".join(map(str, sizes)), str(seed), str(steps)]
    done = subprocess.run(
        [str(binary), *arguments, "10", str(seconds)], capture_output=True, text=True
    )
    head, *lines = done.stdout.strip().splitlines()
    cost, taken = map(int, re.fullmatch(r"cost (\d+) steps (\d+)", head).groups())
    tables = [
        [tuple(map(int, t.split(","))) for t in re.findall(r"\(([\d,]+)\)", line)] for line in lines
    ]
    return cost, taken, tables


def developed(
    sizes: tuple[int, ...],
    rounds: int,
    shape: str,
    budget: float,
    bases: int = 1,
    sat=False,
    invariant: int = 0,
    extra: int = 0,
) -> None:
    g, levels, fixed = map(int, shape.split(","))
    if extra and not sat:
        raise SystemExit("--extra needs --sat")
    if sat:
        from sat_developed import decide

        found, took = decide(sizes, g, levels, fixed, bases, invariant=invariant, extra=extra)
        how = f"CaDiCaL 1.9.5, {took:.1f} s of CPU"
        verdict = "none exists" if found is None else "found"
    else:
        from ortools import __version__ as ortools

        from tournaments.seating.symmetric import _developed

        found, took = _developed(sizes, g, levels, fixed, budget, 0, bases)
        how = f"OR-Tools {ortools.rsplit('.', 1)[0]} CP-SAT, seed 0, {took:.1f} units"
        verdict = "found" if found is not None else "none found within the budget"
    shape = label(g, levels, fixed, bases, invariant) + (
        f", {extra} round(s) more" if extra else ""
    )
    print(f"# {sum(sizes)} x {rounds} {sizes}: {shape}: {how}, {verdict}")
    if found is not None:
        # the base rounds, then each kept round (its first of g / 3 shifts), then the extra ones
        lines = stored_lines(found, g, bases, invariant) + found[len(found) - extra :]
        found = found[:rounds]
        check(found, sizes)
        record = cyclic(g, levels, fixed, bases, how, invariant, extra)
        more = (invariant, extra) if extra else (invariant,) if invariant else ()
        entry(sizes, record, lines, (g, levels, fixed) + more)


def turned(sizes: tuple[int, ...], seeds: range, steps: int) -> None:
    """A design of fours from :func:`.designs.turned_fours`, as a catalogue entry."""
    import random
    import time

    from tournaments.seating.designs import design_name
    from tournaments.seating.differences import _develop
    from tournaments.seating.fours import turned_fours

    v = sum(sizes)
    g = (v - 1) // 3
    infinities = v - 3 * g
    if set(sizes) != {4} or v < 16:
        raise SystemExit(f"{v} players: --turned needs tables of four only")
    for seed in seeds:
        start = time.process_time()
        base, spent = turned_fours(v, random.Random(seed), steps)
        took = time.process_time() - start
        print(f"# {v} x {g} {sizes}: seed {seed}, {spent:,} steps, {took:.1f} s of CPU", flush=True)
        if base is not None:
            rounds = _develop([base], g, 3)
            check(rounds, sizes)
            line = [
                tuple(sorted(x + g * lv if lv >= 0 else 3 * g + x for x, lv in t)) for t in base
            ]
            how = (
                f"{design_name(v, 4)} (a base round that turning the levels keeps, over "
                f"Z_{g} × 3 and {infinities} ∞), designs.turned_fours, seed {seed}, {spent:,} steps, "
                f"{took:.0f} s of CPU"
            )
            entry(sizes, how, [line], (g, 3, infinities))
            return


def turned_sat(sizes: tuple[int, ...], rounds: int, extra: int = 0) -> None:
    """A turned base round over ``Z_g × 3`` (``g = rounds - extra``) and the ∞ left over, and
    ``extra`` rounds more of the pairs it leaves, by CaDiCaL (``sat_turned.py``)."""
    from sat_turned import decide, shape

    v = sum(sizes)
    g = rounds - extra
    found = shape(v, g)
    if set(sizes) != {4} or found is None:
        raise SystemExit(f"{v} x {rounds}: no turned shape of fours over Z_{g} × 3")
    mu, fixed, moved = found
    stored, took = decide(v, g, extra=extra)
    print(
        f"# {v} x {rounds} {sizes}: Z_{g} × 3, μ = {mu}, {fixed} ∞ fixed, {moved} moved round, "
        f"{extra} round(s) more: CaDiCaL 1.9.5, {took:.1f} s of CPU, "
        f"{'none exists' if stored is None else 'found'}",
        flush=True,
    )
    if stored is not None:
        more = f", and {extra} round{'s' * (extra > 1)} of the pairs its shifts leave"
        more = more if extra else ""
        how = (
            f"cyclic schedule (a base round that turning the levels keeps, over Z_{g} × 3 and "
            f"{v - 3 * g} ∞{more}), CaDiCaL 1.9.5, {took:.1f} s of CPU"
        )
        entry(sizes, how, stored, (g, 3, v - 3 * g) + ((0, extra) if extra else ()))


def label(g: int, levels: int, fixed: int, bases: int, kept: int) -> str:
    """A developed shape, for the lines printed as the search goes."""
    shape = f"{bases} base(s), Z_{g} x {levels} + {fixed}"
    return shape + (f", {kept} kept by {g // 3} shifts" if kept else "")


def stored_lines(schedule, g: int, bases: int, kept: int):
    """What the catalogue stores of a developed schedule: its base rounds, then each kept
    round as first seated (the rounds ``sat_developed.decide`` puts after the ``g · bases``)."""
    return schedule[:bases] + schedule[bases * g :: g // 3 or 1][:kept]


def cyclic(
    g: int, levels: int, fixed: int, bases: int, how: str, invariant: int = 0, extra: int = 0
) -> str:
    """The record of a developed schedule: its shape and how it was found."""
    ring = f"Z_{g} × {levels}" + (f" and {fixed} ∞" if fixed else "")
    if extra:
        ring += f", and {extra} round{'s' * (extra > 1)} of the pairs its shifts leave"
    if bases == 1 and invariant == 1:
        ring = f"a base round and one that {g // 3} shifts keep, over {ring}"
    elif bases > 1 or invariant:
        kept = f" and {invariant} that {g // 3} shifts keep" if invariant else ""
        ring = f"{bases} base rounds{kept} over {ring}"
    return f"cyclic schedule ({ring}), {how}"


def _decided(queue, sizes, g, levels, fixed, bases, kept) -> None:
    from sat_developed import decide

    found, took = decide(sizes, g, levels, fixed, bases, invariant=kept)
    if found is not None:  # the base rounds, then each kept round's first shift
        found = stored_lines(found, g, bases, kept)
    queue.put((found, took))


def near_bound(first: int, last: int, seconds: int, policy: TablePolicy) -> None:
    """For each count with a table of four: a developed schedule at the counting bound by SAT.

    The shapes whose count of pairs fits (``g · B`` rounds, ``B ≤ 6``; or ``g · B + K · g / 3``
    with ``K`` rounds that ``g / 3`` shifts keep, ``g`` odd, a multiple of 3, an ∞ a four),
    fewest base rounds and fewest differences left over first, each for at most ``seconds``
    (wall time, in a child process); one round under the bound if none answers. Prints each
    attempt and the catalogue entry of the first found.
    """
    import multiprocessing

    from sat_developed import uncovered_differences

    for n in range(first, last + 1):
        sizes = tuple(sorted(table_sizes(n, policy)))
        if 4 not in sizes:
            continue
        pairs = sum(k * (k - 1) // 2 for k in sizes)
        bound = min((n - 1) // 2, n * (n - 1) // 2 // pairs)
        for rounds in (bound, bound - 1):
            shapes = sorted(
                (bases + kept, left, fixed, g, (n - fixed) // g, bases, kept)
                for g in range(2, rounds + 1)
                for kept in range(7 if g % 6 == 3 else 1)
                for bases in [(rounds - kept * (g // 3)) // g]
                if bases * g + kept * (g // 3) == rounds and bases + kept <= 6
                for fixed in ([sizes.count(4)] if kept else range(len(sizes) + 1))
                if (n - fixed) % g == 0 and n > fixed
                for left in [uncovered_differences(sizes, g, (n - fixed) // g, fixed, rounds)]
                if left is not None
            )
            found = None
            for _, _, fixed, g, levels, bases, kept in shapes:
                queue = multiprocessing.Queue()
                child = multiprocessing.Process(
                    target=_decided, args=(queue, sizes, g, levels, fixed, bases, kept)
                )
                child.start()
                child.join(seconds)
                shape = f"{n} x {rounds}: {label(g, levels, fixed, bases, kept)}"
                if child.is_alive():
                    child.terminate()
                    print(f"# {shape}: no answer in {seconds} s", flush=True)
                    continue
                found, took = queue.get()
                print(f"# {shape}: {'found' if found else 'none exists'}, {took:.1f} s", flush=True)
                if found:
                    how = f"CaDiCaL 1.9.5, {took:.1f} s of CPU"
                    how = cyclic(g, levels, fixed, bases, how, kept)
                    entry(sizes, how, found, (g, levels, fixed) + ((kept,) if kept else ()))
                    break
            if found:
                break


def entry(sizes: tuple[int, ...], how: str, tables, shape=None) -> None:
    """An entry of ``catalogue.CATALOGUE``, or with ``shape`` (its base rounds) of ``DEVELOPED``."""
    print(f'    {sizes}: (\n        "{how}",')
    if shape is not None:
        print(f"        {shape},")
    print('        """')
    for line in tables:
        print("        " + " ".join(",".join(map(str, t)) for t in line))
    print('        """,\n    ),', flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cells", nargs="*", help="PLAYERSxROUNDS, e.g. 20x7")
    parser.add_argument("--policy", default="mixed", choices=[p.value for p in TablePolicy])
    parser.add_argument("--seeds", default="1-8", help="a range FIRST-LAST")
    parser.add_argument("--steps", type=int, default=20_000_000)
    parser.add_argument("--seconds", type=int, default=600, help="per seed")
    parser.add_argument("--developed", metavar="G,L,F", help="a developed base round instead")
    parser.add_argument("--budget", type=float, default=200.0, help="CP-SAT units (--developed)")
    parser.add_argument("--bases", type=int, default=1, help="base rounds (--developed)")
    parser.add_argument(
        "--sat", action="store_true", help="decide the shape by SAT (--developed, --turned)"
    )
    parser.add_argument(
        "--invariant", type=int, default=0, help="rounds more that the shift keeps (--sat, Z_3)"
    )
    parser.add_argument(
        "--extra", type=int, default=0, help="rounds more, seated once each (--sat)"
    )
    parser.add_argument(
        "--near-bound", metavar="FIRST-LAST", help="developed schedules at the bound, by SAT"
    )
    parser.add_argument(
        "--turned", action="store_true", help="designs.turned_fours (fours, v ≡ 0 mod 4)"
    )
    options = parser.parse_args()
    if options.near_bound:
        first, last = map(int, options.near_bound.split("-"))
        near_bound(first, last, options.seconds, TablePolicy(options.policy))
        return
    if options.turned and options.sat:
        for cell in options.cells:
            n, rounds = map(int, cell.split("x"))
            sizes = tuple(sorted(table_sizes(n, TablePolicy(options.policy))))
            turned_sat(sizes, rounds, options.extra)
        return
    if options.turned:
        first, last = map(int, options.seeds.split("-"))
        for cell in options.cells:
            n = int(cell.split("x")[0])
            sizes = tuple(sorted(table_sizes(n, TablePolicy(options.policy))))
            turned(sizes, range(first, last + 1), options.steps)
        return
    if options.developed:
        for cell in options.cells:
            n, rounds = map(int, cell.split("x"))
            sizes = tuple(sorted(table_sizes(n, TablePolicy(options.policy))))
            developed(
                sizes,
                rounds,
                options.developed,
                options.budget,
                options.bases,
                options.sat,
                options.invariant,
                options.extra,
            )
        return
    first, last = map(int, options.seeds.split("-"))
    with tempfile.TemporaryDirectory() as workdir:
        binary = compiled(Path(workdir))
        for cell in options.cells:
            n, rounds = map(int, cell.split("x"))
            sizes = tuple(sorted(table_sizes(n, TablePolicy(options.policy))))
            for seed in range(first, last + 1):
                cost, taken, tables = search(
                    binary, sizes, rounds, seed, options.steps, options.seconds
                )
                print(
                    f"# {n} x {rounds} {sizes}: seed {seed}, {taken} steps, cost {cost}", flush=True
                )
                if cost == 0:
                    check(tables, sizes)
                    entry(sizes, f"tabu search, seed {seed}, {taken:,} steps", tables)
                    break


if __name__ == "__main__":
    main()
