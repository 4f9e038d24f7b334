from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # the public pages' versions follow every change of what they show (page_cache.py)
        from tournaments.web_cache import versions as page_cache

        page_cache.connect()
