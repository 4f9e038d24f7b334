"""``manage.py draw_verify EVENT ROUND``: re-run a round's draw from its seed and compare.

Anyone with the published seed can check that the tables are what the engine makes of the
recorded input: the seed matches the hash published before the draw, and the engine, re-run
on the same input and seed, gives the same tables. Corrections made after the draw (swaps,
moves, re-drawn tables) are listed from the log.

The engine's version is recorded with the draw. A later version may seat some sizes
differently (it learns schedules without repeats it did not know), so a draw is checked with
the version that made it; the command says when the versions differ.
"""

from django.core.management.base import BaseCommand, CommandError

from tournaments.models import Round
from tournaments.seating import ENGINE_VERSION
from tournaments.services.rounds import run_engine, seed_hash, tables_as_data


class Command(BaseCommand):
    help = "Re-run a round's draw from its recorded input and seed and compare the tables."

    def add_arguments(self, parser):
        parser.add_argument("event", help="the event's short name (slug)")
        parser.add_argument("round", type=int)

    def handle(self, *args, event, round, **options):
        try:
            round_ = Round.objects.select_related("event").get(event__slug=event, number=round)
        except Round.DoesNotExist:
            raise CommandError(f"no round {round} in event {event!r}") from None
        params = round_.draw_params or {}
        if not round_.draw_seed or "input" not in params:
            raise CommandError(f"round {round} of {event!r} has not been drawn")
        ok = True
        if seed_hash(round_.draw_seed) != round_.draw_seed_hash:
            ok = False
            self.stdout.write(self.style.ERROR("the seed does not match the published hash"))
        else:
            self.stdout.write(f"seed {round_.draw_seed} matches sha256 {round_.draw_seed_hash}")
        recorded_engine = params.get("engine", "unknown")
        if recorded_engine != ENGINE_VERSION:
            self.stdout.write(
                self.style.WARNING(
                    f"drawn by {recorded_engine}, re-run by {ENGINE_VERSION}: a different engine "
                    f"version may seat the same input differently; check with {recorded_engine}"
                )
            )
        rerun = run_engine(params["input"], seed=round_.draw_seed)
        recorded = params.get("tables", [])
        again = tables_as_data(rerun.tables)
        if recorded == again:
            self.stdout.write(
                self.style.SUCCESS(
                    f"the engine gives the same {len(again)} tables from the recorded input and seed"
                )
            )
        else:
            ok = False
            self.stdout.write(self.style.ERROR("the re-run gives different tables:"))
            for i, (a, b) in enumerate(zip(recorded, again, strict=False), start=1):
                if a != b:
                    self.stdout.write(f"  table {i}: recorded {a}, re-run {b}")
        corrections = round_.event.audit_log.filter(
            action__in=["seats.swapped", "seat.moved", "table.redrawn"], data__round=round_.number
        ).order_by("created_at")
        for c in corrections:
            self.stdout.write(
                f"correction {c.created_at:%Y-%m-%d %H:%M} {c.action}: {c.reason} {c.data}"
            )
        if not ok:
            raise CommandError("verification failed")
