"""A player's private page, reached through their unguessable link (``/p/<key>/``)."""

from django.shortcuts import get_object_or_404, render

from tournaments.access import lockout
from tournaments.models import Entry
from tournaments.selectors.events import met_again_now, rounds_for_entry
from tournaments.words import draw_report as report_text


def player_home(request, key: str):
    entry = lockout.guarded(
        lockout.PRIVATE_KEY,
        request,
        lambda: get_object_or_404(Entry.objects.select_related("event", "player"), url_key=key),
    )
    rounds = rounds_for_entry(entry=entry)
    # The round being played or about to be: where the player sits now, first on the page.
    now = next((r for r in reversed(rounds) if r[0].state in ("published", "in_play")), None)
    return render(
        request,
        "tournaments/private/player.html",
        {
            "entry": entry,
            "event": entry.event,
            "rounds": rounds,
            "now": now,
            "met_again": _met_again(entry, rounds, now),
        },
    )


def _met_again(entry: Entry, rounds, now) -> dict | None:
    """Whom the player meets again at their table now, in which rounds, and the draw's reason
    in the page's language ("why am I with him again?", issue 4)."""
    again = met_again_now(entry=entry, rounds=rounds, now=now)
    if again is None:
        return None
    names = dict(entry.event.entries.values_list("pk", "player__name"))
    return {
        "players": again["players"],
        "why": "; ".join(report_text.why(r, names) for r in again["reasons"]),
    }
