"""The verifiable draw of a round: the engine's input read from the rows, the engine run, its
tables and report stored with the seed, so that anyone can re-run the draw (``manage.py
draw_verify``, :mod:`.draw_record`).

The draw itself is pure (``tournaments.seating``); this module is the bridge (Tabbycat's
``draw/manager.py``): it turns rows into the engine's plain input and stores what the engine
drew. Whether a draw job of the round is running is read here too (:func:`draw_job_running`):
a draw is refused meanwhile.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from tournaments import rule_sources, seating
from tournaments.errors import UserFacingError
from tournaments.families import domain_of_event as ui_of_event
from tournaments.models import AuditLogEntry, Avoidance, Entry, Event, Job, Round, Seat, Table
from tournaments.models.event import FoursRemainder, TableSizePolicy
from tournaments.seating.remainder import remainder_of, sitting_out_settled
from tournaments.seating.remainder import sitting_out as sitting_out_of
from tournaments.seating.remainder import substitutes as substitutes_of
from tournaments.selectors.standings import scores_for_draw
from tournaments.services.audit import audit_log
from tournaments.services.events import event_table_policy
from tournaments.services.round_states import (
    SeedNeededError,
    _lock,
    _require,
    round_changed,
    seed_hash,
)
from tournaments.services.teams import teams_for_draw

__all__ = [
    "DrawnMeanwhileError",
    "draw_input",
    "draw_job",
    "draw_job_running",
    "report_as_data",
    "round_draw",
    "run_engine",
    "tables_as_data",
]

State = Round.State


def draw_job_running(round_: Round) -> bool:
    """Whether a draw job of ``round_`` is queued or running: its job row is (``jobs.outbox``;
    the sweep ends a job whose worker stopped renewing its lease, and the round can then be
    drawn again). A round whose job has no row (drawn before jobs had rows) falls back to the
    time a task may run (``CELERY_TASK_TIME_LIMIT``, and a minute to spare)."""
    if not round_.draw_job_id or round_.draw_job_started_at is None:
        return False
    job = Job.objects.filter(task_id=round_.draw_job_id).only("state").first()
    if job is not None:
        return job.active
    limit = timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + 60)
    return timezone.now() - round_.draw_job_started_at < limit


def draw_job(round_: Round) -> Job | None:
    """The job row of the round's draw job, if one is recorded."""
    if not round_.draw_job_id:
        return None
    return Job.objects.filter(task_id=round_.draw_job_id).first()


def draw_input(
    round_: Round,
    *,
    method: str | None = None,
    seed: str | None = None,
    ahead: Sequence[dict[str, Any]] = (),
    seed_known: bool = True,
) -> dict[str, Any]:
    """The engine's complete input for this round, as JSON-safe data (stored with the draw).

    ``seed``: the draw's seed, which orders who sits out among those due (default: the round's
    own, as committed). ``ahead``: rounds not played yet taken as played before this one
    (``{"tables": [{"seats", "first_dealer"}], "sitting_out": [ids]}``, the rounds ahead).
    ``seed_known=False``: the round's seed is not chosen yet; if it decides who sits out,
    :class:`SeedNeededError`.
    """
    event = round_.event
    entries = (
        Entry.objects.filter(event=event)
        .exclude(status=Entry.Status.WITHDRAWN)
        .select_related("player")
        .order_by("pk")
    )
    entries = [e for e in entries if e.joined_round is None or e.joined_round <= round_.number]
    # Once the organiser checks players in, only those checked in are drawn: a registered
    # player who has not come is not seated (the round's page names them).
    not_checked_in: list[int] = []
    if any(e.status == Entry.Status.CHECKED_IN for e in entries):
        not_checked_in = [e.pk for e in entries if e.status != Entry.Status.CHECKED_IN]
        entries = [e for e in entries if e.status == Entry.Status.CHECKED_IN]
    # A team event: members left out of their captain's line-up for the round are not seated,
    # and no two members of one team sit at a table (issue 40).
    team_draw = teams_for_draw(event, round_.number, [e.pk for e in entries])
    if team_draw:
        benched = set(team_draw["benched"])
        entries = [e for e in entries if e.pk not in benched]
        extra_teams = {
            "teams": {str(k): v for k, v in sorted(team_draw["teams"].items())},
            "benched": team_draw["benched"],
        }
    else:
        extra_teams = {}
    history = []
    earlier = list(
        event.rounds.filter(number__lt=round_.number)
        .exclude(state=State.DRAFT)
        .prefetch_related("tables__seats")
        .order_by("number")
    )
    for past in earlier:
        history.append(
            [
                {
                    "seats": [s.entry_id for s in sorted(t.seats.all(), key=lambda s: s.position)],
                    "first_dealer": t.first_dealer,
                }
                for t in sorted(past.tables.all(), key=lambda t: t.number)
            ]
        )
    history += [list(r["tables"]) for r in ahead]
    policy = event_table_policy(event)  # the rule family's table sizes
    entries, sitting_out, remainder = _fours_remainder(
        round_,
        entries,
        earlier,
        policy,
        seed=round_.draw_seed if seed is None else seed,
        seed_known=seed_known,
        ahead=ahead,
    )
    avoid = [[a.first_id, a.second_id] for a in Avoidance.objects.filter(event=event)]
    if event.separate_clubs:
        by_club: dict[str, list[int]] = {}
        for e in entries:
            if e.player.club.strip():
                by_club.setdefault(e.player.club.strip().casefold(), []).append(e.pk)
        avoid += [
            [a, b] for ids in by_club.values() for i, a in enumerate(ids) for b in ids[i + 1 :]
        ]
    standings = _standings_for_draw(event)
    extra: dict[str, Any] = dict(extra_teams)
    if policy == TableSizePolicy.FOUR and _plays_partnerships(event):
        extra["partnerships"] = True  # the draw spreads partners too (opposite seats, 004)
    return {
        **extra,
        "entries": [
            {"id": e.pk, "rating": e.player.rating, "club": e.player.club} for e in entries
        ],
        "history": history,
        "fixed_tables": {str(e.pk): e.fixed_table for e in entries if e.fixed_table},
        "avoid": avoid,
        "standings": standings,
        "method": method or round_.draw_method,
        "policy": policy,
        "round": round_.number,
        "rounds_planned": event.rounds_planned,
        "not_checked_in": not_checked_in,
        "sitting_out": sitting_out,
        "remainder": remainder,
    }


def _plays_partnerships(event: Event) -> bool:
    """Whether the event's rule family plays in partnerships (its UI adapter says so)."""
    try:
        return ui_of_event(event).partnerships
    except (LookupError, ValueError):
        return False


def _fours_remainder(
    round_: Round,
    entries: list[Entry],
    earlier: list[Round],
    policy: str,
    *,
    seed: str,
    seed_known: bool = True,
    ahead: Sequence[dict[str, Any]] = (),
) -> tuple[list[Entry], list[int], dict[str, Any]]:
    """The entries the engine seats, those sitting the round out, and what the organiser chose
    for players beyond a multiple of four (:mod:`tournaments.seating.remainder`). Substitutes
    are seated only to fill tables of four under the event's ``substitute`` choice. Who sits
    out among those due is ordered by ``seed``, the draw's; ``ahead``: rounds taken as played
    before this one (the rounds ahead)."""
    event = round_.event
    regular = [e for e in entries if not e.substitute]
    available = [e for e in entries if e.substitute]
    choice = event.fours_remainder
    remainder: dict[str, Any] = {"choice": choice, "substitutes": [], "short": 0}
    extra = remainder_of(len(regular)) if policy == TableSizePolicy.FOUR else 0
    if not extra:
        return regular, [], remainder
    if choice == FoursRemainder.SIT_OUT:
        rounds_out: dict[int, int] = {}
        for sat in [past.sitting_out for past in earlier] + [r["sitting_out"] for r in ahead]:
            for entry in sat or []:
                rounds_out[entry] = rounds_out.get(entry, 0) + 1
        due = {
            "k": extra,
            "rounds_out": rounds_out,
            "fixed": [e.pk for e in regular if e.fixed_table],
        }
        # what the choice depends on besides the seed, as the draw sees it, so that
        # ``draw_verify`` re-checks who sits out (docs/draw-record.md): the earlier rounds out
        # of the players present (none: left out), and who of them is fixed at a table
        pool = {e.pk for e in regular}
        remainder["rounds_out"] = {
            str(e): n for e, n in sorted(rounds_out.items()) if e in pool and n
        }
        remainder["fixed"] = sorted(due["fixed"])
        if seed_known:
            out = sitting_out_of([e.pk for e in regular], seed=seed, **due)
        else:
            settled = sitting_out_settled([e.pk for e in regular], **due)
            if settled is None:
                raise SeedNeededError(round_.number)
            out = settled
        remainder["score"] = str(event.sit_out_score)
        return [e for e in regular if e.pk not in out], list(out), remainder
    if choice == FoursRemainder.SUBSTITUTE:
        need = 4 - extra
        played: dict[int, int] = {}
        seated = [
            [s.entry_id for s in t.seats.all()] for past in earlier for t in past.tables.all()
        ]
        seated += [t["seats"] for r in ahead for t in r["tables"]]
        for seats in seated:
            for entry in seats:
                played[entry] = played.get(entry, 0) + 1
        chosen = substitutes_of([e.pk for e in available], k=need, played=played)
        remainder.update(substitutes=list(chosen), short=need - len(chosen))
        return regular + [e for e in available if e.pk in chosen], [], remainder
    return regular, [], remainder


def _standings_for_draw(event: Event) -> dict[str, float]:
    """Current scores for a Swiss draw: the stored standings if there are any, else ratings."""
    scores = scores_for_draw(event=event)
    if scores:
        return {str(k): float(v) for k, v in scores.items()}
    return {}


class DrawnMeanwhileError(UserFacingError):
    """A second draw of a round finished after (or was asked for before) another one stored
    its tables: nothing is stored, the first draw stands; ``extra`` says when and by whom."""


def _drawn_meanwhile(round_: Round) -> DrawnMeanwhileError:
    last = (
        AuditLogEntry.objects.filter(
            event=round_.event_id, action="round.drawn", data__round=round_.number
        )
        .select_related("user")
        .order_by("-created_at", "-id")
        .first()
    )
    who = last.user.get_username() if last is not None and last.user else None
    when = timezone.localtime(round_.drawn_at) if round_.drawn_at else None
    return DrawnMeanwhileError(
        _(
            "Round %(n)d was drawn meanwhile (at %(time)s, by %(who)s); that draw stands and "
            "nothing else was stored. Draw again only if you mean to replace it."
        )
        % {
            "n": round_.number,
            "time": when.strftime("%H:%M:%S") if when else "?",
            "who": who or _("another caller"),
        },
        {"field": "draw", "drawn_at": when.isoformat() if when else None, "drawn_by": who},
    )


def round_draw(
    *,
    round_: Round,
    method: str | None = None,
    seed: str | None = None,
    by=None,
    progress: seating.Reporter | None = None,
    job_id: str | None = None,
) -> Round:
    """Draw the round's tables (or draw them again while the round is not published).

    The engine runs outside any transaction: near the most rounds a player count allows it
    may take minutes, which no lock should last, and a job's ``progress`` must be seen
    meanwhile. The tables are stored under the round's lock, and only if nothing the draw
    read has changed since: the round's state and seed, the players present, the earlier
    rounds, the constraints (otherwise nothing is stored and the organiser draws again).
    """
    round_ = Round.objects.select_related("event").get(pk=round_.pk)
    _require(round_, State.DRAFT, State.DRAWN)
    if job_id is None and draw_job_running(round_):  # inline while a job draws it
        raise UserFacingError(
            _("A draw of round %(n)d is already running (since %(time)s).")
            % {
                "n": round_.number,
                "time": timezone.localtime(round_.draw_job_started_at).strftime("%H:%M:%S"),
            },
            {"field": "draw"},
        )
    # what the round was when this draw began: the draw it replaces (None: none yet) and the
    # seed; another draw stored meanwhile (same published seed or not) makes this one void
    committed = (round_.draw_seed, round_.draw_seed_hash, round_.drawn_at)
    if seed is None:
        seed = round_.draw_seed or secrets.token_hex(16)
    elif round_.draw_seed_hash and seed_hash(seed) != round_.draw_seed_hash:
        # commit and reveal: the seed drawn with must be the one whose hash was published
        raise UserFacingError(
            _(
                "The hash of another seed was published before this draw (sha256 %(hash)s); "
                "the draw must use that seed. Leave the seed out."
            )
            % {"hash": round_.draw_seed_hash},
            {"field": "seed"},
        )
    inputs = draw_input(round_, method=method, seed=seed)  # its seed orders who sits out
    if len(inputs["entries"]) < 3:
        message = _("A draw needs at least three players present.")
        if inputs["not_checked_in"]:
            message += " " + _(
                "Only %(n)d checked in: once anyone is checked in, only players checked in are "
                "drawn (%(m)d registered are not)."
            ) % {"n": len(inputs["entries"]), "m": len(inputs["not_checked_in"])}
        raise UserFacingError(message, {"field": "entries"})
    _check_draw_input(inputs)
    try:
        draw = run_engine(inputs, seed=seed, progress=progress)
    except seating.SeatingError as exc:  # in the reader's language, with players' names
        names = dict(Entry.objects.filter(event=round_.event).values_list("pk", "player__name"))
        raise UserFacingError.of(exc, {"field": "draw"}, names) from exc
    return _draw_store(round_, inputs, committed, seed, draw, by, method)


@transaction.atomic
def _draw_store(
    round_: Round,
    inputs: dict[str, Any],
    committed: tuple[str, str, Any],
    seed: str,
    draw: seating.Draw,
    by,
    method: str | None,
) -> Round:
    """Store ``draw`` (made from ``inputs``) as the round's tables, if they still hold."""
    round_ = _lock(round_)
    _require(round_, State.DRAFT, State.DRAWN)
    if round_.drawn_at != committed[2]:
        raise _drawn_meanwhile(round_)
    now = draw_input(round_, method=method, seed=seed)
    if (round_.draw_seed, round_.draw_seed_hash) != committed[:2] or _drawn_from(
        now
    ) != _drawn_from(inputs):
        raise UserFacingError(
            _(
                "While the draw ran, the players present, the earlier rounds, the draw "
                "constraints or the round's seed changed, so its tables no longer fit; nothing "
                "was stored. Draw again."
            ),
            {"field": "draw"},
        )
    inputs = {**inputs, "not_checked_in": now["not_checked_in"]}  # for the page; not drawn from
    round_.tables.all().delete()
    _store_tables(round_, draw.tables)
    round_.sitting_out = list(inputs.get("sitting_out", []))
    round_.draw_method = inputs["method"]
    round_.draw_seed = seed
    round_.draw_seed_hash = round_.draw_seed_hash or seed_hash(seed)
    round_.draw_params = {
        "input": inputs,
        "engine": draw.engine_version,
        "parameters": _json_safe(draw.parameters),
        "tables": tables_as_data(draw.tables),
    }
    round_.draw_report = report_as_data(draw)
    round_.state = State.DRAWN
    round_.drawn_at = timezone.now()
    round_.draw_job_error = ""
    round_.save()
    round_changed(round_)
    audit_log(
        event=round_.event,
        action="round.drawn",
        by=by,
        data={
            "round": round_.number,
            "method": inputs["method"],
            "seed": seed,
            "tables": len(draw.tables),
        },
    )
    return round_


def _drawn_from(inputs: dict[str, Any]) -> dict[str, Any]:
    """What the engine's tables depend on (:func:`run_engine`): the standings only for a
    Swiss draw, and never who is registered but not checked in."""
    used = {k: v for k, v in inputs.items() if k not in ("not_checked_in", "standings")}
    if inputs["method"] == "swiss":
        used["standings"] = inputs["standings"]
    return used


_POLICIES = {"3": "3", "4": "4", "mixed": "mixed", "mixed4": "mixed-4"}


def _check_draw_input(inputs: dict[str, Any]) -> None:
    """What the engine would refuse, said to the organiser with players' names and the rule:
    a count the table sizes cannot seat, a fixed table the round does not have, more players
    fixed at a table than it seats."""
    ids = [e["id"] for e in inputs["entries"]]
    remainder = inputs.get("remainder") or {}
    if inputs["policy"] == TableSizePolicy.FOUR and len(ids) % 4:
        if remainder.get("short"):
            raise UserFacingError.said(
                gettext_noop(
                    "%(n)d players present need %(k)d substitutes to fill tables of four, and "
                    "%(m)d are checked in: check substitutes in (an entry marked “substitute”), "
                    "or let players sit out in turn (the event's settings)."
                ),
                {
                    "n": len(ids) - len(remainder.get("substitutes", [])),
                    "k": len(remainder.get("substitutes", [])) + remainder["short"],
                    "m": len(remainder.get("substitutes", [])),
                },
                {"field": "fours_remainder"},
            )
        raise UserFacingError.said(
            gettext_noop(
                "%(n)d players present do not fill tables of four: choose in the event's "
                "settings whether players sit out in turn (with a stated score) or substitutes "
                "fill the last table, or check players in or out."
            ),
            {"n": len(ids)},
            {"field": "fours_remainder"},
        )
    try:
        sizes = seating.table_sizes(len(ids), seating.TablePolicy(_POLICIES[inputs["policy"]]))
    except seating.TableCountError as exc:
        raise UserFacingError(
            ngettext(
                "%(n)d player present cannot be seated as “%(policy)s” (%(rule)s): change "
                "the table sizes in the event's settings, or check players in or out.",
                "%(n)d players present cannot be seated as “%(policy)s” (%(rule)s): change "
                "the table sizes in the event's settings, or check players in or out.",
                len(ids),
            )
            % {
                "n": len(ids),
                "policy": TableSizePolicy(inputs["policy"]).label,
                "rule": rule_sources.cite("001", "3.2.10"),
            },
            {"field": "table_size_policy", "rule": "3.2.10"},
        ) from exc
    _check_teams(inputs, ids, len(sizes))
    fixed = {int(k): t for k, t in inputs.get("fixed_tables", {}).items() if int(k) in set(ids)}
    names = dict(Entry.objects.filter(pk__in=fixed).values_list("pk", "player__name"))
    for entry, table in sorted(fixed.items(), key=lambda kv: (kv[1], names[kv[0]])):
        if table > len(sizes):
            raise UserFacingError(
                ngettext(
                    "%(name)s must sit at table %(t)d, but this round has %(n)d table.",
                    "%(name)s must sit at table %(t)d, but this round has %(n)d tables.",
                    len(sizes),
                )
                % {"name": names[entry], "t": table, "n": len(sizes)},
                {"field": "fixed_table"},
            )
    for table in sorted(set(fixed.values())):
        crowd = sorted(names[e] for e, t in fixed.items() if t == table)
        if len(crowd) > sizes[table - 1]:
            raise UserFacingError.said(
                gettext_noop("%(names)s must all sit at table %(t)d, which seats %(k)d."),
                {"names": ", ".join(crowd), "t": table, "k": sizes[table - 1]},
                {"field": "fixed_table"},
            )


def _check_teams(inputs: dict[str, Any], ids: list[int], tables: int) -> None:
    """A team with more members to seat than the round has tables cannot be kept apart: the
    reason, with the team's name, before the engine is asked (issue 40)."""
    present = set(ids)
    count: dict[str, int] = {}
    for entry, team in (inputs.get("teams") or {}).items():
        if int(entry) in present:
            count[team] = count.get(team, 0) + 1
    for team, n in sorted(count.items()):
        if n > tables:
            raise UserFacingError.said(
                gettext_noop(
                    "Team %(team)s has %(n)d players to seat, but the round has %(t)d tables, and "
                    "two members of a team never sit at one table: enter the team's line-up for "
                    "the round, or check a member out."
                ),
                {"team": team, "n": n, "t": tables},
                {"field": "teams"},
            )


def run_engine(
    inputs: dict[str, Any], *, seed: str, progress: seating.Reporter | None = None
) -> seating.Draw:
    """Run the pure draw engine on the stored input (also used by ``manage.py draw_verify``)."""
    entries = [
        seating.Entry(id=e["id"], rating=e.get("rating"), club=e.get("club") or None)
        for e in inputs["entries"]
    ]
    history = [
        seating.PastTable(
            round=number, seats=tuple(t["seats"]), first_dealer=t["first_dealer"], number=i
        )
        for number, tables in enumerate(inputs["history"], start=1)
        for i, t in enumerate(tables, start=1)
    ]
    constraints = seating.Constraints(
        must_sit={int(k): v for k, v in inputs.get("fixed_tables", {}).items()},
        must_not_meet=frozenset(frozenset(pair) for pair in inputs.get("avoid", [])),
        teams={int(k): v for k, v in inputs.get("teams", {}).items()},
    )
    method = seating.Method(inputs["method"])
    standings = {int(k): v for k, v in inputs.get("standings", {}).items()} or None
    if method is seating.Method.SWISS and standings is None:
        standings = {e.id: 0.0 for e in entries}  # the first round: everyone level, by rating
    return seating.draw_round(
        entries,
        history,
        method=method,
        policy=seating.TablePolicy.PARTNERSHIPS
        if inputs.get("partnerships") and inputs["policy"] == TableSizePolicy.FOUR
        else seating.TablePolicy(_POLICIES[inputs["policy"]]),
        constraints=constraints,
        seed=seed,
        standings=standings,
        round_number=inputs["round"],
        rounds_total=max(inputs["rounds_planned"], inputs["round"]),
        progress=progress,
    )


def tables_as_data(tables) -> list[dict[str, Any]]:
    return [{"seats": list(t.seats), "first_dealer": t.first_dealer} for t in tables]


def _json_safe(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_json_safe(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


def report_as_data(draw: seating.Draw) -> dict[str, Any]:
    """The engine's report as JSON for the round page: per player whom they met before and
    why the table is what it is."""
    report = draw.report
    players = []
    for p in report.players.values():
        players.append(
            {
                "id": p.entry,
                "table": p.table,
                "seat": p.seat,
                "met_before": [
                    [o, list(rounds)]
                    for o, rounds in sorted(p.met_before.items(), key=lambda kv: str(kv[0]))
                ],
                "repeats": [r.opponent for r in p.repeats],
                "why": "; ".join(f"{r.reason}" for r in p.repeats) or "; ".join(p.constraints),
                "seat_counts": [
                    p.seats_so_far.get(i, 0) for i in range(4 if p.four_table_count else 3)
                ],
                "first_dealer_count": p.first_dealer_count,
                "four_table_count": p.four_table_count,
                "left_neighbours": list(p.left_neighbours),
            }
        )
    return {
        "summary": {
            "repeated meetings": report.repeated_meetings,
            "repeated left neighbours": report.repeated_left_neighbours,
            "method": str(draw.method),
            "engine": draw.engine_version,
        },
        "notes": list(report.notes),
        "players": players,
    } | (  # a team event (issue 40): the teams' meetings matrix, (team, team, meetings) rows
        {"team_meetings": [[a, b, n] for (a, b), n in sorted(report.team_meetings.items())]}
        if report.team_meetings
        else {}
    )


def _store_tables(round_: Round, tables) -> None:
    for table in tables:
        t = Table.objects.create(round=round_, number=table.number, first_dealer=table.first_dealer)
        Seat.objects.bulk_create(
            Seat(round=round_, table=t, position=pos, entry_id=entry_id)
            for pos, entry_id in enumerate(table.seats)
        )
