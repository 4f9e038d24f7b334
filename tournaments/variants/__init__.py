"""The rule families' page face on the Django side: their UI adapters.

Everything a family shares with the others goes through the variant registry
(:mod:`scoring.variants`: read, write, score, check, settle, tie-break statistics); what a
family decides about a table's record (who deals next, the result rows, where a penalty goes)
is its domain face, :mod:`tournaments.families`. What is a family's own pages — the deal entry
form of the table's phone page, the cells the pulka view and the filled PDF show, the sheet PDF
layout, the words of its deals, penalties and findings — is a :class:`FamilyUI` registered here
by the family's key; each adapter extends its family's domain face.

Who may import it: views, the API, PDFs, words, template tags and forms, which look the adapter
up with :func:`ui_for` and never branch on a family's or a convention's name
(``tests/tournaments/test_registry_layering.py``). Services and selectors use the domain face
instead. It imports the domain face, selectors, models and the pure packages; never a service.

Adding a family: register its variant in ``scoring.variants``, its domain face in
:mod:`tournaments.families` and its adapter in ``ADAPTERS`` (a module here, with its templates).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scoring.variants import Variant, find_variant, variant_of
from tournaments.families import event_convention, event_variant, playable

from .balkan import BalkanUI
from .base import FamilyUI, PulkaCells
from .pot import PotUI
from .priffe import PriffeUI
from .russian import RussianUI

if TYPE_CHECKING:
    from tournaments.models import Event

__all__ = [
    "ADAPTERS",
    "FamilyUI",
    "PulkaCells",
    "event_convention",
    "event_variant",
    "playable",
    "ui_for",
    "ui_of_event",
    "ui_of_protocol",
]


#: each family's page face, by family key (the families of :data:`tournaments.families.DOMAINS`)
ADAPTERS: dict[str, FamilyUI] = {
    ui.key: ui for ui in (RussianUI(), BalkanUI(), PotUI(), PriffeUI())
}


def ui_for(variant: Variant | str) -> FamilyUI:
    """The UI adapter of a variant, a family key, or a convention key or alias.

    :raises rules.conventions.InvalidConventionError: for a name nobody knows.
    :raises LookupError: for a registered family without a Django adapter.
    """
    key = variant.key if isinstance(variant, Variant) else find_variant(variant).key
    try:
        return ADAPTERS[key]
    except KeyError:
        raise LookupError(f"no tournament pages for the rule family {key!r} yet") from None


def ui_of_event(event: Event) -> FamilyUI:
    return ui_for(event_variant(event))


def ui_of_protocol(protocol: Any) -> FamilyUI:
    """The adapter of a family's protocol object."""
    return ui_for(variant_of(protocol))
