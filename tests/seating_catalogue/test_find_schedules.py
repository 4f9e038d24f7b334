"""The offline search behind the catalogue's designs of fours (find_schedules.py --turned, --extra)."""

from __future__ import annotations

import re

import pytest
from find_schedules import developed as developed_entry
from find_schedules import turned, turned_sat

from tournaments.seating.catalogue import _rounds, developed
from tournaments.seating.fours import four_design


def test_turned_prints_the_entry_the_draw_would_build(capsys):
    """Seed 52 is the draw's own: the entry printed for 52 players is four_design(52)."""
    turned((4,) * 13, range(52, 53), 100_000)
    out = capsys.readouterr().out
    how = re.search(r'"(resolvable design of fours[^"]+)"', out)[1]
    assert "over Z_17 × 3 and 1 ∞" in how and "seed 52, 61,792 steps" in how
    assert "(17, 3, 1)," in out
    (base,) = _rounds(out.split('"""')[1])
    assert [list(r) for r in developed([base], 17, 3)] == four_design(52)


def test_turned_says_which_seeds_ran_out_of_steps(capsys):
    turned((4,) * 13, range(52, 54), 1_000)
    out = capsys.readouterr().out
    runs = re.findall(r"seed (\d+), ([\d,]+) steps", out)
    assert [seed for seed, _ in runs] == ["52", "53"]
    assert all(int(steps.replace(",", "")) > 1_000 for _, steps in runs)  # backing out counts too
    assert '"""' not in out


def test_turned_prints_the_entry_of_48_the_draw_would_build(capsys):
    """Three ∞ (v ≡ 0 mod 12): the record says so, and every player misses two others."""
    turned((4,) * 12, range(48, 49), 100_000)
    out = capsys.readouterr().out
    how = re.search(r'"(resolvable design of fours[^"]+)"', out)[1]
    assert how.startswith("resolvable design of fours, every player missing two others (")
    assert "over Z_15 × 3 and 3 ∞" in how and "seed 48, 44,140 steps" in how
    (base,) = _rounds(out.split('"""')[1])
    assert [list(r) for r in developed([base], 15, 3)] == four_design(48)


def test_turned_needs_tables_of_four():
    with pytest.raises(SystemExit, match="41 players"):
        turned((3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4), range(1, 2), 1_000)


def test_extra_rounds_are_stored_after_the_base_round_and_read_back(capsys):
    """28 × 9 at fours: the entry holds the base round and the round more, shape (8, 3, 4, 0, 1);
    the catalogue reads it back as 8 shifts and that round (sat_developed and sat_turned)."""
    for find in (
        lambda: developed_entry((4,) * 7, 9, "8,3,4", 0, sat=True, extra=1),
        lambda: turned_sat((4,) * 7, 9, extra=1),
    ):
        find()
        out = capsys.readouterr().out
        assert "(8, 3, 4, 0, 1)," in out and "and 1 round of the pairs its shifts leave)" in out
        base, more = _rounds(out.split('"""')[1])
        schedule = [*developed([base], 8, 3), more]
        assert len(schedule) == 9
        assert all(sorted(p for t in r for p in t) == list(range(28)) for r in schedule)
        pairs = [(a, b) for r in schedule for t in r for i, a in enumerate(t) for b in t[i + 1 :]]
        assert len(pairs) == len(set(pairs)) == 28 * 27 // 2  # every pair exactly once
