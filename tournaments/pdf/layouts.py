"""The filled protocol's family-specific part (issue 28): what each rule family's sheet draws
between the players and the findings, as a small description for :mod:`tournaments.pdf.filled`.

A :class:`Layout` names the terms of the game the header shows (the pulka's target, the bula
and its refas, the stake and the ante, the sits), the family's own block (a grid of deal rows in
the family's columns, or Priffe's sits boxes and deals list), and the final table (its heading,
the seed it cites and its columns). The grids share one drawing (:func:`grouped_grid`): a few
leading columns (№, dealer, the deal in words …), then a group of columns per player (and the
pot's), a title over each group and a sub-header over each column, repeated on every page a
long sheet takes; a family says only which columns and what each cell holds.

A family's ``FamilyUI.filled_layout`` names its layout here (:data:`LAYOUTS`); the layouts are
named by what they draw, not by family: ``pulka`` (the Russian grid of 001 §4.2.11), ``soups``
(seed 002: the declarer column between the two soups), ``ledger`` (seeds 000 and 003: the
players' and the pot's changes and running totals), ``sits`` (seed 004: a box per sits).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext, ngettext
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Paragraph, Table, TableStyle

from tournaments import rule_sources
from tournaments.pdf.draw import (
    BOLD,
    FONT,
    GREY,
    HEAD_FILL,
    LINE,
    MARKUP,
    PENALTY_FILL,
    Styles,
    e,
    plain_table,
    signs_markup,
    suits_markup,
)
from tournaments.pdf.pulka import pulka_grid

__all__ = ["LAYOUTS", "Column", "Group", "Layout", "final_table", "grouped_grid"]


@dataclass(frozen=True)
class Column:
    """A column of a final table: its heading (call: translated when drawn), the key of the
    settlement row it shows, its share of the width; right-aligned numbers, bold."""

    heading: Callable[[], str]
    key: str
    share: float
    numeric: bool = True
    bold: bool = False


@dataclass(frozen=True)
class Layout:
    """One family's sheet: ``terms(sheet)`` the header's (label, value) pairs (a term without a
    value is left out: a table without a protocol yet); ``block(sheet,
    styles, width)`` its grid or boxes (flowables); ``result_heading(sheet)`` the final table's
    heading and ``before_result``/``after_result`` its paragraphs (markup); ``columns`` the final
    table's; ``cite`` the findings' rule as the seed cites it (``002 "Kontra"``) rather than the
    bare rule number (the Russian sheet's ``3.8.6``)."""

    terms: Callable[[dict[str, Any]], list[tuple[str, Any]]]
    block: Callable[[dict[str, Any], Styles, float], list[Any]]
    result_heading: Callable[[dict[str, Any]], str]
    columns: tuple[Column, ...]
    before_result: Callable[[dict[str, Any]], list[str]] = lambda sheet: []
    after_result: Callable[[dict[str, Any]], list[str]] = lambda sheet: []
    cite: bool = True
    #: the family's own block after the final table (Priffe's deals list)
    tail: Callable[[dict[str, Any], Styles, float], list[Any]] = field(
        default=lambda sheet, st, width: []
    )


def final_table(layout: Layout, sheet: dict[str, Any], st: Styles, width: float) -> Any:
    """The final table: a row per player, the last column's figures bold as on paper."""
    rows = [
        [
            e(s.get(c.key, "")) if not c.bold else f"<b>{e(s.get(c.key, ''))}</b>"
            for c in layout.columns
        ]
        for s in sheet.get("settlement", [])
    ]
    return plain_table(
        [c.heading() for c in layout.columns],
        rows,
        [c.share for c in layout.columns],
        st,
        width,
        numeric=frozenset(i for i, c in enumerate(layout.columns) if c.numeric),
        markup=True,
    )


# --- the grids: leading columns, then a group per player ----------------------------------


@dataclass(frozen=True)
class Group:
    """A group of grid columns under one title (a player's name, the pot): each column's
    sub-header, which column is the group's main one (bold, ruled both sides), and a thick rule
    before the group."""

    title: str
    subs: list[str]
    main: int | None = None


def grouped_grid(
    lead: list[tuple[str, float | None, bool]],
    groups: list[Group],
    rows: list[tuple[list[str], bool]],
    st: Styles,
    width: float,
    cell_mm: float = 14.0,
) -> Any:
    """A deal grid: ``lead`` columns (heading, width in mm or ``None`` for the one taking what
    is left, numeric), then ``groups``; ``rows``: each row's cells in platypus markup and
    whether it is a penalty line (shaded); a group's main column is bold. The two header rows repeat on every page; a row is
    never cut."""
    subs = sum(len(g.subs) for g in groups)
    fixed = sum(w * mm for _h, w, _n in lead if w is not None)
    cell = min(cell_mm * mm, (width - fixed - 55 * mm) / max(subs, 1))
    flex = width - fixed - cell * subs
    widths = [w * mm if w is not None else flex for _h, w, _n in lead] + [cell] * subs
    pad = 0.8 * mm
    n_lead = len(lead)
    head = [Paragraph(e(h), st.grid_head) for h, _w, _n in lead]
    sub_row: list[Any] = [""] * n_lead
    style: list[tuple] = [
        ("FONT", (0, 0), (-1, -1), FONT, 7.5),
        ("GRID", (0, 0), (-1, -1), 0.4, LINE),
        ("BACKGROUND", (0, 0), (-1, 1), HEAD_FILL),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), pad),
        ("RIGHTPADDING", (0, 0), (-1, -1), pad),
        ("TOPPADDING", (0, 0), (-1, -1), 0.3 * mm),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 0.6 * mm),
    ]
    style += [("SPAN", (c, 0), (c, 1)) for c in range(n_lead)]
    style += [("ALIGN", (c, 2), (c, -1), "RIGHT") for c, (_h, _w, num) in enumerate(lead) if num]
    c = n_lead
    for g in groups:
        head += [Paragraph(e(g.title), st.grid_head)] + [""] * (len(g.subs) - 1)
        sub_row += [
            Paragraph(e(s), st.grid_head if k == g.main else st.grid_opp)
            for k, s in enumerate(g.subs)
        ]
        style += [
            ("SPAN", (c, 0), (c + len(g.subs) - 1, 0)),
            ("LINEBEFORE", (c, 0), (c, -1), 1.2, "#000000"),
            ("ALIGN", (c, 2), (c + len(g.subs) - 1, -1), "RIGHT"),
        ]
        if g.main is not None:
            main = c + g.main
            style += [
                ("LINEBEFORE", (main, 1), (main, -1), 0.6, "#000000"),
                ("LINEAFTER", (main, 1), (main, -1), 0.6, "#000000"),
                ("FONT", (main, 2), (main, -1), BOLD, 7.5),
            ]
        c += len(g.subs)
    data: list[list[Any]] = [head, sub_row]

    def cell(i: int, text: str) -> Any:
        """Text without markup that fits on one line as a plain string (drawn as is, a
        fraction of a paragraph's cost); else a paragraph, wrapping in its column."""
        numeric = i >= n_lead or lead[i][2]
        if not MARKUP.search(text) and (
            numeric or stringWidth(text, FONT, 7.5) <= widths[i] - 2 * pad
        ):
            return text
        return Paragraph(text, st.grid_num if numeric else st.grid)

    for cells, penalty in rows:
        if penalty:
            style.append(("BACKGROUND", (0, len(data)), (-1, len(data)), PENALTY_FILL))
        data.append([cell(i, text) for i, text in enumerate(cells)])
    table = Table(data, colWidths=widths, repeatRows=2, hAlign="LEFT")
    table.setStyle(TableStyle(style))
    return table


def _deal_text(d: dict[str, Any], *, forced: bool = False) -> str:
    """A deal in words, its suits coloured; "(forced)", "(ruling)" after it where so."""
    text = suits_markup(d["text"])
    if forced and d.get("forced"):
        forced_word = gettext("forced")
        text += f" <i>({e(forced_word)})</i>"
    if d.get("from_ruling"):
        ruling = gettext("ruling")
        text += f" <i>({e(ruling)})</i>"
    return text


def _signed(value: Any) -> str:
    """``value`` with its sign (the template's ``stringformat:"+d"``)."""
    return f"{int(value):+d}" if value not in ("", None) else ""


# --- pulka (Russian, 001 §4.2.11) ------------------------------------------------------------


#: 4.2.14's methods by the value of the option ``rounding`` (rules/conventions.py), as said on
#: the sheet; any other value settles exactly
_ROUNDING_METHODS: dict[str, Callable[[], str]] = {
    "kodeks": lambda: gettext(
        "Settled by %(rule)s, Variant 1: each gora that does not divide by three is rounded "
        "by 4.2.12."
    )
    % {"rule": rule_sources.cite("001", "4.2.14")},
    "average": lambda: gettext(
        "Settled by %(rule)s, Variant 2: only the average gora is rounded by 4.2.12, when it "
        "does not divide."
    )
    % {"rule": rule_sources.cite("001", "4.2.14")},
}


def _rounding_said(sheet: dict[str, Any]) -> list[str]:
    """Which of 4.2.14's two methods settled the pulka, with 4.2.12's rounding (the option
    ``rounding``, issue #37): a club that settles by the average gora sees it was used."""
    method = _ROUNDING_METHODS.get(sheet.get("settlement_rounding", "kodeks"))
    return [e(method() if method else gettext("Settled exactly, without rounding."))]


PULKA = Layout(
    terms=lambda sheet: [(gettext("Pulka to"), sheet["event"]["pulka_target"])],
    block=pulka_grid,
    result_heading=lambda sheet: gettext("Settlement") + f" ({rule_sources.cite('001', '4.2.14')})",
    before_result=_rounding_said,
    columns=(
        Column(lambda: gettext("Player"), "name", 0.35, numeric=False),
        Column(lambda: gettext("Pulya"), "pulya", 0.13),
        Column(lambda: gettext("Gora"), "gora", 0.13),
        Column(lambda: gettext("Gora after amnesty"), "gora_settled", 0.13),
        Column(lambda: gettext("Exact"), "exact", 0.13),
        Column(lambda: gettext("Result (whists)"), "whists", 0.13, bold=True),
    ),
    cite=False,
)


# --- soups (Balkan, seed 002 "Scoring") ------------------------------------------------------

#: the hats of a declarer column (the template's ⌒ ⌣) and a refa played (⊘)
HAT = {"up": "⌒", "down": "⌣"}


def _soups_block(sheet: dict[str, Any], st: Styles, width: float) -> list[Any]:
    """Per player the soup against his left opponent, his declarer column (bold; the bula
    first, minus), the soup against his right opponent; the hats and the refas."""
    soup, column = gettext("soup"), gettext("declarer column")
    groups = [
        Group(name, [f"{soup} {sides[0]}", column, f"{soup} {sides[1]}"], main=1)
        for name, sides in zip(sheet["names"], sheet["soup_headers"], strict=True)
    ]
    lead = [
        ("№", 7.0, False),
        (gettext("Dealer"), 24.0, False),
        (gettext("Contract / result"), None, False),
    ]
    rows = [(["", "", e(gettext("bula"))] + ["", e(sheet["bula"]), ""] * 3, False)]
    for d in sheet["deals"]:
        cells = [e(d["number"]), e(d["dealer"]), _deal_text(d)]
        for c in d["cells"]:
            main = e(c["column"]) if c["changed"] else ""
            if c.get("hat") in HAT:
                main += f" {HAT[c['hat']]}"
            if c.get("refa_used"):
                main += " ⊘"
            if c.get("refas"):
                main += f'<br/><font color="{GREY}">{e(c["refa_marks"])}</font>'
            main = signs_markup(main)
            if MARKUP.search(main):  # a paragraph: bold as the column's plain figures
                main = f"<b>{main}</b>"
            cells += [e(c["left"]), main, e(c["right"])]
        rows.append((cells, bool(d.get("penalty"))))
    legend = gettext(
        "Declarer columns are written as on paper, without a minus sign: the bula and what is "
        "left of it; ⌒ a hat (the column crossed zero: under the hat the figure counts for the "
        "player), ⌣ the hat taken off; each — an unplayed refa, ⊘ a refa played."
    )
    return [
        grouped_grid(lead, groups, rows, st, width),
        Paragraph(signs_markup(e(legend)), st.muted),
    ]


SOUPS = Layout(
    terms=lambda sheet: (
        [(gettext("Bula"), sheet["event"]["pulka_target"])]
        + ([(gettext("refas"), sheet["refa_limit"])] if sheet.get("refa_limit") else [])
    ),
    block=_soups_block,
    result_heading=lambda sheet: gettext("Final calculation")
    + f" ({rule_sources.cite('002', 'Ending the Game')})",
    before_result=lambda sheet: (
        [
            "<b>"
            + e(
                gettext(
                    "Stopped before the declarer columns summed to zero: scored by the formula "
                    "of %(rules)s, not zero-sum."
                )
                % {"rules": rule_sources.cite("002", "Ending the Game")}
            )
            + "</b>"
        ]
        if sheet.get("stopped_early")
        else []
    ),
    columns=(
        Column(lambda: gettext("Player"), "name", 0.36, numeric=False),
        Column(lambda: gettext("Declarer column"), "column", 0.16),
        Column(lambda: gettext("Own soups"), "soups", 0.16),
        Column(lambda: gettext("Soups against"), "soups_against", 0.16),
        Column(lambda: gettext("Result (points)"), "exact", 0.16, bold=True),
    ),
)


# --- ledger (the pot games, seeds 000 and 003) -----------------------------------------------


def _ledger_block(sheet: dict[str, Any], st: Styles, width: float) -> list[Any]:
    """Per deal the amount played for, per player and for the pot the change (±) and the
    running total; ↓ fell, — sat out."""
    pot = str(sheet["pot_word"])
    lead = [
        ("№", 7.0, False),
        (gettext("Dealer"), 24.0, False),
        (gettext("Contract / result"), None, False),
        (gettext("Played for"), 17.0, True),
    ]
    groups = [Group(name, ["±", gettext("net")]) for name in sheet["names"]]
    groups.append(Group(pot, ["±", pot], main=1))
    rows: list[tuple[list[str], bool]] = []
    if sheet.get("opening_pot"):
        opening = ["", "", e(gettext("opening pot")), ""] + ["", ""] * len(sheet["names"])
        rows.append((opening + ["", e(sheet["opening_pot"])], False))
    for d in sheet["deals"]:
        cells = [e(d["number"]), e(d["dealer"]), _deal_text(d, forced=True), e(d["amount"])]
        for c in d["cells"]:
            change = "—" if c["out"] else (_signed(c["change"]) if c["change"] else "0")
            cells += [change + (" ↓" if c["fell"] else ""), e(c["net"])]
        cells += [_signed(d["pot"]["change"]), e(d["pot"]["net"])]
        rows.append((cells, bool(d.get("penalty"))))
    legend = gettext(
        "Per deal: ± what each player won or paid and the pot's change, then the cumulative "
        "nets and what the pot holds; ↓ fell, — sat out (the dealer at a table of four)."
    )
    out = [
        grouped_grid(lead, groups, rows, st, width, cell_mm=13.0),
        Paragraph(e(legend), st.muted),
    ]
    if sheet.get("partial"):
        n = sheet["unplayed"]
        partial = ngettext(
            "%(n)s entry cannot be scored (see the findings): the ledger stops before it.",
            "%(n)s entries cannot be scored (see the findings): the ledger stops before the first.",
            n,
        ) % {"n": n}
        out.append(Paragraph(f"<b>{e(partial)}</b>", st.body))
    return out


def _pot_end(sheet: dict[str, Any]) -> list[str]:
    if sheet.get("pot_end") == "keep":
        text = gettext(
            "The pot left at the end (%(pot)s) is kept: each result is the player's net."
        )
    else:
        text = gettext(
            "The pot left at the end (%(pot)s) is shared equally among the table's players: "
            "the table sums to zero."
        )
    return [e(text % {"pot": sheet.get("pot_left", "")})]


LEDGER = Layout(
    terms=lambda sheet: (
        [
            (gettext("Stake (chips)"), sheet.get("stake")),
            (gettext("ante"), sheet.get("ante")),
        ]
        + ([(gettext("maximum"), sheet["max_amount"])] if sheet.get("max_amount") else [])
    ),
    block=_ledger_block,
    result_heading=lambda sheet: gettext("Result") + f" ({sheet['rules_name']})",
    before_result=_pot_end,
    columns=(
        Column(lambda: gettext("Player"), "name", 0.4, numeric=False),
        Column(lambda: gettext("Net"), "net", 0.2),
        Column(lambda: gettext("Share of the pot"), "share", 0.2),
        Column(lambda: gettext("Result (chips)"), "exact", 0.2, bold=True),
    ),
)


# --- sits (Priffe, seed 004) -----------------------------------------------------------------


def _sits_box(s: dict[str, Any], st: Styles, width: float) -> Any:
    """One sits: the two partnerships, above the line (över strecket, nearest the line last),
    the line, below it (a rule under each game, utgång), the games, the totals, the winner."""

    def num(value: Any) -> str:  # a figure: a plain string, right-aligned by the style
        return str(value) if value else ""

    data: list[list[Any]] = [
        [Paragraph(e(gettext("Sits")) + f" {e(s['number'])}", st.head), "", ""],
        ["", Paragraph(e(s["sides"][0]), st.head), Paragraph(e(s["sides"][1]), st.head)],
        ["", Paragraph(e(gettext("above the line")), st.muted), ""],
    ]
    style: list[tuple] = [
        ("GRID", (0, 0), (-1, -1), 0.4, LINE),
        ("BACKGROUND", (0, 0), (-1, 1), HEAD_FILL),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), 1 * mm),
        ("RIGHTPADDING", (0, 0), (-1, -1), 1 * mm),
        ("TOPPADDING", (0, 0), (-1, -1), 0.3 * mm),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 0.5 * mm),
        ("FONT", (0, 0), (-1, -1), FONT, 8),
        ("ALIGN", (1, 3), (-1, -1), "RIGHT"),
        ("FONT", (0, 0), (0, -1), FONT, 6.5),
        ("TEXTCOLOR", (0, 0), (0, -1), GREY),
        ("SPAN", (0, 0), (2, 0)),
        ("SPAN", (1, 2), (2, 2)),
    ]
    for r in s["above"]:
        data.append([str(r["number"]), num(r["cells"][0]), num(r["cells"][1])])
    style.append(("LINEABOVE", (0, len(data)), (-1, len(data)), 1.6, "#000000"))
    style.append(("SPAN", (1, len(data)), (2, len(data))))
    data.append(["", Paragraph(e(gettext("below the line")), st.muted), ""])
    for r in s["below"]:
        right = e(r["cells"][1]) if r["cells"][1] else ""
        if r.get("game_line"):
            right += " <i>" + e(gettext("game won")) + "</i>"
            style.append(("LINEBELOW", (0, len(data)), (-1, len(data)), 1.2, "#000000"))
        data.append([str(r["number"]), num(r["cells"][0]), Paragraph(right, st.num)])
    style.append(("LINEABOVE", (0, len(data)), (-1, len(data)), 1.6, "#000000"))
    games, under, over = gettext("games"), gettext("under"), gettext("över")
    data.append(["", *(Paragraph(e(f"{games}: {g}"), st.num) for g in s["games"])])
    data.append(
        [
            "",
            *(
                Paragraph(
                    e(f"{under} {s['below_total'][k]} · {over} {s['above_total'][k]}"), st.num
                )
                for k in (0, 1)
            ),
        ]
    )
    data.append(["", *(Paragraph(f"<b>{e(t)}</b>", st.num) for t in s["totals"])])
    if s.get("winner"):
        style.append(("SPAN", (1, len(data)), (2, len(data))))
        won = gettext("Sits won by %(w)s") % {"w": s["winner"]}
        data.append(["", Paragraph(e(won), st.cell), ""])
    side = (width - 6 * mm) / 2
    table = Table(data, colWidths=[6 * mm, side, side], repeatRows=2, hAlign="LEFT")
    table.setStyle(TableStyle(style))
    return table


def _sits_block(sheet: dict[str, Any], st: Styles, width: float) -> list[Any]:
    """The sits boxes side by side (three to a row), as on the players' sheet; a sits too long
    for the page beside the others is drawn across the page, going on to the next."""
    sits = sheet.get("sits") or []
    if not sits:
        return []
    gap = 3 * mm
    box = (width - 2 * gap) / 3
    boxes = [_sits_box(s, st, box) for s in sits]
    rows = [boxes[k : k + 3] for k in range(0, len(boxes), 3)]
    tall = max(b.wrap(box, 10_000)[1] for b in boxes)
    if tall > 150 * mm:  # a row of boxes is never cut: the long sits stacked instead
        return [_sits_box(s, st, width / 2) for s in sits]
    outer = Table(
        [r + [""] * (3 - len(r)) for r in rows],
        colWidths=[box + gap] * 2 + [box],
        hAlign="LEFT",
    )
    outer.setStyle(
        TableStyle(
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (-1, -1), gap),
                ("RIGHTPADDING", (-1, 0), (-1, -1), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 0),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 2 * mm),
            ]
        )
    )
    return [outer]


def _sits_deals(sheet: dict[str, Any], st: Styles, width: float) -> list[Any]:
    """Every deal in words with its sits and dealer, penalty lines shaded."""
    rows = [[e(d["number"]), e(d["sits"]), e(d["dealer"]), _deal_text(d)] for d in sheet["deals"]]
    shaded = [i for i, d in enumerate(sheet["deals"]) if d.get("penalty")]
    return [
        Paragraph(e(gettext("Deals")), st.heading),
        plain_table(
            ["№", gettext("Sits"), gettext("Dealer"), gettext("Contract / result")],
            rows,
            [0.04, 0.05, 0.2, 0.71],
            st,
            width,
            markup=True,
            shaded=shaded,
        ),
    ]


SITS = Layout(
    terms=lambda sheet: (
        [(gettext("Sits"), sheet["event"]["pulka_target"])]
        + (
            [(gettext("game at"), sheet["game_points"])]
            if sheet.get("game_points")
            else []
        )
    ),
    block=_sits_block,
    result_heading=lambda sheet: gettext("Player totals") + f" ({rule_sources.cite('004')})",
    after_result=lambda sheet: [
        f'<font color="{GREY}">'
        + e(
            gettext(
                "Every point a partnership writes, below and above the line, is credited to both "
                "its players (%(rule)s)."
            )
            % {"rule": rule_sources.cite("004")}
        )
        + "</font>"
    ],
    columns=(
        Column(lambda: gettext("Player"), "name", 0.4, numeric=False),
        Column(lambda: gettext("games won"), "games", 0.2),
        Column(lambda: gettext("sits won"), "sits_won", 0.2),
        Column(lambda: gettext("Player total (points)"), "exact", 0.2, bold=True),
    ),
    tail=_sits_deals,
)

#: the layouts by the name a family's ``FamilyUI.filled_layout`` gives
LAYOUTS: dict[str, Layout] = {"pulka": PULKA, "soups": SOUPS, "ledger": LEDGER, "sits": SITS}
