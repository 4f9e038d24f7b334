"""A round's draw record: everything needed to re-run its draw, and the check that does it.

Issue 4: "the seed (or its hash, published before the draw) lets anyone re-run the draw with
``manage.py`` and get the same tables". The record (``pulka-draw-record``, version 1; see
``docs/draw-record.md``) carries the engine's input as stored with the draw, the seed, its
hash and when that hash was published, the engine's version and the tables it drew. Anyone
may fetch it once the round is public (``GET /api/v1/events/<slug>/rounds/<n>/draw-record``)
and check it with ``manage.py draw_verify --record FILE``, which needs no database rows:
the engine is pure and the record complete.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from tournaments.models import Round
from tournaments.seating import SeatingError
from tournaments.seating.remainder import remainder_of, sitting_out
from tournaments.selectors.events import round_corrections
from tournaments.services.draw import run_engine, tables_as_data

__all__ = [
    "FORMAT",
    "VERSION",
    "Finding",
    "RecordError",
    "draw_names",
    "draw_record",
    "entry_ids",
    "seating_findings",
    "team_findings",
    "verify",
]

FORMAT = "pulka-draw-record"
VERSION = 1


class RecordError(ValueError):
    """A record that cannot be checked: its format, version or a missing field."""


@dataclass(frozen=True)
class Finding:
    """One line of a verification: ``ok`` False where the record fails it; ``warning`` for
    what weakens a check without failing it (another engine version, a hash not published
    before the draw)."""

    ok: bool
    message: str
    warning: bool = False


def entry_ids(round_: Round) -> dict[int, int]:
    """The record's entry ids → this event's entry ids, for a round drawn on another server and
    imported from its archive (``draw_params["entry_ids"]``, written by the import: the draw
    is kept with the ids it ran with, since the engine's result depends on them). Empty when
    the round was drawn here: the ids are this event's."""
    raw = (round_.draw_params or {}).get("entry_ids")
    if not isinstance(raw, dict):
        return {}
    return {int(k): int(v) for k, v in raw.items()}


def draw_names(round_: Round, names: dict[int, str]) -> dict[int, str]:
    """``names`` (this event's entry id → name) by the ids the round's draw record uses, so
    that its report and notes name the players of an imported round too."""
    ids = entry_ids(round_)
    if not ids:
        return names
    return {**names, **{draw: names[local] for draw, local in ids.items() if local in names}}


_CORRECTION_ENTRY_KEYS = ("entry", "first", "second")


def _correction_in_draw_ids(data: Any, to_draw: dict[int, int]) -> Any:
    """A correction's data (this event's entry ids) in the draw record's ids."""
    if not to_draw or not isinstance(data, dict):
        return data
    out = {k: to_draw.get(v, v) if k in _CORRECTION_ENTRY_KEYS else v for k, v in data.items()}
    if isinstance(out.get("seats"), list):
        out["seats"] = [to_draw.get(s, s) for s in out["seats"]]
    return out


def draw_record(round_: Round) -> dict[str, Any]:
    """The record of ``round_``'s draw as JSON-safe data (the round must have been drawn).

    A round imported from another server's archive keeps its draw in the ids it ran with;
    ``entry_ids`` then says which of this event's entries each is, and the corrections name
    the players by the record's ids too."""
    params = round_.draw_params or {}
    ids = entry_ids(round_)
    to_draw = {local: draw for draw, local in ids.items()}
    extra: dict[str, Any] = {}
    if ids:
        extra["entry_ids"] = {str(draw): local for draw, local in sorted(ids.items())}
    return {
        "format": FORMAT,
        "version": VERSION,
        "event": round_.event.slug,
        "round": round_.number,
        "engine": params.get("engine", ""),
        "seed": round_.draw_seed,
        "seed_sha256": round_.draw_seed_hash,
        "seed_published_at": _iso(round_.draw_seed_committed_at),
        "drawn_at": _iso(round_.drawn_at),
        "input": params.get("input", {}),
        "tables": params.get("tables", []),
        # after the draw, not part of it: the seating as it is now differs by these
        "corrections": [
            {
                "at": c.created_at.isoformat(),
                "action": c.action,
                "reason": c.reason,
                "data": _correction_in_draw_ids(c.data, to_draw),
            }
            for c in round_corrections(round_=round_)
        ],
        **extra,
    }


def seating_findings(round_: Round, record: dict[str, Any]) -> list[Finding]:
    """Whether the seating stored here is the record's draw: with no correction since, the
    same tables, seat for seat, and the same first dealers; after corrections (each keeps the
    round's players), the same players seated. The record's ids are read through its
    ``entry_ids`` (an imported round). A record naming players this event does not have and
    saying nothing of them (an archive of an older Pulka) is not compared: a warning.

    Then who sits out: the players stored here as sitting the round out are those the record
    names, and the earlier rounds out the draw counted are those the earlier rounds stored here
    say (:func:`_sit_out_here`)."""
    findings = _tables_here(round_, record)
    if not any(f.warning for f in findings):  # else the record's ids are not this event's
        findings += _sit_out_here(round_, record)
    return findings


def _sit_out_here(round_: Round, record: dict[str, Any]) -> list[Finding]:
    """Who sits ``round_`` out here against the record: the round's stored ``sitting_out`` is
    the record's ``input.sitting_out``, and the record's ``remainder.rounds_out`` (where it
    has them) are the earlier rounds' stored sit-outs of the players drawn. Ids through the
    record's ``entry_ids`` (an imported round)."""
    inputs = record.get("input") or {}
    remainder = inputs.get("remainder") if isinstance(inputs.get("remainder"), dict) else {}
    to_draw = {int(v): int(k) for k, v in (record.get("entry_ids") or {}).items()}
    recorded = sorted(inputs.get("sitting_out") or [])
    here = sorted(to_draw.get(e, e) for e in round_.sitting_out or [])
    if here != recorded:
        return [
            Finding(
                False,
                f"the players sitting out here ({_ids(here) or 'nobody'}) are not those drawn "
                f"({_ids(recorded) or 'nobody'})",
            )
        ]
    findings = []
    if recorded:
        findings.append(
            Finding(True, f"the players sitting out here are those drawn ({_ids(here)})")
        )
    if "rounds_out" not in remainder:
        return findings
    pool = {e["id"] for e in inputs.get("entries") or []} | set(recorded)
    stored: dict[int, int] = {}
    earlier = round_.event.rounds.filter(number__lt=round_.number).exclude(state=Round.State.DRAFT)
    for sat in earlier.values_list("sitting_out", flat=True):
        for e in sat or []:
            e = to_draw.get(e, e)
            if e in pool:
                stored[e] = stored.get(e, 0) + 1
    counted = {int(k): int(v) for k, v in remainder["rounds_out"].items() if int(v)}
    if stored == counted:
        findings.append(
            Finding(True, "the earlier rounds' sit-outs stored here are those the draw counted")
        )
    else:
        differ = sorted(
            e for e in stored.keys() | counted.keys() if stored.get(e) != counted.get(e)
        )
        findings.append(
            Finding(
                False,
                "the earlier rounds' sit-outs stored here are not those the draw counted: "
                + "; ".join(
                    f"{e} sat out {stored.get(e, 0)} here, {counted.get(e, 0)} counted"
                    for e in differ
                ),
            )
        )
    return findings


def _tables_here(round_: Round, record: dict[str, Any]) -> list[Finding]:
    """The tables part of :func:`seating_findings`."""
    ids = {int(k): int(v) for k, v in (record.get("entry_ids") or {}).items()}
    here = [
        (t.number, [s.entry_id for s in t.seats.all()], t.first_dealer)
        for t in round_.tables.prefetch_related("seats").order_by("number")
    ]
    drawn = [
        (i, [ids.get(x, x) for x in t.get("seats", [])], t.get("first_dealer"))
        for i, t in enumerate(record.get("tables") or [], start=1)
    ]
    seated_here = {x for _n, seats, _d in here for x in seats}
    seated_drawn = {x for _n, seats, _d in drawn for x in seats}
    event_entries = set(round_.event.entries.values_list("pk", flat=True))
    if not ids and not seated_drawn <= event_entries:
        return [
            Finding(
                True,
                "the record names the players by the ids of the server where the round was "
                "drawn, and this event does not say which of its players they are (imported "
                "from an archive without them): the seating here is not compared with it",
                warning=True,
            )
        ]
    if record.get("corrections"):
        if seated_here == seated_drawn:
            return [
                Finding(
                    True,
                    f"the seating here has the {len(seated_drawn)} players drawn, as corrected "
                    "after the draw (the corrections are listed below)",
                )
            ]
        return [Finding(False, "the seating here does not have the players drawn")]
    if here == drawn:
        return [Finding(True, f"the seating here is the {len(drawn)} tables drawn")]
    findings = [Finding(False, "the seating here differs from the tables drawn:")]
    for (n, seats, dealer), (_i, d_seats, d_dealer) in zip(here, drawn, strict=False):
        if (seats, dealer) != (d_seats, d_dealer):
            findings.append(
                Finding(
                    False,
                    f"  table {n}: here {seats} (first dealer {dealer}), drawn {d_seats} "
                    f"(first dealer {d_dealer})",
                )
            )
    if len(here) != len(drawn):
        findings.append(Finding(False, f"  {len(here)} tables here, {len(drawn)} drawn"))
    return findings


def verify(record: dict[str, Any], *, engine_version: str) -> list[Finding]:
    """Check ``record``: the seed has the published hash, the hash was published before the
    draw, and the engine re-run on the recorded input and seed gives the recorded tables.

    :raises RecordError: not a draw record this version can read, or a field missing.
    """
    if record.get("format") != FORMAT:
        raise RecordError(f"format: {record.get('format')!r} is not {FORMAT!r}")
    if record.get("version") != VERSION:
        raise RecordError(f"version: {record.get('version')!r}; this Pulka reads {VERSION}")
    missing = [k for k in ("seed", "seed_sha256", "input", "tables") if not record.get(k)]
    if missing:
        raise RecordError(f"{missing[0]}: missing (has the round been drawn?)")
    seed, published = record["seed"], record["seed_sha256"]
    findings = []
    if hashlib.sha256(seed.encode()).hexdigest() == published:
        findings.append(Finding(True, f"seed {seed} matches sha256 {published}"))
    else:
        findings.append(Finding(False, "the seed does not match the published hash"))
    when, drawn = _moment(record, "seed_published_at"), _moment(record, "drawn_at")
    if when and drawn and when <= drawn:
        findings.append(
            Finding(
                True,
                f"the hash was published at {when.isoformat()}, before the draw at "
                f"{drawn.isoformat()}",
            )
        )
    else:
        findings.append(
            Finding(
                True,
                "the hash was not published before the draw: the tables follow from the seed, "
                "but nothing shows the seed was chosen before the draw",
                warning=True,
            )
        )
    if record.get("engine") != engine_version:
        findings.append(
            Finding(
                True,
                f"drawn by {record.get('engine') or 'an unknown engine'}, re-run by "
                f"{engine_version}: a different engine version may seat the same input "
                f"differently; check with {record.get('engine')}",
                warning=True,
            )
        )
    try:
        again = tables_as_data(run_engine(record["input"], seed=seed).tables)
    except (KeyError, TypeError, ValueError, AttributeError, SeatingError) as exc:
        raise RecordError(
            f"input: the engine cannot read it ({type(exc).__name__}: {exc})"
        ) from exc
    findings += _sit_out_findings(record["input"], seed=seed)
    findings += team_findings(record["input"], record["tables"])
    recorded = record["tables"]
    if again == recorded:
        findings.append(
            Finding(
                True,
                f"the engine gives the same {len(again)} tables from the recorded input and seed",
            )
        )
    else:
        findings.append(Finding(False, "the re-run gives different tables:"))
        for i, (a, b) in enumerate(zip(recorded, again, strict=False), start=1):
            if a != b:
                findings.append(Finding(False, f"  table {i}: recorded {a}, re-run {b}"))
        if len(recorded) != len(again):
            findings.append(
                Finding(False, f"  {len(recorded)} tables recorded, {len(again)} re-run")
            )
    return findings


def team_findings(inputs: dict[str, Any], tables: Any) -> list[Finding]:
    """A team event's draw (``input.teams``: entry → team, issue 40): the recorded tables seat
    no two members of one team at a table, checked on the tables themselves, whatever the
    engine that drew them. Nothing is said of a draw without teams."""
    teams = inputs.get("teams") or {}
    if not teams:
        return []
    if not isinstance(teams, dict) or not isinstance(tables, list):
        raise RecordError("input.teams: not a mapping of entries to teams")
    team_of = {str(k): v for k, v in teams.items()}
    clashes = []
    for number, table in enumerate(tables, start=1):
        seen: dict[Any, Any] = {}
        for entry in table.get("seats", []) if isinstance(table, dict) else []:
            team = team_of.get(str(entry))
            if team is None:
                continue
            if team in seen:
                clashes.append(
                    Finding(
                        False,
                        f"  table {number} seats {seen[team]} and {entry}, both of team {team}",
                    )
                )
            seen[team] = entry
    if clashes:
        return [Finding(False, "two members of one team at a table:"), *clashes]
    return [
        Finding(
            True,
            f"no two members of one team at a table ({len(set(team_of.values()))} teams)",
        )
    ]


def _sit_out_findings(inputs: dict[str, Any], *, seed: str) -> list[Finding]:
    """Who sat the round out (players beyond a multiple of four, the event's choice "sit
    out"), chosen again from the seed and what the draw recorded it depended on: the players'
    earlier rounds out (``remainder.rounds_out``) and who was fixed at a table
    (``remainder.fixed``); ``tournaments/seating/remainder.py``. A record without them (drawn
    before Pulka recorded them) names who sat out but cannot have it re-checked: a warning.
    Nothing is said of a round nobody sat out with nothing recorded either."""
    remainder = inputs.get("remainder") if isinstance(inputs.get("remainder"), dict) else {}
    sat = sorted(inputs.get("sitting_out") or [])
    if "rounds_out" not in remainder:
        if not sat:
            return []
        return [
            Finding(
                True,
                f"who sat out ({_ids(sat)}) was not re-checked: the record does not carry the "
                "earlier sit-outs the choice depended on (drawn before Pulka recorded them)",
                warning=True,
            )
        ]
    try:
        pool = [e["id"] for e in inputs["entries"]] + sat
        rounds_out = {int(k): int(v) for k, v in remainder["rounds_out"].items()}
        fixed = [int(e) for e in remainder.get("fixed") or []]
        again = list(
            sitting_out(
                pool, k=remainder_of(len(pool)), rounds_out=rounds_out, seed=seed, fixed=fixed
            )
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise RecordError(
            f"input.remainder: who sits out cannot be chosen from it ({type(exc).__name__}: {exc})"
        ) from exc
    before = sum(1 for n in rounds_out.values() if n)
    if again == sat:
        return [
            Finding(
                True,
                f"who sits out ({_ids(sat) if sat else 'nobody'}) follows from the seed and the "
                f"earlier sit-outs ({before} of the {len(pool)} players had sat out before)",
            )
        ]
    return [
        Finding(
            False,
            f"who sits out differs: recorded {_ids(sat) if sat else 'nobody'}, the seed and the "
            f"earlier sit-outs give {_ids(again) if again else 'nobody'}",
        )
    ]


def _ids(ids: list[int]) -> str:
    return ", ".join(str(i) for i in ids)


def _moment(record: dict[str, Any], field: str) -> datetime | None:
    """``record[field]`` as an aware datetime (None if empty); a malformed one is an error."""
    value = record.get(field)
    if not value:
        return None
    try:
        moment = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise RecordError(f"{field}: {value!r} is not an ISO 8601 time") from None
    if moment.tzinfo is None:
        raise RecordError(f"{field}: {value!r} has no UTC offset")
    return moment


def _iso(moment) -> str | None:
    return moment.isoformat() if moment is not None else None
