from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Imported here, not at the top: these modules import the models, which Django loads
        # after this module (app loading). The tasks' module registers every Celery task of
        # the app, what the outbox's sweep asks of the layers above, and (through the services)
        # the selector ``StandingsSnapshot.data`` reads with.
        from tournaments.jobs import tasks  # noqa: F401
        from tournaments.services import standings
        from tournaments.web_cache import versions as page_cache

        # the public pages' versions follow every change of what they show (web_cache.versions)
        page_cache.connect()
        # a player renamed: his events' pages and stored standings (services.standings)
        standings.connect()
