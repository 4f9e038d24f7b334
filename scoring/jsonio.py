"""The versioned JSON every family's documents share: the envelope and the bounded reading.

Each family's ``jsonio`` (:mod:`scoring.russian.jsonio`, :mod:`scoring.balkan.jsonio`,
:mod:`scoring.pot.jsonio`, :mod:`scoring.priffe.jsonio`) reads and writes its own documents with
these pieces: a document starts ``{"format": ..., "version": ...}`` (:func:`_header` checks the
format, refuses a newer version and migrates an older one); reading is strict, an unknown key, a
wrong type or a bad value raises :class:`JsonFormatError` naming the JSON path
(``$.deals[3].contract``) and what was expected, and a wrong value is quoted only by its first
characters however large it is (:func:`_fail`). Keys starting with ``x-`` are extensions and are
ignored. Writing shares exact numbers (:func:`number`) and findings (:func:`finding_to_dict`).
This module imports only :mod:`scoring.findings` and :mod:`scoring.model`.

>>> _decode('{"format": "pulka-protocol", "version": 1, "target": "ten"}')["target"]
'ten'
>>> _int(1, None, "a whole number ≥ 1")("ten", "$.target")
Traceback (most recent call last):
...
scoring.jsonio.JsonFormatError: $.target: expected a whole number ≥ 1, found 'ten'
"""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from typing import Any, Final, TypeVar

from .findings import Finding
from .model import Ending, OptionValue, repeated_name

__all__ = [
    "VERSION",
    "Json",
    "Migration",
    "JsonFormatError",
    "dumps_document",
    "envelope",
    "number",
    "finding_to_dict",
    "check_names",
]

#: The version of the documents this module writes itself (``pulka-findings``, printed by
#: ``python -m scoring check --json``); each family's ``jsonio`` has its own.
VERSION: Final = 1

Json = Any

#: ``steps[v]`` of a family's ``MIGRATIONS``: a version ``v`` document turned into a version
#: ``v + 1`` one.
Migration = Callable[[dict[str, Json]], dict[str, Json]]


class JsonFormatError(ValueError):
    """A JSON document that does not follow the format: ``path`` is where, as ``$.a[0].b``."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path
        self.reason = message


def check_names(players: tuple[str, ...], path: str, rule: str) -> None:
    """Each seat's player by a name of his own (ignoring case), cited as ``rule``.

    >>> check_names(("A", "B", "a"), "$.players", '002 "Players and Deal"')
    Traceback (most recent call last):
    ...
    scoring.jsonio.JsonFormatError: $.players[2]: 'a' is also the name at $.players[0]: each player needs a name of his own (002 "Players and Deal")
    """
    found = repeated_name(players)
    if found is None:
        return
    first, seat = found
    if first == seat:
        raise JsonFormatError(f"{path}[{seat}]", f"a player needs a name ({rule})")
    raise JsonFormatError(
        f"{path}[{seat}]",
        f"{players[seat].strip()!r} is also the name at {path}[{first}]: each player needs a "
        f"name of his own ({rule})",
    )


# --- writing -------------------------------------------------------------------------------


def dumps_document(data: dict[str, Json], indent: int | None = 2) -> str:
    """A document as JSON text (UTF-8 characters kept, not escaped), ending in a newline."""
    return json.dumps(data, ensure_ascii=False, indent=indent) + "\n"


def envelope(kind: str, version: int, body: dict[str, Json]) -> dict[str, Json]:
    """A document: ``{"format": kind, "version": version}`` and then ``body``'s keys in order
    (what :func:`_header` checks when the document is read back)."""
    return {"format": kind, "version": version, **body}


def number(value: Fraction | int) -> int | str:
    """An exact number for JSON: an int, or ``"p/q"`` for a fraction (e.g. ``"-80/3"``)."""
    value = Fraction(value)
    return int(value) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def finding_to_dict(f: Finding) -> dict[str, Json]:
    """A finding as JSON: code, severity, message, rule and place (deal and player 0-based)."""

    def plain(value: object) -> Json:
        if value is None or isinstance(value, bool | int | str):
            return value
        if isinstance(value, Fraction):
            return number(value)
        return str(value)

    return {
        "code": f.code,
        "severity": str(f.severity),
        "message": f.message,
        "rule": f.rule,
        "source": f.source,
        "deal": f.deal,
        "player": f.player,
        "column": f.column,
        "written": plain(f.written),
        "expected": plain(f.expected),
    }


# --- reading -------------------------------------------------------------------------------


#: The most digits a number of a protocol document may have: every count, score, stake and
#: bound Pulka reads is far shorter. A longer one is read as a :class:`HugeNumber`, which no
#: field takes, so that the field's reader refuses it naming its path (issue #37: a
#: 5,000-digit number met Python's own digit limit and its message before).
MAX_DIGITS: Final = 30


class HugeNumber:
    """A JSON number longer than :data:`MAX_DIGITS` digits, kept unconverted."""

    __slots__ = ("digits",)

    def __init__(self, text: str) -> None:
        self.digits = len(text.lstrip("-"))

    def __repr__(self) -> str:
        return f"a number of {self.digits} digits"


def _parse_int(text: str) -> int | HugeNumber:
    return HugeNumber(text) if len(text) > MAX_DIGITS else int(text)


def _decode(text: str) -> Json:
    try:
        return json.loads(text, parse_int=_parse_int)
    except json.JSONDecodeError as error:
        raise JsonFormatError(
            "$", f"not JSON: {error.msg} at line {error.lineno}, column {error.colno}"
        ) from None
    except RecursionError:
        raise JsonFormatError("$", "JSON nested too deeply to be a protocol") from None


def _header(
    data: Json,
    kind: str,
    current: int,
    steps: dict[int, Migration],
) -> dict[str, Json]:
    """Check a document's ``format`` and ``version`` and migrate it to the current version.

    Every family's documents share this envelope: ``current`` is the version the family's
    reader writes and reads natively, ``steps[v]`` turns a version ``v`` document into a
    version ``v + 1`` one (each family's ``MIGRATIONS``).
    """
    obj = _Object(data, "$", "a JSON object")
    found = obj.data.get("format")
    if found != kind:
        raise _fail("$.format", repr(kind), found)
    version = _int(1, None, "a version number ≥ 1")(obj.data.get("version"), "$.version")
    if version > current:
        raise JsonFormatError(
            "$.version", f"version {version} is newer than this Pulka reads (up to {current})"
        )
    while version < current:
        data = steps[version](data)
        version += 1
    return dict(data)


def _preview(value: Json, budget: int) -> str:
    """At most about ``budget`` characters of ``value`` as JSON, without writing the rest: a
    huge or deeply nested value costs no more than its first characters."""
    if isinstance(value, list | dict):
        opening, closing = ("[", "]") if isinstance(value, list) else ("{", "}")
        parts = [opening]
        used = 1
        items = value.items() if isinstance(value, dict) else ((None, v) for v in value)
        for i, (key, item) in enumerate(items):
            if used > budget:
                break
            head = (", " if i else "") + ("" if key is None else json.dumps(key) + ": ")
            text = head + _preview(item, budget - used - len(head))
            parts.append(text)
            used += len(text)
        parts.append(closing)
        return "".join(parts)
    if isinstance(value, HugeNumber):
        return repr(value)
    if isinstance(value, str):
        value = value[: max(budget, 0) + 1]
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= budget + 1 else text[: max(budget, 0) + 1]


def _found(value: Json) -> str:
    text = _preview(value, 40)
    return text if len(text) <= 40 else text[:37] + "..."


def _fail(path: str, expected: str, value: Json) -> JsonFormatError:
    if isinstance(value, str):
        return JsonFormatError(path, f"expected {expected}, found {value!r}")
    return JsonFormatError(path, f"expected {expected}, found {_found(value)}")


class _Object:
    """A JSON object being read: every key must be known and is read once."""

    def __init__(self, value: Json, path: str, what: str) -> None:
        if not isinstance(value, dict):
            raise _fail(path, what, value)
        self.data: dict[str, Json] = value
        self.path = path
        self.seen: set[str] = set()

    def get(self, key: str, read: Callable[[Json, str], Any], default: Any = ...) -> Any:
        self.seen.add(key)
        if key not in self.data:
            if default is ...:
                raise JsonFormatError(self.path, f"missing key {key!r}")
            return default
        return read(self.data[key], f"{self.path}.{key}")

    def finish(self) -> None:
        extra = [k for k in self.data if k not in self.seen and not k.startswith("x-")]
        if extra:
            known = ", ".join(sorted(self.seen))
            raise JsonFormatError(
                f"{self.path}.{extra[0]}", f"unknown key (expected one of {known})"
            )


def _int(low: int | None = None, high: int | None = None, what: str = "") -> Callable[..., int]:
    def read(value: Json, path: str) -> int:
        ok = isinstance(value, int) and not isinstance(value, bool)
        if ok and (low is None or value >= low) and (high is None or value <= high):
            return int(value)
        if what:
            raise _fail(path, what, value)
        bounds = f" ≥ {low}" if high is None and low is not None else ""
        if low is not None and high is not None:
            bounds = f" from {low} to {high}"
        raise _fail(path, f"a whole number{bounds}", value)

    return read


def _optional(read: Callable[[Json, str], Any]) -> Callable[[Json, str], Any]:
    def inner(value: Json, path: str) -> Any:
        return None if value is None else read(value, path)

    return inner


def _str(value: Json, path: str) -> str:
    if not isinstance(value, str):
        raise _fail(path, "a string", value)
    return value


def _bool(value: Json, path: str) -> bool:
    if not isinstance(value, bool):
        raise _fail(path, "true or false", value)
    return value


def _list(item: Callable[[Json, str], Any], what: str = "a list") -> Callable[..., tuple[Any, ...]]:
    def read(value: Json, path: str) -> tuple[Any, ...]:
        if not isinstance(value, list):
            raise _fail(path, what, value)
        return tuple(item(v, f"{path}[{i}]") for i, v in enumerate(value))

    return read


def _pair(first: Callable[..., Any], second: Callable[..., Any], what: str) -> Callable[..., Any]:
    def read(value: Json, path: str) -> tuple[Any, Any]:
        if not isinstance(value, list) or len(value) != 2:
            raise _fail(path, what, value)
        return first(value[0], f"{path}[0]"), second(value[1], f"{path}[1]")

    return read


def _option(value: Json, path: str) -> OptionValue:
    if value is None or isinstance(value, str | bool | int) and not isinstance(value, float):
        return value
    raise _fail(path, "a string, whole number, true/false or null", value)


def _options(value: Json, path: str) -> tuple[tuple[str, OptionValue], ...]:
    if not isinstance(value, dict):
        raise _fail(path, "an object of option names and values", value)
    return tuple((k, _option(v, f"{path}.{k}")) for k, v in value.items())


def _result(value: Json, path: str) -> Fraction:
    if isinstance(value, int) and not isinstance(value, bool):
        return Fraction(value)
    if isinstance(value, str):
        try:
            return Fraction(value)
        except (ValueError, ZeroDivisionError):
            pass
    raise _fail(path, 'a whole number or an exact fraction such as "-80/3"', value)


def _ending(value: Json, path: str) -> Ending:
    try:
        return Ending(value)
    except ValueError:
        raise _fail(path, ", ".join(repr(e.value) for e in Ending), value) from None


_Sheet = TypeVar("_Sheet")


def _sheet_document(
    text: str,
    formats: tuple[str, str],
    key: str,
    from_dict: Callable[[Json], tuple[Any, _Sheet | None]],
    header: Callable[[Json, str], dict[str, Json]],
    body: Callable[[_Object], _Sheet],
) -> _Sheet:
    """What every family's ``loads_sheet`` reads: a document of the sheet's own format
    (``formats[1]``), its envelope checked by the family's ``header`` and its body read by
    ``body``, or the ``key`` of a protocol document (``formats[0]``) read by ``from_dict``.

    :raises JsonFormatError: naming the JSON path and what was expected there.
    """
    data = _decode(text)
    if isinstance(data, dict) and data.get("format") == formats[0]:
        sheet = from_dict(data)[1]
        if sheet is None:
            raise JsonFormatError(f"$.{key}", f"missing key {key!r} in this protocol document")
        return sheet
    obj = _Object(header(data, formats[1]), "$", "a JSON object")
    obj.get("format", _str)
    obj.get("version", _int())
    sheet = body(obj)
    obj.finish()
    return sheet
