"""``manage.py archive_export <event> [-o FILE]``: an event's full archive as JSON
(``docs/archive-format.md``), on standard output or into FILE; ``--series <slug>``: a series'
archive with its events and persons (issue 39)."""

from django.core.management.base import BaseCommand, CommandError

from tournaments.archive.export import event_archive_json
from tournaments.archive.series import series_archive_json
from tournaments.models import Event, Series


class Command(BaseCommand):
    help = "Write an event's full archive (versioned JSON) to standard output or a file."

    def add_arguments(self, parser):
        parser.add_argument("event", help="the event's (or with --series the series') short name")
        parser.add_argument(
            "--series",
            action="store_true",
            help="a series' archive, with its events and persons (docs/archive-format.md)",
        )
        parser.add_argument("-o", "--output", help="the file to write (default: standard output)")

    def handle(self, *args, **options):
        if options["series"]:
            event = Series.objects.filter(slug=options["event"]).first()
            if event is None:
                raise CommandError(f"no series with the short name {options['event']!r}")
            data = series_archive_json(series=event)
        else:
            event = Event.objects.filter(slug=options["event"]).first()
            if event is None:
                raise CommandError(f"no event with the short name {options['event']!r}")
            data = event_archive_json(event=event)
        if options["output"]:
            with open(options["output"], "wb") as out:
                out.write(data)
            self.stderr.write(f"{event.slug}: archive written to {options['output']}")
        else:
            self.stdout.write(data.decode(), ending="\n")
