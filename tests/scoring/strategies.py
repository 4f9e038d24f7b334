"""Hypothesis strategies for protocols of any shape the formats must carry (not only legal ones)."""

from __future__ import annotations

from hypothesis import strategies as st

from rules.contracts import LADDER
from scoring.russian.protocol import (
    Call,
    Deal,
    Ending,
    Game,
    Penalty,
    Protocol,
    Raspasy,
    Sheet,
    SheetLine,
    SheetRow,
)

_NAME_CHARS = st.characters(
    codec="utf-8", exclude_categories=("Cs", "Cc", "Zl", "Zp"), exclude_characters="\n\r"
)
names = st.one_of(
    st.sampled_from(["Anna", "Boris", "Vera", "Gleb", "Иванов", "Пётр", "O'Neil", "Jean-Luc"]),
    # a name is more than spaces (the readers refuse a blank one, 001 §4.2.1)
    st.text(_NAME_CHARS, min_size=1, max_size=12).filter(lambda s: s.strip()),
)
free_text = st.text(_NAME_CHARS, max_size=15)
option_values = st.one_of(
    st.none(), st.booleans(), st.integers(-50, 50), free_text, st.sampled_from(["3", "true", "x"])
)


@st.composite
def games(draw: st.DrawFn, n: int) -> Game:
    contract = draw(st.sampled_from(LADDER))
    calls = (
        ()
        if contract.is_misere
        else draw(st.lists(st.sampled_from(list(Call)), min_size=0, max_size=2).map(tuple))
    )
    split = draw(st.none() | st.lists(st.integers(0, 10), min_size=1, max_size=3).map(tuple))
    auction = draw(
        st.none()
        | st.lists(st.tuples(st.integers(0, n - 1), free_text.filter(bool)), max_size=4).map(tuple)
    )
    return Game(
        declarer=draw(st.integers(0, n - 1)),
        contract=contract,
        calls=calls,
        declarer_tricks=draw(st.none() | st.integers(0, 10)),
        defender_tricks=split,
        open=draw(st.booleans()),
        auction=auction,
        multiplier=draw(st.sampled_from([1, 1, 2, 4])),
        talon_premium=draw(st.sampled_from([0, 0, 2])),
        dealer=draw(st.none() | st.integers(0, n - 1)),
    )


@st.composite
def raspasys(draw: st.DrawFn, n: int) -> Raspasy:
    tricks = draw(st.lists(st.none() | st.integers(0, 10), min_size=n, max_size=n).map(tuple))
    return Raspasy(tricks, draw(st.sampled_from([1, 2])), draw(st.none() | st.integers(0, n - 1)))


@st.composite
def penalties(draw: st.DrawFn, n: int) -> Penalty:
    return Penalty(
        player=draw(st.integers(0, n - 1)),
        rule=draw(st.sampled_from(["", "3.2.21", "4.2.7", "note 31", "3.9.11.2"])),
        gora=draw(st.integers(-5, 60)),
        pulya=draw(st.integers(-5, 10)),
        whists=draw(
            st.lists(st.tuples(st.integers(0, n - 1), st.integers(-60, 60)), max_size=2).map(tuple)
        ),
        note=draw(free_text),
    )


@st.composite
def protocols(draw: st.DrawFn) -> Protocol:
    n = draw(st.sampled_from([3, 4]))
    players = draw(
        st.lists(names, min_size=n, max_size=n, unique_by=lambda s: s.strip().casefold()).map(tuple)
    )
    deal_strategy: st.SearchStrategy[Deal] = st.one_of(games(n), raspasys(n), penalties(n))
    option_names = st.sampled_from(["whist_style", "raspasy_price", "help", "x", "ten_checked"])
    options = draw(st.dictionaries(option_names, option_values, max_size=3))
    return Protocol(
        players=players,
        target=draw(st.integers(1, 100)),
        deals=tuple(draw(st.lists(deal_strategy, max_size=6))),
        convention=draw(st.sampled_from(["sochi", "leningrad", "rostov", "classic", "Питер"])),
        options=tuple(options.items()),
        first_dealer=draw(st.integers(0, n - 1)),
        ending=draw(st.sampled_from(list(Ending))),
    )


@st.composite
def sheets(draw: st.DrawFn, n: int, deals: int) -> Sheet:
    """A written sheet of any numbers (rows well shaped; no empty row at the end)."""

    def row() -> SheetRow:
        lines = []
        for s in range(n):
            whists = [0 if q == s else draw(st.integers(-99, 999)) for q in range(n)]
            lines.append(SheetLine(draw(st.integers(-9, 60)), draw(st.integers(-20, 99)),
                                   tuple(whists)))  # fmt: skip
        return tuple(lines)

    running: list[SheetRow | None] = [
        row() if draw(st.booleans()) else None for _ in range(draw(st.integers(0, deals)))
    ]
    while running and running[-1] is None:
        running.pop()
    final = row() if draw(st.booleans()) else None
    result = None
    if draw(st.booleans()):
        result = tuple(
            draw(st.fractions(min_value=-999, max_value=999, max_denominator=4)) for _ in range(n)
        )
    return Sheet(tuple(running), final, result)
