"""What the players wrote, copied on the table's phone page (issue 29): one row of the paper
sheet at a time — the running totals after a deal (001 §4.2.5) or the final row after the end
conversion (§4.2.3) — so the check compares the paper with the computation where it is filled
in (:func:`scoring.russian.check.check_sheet`, 001 §4.2.7)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from scoring.russian.protocol import Penalty, Sheet, SheetLine
from tournaments.errors import UserFacingError

__all__ = ["sheet_form", "sheet_from_post", "sheet_rows"]

FINAL = "final"


def sheet_rows(protocol: Any) -> list[tuple[str, str]]:
    """``(key, label)`` of each row a table can copy: after each deal, and the final row."""
    rows = []
    for i, deal in enumerate(protocol.deals):
        if type(deal) is Penalty:
            rows.append((str(i), _("after the penalty entry %(n)d") % {"n": i + 1}))
        else:
            rows.append((str(i), _("after deal %(n)d") % {"n": i + 1}))
    rows.append((FINAL, _("the final row (after the end conversion)")))
    return rows


def _written(sheet: Sheet | None, row: str) -> tuple[SheetLine, ...] | None:
    if sheet is None:
        return None
    if row == FINAL:
        return sheet.final
    i = int(row)
    return sheet.running[i] if i < len(sheet.running) else None


def sheet_form(
    protocol: Any, sheet: Sheet | None, row: str, post: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The row ``row`` as written so far (blank where nothing was copied), or as ``post``ed
    (a refused form keeps what was typed), per player: his pulya, gora and the whists he
    wrote on each other player."""
    names = protocol.players
    n = len(names)
    written = _written(sheet, row)

    def cell(p: int, field: str, value: Any) -> Any:
        if post is not None:
            return post.get(f"w_{p}_{field}", "")
        return value

    players = []
    for p in range(n):
        line = written[p] if written is not None and p < len(written) else None
        players.append(
            {
                "position": p,
                "name": names[p],
                "pulya": cell(p, "pulya", "" if line is None else line.pulya),
                "gora": cell(p, "gora", "" if line is None else line.gora),
                "others": [
                    {
                        "position": q,
                        "name": names[q],
                        "whists": cell(
                            p,
                            f"on_{q}",
                            "" if line is None or q >= len(line.whists) else line.whists[q],
                        ),
                    }
                    for q in range(n)
                    if q != p
                ],
            }
        )
    return {"row": row, "players": players, "copied": written is not None}


def _number(post: Mapping[str, Any], field: str, label: str) -> int | None:
    value = (post.get(field) or "").strip().replace("−", "-")
    if not value:
        return None
    try:
        return int(value)
    except ValueError:
        raise UserFacingError(
            _("%(label)s: %(value)r is not a whole number.") % {"label": label, "value": value},
            {"field": field, "rule": "4.2.5"},
        ) from None


def sheet_from_post(post: Mapping[str, Any], protocol: Any, sheet: Sheet | None) -> Sheet:
    """``sheet`` with the posted row (a blank form removes the row copied before)."""
    names = protocol.players
    n = len(names)
    row = str(post.get("sheet_row", ""))
    if row != FINAL and not (row.isdigit() and int(row) < len(protocol.deals)):
        raise UserFacingError(_("Choose the row of the sheet."), {"field": "sheet_row"})
    values: dict[str, int | None] = {}
    for p in range(n):
        values[f"w_{p}_pulya"] = _number(
            post, f"w_{p}_pulya", _("%(name)s, pulya") % {"name": names[p]}
        )
        values[f"w_{p}_gora"] = _number(
            post, f"w_{p}_gora", _("%(name)s, gora") % {"name": names[p]}
        )
        for q in range(n):
            if q != p:
                field = f"w_{p}_on_{q}"
                values[field] = _number(
                    post,
                    field,
                    _("%(name)s, whists on %(other)s") % {"name": names[p], "other": names[q]},
                )
    blank = all(v is None for v in values.values())
    line_row = None
    if not blank:  # a cell left empty is a 0 on paper
        line_row = tuple(
            SheetLine(
                values[f"w_{p}_pulya"] or 0,
                values[f"w_{p}_gora"] or 0,
                tuple(0 if q == p else values[f"w_{p}_on_{q}"] or 0 for q in range(n)),
            )
            for p in range(n)
        )
    sheet = sheet if sheet is not None else Sheet()
    if row == FINAL:
        return dataclasses.replace(sheet, final=line_row)
    i = int(row)
    running = list(sheet.running) + [None] * max(0, i + 1 - len(sheet.running))
    running[i] = line_row
    while running and running[-1] is None:  # no trailing empty rows
        running.pop()
    return dataclasses.replace(sheet, running=tuple(running))
