"""Hypothesis strategies for Balkan protocols and sheets of any shape the formats must carry
(legal or not: the formats keep what was written, the checker judges it)."""

from __future__ import annotations

from hypothesis import assume
from hypothesis import strategies as st

from rules.balkan import CONVENTIONS, OPTION_CHOICES, OPTION_NAMES, OPTION_RANGES
from rules.conventions import InvalidConventionError
from scoring.balkan.jsonio import BIDS, KONTRA_MAX
from scoring.balkan.protocol import (
    AllPass,
    BalkanDeal,
    BalkanProtocol,
    BalkanSheet,
    BalkanSheetLine,
    BalkanSheetRow,
    Defence,
    Hand,
    Penalty,
)
from scoring.model import Ending

from ..strategies import free_text, names

SEATS = 3
seats = st.integers(0, SEATS - 1)
#: Names a referee may meet, including ones that are keywords of the notation.
balkan_names = st.one_of(
    names,
    st.sampled_from(["Ana", "Željko", "Đurđa", "Čedo", "Dalje", "Kontra", "Ide", "Žir", "Sans",
                     "Kazna", "Refa", "Ne", "All", "x", "Boris", "Borislav"]),
)  # fmt: skip
conventions = st.sampled_from(
    sorted({name for c in CONVENTIONS.values() for name in (c.key, *c.aliases)} | {"Croatian"})
)


def _option_value(name: str) -> st.SearchStrategy[object]:
    if name in OPTION_CHOICES:
        return st.sampled_from(OPTION_CHOICES[name])
    if name in OPTION_RANGES:
        return st.integers(*OPTION_RANGES[name])
    return st.booleans()


@st.composite
def options(draw: st.DrawFn) -> tuple[tuple[str, object], ...]:
    chosen = draw(st.lists(st.sampled_from(OPTION_NAMES), unique=True, max_size=4))
    picked = tuple(sorted((name, draw(_option_value(name))) for name in chosen))
    # options that contradict each other (refas=false with a refa_limit …) are refused by the
    # readers; the round trips need options every convention takes together
    assume(all(_together(c, picked) for c in CONVENTIONS.values()))
    return picked


def _together(convention, picked) -> bool:
    try:
        convention.with_options(**dict(picked))
    except InvalidConventionError:
        return False
    return True


@st.composite
def hands(draw: st.DrawFn) -> Hand:
    auction = draw(
        st.none() | st.lists(st.tuples(seats, st.sampled_from(BIDS)), max_size=5).map(tuple)
    )
    return Hand(
        declarer=draw(seats),
        contract=draw(st.integers(2, 8)),
        game=draw(st.booleans()),
        defence=draw(st.tuples(st.sampled_from(Defence), st.sampled_from(Defence))),
        kontra=draw(st.sampled_from([0, 0, 0, 1, 2, 3, 4, 5]) | st.integers(0, KONTRA_MAX)),
        kontra_by=draw(st.none() | seats),
        tricks=draw(st.none() | st.tuples(*[st.integers(0, 10)] * SEATS)),
        auction=auction,
        dealer=draw(st.none() | seats),
    )


@st.composite
def penalties(draw: st.DrawFn) -> Penalty:
    return Penalty(
        player=draw(seats),
        rule=draw(st.sampled_from(["", "5.1", "seed 002 Kontra", "1.2", "ruling 3"])),
        column=draw(st.integers(-50, 200)),
        soups=draw(st.lists(st.tuples(seats, st.integers(-60, 300)), max_size=2).map(tuple)),
        note=draw(free_text),
    )


deals: st.SearchStrategy[BalkanDeal] = st.one_of(
    hands(), st.builds(AllPass, st.none() | seats), penalties()
)


@st.composite
def protocols(draw: st.DrawFn) -> BalkanProtocol:
    players = draw(
        st.lists(balkan_names, min_size=SEATS, max_size=SEATS, unique_by=str.lower).map(tuple)
    )
    return BalkanProtocol(
        players=players,
        bula=draw(st.sampled_from([30, 50, 100]) | st.integers(1, 500)),
        deals=tuple(draw(st.lists(deals, max_size=8))),
        convention=draw(conventions),
        options=draw(options()),
        first_dealer=draw(seats),
        ending=draw(st.sampled_from(list(Ending))),
    )


@st.composite
def sheets(draw: st.DrawFn, count: int) -> BalkanSheet:
    """A written sheet of any numbers (rows well shaped; no empty row at the end)."""

    def row() -> BalkanSheetRow:
        return tuple(
            BalkanSheetLine(
                column=draw(st.integers(-200, 200)),
                soups=tuple(0 if q == s else draw(st.integers(0, 999)) for q in range(SEATS)),
                refas=draw(st.integers(0, 3)),
            )
            for s in range(SEATS)
        )

    running: list[BalkanSheetRow | None] = [
        row() if draw(st.booleans()) else None for _ in range(draw(st.integers(0, count)))
    ]
    while running and running[-1] is None:
        running.pop()
    final = row() if draw(st.booleans()) else None
    result = draw(st.none() | st.tuples(*[st.integers(-2000, 2000)] * SEATS))
    return BalkanSheet(tuple(running), final, result)


@st.composite
def protocols_with_sheets(draw: st.DrawFn) -> tuple[BalkanProtocol, BalkanSheet]:
    p = draw(protocols())
    return p, draw(sheets(len(p.deals)))
