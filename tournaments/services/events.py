"""Creating and configuring events; their convention (of any rule family) is validated against
``rules.variants``, and the family decides the table sizes and what the game's size is called."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from rules.conventions import InvalidConventionError
from rules.variants import Family, family_of_convention
from scoring.variants import variant_for_convention
from tournaments import rule_sources
from tournaments.access import lockout
from tournaments.convention_labels import convention_error, convention_name, family_name
from tournaments.errors import UserFacingError
from tournaments.families import playable
from tournaments.models import Event, EventRole, Protocol
from tournaments.models.event import TableSizePolicy
from tournaments.selectors.standings import metric_label
from tournaments.services.accounts import staff_account
from tournaments.services.audit import audit_log
from tournaments.services.standings import standings_schedule
from tournaments.standings.errors import StandingsConfigError
from tournaments.standings.metrics import tiebreak_keys_for
from tournaments.standings.scores import ROUND_SCORES, round_score_keys_for
from tournaments.standings.table import config_from_json

__all__ = [
    "POLICY_SIZES",
    "event_create",
    "event_defaults",
    "event_lockout_lift",
    "event_table_policy",
    "event_role_grant",
    "event_role_revoke",
    "event_staff_add",
    "event_update",
    "standings_configure",
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
    "fours_remainder",
    "sit_out_score",
    "rounds_planned",
    "default_draw_method",
    "separate_clubs",
    "tiebreaks",
    "double_entry",
    "published",
    "organisation",  # the club, league or federation that runs it (issue 39)
}


#: the table sizes each policy seats
POLICY_SIZES: dict[str, tuple[int, ...]] = {
    TableSizePolicy.THREE: (3,),
    TableSizePolicy.FOUR: (4,),
    TableSizePolicy.MIXED: (3, 4),
    TableSizePolicy.MIXED_PREFER_FOUR: (3, 4),
}


def validate_variant(variant: str, options: dict[str, Any] | None) -> tuple[str, dict[str, Any]]:
    """The convention's canonical key (of any rule family) and the validated options.

    :raises UserFacingError: naming the field (``variant`` or ``convention_options``).
    """
    try:
        family = family_of_convention(variant)
        convention = family.find(variant)
    except InvalidConventionError as exc:
        raise _convention_error(exc, None, {"field": "variant"}) from exc
    if not playable(family.key):
        raise UserFacingError(
            _("Tournaments cannot be played in %(family)s yet.") % {"family": family_name(family)},
            {"field": "variant"},
        )
    options = dict(options or {})
    try:
        convention.with_options(**options)
    except (InvalidConventionError, TypeError) as exc:
        raise _convention_error(exc, family, {"field": "convention_options"}) from exc
    return convention.key, options


def _convention_error(
    exc: Exception, family: Family | None, extra: dict[str, Any]
) -> UserFacingError:
    """A convention's error in the reader's language, its options by their labels (the rule
    text's English message where it has no words)."""
    text, params = convention_error(exc, family)
    if text is None:
        return UserFacingError(rule_sources.cited_in(str(exc)), extra)
    return UserFacingError(_(text) % params, extra, text=text, params=params)


def _tiebreaks_of(variant: str | None) -> tuple[str, ...] | None:
    """The tie-break keys offered for the convention's family (``None``: any)."""
    if variant is None:
        return None
    try:
        return tiebreak_keys_for(variant_for_convention(variant).stat_keys)
    except InvalidConventionError:
        return None


def round_scores_of(variant: str | None) -> tuple[str, ...] | None:
    """The round scores offered for the convention's tables (``None``: any): normalising tables
    of four to three only where the convention seats both sizes (not German Préférence, 003
    "Spieler: 3", whose family also seats four for Vienna)."""
    if variant is None:
        return None
    try:
        family = family_of_convention(variant)
    except InvalidConventionError:
        return None
    return round_score_keys_for(_sizes(family, variant))


def _sizes(family: Family, convention: str | None) -> tuple[int, ...]:
    if convention is None:
        return family.table_sizes
    try:
        return family.table_sizes_of(convention)
    except InvalidConventionError:
        return family.table_sizes


def _fits_family(family: Family, policy: str, convention: str | None = None) -> bool:
    return set(POLICY_SIZES.get(policy, (3, 4))) <= set(_sizes(family, convention))


def validate_table_policy(
    family: Family, policy: str | None, convention: str | None = None
) -> str | None:
    """The table-size policy for a family (or one of its conventions): its own when it seats
    one size only (the Balkan games: tables of three, seed 002; German Préférence, 003), the
    organiser's choice otherwise.

    :raises UserFacingError: a policy seating sizes the family does not play (field
        ``table_size_policy``).
    """
    if policy is None:
        return None
    if policy not in TableSizePolicy.values:  # the draw would find no sizes for it (issue 38)
        raise UserFacingError(
            _("%(value)r is not a table-size policy; choose one of %(choices)s.")
            % {"value": policy, "choices": ", ".join(TableSizePolicy.values)},
            {"field": "table_size_policy"},
        )
    if not _fits_family(family, policy, convention):
        sizes = _sizes(family, convention)
        allowed = ", ".join(str(n) for n in sizes)
        narrower = convention is not None and sizes != family.table_sizes
        conv = family.find(convention) if narrower else None
        name = convention_name(conv, family) if conv is not None else family_name(family)
        seed = getattr(conv, "seed", family.seed) if conv is not None else family.seed
        raise UserFacingError(
            _("%(family)s is played at tables of %(sizes)s (%(rule)s).")
            % {"family": name, "sizes": allowed, "rule": rule_sources.cite(seed)},
            {"field": "table_size_policy"},
        )
    return policy


def _policy_of(family: Family, convention: str | None = None) -> str:
    """The policy seating only the family's (or convention's) sizes."""
    wanted = set(_sizes(family, convention))
    for policy, sizes in POLICY_SIZES.items():
        if set(sizes) == wanted:
            return str(policy)
    return str(TableSizePolicy.MIXED)


def event_table_policy(event: Event) -> str:
    """The table-size policy the draw uses: the event's, unless its rule family cannot play it
    (then the family's own: tables of three for the Balkan games)."""
    try:
        family = family_of_convention(event.variant)
    except InvalidConventionError:
        return event.table_size_policy
    if _fits_family(family, event.table_size_policy, event.variant):
        return event.table_size_policy
    return _policy_of(family, event.variant)


def validate_tiebreaks(tiebreaks: Any, variant: str | None = None) -> list[Any]:
    """The tie-break chain, checked against the standings metrics that make sense for the
    convention's rule family (:func:`tournaments.standings.metrics.tiebreak_keys_for`).

    :raises UserFacingError: naming the field ``tiebreaks`` and the bad key.
    """
    if tiebreaks is None:
        return []
    if not isinstance(tiebreaks, list):
        raise UserFacingError(_("The tie-break chain must be a list."), {"field": "tiebreaks"})
    try:
        config_from_json(tiebreaks, allowed=_tiebreaks_of(variant), scores=round_scores_of(variant))
    except (ValueError, TypeError) as exc:
        raise _chain_error(exc, {"field": "tiebreaks"}) from exc
    return tiebreaks


def _chain_error(exc: Exception, extra: dict[str, Any]) -> UserFacingError:
    """A tie-break chain's error (:class:`~tournaments.standings.errors.StandingsConfigError`)
    in the reader's language, its tie-breaks and round scores by their names; another error's
    message as it is."""
    if not isinstance(exc, StandingsConfigError) or not exc.text:
        return UserFacingError(rule_sources.cited_in(str(exc)), extra)

    def named(value: Any, name: Any) -> str:
        keys = value if isinstance(value, (list, tuple)) else [value]
        return ", ".join(name(str(k)) for k in keys)

    params = dict(exc.params)
    for key in exc.entries:
        params[key] = named(params.get(key), lambda k: metric_label(k)["name"])
    for key in exc.scores:
        params[key] = named(
            params.get(key), lambda k: _(ROUND_SCORES[k][0]) if k in ROUND_SCORES else k
        )
    return UserFacingError(_(exc.text) % params, extra, text=exc.text, params=params)


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
        raise UserFacingError(_("The last day cannot be before the first."), {"field": "ends_on"})
    fields["variant"], fields["convention_options"] = validate_variant(
        fields.get("variant", "sochi"), fields.get("convention_options")
    )
    family = family_of_convention(fields["variant"])
    if "table_size_policy" in fields:
        validate_table_policy(family, fields["table_size_policy"], fields["variant"])
    else:
        fields["table_size_policy"] = event_table_policy(Event(variant=fields["variant"]))
    default_size = Event._meta.get_field("pulka_target").default
    # a convention that names its own game size (the pot games' stake: G, the dealer's chips)
    own_size = getattr(
        family.find(fields["variant"]).with_options(**fields["convention_options"]), "stake", None
    )
    if "pulka_target" not in fields and own_size:
        fields["pulka_target"] = own_size
    elif "pulka_target" not in fields and default_size not in family.game_sizes:
        fields["pulka_target"] = family.game_sizes[0]  # the model's default is a Russian pulka
    fields["tiebreaks"] = validate_tiebreaks(fields.get("tiebreaks"), fields["variant"])
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
    if "variant" in fields and "convention_options" not in fields:
        if _family_key(fields["variant"]) != _family_key(event.variant):
            fields["convention_options"] = {}  # the old family's options mean nothing here
    if "variant" in fields or "convention_options" in fields:
        fields["variant"], fields["convention_options"] = validate_variant(
            fields.get("variant", event.variant),
            fields.get("convention_options", event.convention_options),
        )
    variant = fields.get("variant", event.variant)
    family = family_of_convention(variant)
    reset = _family_switch(event, family, fields)
    if "table_size_policy" in fields or "variant" in fields:
        policy = fields.get("table_size_policy", event.table_size_policy)
        if "table_size_policy" in fields:
            validate_table_policy(family, policy, variant)
        elif not _fits_family(family, policy, variant):
            fields["table_size_policy"] = _policy_of(family, variant)
    if reset is not None and fields.get("table_size_policy", policy) != event.table_size_policy:
        reset["reset"]["table_size_policy"] = [event.table_size_policy, fields["table_size_policy"]]
    if "tiebreaks" in fields or "variant" in fields:
        fields["tiebreaks"] = validate_tiebreaks(fields.get("tiebreaks", event.tiebreaks), variant)
    starts_on = fields.get("starts_on", event.starts_on)
    ends_on = fields.get("ends_on", event.ends_on)
    if starts_on and ends_on and ends_on < starts_on:
        raise UserFacingError(_("The last day cannot be before the first."), {"field": "ends_on"})
    for name, value in fields.items():
        setattr(event, name, value)
    try:
        event.full_clean(exclude=["slug"])
    except ValidationError as exc:  # a field's own words, never a constraint's name
        field, messages = next(iter(exc.message_dict.items()))
        raise UserFacingError(" ".join(messages), {"field": field}) from None
    event.save()
    audit_log(
        event=event, action="event.updated", by=by, data={k: str(v) for k, v in fields.items()}
    )
    if "sit_out_score" in fields:  # the rounds sat out are worth the new score
        standings_schedule(event_id=event.pk)
    if reset is not None:
        audit_log(event=event, action="event.family_changed", by=by, data=reset)
    return event


def _family_key(convention: str) -> str | None:
    try:
        return family_of_convention(convention).key
    except InvalidConventionError:
        return None


def event_defaults(variant: str) -> dict[str, Any]:
    """What a new event of convention ``variant`` starts with where the organiser says nothing:
    the game size as the family plays it (a pulka to 20, a bula of 30, a stake of 10, three
    sits) and a table size the game allows (Balkan and German: threes; Priffe: fours), as
    :func:`event_create` sets them; the new-event form shows them (issue 36).

    :raises rules.conventions.InvalidConventionError: for an unknown convention.
    """
    family = family_of_convention(variant)
    default_size = Event._meta.get_field("pulka_target").default
    own = getattr(family.find(variant), "stake", None)
    size = own or (default_size if default_size in family.game_sizes else family.game_sizes[0])
    return {"pulka_target": size, "table_size_policy": event_table_policy(Event(variant=variant))}


def _game_size_of(family: Family, convention: str, options: dict[str, Any]) -> int:
    """A new event's game size in ``family``: the convention's own (the pot games' stake),
    else the family's first (a Russian pulka to 10, a Balkan bula of 30)."""
    own = getattr(family.find(convention).with_options(**options), "stake", None)
    return int(own or family.game_sizes[0])


def _family_switch(event: Event, family: Family, fields: dict[str, Any]) -> dict[str, Any] | None:
    """Switching an event to another rule family (Russian to Croatian rules …) resets what
    belongs to the old family: the game size (a pulka to 20 is no bula), the convention's
    options, the table sizes and the tie-breaks the new family lacks, each to the new family's
    default unless this same change sets it (a value the settings form posts unchanged is not
    set); ``fields`` is completed in place. Refused once the event has protocols, which were
    written in the old family's rules. What was reset, for the log; ``None`` when the family
    stays."""
    if _family_key(event.variant) in (None, family.key):
        return None
    old = family_of_convention(event.variant)
    if Protocol.objects.filter(table__round__event=event).exists():
        raise UserFacingError(
            _(
                "The event's protocols are written in %(old)s; its rules cannot change to "
                "%(new)s. Create a new event for the new rules."
            )
            % {"old": family_name(old), "new": family_name(family)},
            {"field": "variant"},
        )
    reset: dict[str, Any] = {"from": event.variant, "to": fields["variant"], "reset": {}}
    if fields.get("table_size_policy") == event.table_size_policy:
        del fields["table_size_policy"]  # not set by this change: fitted to the new family
    if not fields.get("convention_options"):
        fields["convention_options"] = {}
        if event.convention_options:
            reset["reset"]["convention_options"] = event.convention_options
    size = _game_size_of(family, fields["variant"], fields["convention_options"])
    if fields.get("pulka_target", event.pulka_target) == event.pulka_target:
        if event.pulka_target != size:
            reset["reset"]["pulka_target"] = [event.pulka_target, size]
        fields["pulka_target"] = size  # the old family's size, not set again by this change
    if "tiebreaks" not in fields or fields["tiebreaks"] == event.tiebreaks:
        kept = [k for k in event.tiebreaks or [] if _tiebreak_fits(k, fields["variant"])]
        if kept != list(event.tiebreaks or []):
            reset["reset"]["tiebreaks"] = [event.tiebreaks, kept]
        fields["tiebreaks"] = kept  # the tie-breaks the new family has, in their order
    return reset


def _tiebreak_fits(key: Any, variant: str) -> bool:
    try:
        validate_tiebreaks([key], variant)
    except UserFacingError:
        return False
    return True


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


def event_lockout_lift(*, event: Event, username: str, by=None) -> None:
    """An organiser lifts the login lockout of one of the event's organisers or referees
    (issue 38: an account locked by guesses from many addresses); logged in the event's log.

    :raises UserFacingError: ``username`` holds no role in the event, or is not locked out.
    """
    roles = EventRole.objects.filter(event=event, user__username__iexact=username)
    if not roles.exists():
        raise UserFacingError(
            _("%(user)s holds no role in this event.") % {"user": username}, {"field": "user"}
        )
    if not lockout.lift(lockout.LOGIN, username):
        raise UserFacingError(
            _("%(user)s is not locked out.") % {"user": username}, {"field": "user"}
        )
    audit_log(event=event, action="lockout.lifted", by=by, data={"user": username})


@transaction.atomic
def event_staff_add(*, event: Event, username: str, role: str, by=None) -> tuple[EventRole, str]:
    """Give ``username`` a role in the event, creating the account if there is none.

    :returns: the role and, for a new account, its password (shown once to the organiser, who
        hands it over; ``""`` for an account that existed).
    """
    user, password = staff_account(username)
    if password:
        audit_log(
            event=event, action="account.created", by=by, data={"user": user.get_username()}
        )
    return event_role_grant(event=event, user=user, role=role, by=by), password


@transaction.atomic
def standings_configure(*, event: Event, tiebreaks: list[Any], by=None) -> Event:
    """Set the event's tie-break chain (and round score) and recompute.

    :raises UserFacingError: naming the bad key (field ``tiebreaks``, rule 001 §4.1.3).
    """
    try:
        config_from_json(
            tiebreaks, allowed=_tiebreaks_of(event.variant), scores=round_scores_of(event.variant)
        )
    except ValueError as error:
        said = _chain_error(error, {}).message
        raise UserFacingError(
            _("Invalid tie-break chain: %(error)s") % {"error": said},
            {"field": "tiebreaks", "rule": "001 §4.1.3"},
        ) from error
    event = Event.objects.select_for_update().get(pk=event.pk)
    before = event.tiebreaks
    event.tiebreaks = list(tiebreaks)
    event.save(update_fields=["tiebreaks"])
    audit_log(
        event=event,
        action="standings.tiebreaks",
        by=by,
        data={"before": before, "after": event.tiebreaks},
    )
    standings_schedule(event_id=event.pk)
    return event
