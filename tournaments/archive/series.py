"""A series' archive (issue 39, ``docs/archive-format.md``, "The series archive"): a league or a
cup with its organisation, its persons and each of its events as a whole event archive, as
one versioned JSON document (``pulka-series-archive``), and reading it back.

Export: :func:`series_archive`. Import (:func:`series_archive_import`, one transaction): the
organisation found by its short name or made, each person **matched by his federation id** to
the person of this Pulka who holds it (never duplicated), else a new person, each event
imported as its event archive is (``.load``) with its entries pointed at the archive's persons,
and the series made with its rules and its events' categories and weights; its table is then
computed by the series job. :func:`archive_import_any_json` reads either kind of archive file.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.archive.export import event_archive
from tournaments.archive.load import event_archive_import, event_archive_import_json
from tournaments.archive.reading import _found, _key, _list, _obj, _value
from tournaments.archive.refs import ARCHIVE_FORMAT, ArchiveError
from tournaments.models import (
    Entry,
    Event,
    Organisation,
    OrganisationRole,
    Person,
    Series,
    SeriesEvent,
)
from tournaments.models.series import folded
from tournaments.services.audit import organisation_log
from tournaments.services.series import series_schedule

__all__ = [
    "SERIES_ARCHIVE_FORMAT",
    "SERIES_ARCHIVE_VERSION",
    "archive_import_any_json",
    "series_archive",
    "series_archive_import",
    "series_archive_import_json",
    "series_archive_json",
]

SERIES_ARCHIVE_FORMAT = "pulka-series-archive"
#: the version this Pulka writes, and the newest it reads
SERIES_ARCHIVE_VERSION = 1
#: version n → a function turning a version-n document into version n + 1 (none yet)
SERIES_MIGRATIONS: dict[int, Any] = {}

ORGANISATION_FIELDS = ("slug", "name", "kind", "city")
SERIES_FIELDS = (
    "slug",
    "name",
    "family",
    "season",
    "points",
    "place_points",
    "best_of",
    "min_events",
    "tiebreaks",
    "published",
)
PERSON_FIELDS = ("name", "club", "city", "federation_id", "shown_as")


def _when(value) -> str | None:
    return value.isoformat() if value is not None else None


def series_archive(*, series: Series, exported_by=None) -> dict[str, Any]:
    """The series with its organisation, persons and events (each a whole event archive)."""
    links = list(
        series.series_events.select_related("event").order_by("event__starts_on", "event_id")
    )
    entries = Entry.objects.filter(event__in=[link.event for link in links], person__isnull=False)
    person_ids = sorted(set(entries.values_list("person_id", flat=True)))
    person_ref = {pk: n for n, pk in enumerate(person_ids, 1)}
    persons = [
        {
            "ref": person_ref[p.pk],
            **{f: getattr(p, f) for f in PERSON_FIELDS},
            "erased_at": _when(p.erased_at),
        }
        for p in Person.objects.filter(pk__in=person_ids).order_by("pk")
    ]
    events = []
    for link in links:
        document = event_archive(event=link.event, exported_by=exported_by)
        # the event archive's player references are its entries' in the order they were made
        player_of = {
            pk: n
            for n, pk in enumerate(
                Entry.objects.filter(event=link.event).order_by("pk").values_list("pk", flat=True),
                1,
            )
        }
        events.append(
            {
                "category": link.category,
                "weight": str(link.weight),
                "persons": [
                    [player_of[entry_id], person_ref[person_id]]
                    for entry_id, person_id in entries.filter(event=link.event)
                    .order_by("pk")
                    .values_list("pk", "person_id")
                ],
                "archive": document,
            }
        )
    return {
        "format": SERIES_ARCHIVE_FORMAT,
        "version": SERIES_ARCHIVE_VERSION,
        "exported_at": timezone.now().isoformat(),
        "exported_by": exported_by.get_username() if exported_by is not None else None,
        "organisation": {f: getattr(series.organisation, f) for f in ORGANISATION_FIELDS},
        "series": {f: getattr(series, f) for f in SERIES_FIELDS},
        "persons": persons,
        "events": events,
    }


def series_archive_json(*, series: Series, exported_by=None) -> bytes:
    """The series' archive as UTF-8 JSON, the file an organiser downloads."""
    document = series_archive(series=series, exported_by=exported_by)
    return json.dumps(document, ensure_ascii=False, indent=1).encode()


def series_archive_checked(document: Any) -> dict[str, Any]:
    """The document's format and version checked, an older version migrated to the current.

    :raises ArchiveError: not a series archive, or one of a newer version than this Pulka reads.
    """
    data = _obj(document, "$")
    if data.get("format") != SERIES_ARCHIVE_FORMAT:
        raise ArchiveError(
            "$.format",
            _("expected %(expected)s, found %(found)s")
            % {"expected": json.dumps(SERIES_ARCHIVE_FORMAT), **_found(data.get("format"))},
        )
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise ArchiveError(
            "$.version", _("expected a version number ≥ 1, found %(found)s") % _found(version)
        )
    if version > SERIES_ARCHIVE_VERSION:
        raise ArchiveError(
            "$.version",
            _(
                "the archive is version %(version)d, made by a newer Pulka; this Pulka reads "
                "versions up to %(current)d: update Pulka to import it"
            )
            % {"version": version, "current": SERIES_ARCHIVE_VERSION},
        )
    while version < SERIES_ARCHIVE_VERSION:
        data = SERIES_MIGRATIONS[version](data)
        version += 1
    return data


def _fields_of(model, data: dict[str, Any], names, path: str) -> dict[str, Any]:
    return {
        name: _value(model._meta.get_field(name), _key(data, name, path), f"{path}.{name}")
        for name in names
    }


def _persons(data: dict[str, Any]) -> dict[int, Person]:
    """The archive's persons: the person of this Pulka holding the same federation id (matched,
    not duplicated), else a new one."""
    found: dict[int, Person] = {}
    for i, raw in enumerate(_list(_key(data, "persons", "$"), "$.persons")):
        path = f"$.persons[{i}]"
        item = _obj(raw, path)
        ref = _key(item, "ref", path)
        if isinstance(ref, bool) or not isinstance(ref, int) or ref in found:
            raise ArchiveError(f"{path}.ref", _("not a whole number, or given twice"))
        values = _fields_of(Person, item, PERSON_FIELDS, path)
        if values["shown_as"] not in Person.ShownAs.values:
            raise ArchiveError(
                f"{path}.shown_as",
                _("expected %(expected)s, found %(found)s")
                % {"expected": " / ".join(Person.ShownAs.values), **_found(values["shown_as"])},
            )
        person = None
        if values["federation_id"]:
            person = Person.objects.filter(federation_id=values["federation_id"]).first()
        if person is None:
            erased = item.get("erased_at")
            person = Person.objects.create(
                **values,
                name_key=folded(values["name"]),
                erased_at=_value(Person._meta.get_field("erased_at"), erased, f"{path}.erased_at")
                if erased is not None
                else None,
            )
        found[ref] = person
    return found


def _organisation(data: dict[str, Any], by) -> Organisation:
    values = _fields_of(
        Organisation,
        _obj(_key(data, "organisation", "$"), "$.organisation"),
        ORGANISATION_FIELDS,
        "$.organisation",
    )
    organisation = Organisation.objects.filter(slug=values["slug"]).first()
    if organisation is None:
        organisation = Organisation.objects.create(**values)
        if getattr(by, "is_authenticated", False):
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
def series_archive_import(
    *,
    document: Any,
    by,
    slug: str | None = None,
    event_suffix: str = "",
    organisation: Organisation | None = None,
) -> Series:
    """Make a new series of the archive ``document`` (parsed JSON) with its events and persons,
    all in one transaction.

    :param slug: the new series' short name (default: the archive's).
    :param organisation: the organisation the series and its events go to (an organisation's
        import page); default: the archive's, found by its short name or made.
    :param event_suffix: added to each event's short name (to import a series beside its own
        events, whose short names are taken).
    :raises ArchiveError: anything wrong with the document, by its path; nothing is imported.
    """
    data = series_archive_checked(document)
    values = _fields_of(
        Series, _obj(_key(data, "series", "$"), "$.series"), SERIES_FIELDS, "$.series"
    )
    if slug:
        values["slug"] = slug
    if Series.objects.filter(slug=values["slug"]).exists():
        raise ArchiveError(
            "$.series.slug",
            _("a series with the short name %(slug)s exists already: choose another")
            % {"slug": values["slug"]},
        )
    if organisation is None:
        organisation = _organisation(data, by)
    persons = _persons(data)
    series = Series.objects.create(organisation=organisation, **values)
    for i, raw in enumerate(_list(_key(data, "events", "$"), "$.events")):
        path = f"$.events[{i}]"
        item = _obj(raw, path)
        archive = _obj(_key(item, "archive", path), f"{path}.archive")
        event_slug = (
            archive.get("event", {}).get("slug") if isinstance(archive.get("event"), dict) else None
        )
        try:
            event = event_archive_import(
                document=archive,
                by=by,
                slug=f"{event_slug}{event_suffix}" if event_slug and event_suffix else None,
            )
        except ArchiveError as error:
            raise ArchiveError(f"{path}.archive{error.path[1:]}", error.problem) from None
        event.organisation = organisation
        event.save(update_fields=["organisation"])
        _link_persons(event, archive, item, persons, path)
        weight = _value(
            SeriesEvent._meta.get_field("weight"), item.get("weight", "1"), f"{path}.weight"
        )
        SeriesEvent.objects.create(
            series=series,
            event=event,
            category=_value(
                SeriesEvent._meta.get_field("category"),
                item.get("category", ""),
                f"{path}.category",
            ),
            weight=Decimal(weight),
        )
    series_schedule(series_id=series.pk)
    return series


def _link_persons(event: Event, archive, item, persons: dict[int, Person], path: str) -> None:
    """Point the imported event's entries at the archive's persons (the import linked them as a
    registration does; the persons it made for them and nobody else has are deleted)."""
    refs = [
        p.get("ref") if isinstance(p, dict) else None
        for p in (archive.get("players") if isinstance(archive.get("players"), list) else [])
    ]
    entries = list(Entry.objects.filter(event=event).order_by("pk").values_list("pk", "person_id"))
    entry_of = {ref: pk for ref, (pk, _person) in zip(refs, entries, strict=False)}
    made = {person_id for _pk, person_id in entries if person_id is not None}
    for j, pair in enumerate(_list(item.get("persons", []), f"{path}.persons")):
        where = f"{path}.persons[{j}]"
        if not (isinstance(pair, list) and len(pair) == 2):
            raise ArchiveError(where, _("expected a list, found %(found)s") % _found(pair))
        player, person = pair
        if player not in entry_of or person not in persons:
            raise ArchiveError(
                where,
                _("refers to %(kind)s %(found)s, which the archive does not hold")
                % {"kind": _("player"), **_found(pair)},
            )
        Entry.objects.filter(pk=entry_of[player]).update(person=persons[person])
    kept = {p.pk for p in persons.values()}
    Person.objects.filter(pk__in=made - kept, entries__isnull=True).delete()


def series_archive_import_json(
    *,
    text: str | bytes,
    by,
    slug: str | None = None,
    event_suffix: str = "",
    organisation: Organisation | None = None,
) -> Series:
    """:func:`series_archive_import` of an archive file's text.

    :raises ArchiveError: not JSON, or anything :func:`series_archive_import` refuses.
    """
    try:
        document = json.loads(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ArchiveError("$", _("not JSON (%(error)s)") % {"error": exc}) from None
    except RecursionError:
        raise ArchiveError("$", _("JSON nested too deeply to be an archive")) from None
    return series_archive_import(
        document=document,
        by=by,
        slug=slug,
        event_suffix=event_suffix,
        organisation=organisation,
    )


def archive_import_any_json(*, text: str | bytes, by, slug: str | None = None) -> Event | Series:
    """An archive file of either kind: an event's (``pulka-event-archive``, every version this
    Pulka reads) or a series' (``pulka-series-archive``).

    :raises ArchiveError: not JSON, or anything the import refuses; nothing is imported.
    """
    try:
        document = json.loads(text)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return event_archive_import_json(text=text, by=by, slug=slug)  # says what is wrong
    if isinstance(document, dict) and document.get("format") == SERIES_ARCHIVE_FORMAT:
        return series_archive_import(document=document, by=by, slug=slug)
    if isinstance(document, dict) and document.get("format") not in (None, ARCHIVE_FORMAT):
        raise ArchiveError(
            "$.format",
            _("expected %(expected)s, found %(found)s")
            % {
                "expected": f"{json.dumps(ARCHIVE_FORMAT)} / {json.dumps(SERIES_ARCHIVE_FORMAT)}",
                **_found(document.get("format")),
            },
        )
    return event_archive_import_json(text=text, by=by, slug=slug)
