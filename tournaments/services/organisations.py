"""Organisations (issue 39): a club, a league or a federation created and run from Pulka's own
pages: its name and kind, and its organisers and referees (the roles events have; an
organisation's organisers create its series and events). Every write here checks its input and
raises :class:`~tournaments.errors.UserFacingError` naming the field.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.errors import UserFacingError
from tournaments.models import Organisation, OrganisationRole
from tournaments.services.accounts import staff_account
from tournaments.services.audit import organisation_log

__all__ = [
    "organisation_create",
    "organisation_role_revoke",
    "organisation_staff_add",
    "organisation_update",
]

FIELDS = ("name", "kind", "city")


def _checked(fields: dict[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(fields) - set(FIELDS))
    if unknown:
        raise UserFacingError(
            _("Unknown field %(field)s.") % {"field": unknown[0]}, {"field": unknown[0]}
        )
    checked = {k: str(v).strip() for k, v in fields.items()}
    if "name" in checked and not checked["name"]:
        raise UserFacingError(_("An organisation needs a name."), {"field": "name"})
    if "kind" in checked and checked["kind"] not in Organisation.Kind.values:
        raise UserFacingError(
            _("Unknown kind %(kind)s: a club, a league or a federation.")
            % {"kind": checked["kind"]},
            {"field": "kind"},
        )
    return checked


@transaction.atomic
def organisation_create(
    *, slug: str, name: str, kind: str = Organisation.Kind.CLUB, city: str = "", by
) -> Organisation:
    """A new club, league or federation; ``by`` becomes its first organiser.

    :raises UserFacingError: the short name taken or not a short name, no name, an unknown kind.
    """
    slug = (slug or "").strip()
    try:
        validate_slug(slug)
    except ValidationError as exc:
        raise UserFacingError(" ".join(exc.messages), {"field": "slug"}) from exc
    if Organisation.objects.filter(slug=slug).exists():
        raise UserFacingError(
            _("The short name %(slug)s is taken.") % {"slug": slug}, {"field": "slug"}
        )
    fields = _checked({"name": name, "kind": kind, "city": city})
    organisation = Organisation.objects.create(slug=slug, **fields)
    OrganisationRole.objects.create(
        organisation=organisation, user=by, role=OrganisationRole.Role.ORGANISER
    )
    organisation_log(
        organisation=organisation,
        action="role.granted",
        by=by,
        data={"user": by.get_username(), "role": OrganisationRole.Role.ORGANISER},
    )
    return organisation


@transaction.atomic
def organisation_update(*, organisation: Organisation, by=None, **fields: Any) -> Organisation:
    """Change an organisation's name, kind or city."""
    checked = _checked(fields)
    Organisation.objects.filter(pk=organisation.pk).update(**checked)
    organisation.refresh_from_db()
    return organisation


@transaction.atomic
def organisation_staff_add(
    *, organisation: Organisation, username: str, role: str, by=None
) -> tuple[OrganisationRole, str]:
    """Give ``username`` a role in the organisation, creating the account if there is none
    (as an event's staff page does).

    :returns: the role and, for a new account, its password (shown once to the organiser who
        hands it over; ``""`` for an account that existed).
    """
    if role not in OrganisationRole.Role.values:
        raise UserFacingError(_("Unknown role %(role)s.") % {"role": role}, {"field": "role"})
    user, password = staff_account(username)
    if password:
        organisation_log(
            organisation=organisation,
            action="account.created",
            by=by,
            data={"user": user.get_username()},
        )
    granted, _created = OrganisationRole.objects.get_or_create(
        organisation=organisation, user=user, role=role
    )
    # logged as an event's role is (``services.events.event_role_grant``): every grant
    organisation_log(
        organisation=organisation,
        action="role.granted",
        by=by,
        data={"user": user.get_username(), "role": role},
    )
    return granted, password


@transaction.atomic
def organisation_role_revoke(*, role: OrganisationRole, by=None) -> None:
    """Take a role away; the organisation's last organiser stays."""
    organisers = OrganisationRole.objects.select_for_update().filter(
        organisation_id=role.organisation_id, role=OrganisationRole.Role.ORGANISER
    )
    if role.role == OrganisationRole.Role.ORGANISER and not organisers.exclude(pk=role.pk).exists():
        raise UserFacingError(
            _(
                "An organisation keeps at least one organiser; grant the role to another person "
                "first."
            ),
            {"field": "role"},
        )
    data = {"user": role.user.get_username(), "role": role.role}
    role.delete()
    organisation_log(
        organisation=Organisation.objects.get(pk=role.organisation_id),
        action="role.revoked",
        by=by,
        data=data,
    )
