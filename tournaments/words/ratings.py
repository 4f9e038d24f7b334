"""Ratings in sentences (issue 41): a rating as people read it ("1,620 ±40"), a change and its
reason ("+12.4 — round 3, table 7: 1st of 3 against Ana (1,620, ±40) and Boris (1,580, ±55)"),
and the parts a change is made of.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.formats import number_format
from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from rules.variants import FAMILIES
from tournaments.convention_labels import family_name

__all__ = [
    "change_said",
    "list_title",
    "number",
    "parts_said",
    "place_said",
    "rating_said",
    "signed",
]


def number(value: float, decimals: int = 0) -> str:
    """A rating in the reader's language, grouped ("1,620", "1.620", "1 620")."""
    return number_format(round(value, decimals), decimals, use_l10n=True, force_grouping=True)


def signed(value: float, decimals: int = 1) -> str:
    """A change with its sign: "+12.4", "−3.0"."""
    said = number(abs(value), decimals)
    if round(value, decimals) > 0:
        return "+" + said
    if round(value, decimals) < 0:
        return "−" + said
    return said


def rating_said(shown: float, spread: float | None) -> str:
    """ "1,620, ±40" (a model without uncertainty: "1,620")."""
    if spread is None:
        return number(shown)
    return _("%(rating)s, ±%(spread)s") % {"rating": number(shown), "spread": number(spread)}


def place_said(place: int, tied: int, size: int) -> str:
    """ "1st of 3", "2nd–3rd of 3" (shared by a tie)."""
    if tied > 1:
        return _("places %(first)d–%(last)d of %(size)d") % {
            "first": place,
            "last": place + tied - 1,
            "size": size,
        }
    return _("place %(place)d of %(size)d") % {"place": place, "size": size}


def change_said(change: Mapping[str, Any], names: Mapping[int, str]) -> str:
    """One table's change and its reason (``change``: a stored change as
    ``selectors.ratings.person_history`` gives it; ``names``: the opponents' names)."""
    opponents = [
        _("%(name)s (%(rating)s)")
        % {"name": names.get(o[0], "?"), "rating": rating_said(o[1], o[2])}
        for o in change["opponents"]
    ]
    return _("%(change)s — round %(round)d, table %(table)d: %(place)s against %(opponents)s") % {
        "change": signed(change["change"]),
        "round": change["round"],
        "table": change["table"],
        "place": place_said(change["place"], change["tied"], change["size"]),
        "opponents": get_text_list(opponents, _("and")),
    }


def parts_said(parts: Sequence[Sequence[Any]], names: Mapping[int, str]) -> list[str]:
    """The parts of a change, each in a few words: what the model's reasons add up to."""
    said = []
    for key, value, person in parts:
        if key == "skill":
            said.append(_("skill %(value)s") % {"value": signed(value)})
        elif key == "certainty":
            said.append(_("certainty %(value)s") % {"value": signed(value)})
        elif key == "against":
            said.append(
                _("against %(name)s %(value)s")
                % {"name": names.get(person, "?"), "value": signed(value, 2)}
            )
        elif key == "rounding":
            said.append(pgettext("rating", "rounding %(value)s") % {"value": signed(value, 2)})
    return said


def list_title(rating: Any) -> str:
    """A rating list's title in the reader's language: a family's own list is named by its
    family ("Croatian / Serbian / Slovenian Preference"), another by the name its organiser
    gave it."""
    if rating.organisation_id is None and rating.series_id is None and rating.slug == rating.family:
        found = FAMILIES.get(rating.family)
        if found is not None:
            return family_name(found)
    return rating.name
