"""Reading an event's archive into this Pulka as a new event: :func:`event_archive_import`.

All or nothing: the whole import runs in one transaction, and the first thing wrong (a key
missing, a value of the wrong type, a reference to a player the archive does not hold, a
protocol the scoring module cannot read, a row the database refuses) raises
:class:`~tournaments.archive.refs.ArchiveError` naming its place in the document; nothing is
left behind. An archive of a newer version than this Pulka reads is refused, an older one is
migrated (:data:`~tournaments.archive.refs.MIGRATIONS`).

Rows keep their recorded times (``created_at`` and the like are written as the archive says,
as ``loaddata`` does), get new ids and new private links (an archive never carries the keys of
the players' and tables' links). Players are matched by federation id with the players already
here; accounts by user name (an account missing here is left empty, ``null``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from rules.conventions import InvalidConventionError
from rules.variants import find_any_convention
from scoring.duplicate.boards import Board as PureBoard
from scoring.duplicate.comparison import Adjustment
from tournaments.archive import export as spec
from tournaments.archive.reading import (
    _added,
    _fields,
    _found,
    _key,
    _list,
    _obj,
    _save,
    _value,
    archive_checked,
)
from tournaments.archive.refs import (
    ArchiveError,
    IdMaps,
    audit_data_mapped,
    correction_seats_mapped,
    findings_mapped,
    result_mapped,
    ruling_entries_mapped,
    words_mapped,
)
from tournaments.families.protocols import stored_protocol
from tournaments.models import (
    Appeal,
    AuditLogEntry,
    Avoidance,
    Board,
    BoardResult,
    DuplicateEvent,
    Entry,
    Event,
    EventPenalty,
    EventRole,
    Incident,
    PenaltyDefinition,
    Player,
    Protocol,
    ProtocolConfirmation,
    Round,
    Ruling,
    Seat,
    Table,
    Team,
    TeamLineUp,
    TeamMember,
    TeamRules,
)
from tournaments.services.audit import audit_log
from tournaments.services.duplicate import duplicate_schedule_makeable, duplicate_schedule_rescore
from tournaments.services.persons import entry_person_link_new
from tournaments.services.standings import standings_schedule

__all__ = ["event_archive_import", "event_archive_import_json"]


# --- the import ------------------------------------------------------------------------------


class _Import:
    def __init__(self, data: dict[str, Any], by) -> None:
        self.data = data
        self.by = by
        self.users: dict[str, Any] = {}
        self.maps: IdMaps = {"entry": {}, "table": {}, "incident": {}, "ruling": {}, "appeal": {}}
        self.definitions: dict[str, PenaltyDefinition] = {}
        self.rounds: dict[int, Round] = {}
        #: round number → the draw record's entry ids → the new entries' ids
        self.draw_ids: dict[int, dict[int, int]] = {}

    def user(self, value: Any, path: str):
        if value is None:
            return None
        if not isinstance(value, str):
            raise ArchiveError(path, _("expected a user name, found %(found)s") % _found(value))
        if value not in self.users:
            self.users[value] = get_user_model().objects.filter(username=value).first()
        return self.users[value]

    def ref(self, kind: str, value: Any, path: str, *, null: bool = False) -> Any:
        if value is None and null:
            return None
        key = tuple(value) if isinstance(value, list) else value
        try:
            return self.maps[kind][key]
        except (KeyError, TypeError):
            names = {
                "entry": _("player"),
                "table": _("table"),
                "incident": _("incident"),
                "ruling": _("ruling"),
                "appeal": _("appeal"),
            }
            raise ArchiveError(
                path,
                _("refers to %(kind)s %(found)s, which the archive does not hold")
                % {"kind": names[kind], **_found(value)},
            ) from None

    def items(self, key: str) -> list[tuple[str, dict[str, Any]]]:
        values = _list(_key(self.data, key, "$"), f"$.{key}")
        return [(f"$.{key}[{i}]", _obj(v, f"$.{key}[{i}]")) for i, v in enumerate(values)]

    # -- the parts, in the order their references need --

    def event(self, slug: str | None) -> Event:
        data = _obj(_key(self.data, "event", "$"), "$.event")
        values = _fields(Event, data, spec.EVENT_FIELDS, "$.event")
        values.update(_added(Event, data, "event", "$.event"))
        if slug:
            values["slug"] = slug
        try:
            find_any_convention(values["variant"])
        except (InvalidConventionError, LookupError, ValueError):
            raise ArchiveError(
                "$.event.variant",
                _("this Pulka does not know the convention %(found)s") % _found(values["variant"]),
            ) from None
        if Event.objects.filter(slug=values["slug"]).exists():
            raise ArchiveError(
                "$.event.slug",
                _("an event with the short name %(slug)s exists already: choose another")
                % {"slug": values["slug"]},
            )
        event = Event(**values)
        _save(event, "$.event")
        for path, item in self.items("staff"):
            user = self.user(_key(item, "user", path), f"{path}.user")
            if user is not None:
                _save(EventRole(event=event, user=user, role=_key(item, "role", path)), path)
        for path, item in self.items("penalty_definitions"):
            values = _fields(PenaltyDefinition, item, spec.DEFINITION_FIELDS, path)
            self.definitions[values["code"]] = _save(PenaltyDefinition(event=event, **values), path)
        return event

    def players(self, event: Event) -> None:
        for path, item in self.items("players"):
            player_values = _fields(Player, item, spec.PLAYER_FIELDS, path)
            player = None
            if player_values["federation_id"]:
                player = Player.objects.filter(federation_id=player_values["federation_id"]).first()
            if player is None:
                player = _save(Player(**player_values), path)
            entry = _save(
                Entry(
                    event=event,
                    player=player,
                    **_fields(Entry, item, spec.ENTRY_FIELDS, path),
                    **_added(Entry, item, "player", path),
                ),
                path,
            )
            # the person across events (issue 39): by federation id, a new one, or none yet
            # when likely persons are offered to the organiser
            entry_person_link_new(entry=entry)
            ref = _key(item, "ref", path)
            if ref in self.maps["entry"] or not isinstance(ref, int):
                raise ArchiveError(f"{path}.ref", _("not a whole number, or given twice"))
            self.maps["entry"][ref] = entry.pk
        for path, item in self.items("avoidances"):
            _save(
                Avoidance(
                    event=event,
                    first_id=self.ref("entry", _key(item, "first", path), f"{path}.first"),
                    second_id=self.ref("entry", _key(item, "second", path), f"{path}.second"),
                    reason=_value(
                        Avoidance._meta.get_field("reason"), item.get("reason", ""), path
                    ),
                ),
                path,
            )

    def teams(self, event: Event) -> None:
        """A team event's rules and teams with their members, captains and line-ups (issue 40;
        an archive without ``team_rules`` has none)."""
        if "team_rules" not in self.data:
            return
        rules = _obj(self.data["team_rules"], "$.team_rules")
        now = timezone.now()
        _save(
            TeamRules(
                event=event,
                scoring_members=_value(
                    TeamRules._meta.get_field("scoring_members"),
                    _key(rules, "scoring_members", "$.team_rules"),
                    "$.team_rules.scoring_members",
                ),
                counts=_value(
                    TeamRules._meta.get_field("counts"),
                    _key(rules, "counts", "$.team_rules"),
                    "$.team_rules.counts",
                ),
            ),
            "$.team_rules",
        )
        for path, item in self.items("teams"):
            team = _save(
                Team(
                    event=event,
                    name=_value(Team._meta.get_field("name"), _key(item, "name", path), path),
                    captain_id=self.ref("entry", item.get("captain"), f"{path}.captain", null=True),
                    withdrawn=_value(
                        Team._meta.get_field("withdrawn"), item.get("withdrawn", False), path
                    ),
                    created_at=now,  # a raw save sets no automatic time
                ),
                path,
            )
            for i, ref in enumerate(_list(_key(item, "members", path), f"{path}.members")):
                entry = self.ref("entry", ref, f"{path}.members[{i}]")
                _save(TeamMember(team=team, entry_id=entry), f"{path}.members[{i}]")
            for k, line_up in enumerate(_list(item.get("line_ups", []), f"{path}.line_ups")):
                where = f"{path}.line_ups[{k}]"
                line_up = _obj(line_up, where)
                saved = _save(
                    TeamLineUp(
                        team=team,
                        round_number=_value(
                            TeamLineUp._meta.get_field("round_number"),
                            _key(line_up, "round", where),
                            f"{where}.round",
                        ),
                        set_at=now,
                    ),
                    where,
                )
                saved.entries.set(
                    [
                        self.ref("entry", ref, f"{where}.members[{j}]")
                        for j, ref in enumerate(_list(_key(line_up, "members", where), where))
                    ]
                )

    def duplicate(self, event: Event) -> None:
        """A duplicate event's option, boards and results (issue 43; an archive without
        ``duplicate`` is an ordinary event). Each board must hold the 32 cards once, each
        result name a board and a table of the archive; the boards are scored again by jobs."""
        if "duplicate" not in self.data:
            return
        where = "$.duplicate"
        data = _obj(self.data["duplicate"], where)
        later = tuple(n for n in spec.DUPLICATE_LATER_FIELDS if n in data)
        _save(
            DuplicateEvent(
                event=event,
                **_fields(DuplicateEvent, data, spec.DUPLICATE_FIELDS + later, where),
            ),
            where,
        )
        boards: dict[int, Board] = {}
        for i, item in enumerate(_list(_key(data, "boards", where), f"{where}.boards")):
            path = f"{where}.boards[{i}]"
            values = _fields(Board, _obj(item, path), spec.BOARD_FIELDS, path)
            try:
                PureBoard.from_cards(values["number"], values["dealer"], values["cards"])
            except ValueError as exc:
                raise ArchiveError(f"{path}.cards", str(exc)) from None
            if values["number"] in boards:
                raise ArchiveError(f"{path}.number", _("not a whole number, or given twice"))
            boards[values["number"]] = _save(Board(event=event, **values), path)
        for i, item in enumerate(_list(data.get("results", []), f"{where}.results")):
            path = f"{where}.results[{i}]"
            item = _obj(item, path)
            board = boards.get(_key(item, "board", path))
            if board is None:
                raise ArchiveError(f"{path}.board", _("no such board in the archive"))
            table_id = self.maps["table"].get((_key(item, "round", path), _key(item, "table", path)))
            if table_id is None:
                raise ArchiveError(f"{path}.table", _("no such table in the archive"))
            later = tuple(n for n in spec.BOARD_RESULT_LATER_FIELDS if n in item)
            values = _fields(BoardResult, item, spec.BOARD_RESULT_FIELDS + later, path)
            adjusted = values.get("adjusted") or []
            if not isinstance(adjusted, list) or (
                adjusted and (len(adjusted) != 3 or not set(adjusted) <= set(Adjustment))
            ):
                raise ArchiveError(
                    f"{path}.adjusted", _("one of plus, average, minus for each of the three seats")
                )
            _save(BoardResult(board=board, table_id=table_id, **values), path)
        duplicate_schedule_rescore(event)
        duplicate_schedule_makeable(event)

    def draw_players(self, item: dict[str, Any], path: str) -> dict[int, int]:
        """The round's ``draw_players`` (the draw record's ids → the archive's references) as
        the draw record's ids → the new entries' ids; empty for an archive without them."""
        if "draw_players" not in item:
            return {}
        path = f"{path}.draw_players"
        out = {}
        for key, ref in _obj(item["draw_players"], path).items():
            if not str(key).lstrip("-").isdigit():
                raise ArchiveError(
                    path, _("expected entry ids as keys, found %(found)s") % _found(key)
                )
            out[int(key)] = self.ref("entry", ref, f"{path}.{key}")
        return out

    def rounds_and_tables(self, event: Event) -> None:
        for path, item in self.items("rounds"):
            values = _fields(Round, item, spec.ROUND_FIELDS, path)
            ids = self.draw_players(item, path)
            if ids and any(draw != new for draw, new in ids.items()):
                # the draw stays in the ids it ran with (the engine's tables depend on them);
                # the record says which of this event's entries each is (draw_record.entry_ids)
                params = values["draw_params"] if isinstance(values["draw_params"], dict) else {}
                values["draw_params"] = {
                    **params,
                    "entry_ids": {str(draw): new for draw, new in sorted(ids.items())},
                }
            if "sitting_out" in item:
                values["sitting_out"] = [
                    self.ref("entry", ref, f"{path}.sitting_out[{i}]")
                    for i, ref in enumerate(_list(item["sitting_out"], f"{path}.sitting_out"))
                ]
            round_ = _save(Round(event=event, **values), path)
            self.draw_ids[round_.number] = ids
            self.rounds[round_.number] = round_
            for t, table_data in enumerate(_list(_key(item, "tables", path), f"{path}.tables")):
                tpath = f"{path}.tables[{t}]"
                table_data = _obj(table_data, tpath)
                table = _save(
                    Table(
                        round=round_,
                        **_fields(Table, table_data, ("number", "first_dealer"), tpath),
                    ),
                    tpath,
                )
                self.maps["table"][(round_.number, table.number)] = table.pk
                for s, seat in enumerate(_list(_key(table_data, "seats", tpath), f"{tpath}.seats")):
                    spath = f"{tpath}.seats[{s}]"
                    seat = _obj(seat, spath)
                    _save(
                        Seat(
                            round=round_,
                            table=table,
                            position=_value(
                                Seat._meta.get_field("position"),
                                _key(seat, "position", spath),
                                f"{spath}.position",
                            ),
                            entry_id=self.ref(
                                "entry", _key(seat, "player", spath), f"{spath}.player"
                            ),
                        ),
                        spath,
                    )

    def rulings(self, event: Event) -> None:
        for path, item in self.items("incidents"):
            incident = Incident(
                event=event,
                table_id=self.ref("table", _key(item, "table", path), f"{path}.table"),
                reported_by=self.user(_key(item, "reported_by", path), f"{path}.reported_by"),
                **_fields(Incident, item, spec.INCIDENT_FIELDS, path),
            )
            self.maps["incident"][_key(item, "ref", path)] = _save(incident, path).pk
        replaces: list[tuple[int, Any, str]] = []
        for path, item in self.items("rulings"):
            definition = _key(item, "definition", path)
            if definition is not None and definition not in self.definitions:
                raise ArchiveError(f"{path}.definition", _("no penalty of the event has this code"))
            ruling = Ruling(
                incident_id=self.ref("incident", _key(item, "incident", path), f"{path}.incident"),
                definition=self.definitions.get(definition),
                by=self.user(_key(item, "by", path), f"{path}.by"),
                **_fields(Ruling, item, spec.RULING_FIELDS, path),
            )
            self.maps["ruling"][_key(item, "ref", path)] = _save(ruling, path).pk
            if _key(item, "replaces", path) is not None:
                replaces.append((ruling.pk, item["replaces"], f"{path}.replaces"))
        for pk, ref, path in replaces:
            Ruling.objects.filter(pk=pk).update(replaces_id=self.ref("ruling", ref, path))

    def protocols(self, step: Callable[[], None] = lambda: None) -> None:
        for r, round_data in enumerate(_list(self.data["rounds"], "$.rounds")):
            if r:
                step()  # a round's protocols done
            number = round_data["number"]
            for t, table_data in enumerate(round_data["tables"]):
                tpath = f"$.rounds[{r}].tables[{t}]"
                table_id = self.maps["table"][(number, table_data["number"])]
                saved: dict[tuple[str, int], Protocol] = {}
                items = _list(_key(table_data, "protocols", tpath), f"{tpath}.protocols")
                for p, item in enumerate(items):
                    path = f"{tpath}.protocols[{p}]"
                    item = _obj(item, path)
                    values = _fields(Protocol, item, spec.PROTOCOL_FIELDS, path)
                    if "findings" in values:  # the rulings their words name
                        values["findings"] = findings_mapped(
                            values["findings"], self.reverse("ruling")
                        )
                    try:
                        stored_protocol(values["data"])
                    except (ValueError, LookupError, TypeError) as exc:
                        raise ArchiveError(f"{path}.data", str(exc)) from None
                    protocol = _save(
                        Protocol(
                            table_id=table_id,
                            **values,
                            **_added(Protocol, item, "protocol", path),
                            players_errors_acknowledged_by=self.user(
                                item.get("players_errors_acknowledged_by"), path
                            ),
                            result=result_mapped(_key(item, "result", path), self.reverse("entry")),
                            rulings_applied=[
                                self.ref("ruling", v, f"{path}.rulings_applied")
                                for v in _list(_key(item, "rulings_applied", path), path)
                            ],
                            ruling_entries=ruling_entries_mapped(
                                _key(item, "ruling_entries", path), self.reverse("ruling")
                            ),
                            resolution=_key(item, "resolution", path),
                            # an archive written before reason_words has none: the reason stands
                            reason_words=words_mapped(
                                item.get("reason_words"), self.reverse("ruling")
                            ),
                            approved_by=self.user(_key(item, "approved_by", path), path),
                            created_by=self.user(_key(item, "created_by", path), path),
                            created_via_entry_id=self.ref(
                                "entry", _key(item, "created_via_player", path), path, null=True
                            ),
                        ),
                        path,
                    )
                    saved[(protocol.entry_kind, protocol.version)] = protocol
                    confirmations = _list(
                        _key(item, "confirmations", path), f"{path}.confirmations"
                    )
                    for c, confirmation in enumerate(confirmations):
                        cpath = f"{path}.confirmations[{c}]"
                        confirmation = _obj(confirmation, cpath)
                        _save(
                            ProtocolConfirmation(
                                protocol=protocol,
                                entry_id=self.ref(
                                    "entry", _key(confirmation, "player", cpath), cpath
                                ),
                                by_referee=self.user(
                                    _key(confirmation, "by_referee", cpath), cpath
                                ),
                                **_fields(
                                    ProtocolConfirmation,
                                    confirmation,
                                    ("seat", "confirmed_at"),
                                    cpath,
                                ),
                            ),
                            cpath,
                        )
                for protocol in saved.values():  # the second entry a resolution chose from
                    resolution = protocol.resolution
                    if isinstance(resolution, dict) and "referee_version" in resolution:
                        other = saved.get(("referee", resolution["referee_version"]))
                        if other is not None:
                            protocol.resolution = {**resolution, "referee_protocol": other.pk}
                            Protocol.objects.filter(pk=protocol.pk).update(
                                resolution=protocol.resolution
                            )

    def reverse(self, kind: str) -> IdMaps:
        """The map of ``kind`` as the ``refs`` translators take it (reference → new id)."""
        return {kind: self.maps[kind]}

    def appeals_and_penalties(self, event: Event) -> None:
        for path, item in self.items("appeals"):
            appeal = Appeal(
                ruling_id=self.ref("ruling", _key(item, "ruling", path), f"{path}.ruling"),
                filed_by_entry_id=self.ref(
                    "entry",
                    _key(item, "filed_by_player", path),
                    f"{path}.filed_by_player",
                    null=True,
                ),
                filed_by=self.user(_key(item, "filed_by", path), f"{path}.filed_by"),
                decided_by=self.user(_key(item, "decided_by", path), f"{path}.decided_by"),
                new_ruling_id=self.ref(
                    "ruling", _key(item, "new_ruling", path), f"{path}.new_ruling", null=True
                ),
                **_fields(Appeal, item, spec.APPEAL_FIELDS, path),
            )
            self.maps["appeal"][_key(item, "ref", path)] = _save(appeal, path).pk
        for path, item in self.items("event_penalties"):
            round_number = _key(item, "round", path)
            if round_number is not None and round_number not in self.rounds:
                raise ArchiveError(f"{path}.round", _("the archive has no round of this number"))
            definition = _key(item, "definition", path)
            if definition is not None and definition not in self.definitions:
                raise ArchiveError(f"{path}.definition", _("no penalty of the event has this code"))
            _save(
                EventPenalty(
                    event=event,
                    entry_id=self.ref("entry", _key(item, "player", path), f"{path}.player"),
                    round=self.rounds.get(round_number),
                    definition=self.definitions.get(definition),
                    ruling_id=self.ref(
                        "ruling", _key(item, "ruling", path), f"{path}.ruling", null=True
                    ),
                    by=self.user(_key(item, "by", path), f"{path}.by"),
                    **_fields(EventPenalty, item, spec.PENALTY_FIELDS, path),
                ),
                path,
            )

    def audit_log(self, event: Event) -> None:
        for path, item in self.items("audit_log"):
            values = _fields(AuditLogEntry, item, ("created_at", "action", "reason"), path)
            data = audit_data_mapped(values["action"], _key(item, "data", path), self.maps)
            # a table seated anew names its seats by the draw record's ids, as the draw does
            round_number = data.get("round") if isinstance(data, dict) else None
            ids = self.draw_ids.get(round_number, {}) if isinstance(round_number, int) else {}
            data = correction_seats_mapped(values["action"], data, ids)
            user = self.user(_key(item, "user", path), f"{path}.user")
            _save(AuditLogEntry(event=event, user=user, data=data, **values), path)


def import_steps(data: dict[str, Any]) -> int:
    """How many steps :func:`event_archive_import` reports for the checked archive ``data``:
    the event, the players, the rounds, the rulings, each round's protocols, the appeals and
    penalties, the log."""
    rounds = data.get("rounds")
    return 6 + max(1, len(rounds) if isinstance(rounds, list) else 0)


@transaction.atomic
def event_archive_import(
    *,
    document: Any,
    by,
    slug: str | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> Event:
    """Make a new event of the archive ``document`` (parsed JSON), all in one transaction.

    :param slug: the new event's short name (default: the archive's).
    :param on_progress: called with (steps done, steps) after each step (:func:`import_steps`).
    :raises ArchiveError: anything wrong with the document, by its path; nothing is imported.
    """
    data = archive_checked(document)
    total, done = import_steps(data), 0

    def step() -> None:
        nonlocal done
        done += 1
        if on_progress is not None:
            on_progress(min(done, total), total)

    run = _Import(data, by)
    event = run.event(slug)
    step()
    run.players(event)
    run.teams(event)
    step()
    run.rounds_and_tables(event)
    step()
    run.rulings(event)
    step()
    run.protocols(step)
    run.duplicate(event)
    step()
    run.appeals_and_penalties(event)
    step()
    run.audit_log(event)
    step()
    audit_log(
        event=event,
        action="event.imported",
        by=by,
        data={
            "from": data["event"]["slug"],
            "exported_at": data.get("exported_at"),
            "version": data["version"],
        },
    )
    if getattr(by, "is_authenticated", False) and not by.is_superuser:
        EventRole.objects.get_or_create(event=event, user=by, role=EventRole.Role.ORGANISER)
    standings_schedule(event_id=event.pk)
    return event


def event_archive_import_json(*, text: str | bytes, by, slug: str | None = None) -> Event:
    """:func:`event_archive_import` of an archive file's text.

    :raises ArchiveError: not JSON, or anything :func:`event_archive_import` refuses.
    """
    try:
        document = json.loads(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ArchiveError("$", _("not JSON (%(error)s)") % {"error": exc}) from None
    except RecursionError:  # deeper than the decoder goes (issue 25, item 7)
        raise ArchiveError("$", _("JSON nested too deeply to be an archive")) from None
    try:
        return event_archive_import(document=document, by=by, slug=slug)
    except RecursionError:  # decoded, but too deep to check or store; nothing was imported
        raise ArchiveError("$", _("JSON nested too deeply to be an archive")) from None
