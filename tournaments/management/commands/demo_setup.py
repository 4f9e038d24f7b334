"""``manage.py demo_setup``: the demo the README's first command starts with (idempotent)."""

import importlib

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from tournaments.demo.balkan import demo_balkan_event
from tournaments.demo.duplicate import demo_duplicate_event
from tournaments.demo.events import demo_event, demo_referee
from tournaments.demo.league import demo_balkan_league, demo_federation_cup
from tournaments.demo.pot import demo_pot_event
from tournaments.demo.priffe import demo_priffe_event

#: Each area's demo step: (module, function), called with the demo event if the module exists.
DEMO_STEPS = [
    ("tournaments.demo.protocols", "demo_protocols"),
    ("tournaments.demo.standings", "demo_standings"),
]


class Command(BaseCommand):
    help = "Create the demo superuser (demo / demo) and the demo tournament, if missing."

    def handle(self, *args, **options):
        User = get_user_model()
        user, created = User.objects.get_or_create(
            username="demo", defaults={"is_staff": True, "is_superuser": True}
        )
        if created:
            user.set_password("demo")
            user.save()
        self.stdout.write(f"demo superuser: {'created' if created else 'present'}")
        event = demo_event(organiser=user)
        demo_referee(event)
        self.stdout.write("demo referee: referee / referee (signs in at /accounts/login/)")
        self.stdout.write(
            f"demo event: {event.name} ({event.entries.count()} players, "
            f"{event.rounds.count()} rounds) at /e/{event.slug}/"
        )
        for module_name, function in DEMO_STEPS:
            try:
                module = importlib.import_module(module_name)
            except ModuleNotFoundError as exc:
                if exc.name != module_name:
                    raise
                continue
            getattr(module, function)(event)
            self.stdout.write(f"demo: {module_name.rsplit('.', 1)[1]} ready")
        cup = demo_federation_cup(organiser=user, first=event)
        self.stdout.write(f"demo federation cup: {cup.name} at /s/{cup.slug}/")
        liga = demo_balkan_event(organiser=user)
        demo_referee(liga)
        self.stdout.write(
            f"demo Balkan event: {liga.name} ({liga.entries.count()} players, Croatian rules) "
            f"at /e/{liga.slug}/"
        )
        league = demo_balkan_league(organiser=user, first=liga)
        self.stdout.write(
            f"demo league: {league.name} ({league.series_events.count()} evenings) "
            f"at /s/{league.slug}/"
        )
        kvall = demo_priffe_event(organiser=user)
        demo_referee(kvall)
        self.stdout.write(
            f"demo Priffe event: {kvall.name} ({kvall.entries.count()} players, modern scoring) "
            f"at /e/{kvall.slug}/"
        )
        duplicate = demo_duplicate_event(organiser=user)
        demo_referee(duplicate)
        self.stdout.write(
            f"demo duplicate event: {duplicate.name} ({duplicate.entries.count()} players, "
            f"the same boards at every table) at /e/{duplicate.slug}/duplicate/"
        )
        wien = demo_pot_event(organiser=user)
        demo_referee(wien)
        self.stdout.write(
            f"demo pot-game event: {wien.name} ({wien.entries.count()} players, Viennese rules) "
            f"at /e/{wien.slug}/"
        )
