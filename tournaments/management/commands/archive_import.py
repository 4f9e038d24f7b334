"""``manage.py archive_import FILE [--slug NEW] [--user NAME] [--event-suffix S]``: make a new
event of an event's archive, or a new series with its events and persons of a series' archive
(``docs/archive-format.md``); all or nothing."""

import sys

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from tournaments.archive import ArchiveError
from tournaments.archive.series import archive_import_any_json, series_archive_import_json
from tournaments.models import Series


class Command(BaseCommand):
    help = "Import an event's archive as a new event (nothing is imported if anything is wrong)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the archive (JSON); - for standard input")
        parser.add_argument("--slug", help="the new event's short name (default: the archive's)")
        parser.add_argument("--user", help="the account the import is logged under")
        parser.add_argument(
            "--event-suffix",
            default="",
            help="a series' archive: added to each event's short name (when they are taken)",
        )

    def handle(self, *args, **options):
        by = None
        if options["user"]:
            by = get_user_model().objects.filter(username=options["user"]).first()
            if by is None:
                raise CommandError(f"no account named {options['user']!r}")
        try:
            if options["file"] == "-":
                text = sys.stdin.buffer.read()
            else:
                with open(options["file"], "rb") as f:
                    text = f.read()
        except OSError as exc:
            raise CommandError(f"cannot read {options['file']}: {exc}") from None
        try:
            if options["event_suffix"]:
                event = series_archive_import_json(
                    text=text, by=by, slug=options["slug"], event_suffix=options["event_suffix"]
                )
            else:
                event = archive_import_any_json(text=text, by=by, slug=options["slug"])
        except ArchiveError as exc:
            raise CommandError(exc.message) from None
        if isinstance(event, Series):
            self.stdout.write(
                f"{event.slug}: imported ({event.events.count()} events) at /s/{event.slug}/"
            )
            return
        self.stdout.write(
            f"{event.slug}: imported ({event.entries.count()} players, "
            f"{event.rounds.count()} rounds) at /e/{event.slug}/"
        )
