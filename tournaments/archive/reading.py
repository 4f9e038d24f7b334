"""Reading an archive document for :mod:`tournaments.archive.load`, with the path of every value:
the typed getters that raise :class:`~tournaments.archive.refs.ArchiveError` naming where a
value is wrong, the values as a model's fields store them, the checked raw save of a row, and
:func:`archive_checked` (the format and version checked, an older version migrated).
"""

from __future__ import annotations

import decimal
import json
from typing import Any

from django.core.exceptions import ValidationError
from django.db import DatabaseError, IntegrityError, models, transaction
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext as _

from tournaments.archive import export as spec
from tournaments.archive.refs import (
    ARCHIVE_FORMAT,
    ARCHIVE_VERSION,
    MIGRATIONS,
    ArchiveError,
)

__all__ = ["archive_checked"]


# --- reading the document, with the path of every value ------------------------------------


def _obj(value: Any, path: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ArchiveError(path, _("expected an object, found %(found)s") % _found(value))
    return value


def _list(value: Any, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise ArchiveError(path, _("expected a list, found %(found)s") % _found(value))
    return value


def _found(value: Any) -> dict[str, str]:
    text = json.dumps(value, ensure_ascii=False)
    return {"found": text if len(text) <= 60 else text[:57] + "…"}


def _key(data: dict[str, Any], key: str, path: str) -> Any:
    if key not in data:
        raise ArchiveError(f"{path}.{key}", _("missing"))
    return data[key]


def _value(field: models.Field, value: Any, path: str) -> Any:
    """``value`` of the archive as ``field`` stores it; wrong types are refused by path."""
    if value is None:
        if field.null or isinstance(field, models.JSONField):
            return None
        raise ArchiveError(path, _("must not be null"))
    if isinstance(field, models.JSONField):
        return value
    if isinstance(field, models.DateTimeField):
        parsed = parse_datetime(value) if isinstance(value, str) else None
        if parsed is None or parsed.tzinfo is None:
            raise ArchiveError(path, _("expected a date and time with its UTC offset"))
        return parsed
    if isinstance(field, models.DateField):
        parsed_date = parse_date(value) if isinstance(value, str) else None
        if parsed_date is None:
            raise ArchiveError(
                path, _("expected a date (YYYY-MM-DD), found %(found)s") % _found(value)
            )
        return parsed_date
    if isinstance(field, models.BooleanField):
        if not isinstance(value, bool):
            raise ArchiveError(path, _("expected true or false, found %(found)s") % _found(value))
        return value
    if isinstance(field, models.DecimalField):
        try:
            if isinstance(value, bool) or not isinstance(value, str | int):
                raise ValueError(value)
            return decimal.Decimal(str(value))
        except (ValueError, decimal.InvalidOperation):
            raise ArchiveError(
                path, _('expected a number as text ("12.50"), found %(found)s') % _found(value)
            ) from None
    if isinstance(field, models.IntegerField):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ArchiveError(path, _("expected a whole number, found %(found)s") % _found(value))
        return value
    if not isinstance(value, str) or "\x00" in value:
        raise ArchiveError(path, _("expected text, found %(found)s") % _found(value))
    return value


def _fields(model: type[models.Model], data: dict[str, Any], names, path: str) -> dict[str, Any]:
    return {
        name: _value(model._meta.get_field(name), _key(data, name, path), f"{path}.{name}")
        for name in names
    }


def _added(model: type[models.Model], data: dict[str, Any], kind: str, path: str) -> dict:
    """The fields added to version 1 later (``export.FIELDS_ADDED``) that ``data`` has: an
    older archive has not got them, and the model's defaults stand."""
    return {
        name: _value(model._meta.get_field(name), data[name], f"{path}.{name}")
        for name in spec.FIELDS_ADDED[kind]
        if name in data
    }


def _save(obj: models.Model, path: str) -> models.Model:
    """Check ``obj``'s values (choices, lengths, validators) and insert it as it is, with its
    recorded times (a raw save, as ``loaddata``)."""
    relations = [f.name for f in obj._meta.fields if f.is_relation]
    try:
        obj.full_clean(exclude=relations, validate_unique=False, validate_constraints=False)
    except ValidationError as exc:
        problems = "; ".join(
            f"{field}: {' '.join(str(m) for m in messages)}"
            for field, messages in exc.message_dict.items()
        )
        raise ArchiveError(path, problems) from None
    try:
        with transaction.atomic():  # a savepoint: the error is reported, not a broken transaction
            obj.save_base(raw=True)
    except (IntegrityError, DatabaseError) as exc:
        raise ArchiveError(path, str(exc).strip().splitlines()[0]) from None
    return obj


def archive_checked(document: Any) -> dict[str, Any]:
    """The document's format and version checked, an older version migrated to the current.

    :raises ArchiveError: not an archive, or one of a newer version than this Pulka reads.
    """
    data = _obj(document, "$")
    if data.get("format") != ARCHIVE_FORMAT:
        raise ArchiveError(
            "$.format",
            _("expected %(expected)s, found %(found)s")
            % {"expected": json.dumps(ARCHIVE_FORMAT), **_found(data.get("format"))},
        )
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise ArchiveError(
            "$.version", _("expected a version number ≥ 1, found %(found)s") % _found(version)
        )
    if version > ARCHIVE_VERSION:
        raise ArchiveError(
            "$.version",
            _(
                "the archive is version %(version)d, made by a newer Pulka; this Pulka reads "
                "versions up to %(current)d: update Pulka to import it"
            )
            % {"version": version, "current": ARCHIVE_VERSION},
        )
    while version < ARCHIVE_VERSION:
        data = MIGRATIONS[version](data)
        version += 1
    return data
