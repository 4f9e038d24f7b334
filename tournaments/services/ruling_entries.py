"""What a ruling writes into a table's record: its penalty entries in the stored neutral JSON,
computed by the rule family's domain face (:mod:`tournaments.families`: a catalogue penalty, an
adjusted result) or from the event's own penalty, again on every save of the record
(:mod:`tournaments.services.protocol_checks`) and when the ruling is made
(:mod:`tournaments.services.rulings`)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_noop

from tournaments.errors import UserFacingError
from tournaments.families import domain_of_protocol
from tournaments.models import PenaltyDefinition, PenaltyKind, Ruling

__all__ = ["ruling_entries"]


def _compute(
    *,
    protocol,
    deal: int | None,
    kind: str,
    penalty_code: str,
    seat: int | None,
    params: dict[str, Any],
    definition: PenaltyDefinition | None,
) -> tuple[list[dict[str, Any]], str, dict[str, Any]]:
    """The entries a ruling writes into ``protocol`` (a scoring protocol), its rule reference and
    its (completed) parameters; the same inputs always give the same entries."""
    family = domain_of_protocol(protocol)
    params_field = {"field": "params", "rule": penalty_code}
    try:
        if kind == Ruling.Kind.CATALOGUE:
            entry = next((p for p in family.catalogue if p.code == penalty_code.upper()), None)
            if entry is None:  # the form's own field, in words (not the code's repr)
                if not penalty_code.strip():
                    raise UserFacingError.said(
                        gettext_noop("Choose the penalty from the rules."),
                        extra={"field": "penalty_code"},
                    )
                raise UserFacingError.said(
                    gettext_noop("%(code)s is not a penalty of the rules."),
                    {"code": penalty_code},
                    {"field": "penalty_code"},
                )
            if seat is None:
                raise UserFacingError.said(gettext_noop("Choose the offender."), extra=params_field)
            entries = family.catalogue_entries(
                entry.code, protocol, deal=deal, seat=seat, params=params
            )
            return [family.penalty_to_json(e) for e in entries], entry.rule, params
        if kind == Ruling.Kind.ADJUSTED:  # e.g. 001 §3.8.5.1 Б
            if deal is None or deal >= len(protocol.deals):
                raise UserFacingError.said(
                    gettext_noop("An adjusted result needs the deal."), extra=params_field
                )
            adjusted, rule, params = family.adjusted_entries(protocol, deal, params)
            return [family.penalty_to_json(e) for e in adjusted], rule, params
    except (KeyError, ValueError, TypeError) as exc:  # in the reader's language, seats named
        names = dict(enumerate(getattr(protocol, "players", ()) or ()))
        raise UserFacingError.of(exc, params_field, names) from exc
    if kind == Ruling.Kind.EVENT:
        if definition is None:
            raise UserFacingError.said(
                gettext_noop("Choose one of the event's penalties."), extra={"field": "definition"}
            )
        if seat is None:
            raise UserFacingError.said(
                gettext_noop("Choose the offender."), extra={"field": "seat"}
            )
        if definition.kind == PenaltyKind.FIXED_GORA:
            return (
                [
                    {
                        "player": seat,
                        "rule": definition.rule or definition.code,
                        "gora": definition.gora,
                        "pulya": 0,
                        "whists": [],
                        "note": definition.code,
                    }
                ],
                definition.rule,
                params,
            )
        return [], definition.rule, params
    return [], "", params


def ruling_entries(ruling: Ruling, protocol) -> list[dict[str, Any]]:
    """What ``ruling`` writes into ``protocol`` as it stands now: the entries are computed again
    on every save, so a deal corrected after the ruling is penalised as corrected.

    :raises UserFacingError: when the ruling no longer applies (e.g. the deal was deleted).
    """
    entries, _rule, _params = _compute(
        protocol=protocol,
        deal=ruling.incident.deal,
        kind=ruling.kind,
        penalty_code=ruling.penalty_code,
        seat=ruling.seat,
        params=dict(ruling.params),
        definition=ruling.definition,
    )
    return entries
