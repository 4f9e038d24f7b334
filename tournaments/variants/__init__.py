"""The Django side's one place that knows a rule family's own pages: its UI adapters.

Everything a family shares with the others goes through the variant registry
(:mod:`scoring.variants`: read, write, score, check, settle, tie-break statistics). What is
genuinely a family's own on the Django side — the deal entry form of the table's phone page, the
rows the pulka view and the filled PDF show, the sheet PDF layout, the penalties catalogue and
what a ruling writes, the titles of its findings — is a :class:`FamilyUI` registered here by the
family's key. Views, selectors and services look the adapter up with :func:`ui_for` and never
branch on a family's or a convention's name (``tests/tournaments/test_registry_layering.py``).

Adding a family: register its variant in ``scoring.variants`` and its adapter in ``ADAPTERS``
(a module here, with its templates).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scoring.variants import Variant, find_variant, variant_for_convention

from .base import FamilyUI, PulkaCells

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


def _adapters() -> dict[str, FamilyUI]:
    from .balkan import BalkanUI
    from .pot import PotUI
    from .priffe import PriffeUI
    from .russian import RussianUI

    return {ui.key: ui for ui in (RussianUI(), BalkanUI(), PotUI(), PriffeUI())}


ADAPTERS: dict[str, FamilyUI] = _adapters()


def playable(family_key: str) -> bool:
    """Whether a rule family has tournament pages (an adapter) yet: events take only those."""
    return family_key in ADAPTERS


def event_variant(event: Event) -> Variant:
    """The registered variant of the event's convention (``Event.variant`` holds its key)."""
    return variant_for_convention(event.variant)


def event_convention(event: Event) -> Any:
    """The event's convention with its options applied (``rules``' parameter set)."""
    family = event_variant(event).family
    return family.find(event.variant).with_options(**(event.convention_options or {}))


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
    from scoring.variants import variant_of

    return ui_for(variant_of(protocol))
