"""A table's record as its family's objects, family-neutral: a stored protocol document and
written sheet read through the registry (:mod:`scoring.variants`), the active rulings' penalty
entries merged into the deals (each family placing and reading its own entries), a penalty
entry in the stored neutral JSON, the deals in their family's text notation. Pure functions
over the registry's objects, for services, selectors and pages alike."""

from __future__ import annotations

from typing import Any

from scoring.variants import read_json_document, variant_of

from . import domain_of_protocol

__all__ = [
    "ScoringProtocol",
    "Sheet",
    "deal_lines",
    "effective_protocol",
    "penalty_to_json",
    "stored_protocol",
    "stored_sheet",
]

ScoringProtocol = Any  # a family's protocol object (scoring.variants.Variant.protocol_type)
Sheet = Any  # a family's written sheet


def stored_protocol(data: Any) -> ScoringProtocol:
    """A stored protocol document (``Protocol.data``) as its family's protocol object."""
    return read_json_document(data)[1]


def stored_sheet(protocol: ScoringProtocol, data: Any) -> Sheet | None:
    """A stored written sheet (``Protocol.sheet``) of ``protocol``'s family, or ``None``."""
    return variant_of(protocol).sheet_from_dict(data) if data else None


def effective_protocol(
    protocol: ScoringProtocol, applied: list[dict[str, Any]]
) -> tuple[ScoringProtocol, list[int | None]]:
    """The protocol with the rulings' penalty entries (``[{"after_deal", "entries"}]``, in the
    order the rulings were made) inserted after their deals, and for each deal of the result its
    index in ``protocol.deals`` (``None`` for a ruling's entry)."""
    family = domain_of_protocol(protocol)
    after: dict[int, list[Any]] = {}
    at_end: list[Any] = []
    for item in applied:
        anchor = item.get("after_deal")
        placed = family.penalty_placement(protocol, anchor)
        entries = [family.penalty_from_json({**placed, **e}) for e in item["entries"]]
        if anchor is None or anchor >= len(protocol.deals):
            at_end.extend(entries)
        else:
            after.setdefault(anchor, []).extend(entries)
    deals: list[Any] = []
    origin: list[int | None] = []
    for i, deal in enumerate(protocol.deals):
        deals.append(deal)
        origin.append(i)
        for extra in after.get(i, []):
            deals.append(extra)
            origin.append(None)
    deals.extend(at_end)
    origin.extend([None] * len(at_end))
    return protocol.with_deals(tuple(deals)), origin


def penalty_to_json(protocol: ScoringProtocol, entry: Any) -> dict[str, Any]:
    """A penalty entry of ``protocol``'s family in the stored (neutral) JSON form."""
    return domain_of_protocol(protocol).penalty_to_json(entry)


def deal_lines(protocol: ScoringProtocol) -> list[str]:
    """Each deal in its family's canonical text notation (for showing differences)."""
    variant = variant_of(protocol)
    try:
        return [variant.deal_text(protocol, i) for i in range(len(protocol.deals))]
    except ValueError:
        return [repr(d) for d in protocol.deals]
