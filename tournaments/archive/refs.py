"""What the archive's writer and reader share: its name, version and migrations, and the
translation of database ids inside recorded data (a protocol's result, the audit log's data)
into the archive's own references and back.

Inside the archive nothing names a row by its database id: players, incidents, rulings and
appeals have a ``ref`` (1, 2, 3 … in the order they were made), a table is ``[round, table]``
by their numbers, a protocol version ``[entry_kind, version]`` of its table. So an archive read
into another Pulka and written out again is the same document (ids and timestamps of the
export aside), and ids never clash with the rows already there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _

from tournaments.errors import UserFacingError

__all__ = [
    "ARCHIVE_FORMAT",
    "ARCHIVE_VERSION",
    "DUPLICATE_VERSION",
    "ORDINARY_VERSION",
    "MIGRATIONS",
    "ArchiveError",
    "IdMaps",
    "CORRECTIONS_WITH_SEATS",
    "audit_data_mapped",
    "correction_seats_mapped",
    "draw_ids",
    "findings_mapped",
    "result_mapped",
    "ruling_entries_mapped",
    "words_mapped",
]

#: the document's ``format``
ARCHIVE_FORMAT = "pulka-event-archive"
#: the newest version this Pulka reads (and writes for a duplicate event)
ARCHIVE_VERSION = 2
#: the version of an ordinary event's archive: the lowest that says all it holds, so that a
#: Pulka reading only version 1 still imports it (docs/archive-format.md, "Version 2")
ORDINARY_VERSION = 1
#: the version of a duplicate event's archive (issue 43): its boards and results are not a key
#: a reader may pass over, so a Pulka reading only version 1 refuses it ("made by a newer
#: Pulka") instead of importing an ordinary event without its boards
DUPLICATE_VERSION = 2


def _v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """Version 1 → 2: the document is unchanged (version 2 only forbids passing over the
    ``duplicate`` key; a version-1 archive holding one, written before version 2, is read with
    its boards as before)."""
    return {**data, "version": 2}


#: version n → a function turning a version-n document into version n + 1; an older archive
#: is migrated step by step on reading, a newer one refused
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _v1_to_v2}


class ArchiveError(UserFacingError):
    """An archive that cannot be read: the message names the place (``$.rounds[2].number``)
    and what was wrong; nothing of it was imported."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(
            _("The archive cannot be imported: %(path)s: %(problem)s. Nothing was imported.")
            % {"path": path, "problem": problem},
            {"field": "archive", "path": path},
        )
        self.path = path
        self.problem = problem


#: one kind of row → {id: reference} (export) or {reference: id} (import)
IdMaps = dict[str, dict[Any, Any]]

#: keys of the audit log's data that name an entry, in every action
_ENTRY_KEYS = ("entry", "first", "second")
#: keys that name an incident, a ruling or an appeal
_ROW_KEYS = {
    "incident": "incident",
    "ruling": "ruling",
    "replaces": "ruling",
    "new_ruling": "ruling",
    "appeal": "appeal",
}
#: actions whose ``table`` is the table's id (elsewhere it is the table's number)
_TABLE_ID_ACTIONS = ("protocol.", "incident.")


def _mapped(maps: IdMaps, kind: str, value: Any) -> Any:
    """``value`` through the map of ``kind``; a value it does not know (a row no longer in
    the event, data of another shape) stays as recorded."""
    key = tuple(value) if isinstance(value, list) else value
    try:
        found = maps[kind].get(key, value)
    except TypeError:  # unhashable: another shape
        return value
    return list(found) if isinstance(found, tuple) else found


def audit_data_mapped(action: str, data: Any, maps: IdMaps) -> Any:
    """An audit entry's ``data`` with the ids it holds translated through ``maps`` (kinds
    ``entry``, ``table``, ``incident``, ``ruling``, ``appeal``); everything else as recorded."""
    if not isinstance(data, dict):
        return data
    out = dict(data)
    for key in _ENTRY_KEYS:
        if key in out:
            out[key] = _mapped(maps, "entry", out[key])
    if action == "entries.checked_in" and isinstance(out.get("entries"), list):
        out["entries"] = [_mapped(maps, "entry", v) for v in out["entries"]]
    for key, kind in _ROW_KEYS.items():
        if key in out:
            out[key] = _mapped(maps, kind, out[key])
    if "reason_words" in out:
        out["reason_words"] = words_mapped(out["reason_words"], maps)
    if "table" in out and action.startswith(_TABLE_ID_ACTIONS):
        out["table"] = _mapped(maps, "table", out["table"])
    return out


def result_mapped(result: Any, maps: IdMaps) -> Any:
    """A protocol's ``result`` rows with their ``entry`` translated."""
    if not isinstance(result, list):
        return result
    return [
        {**row, "entry": _mapped(maps, "entry", row.get("entry"))} if isinstance(row, dict) else row
        for row in result
    ]


def _param_words_mapped(words: dict[str, Any], maps: IdMaps) -> dict[str, Any]:
    """``param_words`` (of a finding or of stored words) with the rulings they name translated;
    a ruling the map does not know loses its words, so the stored parameter is shown rather
    than another ruling."""
    out = {}
    for name, said in words.items():
        if isinstance(said, dict) and "ruling" in said:
            try:
                ruling = maps["ruling"].get(said["ruling"])
            except TypeError:  # unhashable: another shape
                ruling = None
            if ruling is not None:
                out[name] = {**said, "ruling": ruling}
        elif isinstance(said, dict) and isinstance(said.get("param_words"), dict):
            out[name] = {**said, "param_words": _param_words_mapped(said["param_words"], maps)}
        else:
            out[name] = said
    return out


def findings_mapped(findings: Any, maps: IdMaps) -> Any:
    """A protocol's ``findings`` with the ruling their ``param_words`` name translated (a
    finding kept as made says its ruling again from it)."""
    if not isinstance(findings, list):
        return findings
    return [
        {**f, "param_words": _param_words_mapped(f["param_words"], maps)}
        if isinstance(f, dict) and isinstance(f.get("param_words"), dict)
        else f
        for f in findings
    ]


def words_mapped(words: Any, maps: IdMaps) -> Any:
    """Stored words (a version's ``reason_words``) with the rulings they name translated;
    ``None`` when they name a ruling the map does not know (the stored text is shown)."""
    if not isinstance(words, dict) or not isinstance(words.get("param_words"), dict):
        return words
    mapped = _param_words_mapped(words["param_words"], maps)
    if set(mapped) != set(words["param_words"]):
        return None
    return {**words, "param_words": mapped}


def ruling_entries_mapped(ruling_entries: Any, maps: IdMaps) -> Any:
    """A protocol's ``ruling_entries`` with their ``ruling`` translated."""
    if not isinstance(ruling_entries, list):
        return ruling_entries
    return [
        {**row, "ruling": _mapped(maps, "ruling", row.get("ruling"))}
        if isinstance(row, dict)
        else row
        for row in ruling_entries
    ]


#: the log's corrections whose ``data["seats"]`` names entries by the draw record's ids
CORRECTIONS_WITH_SEATS = ("table.redrawn", "table.seated_as_drawn")


def _ids(values: Any) -> list[Any]:
    return (
        [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
        if isinstance(values, list)
        else []
    )


def draw_ids(params: Any) -> list[int]:
    """Every entry id a round's draw record (``draw_params``, docs/draw-record.md) names: the
    players drawn, those not checked in, sitting out or substituting, the earlier rounds'
    seats, the constraints and standings, the tables drawn. Sorted; a value of another shape is
    passed over."""
    if not isinstance(params, dict):
        return []
    inputs = params.get("input") if isinstance(params.get("input"), dict) else {}
    found: set[int] = set()
    entries = inputs.get("entries")
    if isinstance(entries, list):
        found.update(_ids([e.get("id") for e in entries if isinstance(e, dict)]))
    found.update(_ids(inputs.get("not_checked_in")))
    found.update(_ids(inputs.get("sitting_out")))
    found.update(_ids(inputs.get("benched")))  # a team event's members not in the line-up
    remainder = inputs.get("remainder")
    if isinstance(remainder, dict):
        found.update(_ids(remainder.get("substitutes")))
    for past in inputs.get("history") or []:
        for table in past if isinstance(past, list) else []:
            if isinstance(table, dict):
                found.update(_ids(table.get("seats")))
    for pair in inputs.get("avoid") or []:
        found.update(_ids(pair))
    for key in ("fixed_tables", "standings", "teams"):
        if isinstance(inputs.get(key), dict):
            found.update(int(k) for k in inputs[key] if str(k).lstrip("-").isdigit())
    for table in params.get("tables") or []:
        if isinstance(table, dict):
            found.update(_ids(table.get("seats")))
    return sorted(found)


def correction_seats_mapped(action: str, data: Any, ids: dict[int, int]) -> Any:
    """A seating correction's ``data`` with its ``seats`` (a table seated anew) through
    ``ids``; an id it does not know, and every other action, stay as recorded."""
    if action not in CORRECTIONS_WITH_SEATS or not isinstance(data, dict) or not ids:
        return data
    seats = data.get("seats")
    if not isinstance(seats, list):
        return data
    return {**data, "seats": [ids.get(s, s) if isinstance(s, int) else s for s in seats]}
