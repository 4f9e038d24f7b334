"""Leagues and cups (issue 39): organisations, persons across events, series and their
stored standings.

An :class:`Organisation` (a club, a league, a federation) owns events and series and has its
own organisers (:class:`OrganisationRole`, the roles events have). A :class:`Person` is one
player across events: each event's :class:`~tournaments.models.player.Entry` points at its
person (``Entry.person``; null for rows made before persons until the data migration linked
them). A :class:`Series` is a league or a cup: events of one rule family, each with its weight
(the federation's tournament category, :class:`SeriesEvent`), and the rules that turn the
events' final standings into the series table. Pages read the stored
:class:`SeriesStandingsSnapshot`; the table is computed by a job
(``services.series.series_standings_recompute``, the pure code in
``tournaments.standings.series``), never in a request.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

__all__ = [
    "anonymous_name",
    "folded",
    "initials",
    "Organisation",
    "OrganisationRole",
    "Person",
    "PersonLogEntry",
    "Series",
    "SeriesEvent",
    "SeriesFile",
    "SeriesStandingsRow",
    "SeriesStandingsSnapshot",
    "table_lines",
    "table_row",
]


class Organisation(models.Model):
    """A club, a league or a federation: it owns events and series."""

    class Kind(models.TextChoices):
        CLUB = "club", _("Club")
        LEAGUE = "league", _("League")
        FEDERATION = "federation", _("Federation")

    slug = models.SlugField(_("short name (URL)"), max_length=60, unique=True)
    name = models.CharField(_("name"), max_length=200)
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices, default=Kind.CLUB)
    city = models.CharField(_("city"), max_length=120, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("organisation")
        verbose_name_plural = _("organisations")

    def __str__(self) -> str:
        return self.name


class OrganisationRole(models.Model):
    """A person's role in an organisation: its organisers create its series and events."""

    class Role(models.TextChoices):
        ORGANISER = "organiser", _("Organiser")
        CHIEF_REFEREE = "chief_referee", _("Chief referee")
        REFEREE = "referee", _("Table referee")

    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="organisation_roles"
    )
    role = models.CharField(max_length=16, choices=Role.choices)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["organisation", "user", "role"], name="one_organisation_role_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} — {self.get_role_display()} ({self.organisation})"


def folded(text: str) -> str:
    """A name or a club compared without case, accents or extra spaces ("Kovač  Ana" and
    "kovac ana" are equal; "Đurić" and "Djuric" too, as Croatian and Serbian write it without
    the letter): :attr:`Person.name_key`, what identity matching compares.

    >>> folded("  Ana  KOVAČ "), folded("Đurić") == folded("Djuric")
    ('ana kovac', True)
    """
    text = text.replace("đ", "dj").replace("Đ", "Dj").replace("ß", "ss")
    plain = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    return " ".join(plain.casefold().split())


def initials(name: str) -> str:
    """A name shown by its initials ("Ana Kovač" → "A. K.").

    >>> initials("Ana  Kovač-Horvat"), initials(""), initials("Lev")
    ('A. K.', '', 'L.')
    """
    return " ".join(f"{part[0]}." for part in name.split() if part)


class Person(models.Model):
    """One player across events and series (the entries of many events point at one person).

    ``shown_as`` is the organiser's setting per person (issue 39, privacy): public pages show
    the name in full or by its initials (:attr:`public_name`).
    """

    class ShownAs(models.TextChoices):
        NAME = "name", _("Full name")
        INITIALS = "initials", _("Initials")

    name = models.CharField(_("name"), max_length=120)
    # the name folded (:func:`folded`), what identity matching looks up: written with the name
    # by the services that write one (``services.persons``)
    name_key = models.CharField(max_length=120, blank=True, db_index=True)
    club = models.CharField(_("club"), max_length=120, blank=True)
    city = models.CharField(_("city"), max_length=120, blank=True)
    federation_id = models.CharField(_("federation id"), max_length=40, blank=True)
    shown_as = models.CharField(
        _("shown on public pages as"),
        max_length=8,
        choices=ShownAs.choices,
        default=ShownAs.NAME,
    )
    # when the person's personal data was erased (privacy): the results stay, anonymised
    erased_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = _("person")
        verbose_name_plural = _("persons")
        constraints = [
            models.UniqueConstraint(
                fields=["federation_id"],
                condition=~models.Q(federation_id=""),
                name="person_federation_id_unique_when_given",
            )
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def public_name(self) -> str:
        """The name as public pages show it (full, or initials when the organiser chose)."""
        return initials(self.name) if self.shown_as == self.ShownAs.INITIALS else self.name


def anonymous_name(person_id: int) -> str:
    """What an erased person is called wherever his name was (the results stay): a label
    without personal data, the same in every event."""
    return f"Anonymous {person_id}"


class PersonLogEntry(models.Model):
    """What was done to a person's record (a merge, an export, an erasure), by whom: kept when
    the merged record is gone (the ids and what was merged are in ``data``)."""

    person = models.ForeignKey(
        Person, on_delete=models.SET_NULL, null=True, blank=True, related_name="log"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT
    )
    action = models.CharField(max_length=60)  # "person.merged", ...
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.action}"


class Series(models.Model):
    """A league or a cup: events of one rule family and the rules of its table.

    ``points`` chooses what an event is worth: the place-points table (``place_points``; empty:
    the default table, ``tournaments.standings.series.DEFAULT_PLACE_POINTS``; shared places
    share their points), or the event's own score normalised for the table sizes. Each event's
    points are multiplied by its weight (:class:`SeriesEvent`); the best ``best_of`` of them
    count (empty: all); a person needs ``min_events`` events to be ranked; ``tiebreaks`` decide
    equal totals (keys of ``tournaments.standings.series.SERIES_TIEBREAKS``).
    """

    class Points(models.TextChoices):
        PLACE_POINTS = "place_points", _("Points by place in each event")
        NORMALISED_SCORE = (
            "normalised_score",
            _("Each event's score, normalised for the table sizes"),
        )

    slug = models.SlugField(_("short name (URL)"), max_length=60, unique=True)
    name = models.CharField(_("name"), max_length=200)
    organisation = models.ForeignKey(Organisation, on_delete=models.PROTECT, related_name="series")
    # the key of the rule family in rules.variants.FAMILIES (every event of the series plays it)
    family = models.CharField(_("rule family"), max_length=20)
    season = models.CharField(_("season"), max_length=40, blank=True)
    events = models.ManyToManyField(
        "tournaments.Event", through="SeriesEvent", related_name="series", blank=True
    )
    points = models.CharField(
        _("points per event"), max_length=20, choices=Points.choices, default=Points.PLACE_POINTS
    )
    place_points = models.JSONField(_("place-points table"), default=list, blank=True)
    best_of = models.PositiveSmallIntegerField(
        _("events counted (best N)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(1000)],
        help_text=_("Only a player's best N events count; empty: every event counts."),
    )
    min_events = models.PositiveSmallIntegerField(
        _("events needed to be ranked"),
        default=1,
        validators=[MinValueValidator(1), MaxValueValidator(1000)],
    )
    tiebreaks = models.JSONField(_("tie-breaks"), default=list, blank=True)
    published = models.BooleanField(_("published"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "name"]
        verbose_name = _("series")
        verbose_name_plural = _("series")

    def __str__(self) -> str:
        return self.name


class SeriesEvent(models.Model):
    """An event of a series, with the weight its points are multiplied by (the federation's
    tournament category, e.g. "A" × 1.5)."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="series_events")
    event = models.ForeignKey(
        "tournaments.Event", on_delete=models.CASCADE, related_name="series_events"
    )
    category = models.CharField(_("category"), max_length=40, blank=True)
    weight = models.DecimalField(
        _("weight"),
        max_digits=6,
        decimal_places=3,
        default=1,
        validators=[MinValueValidator(0)],
        help_text=_("The event's points are multiplied by it (the tournament's category)."),
    )
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event__starts_on", "event_id"]
        constraints = [
            models.UniqueConstraint(fields=["series", "event"], name="one_series_event_once")
        ]

    def __str__(self) -> str:
        return f"{self.series} — {self.event}"


class SeriesStandingsSnapshot(models.Model):
    """The last computed table of a series and the state of its recomputation (as
    :class:`~tournaments.models.standings.StandingsSnapshot` for an event: ``requested``
    counts the requests, ``computed`` the request number the stored table includes)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        RUNNING = "running", _("Running")
        OK = "ok", _("Up to date")
        FAILED = "failed", _("Failed")

    series = models.OneToOneField(
        Series, on_delete=models.CASCADE, related_name="standings_snapshot"
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    requested = models.PositiveIntegerField(default=0)
    computed = models.PositiveIntegerField(default=0)
    requested_at = models.DateTimeField(null=True, blank=True)
    computed_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True)
    # sha256 of the inputs (the events' places, the persons, the rules)
    inputs_hash = models.CharField(max_length=64, blank=True)
    # the table is stored in parts, so that a change writes only the rows it changes (issue 39:
    # not the cup's whole table as one document): this head (``SeriesStandings.as_parts``:
    # {"version": 3, "final", "events", "rules", "order": [[person, place, place_label,
    # shared, total, events_played, decided_by], ...], "event_info", "unlinked"}) and a
    # :class:`SeriesStandingsRow` per person with his cells. A table stored before the parts
    # holds the whole table here ({"version": 2, "rows": [...], ...}), read as it is until its
    # next computation writes the parts.
    head = models.JSONField(default=dict, blank=True)

    class Meta:
        verbose_name = _("series standings")

    def __str__(self) -> str:
        return f"{self.series} — {self.get_status_display()}"

    @property
    def data(self) -> dict:
        """The stored table as one document (``SeriesStandings.as_json`` with ``event_info``
        and ``unlinked``), joined from the head and the rows (every row read: the pages read
        only what they show, ``selectors.series.series_table``); ``{}`` before the first
        computation."""
        head = self.head or {}
        if "order" not in head:
            return head
        cells = dict(
            SeriesStandingsRow.objects.filter(snapshot=self).values_list("person_id", "cells")
        )
        return {
            **{k: v for k, v in head.items() if k != "order"},
            "rows": [
                table_row(line, cells.get(line[0], ()), head["events"]) for line in head["order"]
            ],
        }

    @property
    def pending(self) -> bool:
        return self.requested > self.computed or self.status in (
            self.Status.PENDING,
            self.Status.RUNNING,
        )


ORDER_FIELDS = ("person", "place", "place_label", "shared", "total", "events_played", "decided_by")


def table_row(line: list, cells: Any, events: list[int]) -> dict[str, Any]:
    """A row of a series' table in its one-document form from its line of the head's order
    and its stored cells (``[[event, points, place, counted, final], ...]``): the cells
    follow ``events``, ``None`` where the person did not play."""
    column = {e: i for i, e in enumerate(events)}
    dense: list[Any] = [None] * len(events)
    for event, *cell in cells:
        if event in column:
            dense[column[event]] = cell
    return {**dict(zip(ORDER_FIELDS, line, strict=True)), "cells": dense}


def table_lines(head: dict[str, Any]) -> list[dict[str, Any]]:
    """The rows of a stored table without their cells (person, place, place label, total,
    ...), from its head alone: what a person's page and the pages' versions need."""
    if "order" not in head:  # stored before the parts: the whole table
        return list(head.get("rows", []))
    return [dict(zip(ORDER_FIELDS, line, strict=True)) for line in head["order"]]


class SeriesStandingsRow(models.Model):
    """A person's cells in a series' stored table (``cells``: ``[[event, points, place,
    counted, final], ...]`` for the events he played, in the series' order), written only
    when they change; his place and total are in the snapshot's head."""

    snapshot = models.ForeignKey(
        SeriesStandingsSnapshot, on_delete=models.CASCADE, related_name="rows"
    )
    # no constraint: a merged person's row goes with the table's next computation
    person = models.ForeignKey(
        Person, on_delete=models.DO_NOTHING, db_constraint=False, related_name="+"
    )
    cells = models.JSONField(default=list, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["snapshot", "person"], name="one_series_standings_row_per_person"
            )
        ]

    def __str__(self) -> str:
        return f"{self.snapshot_id}:{self.person_id}"


def series_file_path(instance: SeriesFile, filename: str) -> str:
    return f"generated/series/{instance.series_id}/{filename}"


class SeriesFile(models.Model):
    """A series' standings as a PDF, rendered by a job and kept until the table changes
    (``inputs_hash``: the stored table's hash, the language and the paper)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        OK = "ok", _("Ready")
        FAILED = "failed", _("Failed")

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="files")
    language = models.CharField(max_length=8, default="en")
    paper = models.CharField(max_length=8, default="A4")
    inputs_hash = models.CharField(max_length=64)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    error = models.TextField(blank=True)
    file = models.FileField(upload_to=series_file_path, blank=True)
    filename = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["series", "inputs_hash"])]

    def __str__(self) -> str:
        return self.filename or f"{self.series} ({self.language})"
