"""What a ruling wrote into a pulka, in words: "Сергей Морозов: 5 into the gora (3.2.21,
looked at the talon)", never the entry's JSON or a 0-based seat (issue 29). Used by the filled
protocol's PDF; the entries are the scoring module's penalty entries (``{"type": "penalty",
"player": seat, "gora": n, "pulya": n, "whists": [[on, n]], "rule": …, "note": …}``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

__all__ = ["penalty_entry_words"]


def _name(names: list[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return _("seat %(n)s") % {"n": seat + 1 if isinstance(seat, int) else seat}


def penalty_entry_words(
    entry: dict[str, Any], names: list[str], terms: Mapping[str, Any] | None = None
) -> str:
    """One penalty entry in the current language, with players' names; ``terms``: a rule
    family's own words for what the neutral entry's ``gora``, ``pulya`` and ``whists`` are on
    its sheet (``FamilyUI.penalty_terms``: "%(n)s into the pot", "to %(name)s: %(n)s"), else
    the Russian pulka's (the gora, the pulya, whists).

    >>> penalty_entry_words({"player": 1, "gora": 5, "rule": "3.2.21"}, ["Anna", "Boris", "Vera"])
    'Boris: 5 into the gora (3.2.21)'
    """
    if terms is not None:
        return _in_terms(entry, names, terms)
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


def _in_terms(entry: dict[str, Any], names: list[str], terms: Mapping[str, Any]) -> str:
    """:func:`penalty_entry_words` in a family's ``terms``.

    >>> terms = {"gora": "%(n)s into the pot", "whists": "to %(name)s: %(n)s"}
    >>> _in_terms({"player": 0, "gora": 20, "whists": [[2, 5]], "rule": "R"}, ["A", "B", "C"], terms)
    'A: 20 into the pot, to C: 5 (R)'
    """
    parts = []
    for key in ("gora", "pulya"):
        amount = entry.get(key) or 0
        if amount and key in terms:
            parts.append(str(terms[key]) % {"n": amount})
    for pair in entry.get("whists") or ():
        try:
            on, count = pair
        except (TypeError, ValueError):
            continue
        if "whists" in terms:
            parts.append(str(terms["whists"]) % {"n": count, "name": _name(names, on)})
    what = ", ".join(parts) or _("nothing written")
    why = ", ".join(str(x) for x in (entry.get("rule"), entry.get("note")) if x)
    text = f"{_name(names, entry.get('player'))}: {what}"
    return f"{text} ({why})" if why else text
