"""Round scores: what one round at one table is worth in the standings.

The default is the result in whists (001 §4.1.3). An organiser can choose another round score;
each is a small pure function of one table's results (so place points can see the table):

``whists``       the result as settled (default);
``capped``       the result limited to ±``cap`` whists (one wild pulka cannot decide an event);
``scaled``       the result × ``factor`` (e.g. 1/10 to publish tens of whists);
``normalised``   the result × 2 / (n − 1): at a table of four each player meets three opponents
                 instead of two, so his result is scaled to a table of three;
``place_points`` points by place at the table: ``points_3`` (default 2, 1, 0) at a table of
                 three, ``points_4`` (default 3, 2, 1, 0; with ``four="scaled"`` the table of
                 four is put on the scale of three: 2, 4/3, 2/3, 0). Players who share a place
                 share the points of the places they cover equally (two tied for first at a
                 table of three get (2 + 1) / 2 = 1.5 each).

A round sat out (tables of four, the event's ``fours_remainder``) is worth the event's stated
``sit_out_score``, a result in the table's unit: the whist-like scores add it to the total as
it stands (:meth:`RoundScore.sit_out`). Place points rank a player against his table, and a
player who sat out had no table, so the stated score cannot be placed; his round is worth the
average place at a table of four — the points the table would share if all four tied (3, 2,
1, 0 → 1.5; scaled → 1). That is what a stated score of 0 (the default) means in whists, since
a table's results sum to zero: neither a win nor a loss, so sitting out neither lifts a player
above those who played nor drops him below them. The stated score still counts in the
``whists`` tie-break.

>>> from fractions import Fraction as F
>>> place_points([F(30), F(30), F(-60)])
(Fraction(3, 2), Fraction(3, 2), Fraction(0, 1))
>>> place_points([F(10), F(5), F(0), F(-15)], four="scaled")
(Fraction(2, 1), Fraction(4, 3), Fraction(2, 3), Fraction(0, 1))
>>> capped([F(250), F(-40), F(-210)], cap=200)
(Fraction(200, 1), Fraction(-40, 1), Fraction(-200, 1))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .errors import StandingsConfigError, gettext_noop

__all__ = [
    "ROUND_SCORES",
    "RoundScore",
    "capped",
    "scaled",
    "normalised",
    "place_points",
    "whists",
    "round_score",
    "round_score_keys_for",
]


def whists(results: Sequence[Fraction]) -> tuple[Fraction, ...]:
    """The results as settled."""
    return tuple(results)


def capped(results: Sequence[Fraction], *, cap: Fraction | int = 200) -> tuple[Fraction, ...]:
    """Each result limited to ±cap."""
    if cap <= 0:
        raise StandingsConfigError(
            f"cap: {cap!r}, must be positive",
            gettext_noop("The cap must be positive (not %(cap)s)."),
            {"cap": str(cap)},
        )
    c = Fraction(cap)
    return tuple(max(-c, min(c, r)) for r in results)


def scaled(
    results: Sequence[Fraction], *, factor: Fraction | int | str = 1
) -> tuple[Fraction, ...]:
    """Each result × factor (factor given as a number or a fraction text such as "1/10")."""
    f = Fraction(factor)
    if f <= 0:
        raise StandingsConfigError(
            f"factor: {factor!r}, must be positive",
            gettext_noop("The factor must be positive (not %(factor)s)."),
            {"factor": str(factor)},
        )
    return tuple(r * f for r in results)


def normalised(results: Sequence[Fraction]) -> tuple[Fraction, ...]:
    """Each result × 2/(n − 1): a table of four on the scale of a table of three."""
    n = len(results)
    return tuple(r * Fraction(2, n - 1) for r in results)


def place_points(
    results: Sequence[Fraction],
    *,
    points_3: Sequence[Any] = (2, 1, 0),
    points_4: Sequence[Any] = (3, 2, 1, 0),
    four: str = "table",
) -> tuple[Fraction, ...]:
    """Points by place at the table; shared places share their points equally."""
    n = len(results)
    if n == 3:
        table = [Fraction(p) for p in points_3]
    elif four == "scaled":
        top = Fraction(points_3[0]) if points_3 else Fraction(2)
        bottom = Fraction(points_3[-1]) if points_3 else Fraction(0)
        table = [top - (top - bottom) * i / (n - 1) for i in range(n)]
    else:
        table = [Fraction(p) for p in points_4]
    if len(table) != n:
        raise ValueError(f"place points {table!r} do not fit a table of {n}")
    order = sorted(range(n), key=lambda i: -results[i])
    points = [Fraction(0)] * n
    i = 0
    while i < n:
        j = i
        while j + 1 < n and results[order[j + 1]] == results[order[i]]:
            j += 1
        share = sum(table[i : j + 1], Fraction(0)) / (j - i + 1)
        for k in range(i, j + 1):
            points[order[k]] = share
        i = j + 1
    return tuple(points)


@dataclass(frozen=True, slots=True)
class RoundScore:
    """A named round-score function with its organiser-set parameters."""

    key: str
    name: str
    function: Callable[..., tuple[Fraction, ...]]
    params: tuple[tuple[str, Any], ...] = ()

    def __call__(self, results: Sequence[Fraction]) -> tuple[Fraction, ...]:
        return self.function(results, **dict(self.params))

    def sit_out(self, size: int = 4) -> Fraction | None:
        """What a round sat out is worth in this round score, when it is not the stated score
        itself (``None``: the whist-like scores count the stated score as it stands). Place
        points: the average place at a table of ``size`` (all ``size`` players tied).

        >>> round_score("place_points").sit_out()
        Fraction(3, 2)
        >>> round_score("place_points", four="scaled").sit_out()
        Fraction(1, 1)
        >>> round_score("capped", cap=100).sit_out() is None
        True
        """
        if self.key != "place_points":
            return None
        return self([Fraction(0)] * size)[0]


ROUND_SCORES: Mapping[str, tuple[str, Callable[..., tuple[Fraction, ...]], tuple[str, ...]]] = {
    "whists": ("Whists", whists, ()),
    "capped": ("Capped whists", capped, ("cap",)),
    "scaled": ("Scaled whists", scaled, ("factor",)),
    "normalised": ("Whists normalised to tables of three", normalised, ()),
    "place_points": ("Place points at the table", place_points, ("points_3", "points_4", "four")),
}


def round_score(key: str = "whists", **params: Any) -> RoundScore:
    """The round score called ``key`` with its parameters.

    :raises ValueError: for an unknown key or parameter.
    """
    try:
        name, function, allowed = ROUND_SCORES[key]
    except KeyError:
        raise StandingsConfigError(
            f"round score {key!r}: choose one of {sorted(ROUND_SCORES)}",
            gettext_noop("“%(key)s” is not a round score; choose from: %(choices)s."),
            {"key": key, "choices": sorted(ROUND_SCORES)},
            scores=("choices",),
        ) from None
    unknown = sorted(set(params) - set(allowed))
    if unknown:
        raise StandingsConfigError(
            f"round score {key!r} takes no parameter {unknown[0]!r}",
            gettext_noop("The round score “%(score)s” takes no parameter “%(param)s”."),
            {"score": key, "param": unknown[0]},
            scores=("score",),
        )
    return RoundScore(key, name, function, tuple(sorted(params.items())))


def round_score_keys_for(table_sizes: Sequence[int]) -> tuple[str, ...]:
    """The round scores that make sense where tables seat ``table_sizes`` players: normalising
    tables of four to three only where both sizes are played (a family or convention that seats
    one size only, such as the Balkan games or German Préférence, has nothing to normalise).

    >>> round_score_keys_for((3, 4))
    ('whists', 'capped', 'scaled', 'normalised', 'place_points')
    >>> round_score_keys_for((3,))
    ('whists', 'capped', 'scaled', 'place_points')
    """
    mixed = len(set(table_sizes)) > 1
    return tuple(k for k in ROUND_SCORES if k != "normalised" or mixed)
