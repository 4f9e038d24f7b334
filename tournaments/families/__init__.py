"""The rule families' domain face on the Django side: what each family decides about a table's
record. Who deals next, the result rows a version stores, what a save keeps that the event does
not set (Priffe's seating per sits), where a ruling's penalty entry goes and what it is in the
family's own deals, what a catalogue penalty or an adjusted result writes, the game's size, the
rules the round pages cite. Plain objects over the scoring registry's (:mod:`scoring.variants`),
registered here by the family's key: no forms, templates or requests.

Who may import it: services, selectors, words, the page face and everything above them. It
imports only the pure packages (``scoring``, ``rules``) and :mod:`tournaments.errors`, never a
model, a selector, a service or a page. Each family's pages — its forms, templates and words —
are its page face, :mod:`tournaments.variants`, whose adapters extend these classes and which
only views, PDFs, words, template tags and forms use.

Adding a family: register its variant in ``scoring.variants``, its domain face here
(:data:`DOMAINS`, a module of this package) and its page face in :mod:`tournaments.variants`.
Nothing on the Django side branches on a family's name (``tests/tournaments/test_registry_layering.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scoring.variants import Variant, find_variant, variant_for_convention, variant_of

from .balkan import BalkanDomain
from .base import FamilyDomain
from .pot import PotDomain
from .priffe import PriffeDomain
from .russian import RussianDomain

if TYPE_CHECKING:
    from tournaments.models import Event

__all__ = [
    "DOMAINS",
    "FamilyDomain",
    "domain_for",
    "domain_of_event",
    "domain_of_protocol",
    "event_convention",
    "event_variant",
    "playable",
]

#: each playable family's domain face, by family key
DOMAINS: dict[str, FamilyDomain] = {
    d.key: d for d in (RussianDomain(), BalkanDomain(), PotDomain(), PriffeDomain())
}


def playable(family_key: str) -> bool:
    """Whether a rule family has tournament pages (an adapter) yet: events take only those."""
    return family_key in DOMAINS


def event_variant(event: Event) -> Variant:
    """The registered variant of the event's convention (``Event.variant`` holds its key)."""
    return variant_for_convention(event.variant)


def event_convention(event: Event) -> Any:
    """The event's convention with its options applied (``rules``' parameter set), and with
    its game size where the family plays it as an option (a pot game's stake, issue 36): the
    same convention the protocol's header scores with."""
    family = event_variant(event).family
    options = domain_of_event(event).sized_options(
        event.variant, event.pulka_target, dict(event.convention_options or {})
    )
    return family.find(event.variant).with_options(**options)


def domain_for(variant: Variant | str) -> FamilyDomain:
    """The domain face of a variant, a family key, or a convention key or alias.

    :raises rules.conventions.InvalidConventionError: for a name nobody knows.
    :raises LookupError: for a registered family without a Django home.
    """
    key = variant.key if isinstance(variant, Variant) else find_variant(variant).key
    try:
        return DOMAINS[key]
    except KeyError:
        raise LookupError(f"no tournament pages for the rule family {key!r} yet") from None


def domain_of_event(event: Event) -> FamilyDomain:
    return domain_for(event_variant(event))


def domain_of_protocol(protocol: Any) -> FamilyDomain:
    """The domain face of a family's protocol object."""
    return domain_for(variant_of(protocol))
