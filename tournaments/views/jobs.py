"""The event's background jobs as the staff's pages follow them (``/e/<slug>/manage/jobs/state``).

A page showing a job that runs (the desk, a round being drawn, documents rendering, the plan of
the rounds ahead) carries ``{% job_watch event %}``; its script asks this view
``?v=<version>`` every few seconds and reloads the page when the version changed
(:func:`tournaments.selectors.desk.job_watch`). The answer is two small queries, never the page.
"""

from __future__ import annotations

from django.http import JsonResponse

from tournaments.access import permissions
from tournaments.selectors.desk import job_watch
from tournaments.views.decorators import event_view

__all__ = ["jobs_state"]


@event_view(roles=permissions.REFEREE)
def jobs_state(request, event):
    state = job_watch(event=event)
    response = JsonResponse(
        {
            "version": state.version,
            "running": state.running,
            "changed": request.GET.get("v", state.version) != state.version,
        }
    )
    response["Cache-Control"] = "no-store"
    return response
