"""Registering players: by hand, from CSV, check-in, withdrawal, re-entry, private keys."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournaments.errors import UserFacingError
from tournaments.models import Entry, Event, Player
from tournaments.models.player import new_url_key
from tournaments.services.audit import audit_log
from tournaments.services.persons import entry_person_link_new
from tournaments.services.teams import team_import_problems, teams_from_import
from tournaments.web_cache import versions as page_cache

__all__ = [
    "CsvImportError",
    "CsvLineError",
    "CsvImportResult",
    "entries_import_csv",
    "entry_check_in",
    "entry_check_in_undo",
    "entry_update",
    "entry_reenter",
    "entry_register",
    "entry_rotate_key",
    "entry_withdraw",
]

#: Accepted CSV headers for each field, in every language Pulka offers (issue 36: a club in
#: Zagreb, Vienna or Uppsala imports ``ime;klub;grad``, ``Name;Verein;Ort``, ``namn;klubb;ort``):
#: English, Russian, Croatian and Serbian (Latin), German, Swedish; compared lower-cased.
#: The words a club there writes at the head of its list: a player's full name ("ФИО",
#: "Ime i prezime", "Vor- und Nachname"), the member's number ("članski broj",
#: "Mitgliedsnummer"), a team ("ekipa" or "momčad" in Croatian, "tim" in Serbian, "Mannschaft",
#: "lag").
CSV_HEADERS = {
    "name": (
        "name", "player", "имя", "игрок", "фио", "фамилия и имя", "имя и фамилия", "участник",
        "ime", "ime i prezime", "igrač", "sudionik", "takmičar",
        "spieler", "spielerin", "vor- und nachname", "teilnehmer",
        "namn", "spelare", "deltagare", "för- och efternamn",
    ),
    "club": ("club", "клуб", "klub", "verein", "klubb", "förening"),
    "city": ("city", "город", "grad", "mesto", "mjesto", "ort", "stadt", "wohnort", "stad", "hemort"),
    "rating": ("rating", "рейтинг", "rejting", "wertung", "wertungszahl", "elo"),
    "federation_id": (
        "federation_id", "federation id", "id", "fid", "номер", "номер федерации",
        "broj", "članski broj", "mitgliedsnummer", "nummer", "medlemsnummer",
    ),
    "team": (  # a team event (issue 40)
        "team", "команда", "tim", "ekipa", "momčad", "mannschaft", "lag",
    ),
}  # fmt: skip

#: what each field of an import is called on the page (a line's error names it so)
CSV_FIELD_LABELS = {
    "name": gettext_lazy("Name"),
    "club": gettext_lazy("Club"),
    "city": gettext_lazy("City"),
    "rating": gettext_lazy("Rating"),
    "federation_id": gettext_lazy("Federation id"),
    "team": gettext_lazy("Team"),
    "file": gettext_lazy("File"),
}
_MAX = {"name": 120, "club": 120, "city": 120, "federation_id": 40, "team": 120}


@dataclass(frozen=True)
class CsvLineError:
    line: int
    field: str
    message: str

    @property
    def field_label(self) -> str:
        """The field as the page names it, in the reader's language (never ``federation_id``)."""
        return str(CSV_FIELD_LABELS.get(self.field, self.field))

    def __str__(self) -> str:
        return _("line %(line)d, %(field)s: %(message)s") % {
            "line": self.line,
            "field": self.field_label,
            "message": self.message,
        }


@dataclass(frozen=True)
class CsvImportResult:
    """What an import entered, the lines it skipped as players already entered, and the
    entries whose person is to be chosen (issue 39: a likely match offered, not guessed),
    each with the persons offered."""

    entries: list[Entry]
    skipped: tuple[int, ...] = ()
    likely: tuple[tuple[Entry, tuple[Any, ...]], ...] = ()


class CsvImportError(UserFacingError):
    """A CSV import refused as a whole; ``errors`` lists every bad line."""

    def __init__(self, errors: list[CsvLineError]) -> None:
        self.errors = errors
        super().__init__(
            ngettext(
                "The CSV file has %(n)d error; nothing was imported.",
                "The CSV file has %(n)d errors; nothing was imported.",
                len(errors),
            )
            % {"n": len(errors)},
            {"lines": [{"line": e.line, "field": e.field, "message": e.message} for e in errors]},
        )


def _clean_text(value: str, field_name: str, errors: list[CsvLineError], line: int) -> str:
    value = (value or "").strip()
    if "\x00" in value:
        errors.append(CsvLineError(line, field_name, _("contains a NUL character")))
        return ""
    if surrogate := next((c for c in value if "\ud800" <= c <= "\udfff"), None):
        # a lone surrogate (JSON's "\ud800"), which no text may hold (issue 38)
        errors.append(
            CsvLineError(
                line,
                field_name,
                _("contains the surrogate character U+%(code)04X, which is not text")
                % {"code": ord(surrogate)},
            )
        )
        # the line is refused; the rest of its checks see the text without them (a lookup of
        # the name must not send PostgreSQL what it cannot encode)
        return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in value)
    if len(value) > _MAX[field_name]:
        errors.append(
            CsvLineError(
                line, field_name, _("longer than %(n)d characters") % {"n": _MAX[field_name]}
            )
        )
    return value


def _find_or_create_player(
    *, name: str, club: str, city: str, rating: int | None, federation_id: str
) -> Player:
    if federation_id:
        player, created = Player.objects.get_or_create(
            federation_id=federation_id,
            defaults={"name": name, "club": club, "city": city, "rating": rating},
        )
        if not created:  # the federation's record is the reference; refresh what we were given
            changed = False
            for attr, value in (("club", club), ("city", city), ("rating", rating)):
                if value not in ("", None) and getattr(player, attr) != value:
                    setattr(player, attr, value)
                    changed = True
            if changed:
                player.save()
        return player
    return Player.objects.create(name=name, club=club, city=city, rating=rating)


#: A rating is stored in a 32-bit column.
RATING_MIN, RATING_MAX = -(2**31), 2**31 - 1


def _rating_out_of_range(rating: int) -> str:
    return _("the rating %(value)d is out of range") % {"value": rating}


@transaction.atomic
def entry_register(
    *,
    event: Event,
    name: str,
    club: str = "",
    city: str = "",
    rating: int | None = None,
    federation_id: str = "",
    joined_round: int | None = None,
    by=None,
) -> Entry:
    errors: list[CsvLineError] = []
    name = _clean_text(name, "name", errors, 0)
    club = _clean_text(club, "club", errors, 0)
    city = _clean_text(city, "city", errors, 0)
    federation_id = _clean_text(federation_id, "federation_id", errors, 0)
    if rating is not None and not RATING_MIN <= rating <= RATING_MAX:
        errors.append(CsvLineError(0, "rating", _rating_out_of_range(rating)))
    if errors:
        raise UserFacingError(errors[0].message, {"field": errors[0].field})
    if not name:
        raise UserFacingError(_("A player needs a name."), {"field": "name"})
    entered = event.entries.values_list("player__name", flat=True)
    if not federation_id and name.casefold() in {n.casefold() for n in entered}:
        raise UserFacingError(
            _("%(name)s is already entered (give a federation id to tell namesakes apart).")
            % {"name": name},
            {"field": "name"},
        )
    player = _find_or_create_player(
        name=name, club=club, city=city, rating=rating, federation_id=federation_id
    )
    if Entry.objects.filter(event=event, player=player).exists():
        raise UserFacingError(
            _("%(name)s is already entered.") % {"name": player.name},
            {"field": "federation_id" if federation_id else "name"},
        )
    if joined_round is None:
        joined_round = _joining_round(event)
    entry = Entry.objects.create(
        event=event, player=player, joined_round=joined_round, status=_status_on_entry(event)
    )
    # the person across events: by federation id, a new one, or none yet when likely persons
    # are offered to the organiser (services.persons)
    entry_person_link_new(entry=entry)
    audit_log(
        event=event,
        action="entry.registered",
        by=by,
        data={"entry": entry.pk, "name": player.name, "joined_round": joined_round},
    )
    return entry


def entries_import_csv(
    *, event: Event, text: str, skip_entered: bool = False, by=None
) -> CsvImportResult:
    """Import players from CSV (a header line, then one player a line; ``,`` or ``;``).

    Every bad line is reported (line number, field, what is wrong) and nothing is imported
    unless every line is good. A player already entered in the event (the same federation id,
    or without one the same name) is a bad line, unless ``skip_entered``: then the line is
    skipped, so that an extended list can be imported again. A ``team`` column (a team event,
    issue 40) puts each player with a team name in that team, made when new; a team the file
    would leave with fewer than three or more than five members is a bad line.

    :raises CsvImportError: with ``errors``, one per problem.
    """
    if "\x00" in text:
        raise CsvImportError(
            [CsvLineError(1, "file", _("contains NUL characters; is it a CSV file?"))]
        )
    text = text.lstrip("\ufeff")
    try:
        dialect = csv.Sniffer().sniff(text.split("\n", 1)[0], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(text), dialect)
    try:
        header = [h.strip().lower() for h in next(reader)]
    except StopIteration:
        raise CsvImportError([CsvLineError(1, "file", _("the file is empty"))]) from None
    columns: dict[str, int] = {}
    for field_name, names in CSV_HEADERS.items():
        for i, h in enumerate(header):
            if h in names:
                columns.setdefault(field_name, i)
    if "name" not in columns:
        raise CsvImportError(
            [
                CsvLineError(
                    1,
                    "name",
                    _("no name column in the header (expected one of: %s)")
                    % ", ".join(CSV_HEADERS["name"]),
                )
            ]
        )

    errors: list[CsvLineError] = []
    rows = []
    seen_ids: dict[str, int] = {}
    seen_names: dict[str, int] = {}
    entered = list(
        Entry.objects.filter(event=event).values_list("player__federation_id", "player__name")
    )
    entered_ids = {fid for fid, _name in entered if fid}
    entered_names = {name.casefold() for _fid, name in entered}
    skipped: list[int] = []
    for line_no, row in enumerate(reader, start=2):
        if not any(cell.strip() for cell in row):
            continue

        def cell(name: str, row=row) -> str:
            i = columns.get(name)
            return row[i] if i is not None and i < len(row) else ""

        before = len(errors)
        name = _clean_text(cell("name"), "name", errors, line_no)
        club = _clean_text(cell("club"), "club", errors, line_no)
        city = _clean_text(cell("city"), "city", errors, line_no)
        fid = _clean_text(cell("federation_id"), "federation_id", errors, line_no)
        team = _clean_text(cell("team"), "team", errors, line_no)
        rating: int | None = None
        if raw := cell("rating").strip():
            try:
                rating = int(raw)
            except ValueError:
                errors.append(
                    CsvLineError(
                        line_no, "rating", _("%(value)r is not a whole number") % {"value": raw}
                    )
                )
            else:
                if not RATING_MIN <= rating <= RATING_MAX:
                    errors.append(CsvLineError(line_no, "rating", _rating_out_of_range(rating)))
                    rating = None
        if not name:
            errors.append(CsvLineError(line_no, "name", _("the name is empty")))
        # A player entered already: the same federation id, or without one the same name.
        entered = fid in entered_ids if fid else bool(name) and name.casefold() in entered_names
        if entered and skip_entered:  # left out whole: its other cells do not matter
            del errors[before:]
            skipped.append(line_no)
            continue
        if entered:
            errors.append(
                CsvLineError(
                    line_no,
                    "federation_id",
                    _("the player with federation id %(fid)s is already entered") % {"fid": fid},
                )
                if fid
                else CsvLineError(
                    line_no,
                    "name",
                    _("%(name)s is already entered (give federation ids to tell namesakes apart)")
                    % {"name": name},
                )
            )
        elif fid and fid in seen_ids:
            errors.append(
                CsvLineError(
                    line_no,
                    "federation_id",
                    _("federation id %(fid)s is also on line %(other)d")
                    % {"fid": fid, "other": seen_ids[fid]},
                )
            )
        elif not fid and name and name.casefold() in seen_names:
            errors.append(
                CsvLineError(
                    line_no,
                    "name",
                    _(
                        "%(name)s is also on line %(other)d (give federation ids to tell namesakes apart)"
                    )
                    % {"name": name, "other": seen_names[name.casefold()]},
                )
            )
        if fid:
            seen_ids.setdefault(fid, line_no)
        elif name:
            seen_names.setdefault(name.casefold(), line_no)
        if len(errors) == before:
            rows.append((line_no, name, club, city, rating, fid, team))
    errors += [
        CsvLineError(line, "team", message)
        for line, message in team_import_problems(event, [(r[0], r[6]) for r in rows])
    ]
    if errors:
        raise CsvImportError(errors)
    if not rows and not skipped:
        raise CsvImportError([CsvLineError(2, "file", _("the file has a header but no players"))])
    entries = []
    likely = []
    with transaction.atomic():
        joined_round = _joining_round(event)  # late entries join with the next round
        for _line_no, name, club, city, rating, fid, _team in rows:
            player = _find_or_create_player(
                name=name, club=club, city=city, rating=rating, federation_id=fid
            )
            entry = Entry.objects.create(
                event=event,
                player=player,
                joined_round=joined_round,
                status=_status_on_entry(event),
            )
            match = entry_person_link_new(entry=entry)
            if match.kind == "likely":
                likely.append((entry, match.candidates))
            entries.append(entry)
        teams_from_import(event, [(e, row[6]) for e, row in zip(entries, rows, strict=True)], by=by)
        audit_log(
            event=event,
            action="entries.imported",
            by=by,
            data={
                "count": len(entries),
                "skipped_lines": skipped,
                "persons_to_choose": [e.pk for e, _c in likely],
            },
        )
    return CsvImportResult(entries, tuple(skipped), tuple(likely))


def _status_on_entry(event: Event) -> str:
    """A player entered once a round is drawn is at the venue (a late entry): checked in, so
    that the next draw seats them; before, registered."""
    if event.rounds.exclude(state="draft").exists():
        return Entry.Status.CHECKED_IN
    return Entry.Status.REGISTERED


def _joining_round(event: Event) -> int | None:
    """The round a player entered now plays first: the one after the last drawn; ``None``
    (from the first round) while no round is drawn."""
    played = event.rounds.exclude(state="draft").order_by("-number").first()
    return played.number + 1 if played else None


@transaction.atomic
def entry_check_in(*, entry: Entry, by=None) -> Entry:
    if entry.status == Entry.Status.WITHDRAWN:
        raise UserFacingError(
            _("%(name)s has withdrawn; re-enter them first.") % {"name": entry.player.name},
            {"field": "status"},
        )
    entry.status = Entry.Status.CHECKED_IN
    entry.save(update_fields=["status"])
    audit_log(event=entry.event, action="entry.checked_in", by=by, data={"entry": entry.pk})
    return entry


@transaction.atomic
def entry_check_in_undo(*, entry: Entry, by=None) -> Entry:
    """A check-in made by mistake: the player is registered again (not at the venue yet)."""
    entry = Entry.objects.select_for_update().select_related("player", "event").get(pk=entry.pk)
    if entry.status != Entry.Status.CHECKED_IN:
        raise UserFacingError(
            _("%(name)s is not checked in.") % {"name": entry.player.name}, {"field": "status"}
        )
    entry.status = Entry.Status.REGISTERED
    entry.save(update_fields=["status"])
    audit_log(event=entry.event, action="entry.check_in_undone", by=by, data={"entry": entry.pk})
    return entry


@transaction.atomic
def entry_update(
    *,
    entry: Entry,
    name: str,
    club: str = "",
    city: str = "",
    rating: int | None = None,
    federation_id: str = "",
    by=None,
) -> Entry:
    """Correct a player's details (a misspelt name, a club, a rating, a federation id). The
    player is the same person in every event he entered, so the correction shows there too;
    the log keeps each field's old and new value."""
    entry = Entry.objects.select_related("player", "event").get(pk=entry.pk)
    player = Player.objects.select_for_update().get(pk=entry.player_id)
    errors: list[CsvLineError] = []
    values = {
        "name": _clean_text(name, "name", errors, 0),
        "club": _clean_text(club, "club", errors, 0),
        "city": _clean_text(city, "city", errors, 0),
        "federation_id": _clean_text(federation_id, "federation_id", errors, 0),
        "rating": rating,
    }
    if rating is not None and not RATING_MIN <= rating <= RATING_MAX:
        errors.append(CsvLineError(0, "rating", _rating_out_of_range(rating)))
    if errors:
        raise UserFacingError(errors[0].message, {"field": errors[0].field})
    if not values["name"]:
        raise UserFacingError(_("A player needs a name."), {"field": "name"})
    fid = values["federation_id"]
    if fid:
        holder = Player.objects.filter(federation_id=fid).exclude(pk=player.pk).first()
        if holder is not None:
            raise UserFacingError(
                _("The federation id %(id)s is %(name)s's already.")
                % {"id": fid, "name": holder.name},
                {"field": "federation_id"},
            )
    elif values["name"].casefold() != player.name.casefold():
        others = entry.event.entries.exclude(pk=entry.pk).values_list("player__name", flat=True)
        if values["name"].casefold() in {n.casefold() for n in others}:
            raise UserFacingError(
                _("%(name)s is already entered (give a federation id to tell namesakes apart).")
                % {"name": values["name"]},
                {"field": "name"},
            )
    changes = {
        key: [getattr(player, key), value]
        for key, value in values.items()
        if getattr(player, key) != value
    }
    if changes:
        for key, (_old, new) in changes.items():
            setattr(player, key, new)
        player.save(update_fields=list(changes))
        audit_log(
            event=entry.event,
            action="entry.updated",
            by=by,
            data={"entry": entry.pk, "changes": changes},
        )
    entry.player = player
    return entry


@transaction.atomic
def entries_check_in_all(*, event: Event, by=None) -> int:
    """Check in every registered player (withdrawn ones stay out); the number checked in."""
    registered = event.entries.filter(status=Entry.Status.REGISTERED)
    ids = list(registered.values_list("pk", flat=True))
    registered.update(status=Entry.Status.CHECKED_IN)
    page_cache.changed(event_id=event.pk)
    if ids:
        audit_log(event=event, action="entries.checked_in", by=by, data={"entries": ids})
    return len(ids)


@transaction.atomic
def entry_withdraw(*, entry: Entry, reason: str = "", by=None) -> Entry:
    """Withdraw between rounds: the entry is not drawn again; past rounds keep it."""
    entry.status = Entry.Status.WITHDRAWN
    entry.save(update_fields=["status"])
    audit_log(
        event=entry.event, action="entry.withdrawn", by=by, reason=reason, data={"entry": entry.pk}
    )
    return entry


@transaction.atomic
def entry_reenter(*, entry: Entry, reason: str = "", by=None) -> Entry:
    if entry.status != Entry.Status.WITHDRAWN:
        raise UserFacingError(
            _("%(name)s has not withdrawn.") % {"name": entry.player.name}, {"field": "status"}
        )
    entry.status = Entry.Status.CHECKED_IN
    entry.save(update_fields=["status"])
    audit_log(
        event=entry.event, action="entry.reentered", by=by, reason=reason, data={"entry": entry.pk}
    )
    return entry


@transaction.atomic
def entry_rotate_key(*, entry: Entry, by=None) -> Entry:
    """Revoke the private link and issue a new one."""
    entry.url_key = new_url_key()
    entry.save(update_fields=["url_key"])
    audit_log(event=entry.event, action="entry.key_rotated", by=by, data={"entry": entry.pk})
    return entry


@transaction.atomic
def entry_set_substitute(*, entry: Entry, substitute: bool, by=None) -> Entry:
    """Mark an entry as a substitute (or a player again): at an event of tables of four whose
    organiser chose substitutes for the players beyond a multiple of four, a substitute is
    seated only to fill the last table and is not ranked."""
    entry.substitute = substitute
    entry.save(update_fields=["substitute"])
    audit_log(
        event=entry.event,
        action="entry.substitute" if substitute else "entry.regular",
        by=by,
        data={"entry": entry.pk},
    )
    return entry
