"""``manage.py archive_import FILE [--slug NEW] [--user NAME]``: make a new event of an
archive (``docs/archive-format.md``); all or nothing."""

import sys

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from tournaments.archive import ArchiveError
from tournaments.archive.load import event_archive_import_json


class Command(BaseCommand):
    help = "Import an event's archive as a new event (nothing is imported if anything is wrong)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the archive (JSON); - for standard input")
        parser.add_argument("--slug", help="the new event's short name (default: the archive's)")
        parser.add_argument("--user", help="the account the import is logged under")

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
            event = event_archive_import_json(text=text, by=by, slug=options["slug"])
        except ArchiveError as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(
            f"{event.slug}: imported ({event.entries.count()} players, "
            f"{event.rounds.count()} rounds) at /e/{event.slug}/"
        )
