"""A player's private page, reached through their unguessable link (``/p/<key>/``)."""

from django.shortcuts import get_object_or_404, render

from tournaments.models import Entry
from tournaments.selectors.events import rounds_for_entry


def player_home(request, key: str):
    entry = get_object_or_404(Entry.objects.select_related("event", "player"), url_key=key)
    rounds = rounds_for_entry(entry=entry)
    # The round being played or about to be: where the player sits now, first on the page.
    now = next((r for r in reversed(rounds) if r[0].state in ("published", "in_play")), None)
    return render(
        request,
        "tournaments/private/player.html",
        {"entry": entry, "event": entry.event, "rounds": rounds, "now": now},
    )
