"""A round's life: created, its seed committed, published, started and closed; the lock every
change of a round takes and the page version it bumps (:func:`round_changed`).

The draw is :mod:`.draw`, a draw in a job :mod:`.draw_jobs`, the corrections and the rounds'
public face :mod:`.rounds`, the rounds ahead :mod:`.rounds_ahead`.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.errors import UserFacingError
from tournaments.models import Event, Round
from tournaments.selectors.desk import unfinished_tables
from tournaments.services.audit import audit_log
from tournaments.services.standings import standings_schedule
from tournaments.web_cache import versions as page_cache
from tournaments.web_cache import warm as page_warm

__all__ = [
    "SeedNeededError",
    "UnfinishedTablesError",
    "round_changed",
    "round_close",
    "round_commit_seed",
    "round_create",
    "round_publish",
    "round_start",
    "seed_hash",
]

State = Round.State


def _lock(round_: Round) -> Round:
    return Round.objects.select_for_update().select_related("event").get(pk=round_.pk)


def round_changed(round_: Round) -> None:
    """Record that what the round's public page shows has changed (a draw, a publication, the
    start or close, a correction to the seating): the page is cached under
    ``Round.public_version`` (views.caching), so the next request renders it again, and a
    phone's refresh with the old ETag gets the new page instead of a 304."""
    now = timezone.now()
    Round.objects.filter(pk=round_.pk).update(
        public_version=F("public_version") + 1, public_changed_at=now
    )
    round_.public_version = (round_.public_version or 0) + 1
    round_.public_changed_at = now
    page_cache.changed(event_id=round_.event_id)  # the anonymous viewers' pages, after commit


def _require(round_: Round, *states: str) -> None:
    if round_.state not in states:
        allowed = ", ".join(str(State(s).label) for s in states)
        raise UserFacingError(
            _("Round %(n)d is %(state)s; this needs it to be: %(allowed)s.")
            % {"n": round_.number, "state": round_.get_state_display(), "allowed": allowed},
            {"field": "state"},
        )


@transaction.atomic
def round_create(*, event: Event, by=None) -> Round:
    Event.objects.select_for_update().get(pk=event.pk)  # one new round at a time
    last = event.rounds.aggregate(n=Max("number"))["n"] or 0
    if last and event.rounds.get(number=last).state == State.DRAFT:
        raise UserFacingError(_("Round %(n)d is still a draft; draw it first.") % {"n": last})
    round_ = Round.objects.create(
        event=event, number=last + 1, draw_method=event.default_draw_method
    )
    audit_log(event=event, action="round.created", by=by, data={"round": round_.number})
    return round_


def seed_hash(seed: str) -> str:
    """The commitment published before the draw: sha256 of the seed (hex)."""
    return hashlib.sha256(seed.encode()).hexdigest()


@transaction.atomic
def round_commit_seed(*, round_: Round, by=None) -> Round:
    """Choose the draw's random seed and publish its hash before drawing (commit and reveal).

    The hash is public at once (the event's page, ``GET …/rounds/commitments``) and cannot be
    changed afterwards: a commitment that could be replaced would prove nothing.
    """
    round_ = _lock(round_)
    _require(round_, State.DRAFT)
    if round_.draw_seed_hash:
        raise UserFacingError(
            _("The hash of round %(n)d's seed is published already (sha256 %(hash)s).")
            % {"n": round_.number, "hash": round_.draw_seed_hash},
            {"field": "draw_seed_hash"},
        )
    round_.draw_seed = secrets.token_hex(16)
    round_.draw_seed_hash = seed_hash(round_.draw_seed)
    round_.draw_seed_committed_at = timezone.now()
    round_.save(update_fields=["draw_seed", "draw_seed_hash", "draw_seed_committed_at"])
    round_changed(round_)
    audit_log(
        event=round_.event,
        action="round.seed_committed",
        by=by,
        data={"round": round_.number, "sha256": round_.draw_seed_hash},
    )
    return round_


class SeedNeededError(Exception):
    """Who sits a round out depends on its seed, and the seed is not chosen yet (the rounds
    ahead stop there: :func:`_ahead_plan`)."""


def _transition(round_: Round, frm: tuple[str, ...], to: str, stamp: str, action: str, by) -> Round:
    round_ = _lock(round_)
    _require(round_, *frm)
    round_.state = to
    setattr(round_, stamp, timezone.now())
    round_.save(update_fields=["state", stamp])
    round_changed(round_)
    audit_log(event=round_.event, action=action, by=by, data={"round": round_.number})
    return round_


@transaction.atomic
def round_publish(*, round_: Round, by=None) -> Round:
    round_ = _transition(
        round_, (State.DRAWN,), State.PUBLISHED, "published_at", "round.published", by
    )
    # the hall opens the new seating at once: its pages rendered ahead after the commit
    page_warm.public_pages_warm_schedule(event_id=round_.event_id)
    return round_


@transaction.atomic
def round_start(*, round_: Round, by=None) -> Round:
    return _transition(round_, (State.PUBLISHED,), State.IN_PLAY, "started_at", "round.started", by)


class UnfinishedTablesError(UserFacingError):
    """Closing a round whose tables are not all approved needs a reason; ``extra["tables"]``
    lists them (number and state, :mod:`tournaments.selectors.desk`)."""


@transaction.atomic
def round_close(*, round_: Round, by=None, unfinished_reason: str = "") -> Round:
    """End play in ``round_``. Tables without an approved protocol are left without a result
    for this round (the standings say "no result" for their players): closing with such tables
    needs ``unfinished_reason``, and the log keeps the tables and the reason."""
    round_ = _lock(round_)
    _require(round_, State.IN_PLAY)
    unfinished = unfinished_tables(round_=round_)
    reason = (unfinished_reason or "").strip()
    if unfinished and not reason:
        raise UnfinishedTablesError(
            ngettext(
                "Table %(tables)s has no approved protocol; confirm and give a reason to close "
                "the round without its result.",
                "Tables %(tables)s have no approved protocol; confirm and give a reason to close "
                "the round without their results.",
                len(unfinished),
            )
            % {"tables": ", ".join(str(t.number) for t in unfinished)},
            {
                "field": "unfinished_reason",
                "tables": [{"table": t.number, "state": t.state} for t in unfinished],
            },
        )
    round_.state = State.CLOSED
    round_.closed_at = timezone.now()
    round_.save(update_fields=["state", "closed_at"])
    data: dict[str, Any] = {"round": round_.number}
    if unfinished:
        data["unfinished"] = [{"table": t.number, "state": t.state} for t in unfinished]
    audit_log(
        event=round_.event,
        action="round.closed",
        by=by,
        reason=reason if unfinished else "",
        data=data,
    )
    # the standings hold the rounds' states: the last round closed makes them final, in the
    # event's series too (issue 39: they follow a new stored version)
    standings_schedule(event_id=round_.event_id)
    return round_
