"""``manage.py draw_verify EVENT ROUND`` or ``manage.py draw_verify --record FILE``: re-run a
round's draw from its seed and compare.

Anyone with the published seed can check that the tables are what the engine makes of the
recorded input: the seed matches the hash published before the draw, and the engine, re-run
on the same input and seed, gives the same tables. With ``EVENT ROUND`` the record comes from
this site's database, the seating stored here is compared with the tables drawn (a round
imported from another server's archive through the record's ``entry_ids``), and corrections
made after the draw (swaps, moves, re-drawn tables) are listed (from the log; a record carries
them too). With ``--record`` it comes from a file (``-``: standard input), the draw
record that ``GET /api/v1/events/<slug>/rounds/<n>/draw-record`` gives for a public round
(``docs/draw-record.md``): no database rows are needed, so anyone with Pulka can check a draw.

The engine's version is recorded with the draw. A later version may seat some sizes
differently (it learns schedules without repeats it did not know), so a draw is checked with
the version that made it; the command says when the versions differ.
"""

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from tournaments.models import Round
from tournaments.seating import ENGINE_VERSION
from tournaments.services.draw_record import RecordError, draw_record, seating_findings, verify


class Command(BaseCommand):
    help = "Re-run a round's draw from its recorded input and seed and compare the tables."

    def add_arguments(self, parser):
        parser.add_argument("event", nargs="?", help="the event's short name (slug)")
        parser.add_argument("round", nargs="?", type=int)
        parser.add_argument(
            "--record", metavar="FILE", help="a draw record (JSON) instead; - for standard input"
        )

    def handle(self, *args, event, round, record, **options):
        round_ = None
        if record:
            if event or round:
                raise CommandError("give EVENT ROUND or --record FILE, not both")
            data = self._read(record)
        else:
            if not event or round is None:
                raise CommandError("give EVENT ROUND, or --record FILE")
            round_ = self._round(event, round)
            data = draw_record(round_)
        try:
            findings = verify(data, engine_version=ENGINE_VERSION)
        except RecordError as exc:
            raise CommandError(f"not a draw record Pulka can check: {exc}") from None
        if round_ is not None:  # and the seating stored here is that draw
            findings += seating_findings(round_, data)
        for f in findings:
            style = self.style.ERROR if not f.ok else self.style.WARNING if f.warning else str
            self.stdout.write(style(f.message))
        if all(f.ok for f in findings):
            self.stdout.write(self.style.SUCCESS("verified"))
        for c in data.get("corrections", []):  # after the draw: not checked, listed
            self.stdout.write(f"correction {c['at']} {c['action']}: {c['reason']} {c['data']}")
        if not all(f.ok for f in findings):
            raise CommandError("verification failed")

    def _round(self, event: str, number: int) -> Round:
        try:
            round_ = Round.objects.select_related("event").get(event__slug=event, number=number)
        except Round.DoesNotExist:
            raise CommandError(f"no round {number} in event {event!r}") from None
        if not round_.draw_seed or "input" not in (round_.draw_params or {}):
            raise CommandError(f"round {number} of {event!r} has not been drawn")
        return round_

    def _read(self, path: str) -> dict:
        try:
            text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
            data = json.loads(text)
        except OSError as exc:
            raise CommandError(f"--record: {exc}") from None
        except json.JSONDecodeError as exc:
            raise CommandError(f"--record: not JSON ({exc})") from None
        except RecursionError:  # issue 25, item 7: an error, not a traceback
            raise CommandError("--record: JSON nested too deeply to be a draw record") from None
        if not isinstance(data, dict):
            raise CommandError("--record: not a draw record (a JSON object)")
        return data
