"""A player's private page, reached through their unguessable link (``/p/<key>/``)."""

from django.shortcuts import get_object_or_404, render

from tournaments import report_text
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
        {
            "entry": entry,
            "event": entry.event,
            "rounds": rounds,
            "now": now,
            "met_again": _met_again(entry, rounds, now) if now else None,
        },
    )


def _met_again(entry: Entry, rounds, now) -> dict | None:
    """Whom the player meets again at their table now, in which earlier rounds, and why the
    draw seated them so (its report): "why am I with him again?" (issue 4). From the seats as
    they are, so a correction after the draw counts."""
    round_, _table, _position, seats = now
    here = {s.entry_id: s.entry.player.name for s in seats if s.entry_id != entry.pk}
    met: dict[int, list[int]] = {}
    for earlier, _t, _p, earlier_seats in rounds:
        if earlier.number < round_.number:
            for s in earlier_seats:
                if s.entry_id in here:
                    met.setdefault(s.entry_id, []).append(earlier.number)
    if not met:
        return None
    mine = next(
        (p for p in (round_.draw_report or {}).get("players", []) if p.get("id") == entry.pk), {}
    )
    names = dict(entry.event.entries.values_list("pk", "player__name"))
    reasons = [r for r in mine.get("why", "").split("; ") if r]
    return {
        "players": [
            (here[e], rounds_) for e, rounds_ in sorted(met.items(), key=lambda kv: here[kv[0]])
        ],
        "why": "; ".join(report_text.why(r, names) for r in reasons),
    }
