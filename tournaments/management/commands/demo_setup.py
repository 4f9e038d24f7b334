"""``manage.py demo_setup``: the demo the README's first command starts with (idempotent)."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand


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
