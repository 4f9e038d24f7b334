"""How many tables of three and of four for ``n`` players.

Every count but 1, 2 and 5 splits into threes and fours (3a + 4b = n).

>>> table_sizes(10, TablePolicy.MIXED)
(3, 3, 4)
>>> table_sizes(10, TablePolicy.MIXED_PREFER_FOURS)
(3, 3, 4)
>>> table_sizes(12, TablePolicy.MIXED_PREFER_FOURS)
(4, 4, 4)
>>> table_sizes(5, TablePolicy.MIXED)
Traceback (most recent call last):
...
tournaments.seating.model.TableCountError: 5 players cannot be split into tables of 3 and 4 (every count but 1, 2 and 5 can)
"""

from __future__ import annotations

from .model import TableCountError, TablePolicy, gettext_noop

__all__ = ["table_sizes"]


def table_sizes(n: int, policy: TablePolicy) -> tuple[int, ...]:
    """Table sizes in table-number order: tables of three first, then fours.

    :raises TableCountError: the count does not split under ``policy``.
    """
    if policy in (TablePolicy.THREES,):
        if n < 3 or n % 3:
            raise TableCountError(
                f"{n} players cannot sit at tables of 3 only (need a multiple of 3); "
                "use the mixed 3/4 table policy",
                gettext_noop(
                    "%(n)s players cannot sit at tables of 3 only (a multiple of 3 is needed); "
                    "choose tables of 3 and 4."
                ),
                {"n": n},
            )
        return (3,) * (n // 3)
    if policy in (TablePolicy.FOURS, TablePolicy.PARTNERSHIPS):
        if n < 4 or n % 4:
            what = (
                "Priffe partnerships" if policy is TablePolicy.PARTNERSHIPS else "tables of 4 only"
            )
            raise TableCountError(
                f"{n} players cannot sit at {what} (need a multiple of 4, seed 004 / 001 §3.2.10)",
                gettext_noop(
                    "%(n)s players cannot sit in partnerships of two at tables of four (a "
                    "multiple of 4 is needed)."
                )
                if policy is TablePolicy.PARTNERSHIPS
                else gettext_noop(
                    "%(n)s players cannot sit at tables of 4 only (a multiple of 4 is needed)."
                ),
                {"n": n},
            )
        return (4,) * (n // 4)
    if n < 3 or n == 5:
        raise TableCountError(
            f"{n} players cannot be split into tables of 3 and 4 (every count but 1, 2 and 5 can)",
            gettext_noop(
                "%(n)s players cannot be split into tables of 3 and 4 (every count but 1, 2 and "
                "5 can)."
            ),
            {"n": n},
        )
    if policy is TablePolicy.MIXED:
        fours = n % 3  # 4b ≡ b (mod 3): the fewest fours
    else:
        fours = (n - 3 * ((-n) % 4)) // 4  # the fewest threes
    threes = (n - 4 * fours) // 3
    return (3,) * threes + (4,) * fours
