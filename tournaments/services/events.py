"""Creating and configuring events; their variant is validated against ``rules``."""

from __future__ import annotations

import datetime as dt
import secrets
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from rules.conventions import InvalidConventionError, find_convention
from tournaments.errors import UserFacingError
from tournaments.models import Event, EventRole
from tournaments.services.audit import audit_log

__all__ = [
    "event_create",
    "event_role_grant",
    "event_role_revoke",
    "event_staff_add",
    "event_update",
    "validate_tiebreaks",
    "validate_variant",
]

_EDITABLE = {
    "name",
    "starts_on",
    "ends_on",
    "venue",
    "variant",
    "convention_options",
    "pulka_target",
    "deals_per_round",
    "round_time_limit",
    "table_size_policy",
    "rounds_planned",
    "default_draw_method",
    "separate_clubs",
    "tiebreaks",
    "double_entry",
    "published",
}


def validate_variant(variant: str, options: dict[str, Any] | None) -> tuple[str, dict[str, Any]]:
    """The convention's canonical key and the validated options.

    :raises UserFacingError: naming the field (``variant`` or ``convention_options``).
    """
    try:
        convention = find_convention(variant)
    except InvalidConventionError as exc:
        raise UserFacingError(str(exc), {"field": "variant"}) from exc
    options = dict(options or {})
    try:
        convention.with_options(**options)
    except (InvalidConventionError, TypeError) as exc:
        raise UserFacingError(str(exc), {"field": "convention_options"}) from exc
    return convention.key, options


def validate_tiebreaks(tiebreaks: Any) -> list[Any]:
    """The tie-break chain, checked against the standings metrics.

    :raises UserFacingError: naming the field ``tiebreaks`` and the bad key.
    """
    from tournaments.standings.table import config_from_json

    if tiebreaks is None:
        return []
    if not isinstance(tiebreaks, list):
        raise UserFacingError(_("The tie-break chain must be a list."), {"field": "tiebreaks"})
    try:
        config_from_json(tiebreaks)
    except (ValueError, TypeError) as exc:
        raise UserFacingError(str(exc), {"field": "tiebreaks"}) from exc
    return tiebreaks


@transaction.atomic
def event_create(
    *,
    slug: str,
    name: str,
    starts_on: dt.date,
    ends_on: dt.date | None = None,
    by=None,
    **fields: Any,
) -> Event:
    unknown = set(fields) - _EDITABLE
    if unknown:
        raise UserFacingError(_("Unknown event fields: %s") % ", ".join(sorted(unknown)))
    if Event.objects.filter(slug=slug).exists():
        raise UserFacingError(
            _("An event with the short name %(slug)s exists already.") % {"slug": slug},
            {"field": "slug"},
        )
    ends_on = ends_on or starts_on
    if ends_on < starts_on:
        raise UserFacingError(_("The last day is before the first day."), {"field": "ends_on"})
    fields["variant"], fields["convention_options"] = validate_variant(
        fields.get("variant", "sochi"), fields.get("convention_options")
    )
    fields["tiebreaks"] = validate_tiebreaks(fields.get("tiebreaks"))
    event = Event.objects.create(
        slug=slug, name=name, starts_on=starts_on, ends_on=ends_on, **fields
    )
    if by is not None and getattr(by, "is_authenticated", False):
        EventRole.objects.get_or_create(event=event, user=by, role=EventRole.Role.ORGANISER)
    audit_log(event=event, action="event.created", by=by, data={"slug": slug})
    return event


@transaction.atomic
def event_update(*, event: Event, by=None, **fields: Any) -> Event:
    unknown = set(fields) - _EDITABLE
    if unknown:
        raise UserFacingError(_("Unknown event fields: %s") % ", ".join(sorted(unknown)))
    if "variant" in fields or "convention_options" in fields:
        fields["variant"], fields["convention_options"] = validate_variant(
            fields.get("variant", event.variant),
            fields.get("convention_options", event.convention_options),
        )
    if "tiebreaks" in fields:
        fields["tiebreaks"] = validate_tiebreaks(fields["tiebreaks"])
    for name, value in fields.items():
        setattr(event, name, value)
    event.full_clean(exclude=["slug"])
    event.save()
    audit_log(
        event=event, action="event.updated", by=by, data={k: str(v) for k, v in fields.items()}
    )
    return event


def event_role_grant(*, event: Event, user, role: str, by=None) -> EventRole:
    if role not in EventRole.Role.values:
        raise UserFacingError(_("Unknown role %(role)s.") % {"role": role}, {"field": "role"})
    obj, _created = EventRole.objects.get_or_create(event=event, user=user, role=role)
    audit_log(
        event=event, action="role.granted", by=by, data={"user": user.get_username(), "role": role}
    )
    return obj


@transaction.atomic
def event_role_revoke(*, role: EventRole, by=None) -> None:
    """Take a role away; the event's last organiser stays."""
    event = role.event
    if (
        role.role == EventRole.Role.ORGANISER
        and not EventRole.objects.filter(event=event, role=EventRole.Role.ORGANISER)
        .exclude(pk=role.pk)
        .exists()
    ):
        raise UserFacingError(
            _("An event keeps at least one organiser; grant the role to another person first."),
            {"field": "role"},
        )
    data = {"user": role.user.get_username(), "role": role.role}
    role.delete()
    audit_log(event=event, action="role.revoked", by=by, data=data)


@transaction.atomic
def event_staff_add(*, event: Event, username: str, role: str, by=None) -> tuple[EventRole, str]:
    """Give ``username`` a role in the event, creating the account if there is none.

    :returns: the role and, for a new account, its password (shown once to the organiser, who
        hands it over; ``""`` for an account that existed).
    """
    from django.contrib.auth import get_user_model
    from django.contrib.auth.validators import UnicodeUsernameValidator
    from django.core.exceptions import ValidationError

    username = (username or "").strip()
    try:
        UnicodeUsernameValidator()(username)
    except ValidationError as exc:
        raise UserFacingError(" ".join(exc.messages), {"field": "username"}) from exc
    users = get_user_model()
    user = users.objects.filter(username=username).first()
    password = ""
    if user is None:
        password = secrets.token_urlsafe(9)
        user = users.objects.create_user(username=username, password=password)
        audit_log(event=event, action="account.created", by=by, data={"user": username})
    return event_role_grant(event=event, user=user, role=role, by=by), password
