"""Incidents, rulings, appeals (001 §4.2.16) and the event's own penalties.

A ruling's penalty entries (computed by the rule family's domain face, :mod:`tournaments.families`
— for Russian :mod:`scoring.russian.penalties` — from the table's current record)
are merged into the pulka after the deal they concern; the table's record is then re-scored as
a new version (:func:`tournaments.services.protocols.protocol_rescore`) and the standings
follow. Everything is written to the append-only audit log.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tournaments.access.permissions import APPEALS, can_organise, can_referee, has_event_role
from tournaments.errors import UserFacingError
from tournaments.models import (
    Appeal,
    EntryKind,
    Event,
    EventPenalty,
    Incident,
    PenaltyDefinition,
    PenaltyKind,
    Protocol,
    Ruling,
    Seat,
    Table,
)
from tournaments.services.audit import audit_log
from tournaments.services.protocols import (
    protocol_rescore,
    schedule_standings,
    stored_protocol,
    table_header,
)
from tournaments.services.ruling_entries import _compute, ruling_entries
from tournaments.web_cache import versions as page_cache
from tournaments.words.rulings import ruling_in_words

__all__ = [
    "appeal_decide",
    "appeal_file",
    "INCIDENT_DEAL_MAX",
    "incident_record",
    "penalty_definition_create",
    "ruling_entries",
    "ruling_make",
]


def _require_referee(by, event: Event) -> None:
    if not can_referee(by, event):
        raise UserFacingError(_("Only a referee can do this."), {"field": "by"})


@transaction.atomic
def penalty_definition_create(
    *,
    event: Event,
    code: str,
    name: str,
    kind: str,
    whists: int = 0,
    gora: int = 0,
    rule: str = "",
    by,
) -> PenaltyDefinition:
    """The organiser defines one of the event's own penalties (warning, yellow card, …)."""
    if not can_organise(by, event):
        raise UserFacingError(
            _("Only an organiser can define the event's penalties."), {"field": "by"}
        )
    if kind not in PenaltyKind.values:
        raise UserFacingError(_("Unknown kind of penalty: %s") % kind, {"field": "kind"})
    if PenaltyDefinition.objects.filter(event=event, code=code).exists():
        raise UserFacingError(
            _("A penalty with the code %s exists already.") % code, {"field": "code"}
        )
    definition = PenaltyDefinition.objects.create(
        event=event, code=code, name=name, kind=kind, whists=whists, gora=gora, rule=rule
    )
    audit_log(
        event=event,
        action="penalty.defined",
        by=by,
        data={"code": code, "kind": kind, "whists": whists, "gora": gora},
    )
    return definition


#: the highest deal number an incident may name (a pulka has far fewer deals; a bound that the
#: column holds, issue 38)
INCIDENT_DEAL_MAX = 9999


@transaction.atomic
def incident_record(
    *,
    table: Table,
    description: str,
    by,
    deal: int | None = None,
    seats: list[int] | None = None,
    occurred_at: dt.datetime | None = None,
) -> Incident:
    """A referee records what happened at a table (time, deal, players)."""
    event = table.round.event
    _require_referee(by, event)
    if not description.strip():
        raise UserFacingError(_("Describe what happened."), {"field": "description"})
    if deal is not None and not 0 <= deal < INCIDENT_DEAL_MAX:
        raise UserFacingError(
            _("There is no deal %(n)d: deals are numbered from 1 to %(max)d.")
            % {"n": deal + 1, "max": INCIDENT_DEAL_MAX},
            {"field": "deal"},
        )
    positions = set(table.seats.values_list("position", flat=True))
    for s in seats or []:
        if s not in positions:
            raise UserFacingError(
                _("There is no seat %(n)d at this table.") % {"n": s + 1}, {"field": "seats"}
            )
    incident = Incident.objects.create(
        event=event,
        table=table,
        deal=deal,
        seats=list(seats or []),
        description=description,
        occurred_at=occurred_at or timezone.now(),
        reported_by=by,
    )
    audit_log(
        event=event,
        action="incident.recorded",
        by=by,
        reason=description,
        data={"incident": incident.pk, "table": table.pk, "deal": deal, "seats": incident.seats},
    )
    return incident


def _table_protocol(table: Table):
    current = Protocol.objects.filter(
        table=table, entry_kind=EntryKind.TABLE, is_current=True
    ).first()
    return stored_protocol(current.data) if current is not None else table_header(table)


@transaction.atomic
def ruling_make(
    *,
    incident: Incident,
    kind: str,
    reason: str,
    by,
    penalty_code: str = "",
    seat: int | None = None,
    params: dict[str, Any] | None = None,
    definition: PenaltyDefinition | None = None,
    replaces: Ruling | None = None,
    check_role: bool = True,
) -> Ruling:
    """A ruling on an incident; the pulka and the standings follow it."""
    table = incident.table
    event = incident.event
    if check_role:
        _require_referee(by, event)
    if kind not in Ruling.Kind.values:
        raise UserFacingError(_("Unknown kind of ruling: %s") % kind, {"field": "kind"})
    if not reason.strip():
        raise UserFacingError(_("Give the reason for the ruling."), {"field": "reason"})
    if seat is not None and seat not in set(table.seats.values_list("position", flat=True)):
        raise UserFacingError(
            _("There is no seat %(n)d at this table.") % {"n": seat + 1}, {"field": "seat"}
        )
    entries, rule, params = _compute(
        protocol=_table_protocol(table),
        deal=incident.deal,
        kind=kind,
        penalty_code=penalty_code,
        seat=seat,
        params=dict(params or {}),
        definition=definition,
    )
    ruling = Ruling.objects.create(
        incident=incident,
        kind=kind,
        penalty_code=penalty_code or (definition.code if definition else ""),
        definition=definition,
        seat=seat,
        rule=rule,
        params=params,
        entries=entries,
        after_deal=incident.deal,
        reason=reason,
        replaces=replaces,
        by=by if getattr(by, "is_authenticated", False) else None,
    )
    if (
        kind == Ruling.Kind.EVENT
        and definition is not None
        and seat is not None
        and (definition.kind != PenaltyKind.FIXED_GORA)
    ):
        sitter = Seat.objects.get(table=table, position=seat)
        EventPenalty.objects.create(
            event=event,
            entry=sitter.entry,
            round=table.round,
            kind=definition.kind,
            whists=-definition.whists if definition.kind == PenaltyKind.FIXED_WHISTS else 0,
            rule=definition.rule,
            reason=reason,
            definition=definition,
            ruling=ruling,
            by=ruling.by,
        )
    audit_log(
        event=event,
        action="ruling.made",
        by=by,
        reason=reason,
        data={
            "ruling": ruling.pk,
            "incident": incident.pk,
            "kind": kind,
            "code": ruling.penalty_code,
            "rule": rule,
            "seat": seat,
            "params": {k: str(v) for k, v in params.items()},
            "entries": entries,
            "replaces": replaces.pk if replaces else None,
        },
    )
    if entries:
        # in words, never the ruling's database id (issue 29), in the reader's language
        protocol_rescore(
            table=table,
            by=by,
            **_reason_said(
                gettext_noop("Ruling on %(ruling)s. Reason: %(reason)s"), ruling, reason=reason
            ),
        )
    schedule_standings(event.pk)
    return ruling


def _reason_said(text: str, ruling: Ruling, **params: str) -> dict[str, Any]:
    """A rescored version's ``reason`` (English, for the API and the log) and ``reason_words``
    (said again in the reader's language: the template, the ruling by its id, ``params`` as
    typed)."""
    words = {"text": text, "params": params, "param_words": {"ruling": {"ruling": ruling.pk}}}
    with translation.override("en"):
        english = _(text) % {**params, "ruling": ruling_in_words(ruling)}
    return {"reason": english, "reason_words": words}


def _deactivate(ruling: Ruling) -> None:
    Ruling.objects.filter(pk=ruling.pk).update(active=False)
    EventPenalty.objects.filter(ruling=ruling).update(active=False)
    page_cache.changed(
        event_id=ruling.incident.event_id, parts=(page_cache.EVENT, page_cache.STANDINGS)
    )


@transaction.atomic
def appeal_file(*, ruling: Ruling, grounds: str, entry=None, by=None) -> Appeal:
    """A player (or a referee on his behalf) appeals against a ruling (001 §4.2.16)."""
    event = ruling.incident.event
    if entry is None and not can_referee(by, event):
        raise UserFacingError(
            _("Only a player at the table or a referee can file an appeal."), {"field": "entry"}
        )
    if entry is not None and not ruling.incident.table.seats.filter(entry=entry).exists():
        raise UserFacingError(
            _("Only a player at the table can appeal against this ruling."), {"field": "entry"}
        )
    if not ruling.active:
        raise UserFacingError(_("This ruling is no longer in force."), {"field": "ruling"})
    if not grounds.strip():
        raise UserFacingError(_("Give the grounds of the appeal."), {"field": "grounds"})
    appeal = Appeal.objects.create(
        ruling=ruling,
        grounds=grounds,
        filed_by_entry=entry,
        filed_by=by if getattr(by, "is_authenticated", False) else None,
    )
    audit_log(
        event=event,
        action="appeal.filed",
        by=by,
        reason=grounds,
        data={
            "appeal": appeal.pk,
            "ruling": ruling.pk,
            "entry": entry.pk if entry is not None else None,
        },
    )
    return appeal


@transaction.atomic
def appeal_decide(
    *, appeal: Appeal, status: str, decision: str, by, new_ruling: dict[str, Any] | None = None
) -> Appeal:
    """The appeals committee decides: uphold, reverse, or change the ruling (``new_ruling``:
    the keyword arguments of :func:`ruling_make` for the replacement)."""
    appeal = (
        Appeal.objects.select_for_update()
        .select_related("ruling__incident__table")
        .get(pk=appeal.pk)
    )
    ruling = appeal.ruling
    incident = ruling.incident
    event = incident.event
    if not has_event_role(by, event, APPEALS):
        raise UserFacingError(_("Only the appeals committee decides appeals."), {"field": "by"})
    if appeal.status != Appeal.Status.PENDING:
        raise UserFacingError(_("This appeal has been decided already."), {"field": "status"})
    if status not in (Appeal.Status.UPHELD, Appeal.Status.REVERSED, Appeal.Status.CHANGED):
        raise UserFacingError(_("Unknown decision: %s") % status, {"field": "status"})
    if not decision.strip():
        raise UserFacingError(_("Give the committee's reasons."), {"field": "decision"})
    replacement = None
    if status != Appeal.Status.UPHELD:
        _deactivate(ruling)
    if status == Appeal.Status.CHANGED:
        if not new_ruling:
            raise UserFacingError(_("Give the ruling that replaces it."), {"field": "new_ruling"})
        replacement = ruling_make(
            incident=incident,
            by=by,
            replaces=ruling,
            check_role=False,
            **{"reason": decision, **new_ruling},
        )
    if (
        ruling.entries
        and (replacement is None or not replacement.entries)
        and (status != Appeal.Status.UPHELD)
    ):
        protocol_rescore(
            table=incident.table,
            by=by,
            **_reason_said(
                gettext_noop("Appeal decided: the ruling on %(ruling)s no longer applies"), ruling
            ),
        )
    appeal.status = status
    appeal.decision = decision
    appeal.decided_by = by
    appeal.decided_at = timezone.now()
    appeal.new_ruling = replacement
    appeal.save()
    audit_log(
        event=event,
        action="appeal.decided",
        by=by,
        reason=decision,
        data={
            "appeal": appeal.pk,
            "ruling": ruling.pk,
            "status": status,
            "new_ruling": replacement.pk if replacement else None,
        },
    )
    schedule_standings(event.pk)
    return appeal
