"""What a ruling wrote into a pulka, in words: "Сергей Морозов: 5 into the gora (3.2.21,
looked at the talon)", never the entry's JSON or a 0-based seat (issue 29). Used by the filled
protocol's PDF; the entries are the scoring module's penalty entries (``{"type": "penalty",
"player": seat, "gora": n, "pulya": n, "whists": [[on, n]], "rule": …, "note": …}``)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

__all__ = ["penalty_entry_words"]


def _name(names: list[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return _("seat %(n)s") % {"n": seat + 1 if isinstance(seat, int) else seat}


def penalty_entry_words(entry: dict[str, Any], names: list[str]) -> str:
    """One penalty entry in the current language, with players' names.

    >>> penalty_entry_words({"player": 1, "gora": 5, "rule": "3.2.21"}, ["Anna", "Boris", "Vera"])
    'Boris: 5 into the gora (3.2.21)'
    """
    parts = []
    gora = entry.get("gora") or 0
    if gora:
        parts.append(ngettext("%(n)d into the gora", "%(n)d into the gora", gora) % {"n": gora})
    pulya = entry.get("pulya") or 0
    if pulya:
        parts.append(ngettext("%(n)d into the pulya", "%(n)d into the pulya", pulya) % {"n": pulya})
    for pair in entry.get("whists") or ():
        try:
            on, count = pair
        except (TypeError, ValueError):
            continue
        parts.append(
            ngettext("%(n)d whist on %(name)s", "%(n)d whists on %(name)s", count)
            % {"n": count, "name": _name(names, on)}
        )
    what = ", ".join(parts) or _("nothing written")
    why = ", ".join(str(x) for x in (entry.get("rule"), entry.get("note")) if x)
    text = f"{_name(names, entry.get('player'))}: {what}"
    return f"{text} ({why})" if why else text
