"""The rounds ahead: the tables of the rounds not drawn yet, as the engine will draw them
(:func:`schedule_ahead`), planned by a job and kept on its row (:func:`schedule_ahead_request`,
:func:`schedule_ahead_run`): the engine never runs in a request.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from tournaments import seating
from tournaments.errors import UserFacingError
from tournaments.jobs.outbox import job_enqueue, job_send, jobs_queue
from tournaments.models import Event, Job, Round
from tournaments.services.draw import _check_draw_input, draw_input, run_engine
from tournaments.services.round_states import SeedNeededError

__all__ = [
    "AHEAD_TASK",
    "schedule_ahead",
    "schedule_ahead_request",
    "schedule_ahead_run",
]

State = Round.State


def _ahead_inputs(event: Event) -> tuple[int, dict[str, Any]] | None:
    """The first round ahead and the engine's input for it (what the plan is made from; who
    sits out is chosen round by round in :func:`_ahead_plan`), or None when nothing is ahead."""
    if event.default_draw_method not in ("no_repeats", "schedule"):
        return None
    drawn = event.rounds.exclude(state=State.DRAFT).order_by("-number").first()
    if drawn is None or drawn.number >= event.rounds_planned:
        return None
    inputs = draw_input(Round(event=event, number=drawn.number + 1), method="no_repeats")
    if len(inputs["entries"]) < 3:
        return None
    return drawn.number + 1, inputs


def _ahead_plan(event: Event, first: int, inputs: dict[str, Any]) -> dict[str, Any]:
    """The rounds ahead as the draw will make them: ``{"rounds": [{"round", "tables",
    "sitting_out"}], "unknown_from": n or None}``.

    Each round is planned as if the ones before it were played as planned: who sits it out
    (the players who sat out fewest, ordered by the round's seed) and the substitutes who fill
    its last table (those who played fewest) take their turns as in the real draws, and players
    join at their round. A round whose seed is not chosen yet, and whose sitters that seed would
    pick among more players due than places, cannot be known: the plan stops there
    (``unknown_from``), and says so."""
    _check_draw_input(inputs)
    seeds = dict(event.rounds.filter(number__gte=first).values_list("number", "draw_seed"))
    rounds: list[dict[str, Any]] = []
    played: list[dict[str, Any]] = []
    for number in range(first, event.rounds_planned + 1):
        seed = seeds.get(number) or ""
        try:
            inputs = draw_input(
                Round(event=event, number=number, draw_seed=seed),
                method="no_repeats",
                ahead=played,
                seed_known=bool(seed),
            )
        except SeedNeededError:
            return {"rounds": rounds, "unknown_from": number}
        _check_draw_input(inputs)
        tables = run_engine(inputs, seed=f"schedule ahead {number}").tables
        sitting_out = list(inputs.get("sitting_out", []))
        rounds.append(
            {
                "round": number,
                "tables": [sorted(t.seats) for t in tables],
                "sitting_out": sitting_out,
            }
        )
        played.append(
            {
                "tables": [
                    {"seats": list(t.seats), "first_dealer": t.first_dealer} for t in tables
                ],
                "sitting_out": sitting_out,
            }
        )
    return {"rounds": rounds, "unknown_from": None}


def _ahead_key(event: Event, found: tuple[int, dict[str, Any]] | None) -> str:
    """A fingerprint of everything the plan depends on (the engine's input, the rounds
    planned, the engine's version): equal keys, equal plans."""
    payload = {
        "found": found,
        # who sits a round ahead out follows its seed, once chosen (never shown: hashed)
        "seeds": sorted(event.rounds.exclude(draw_seed="").values_list("number", "draw_seed")),
        "planned": event.rounds_planned,
        "method": event.default_draw_method,
        "engine": getattr(seating, "ENGINE_VERSION", ""),
    }
    text = json.dumps(payload, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def schedule_ahead(*, event: Event) -> list[tuple[int, list[list[int]]]]:
    """The tables of the rounds not drawn yet, as the engine will draw them: each round's
    tables as lists of entry ids (the seats and first dealers are drawn with each round).

    Once round 1 is drawn, the ``no_repeats`` and ``schedule`` methods draw every later round
    from a plan made from the rounds played (``seating.engine._lookahead``), never from a later
    seed; so the rounds ahead are known, while the players present, the constraints and the
    played rounds stay as they are. Empty before round 1 is drawn, after the last round, or for
    the random and Swiss methods (their rounds depend on the seed or the standings).

    This runs the seating engine (seconds for a large event): pages and the API ask for it
    through :func:`schedule_ahead_request`, which runs it as a job and keeps the plan.
    """
    found = _ahead_inputs(event)
    if found is None:
        return []
    return [(r["round"], r["tables"]) for r in _ahead_plan(event, *found)["rounds"]]


AHEAD_TASK = "tournaments.schedule_ahead"


def schedule_ahead_request(*, event: Event) -> Job | None:
    """The job holding the plan of the rounds ahead for the event's current data: a finished
    one when the data have not changed since (the plan is kept on its row, ``result``), else
    a new job, queued (the engine never runs in the request). None: nothing is ahead.

    A finished job's ``result`` is ``{"rounds": [{"round": n, "tables": [[ids]]}]}``, or
    ``{"error": message, "field": ...}`` when the players present or the constraints make a
    draw impossible.
    """
    found = _ahead_inputs(event)
    if found is None:
        return None
    key = _ahead_key(event, found)
    job = (
        Job.objects.filter(task=AHEAD_TASK, event=event, key=key)
        .exclude(state=Job.State.FAILED)
        .order_by("-created_at")
        .first()
    )
    if job is None:  # nothing else to write: the row commits alone, then it is sent
        job = job_enqueue(
            task=AHEAD_TASK,
            args=[event.pk],
            queue=jobs_queue(),
            event_id=event.pk,
            key=key,
            send=False,
        )
        job_send(job=job)
        job.refresh_from_db()  # the embedded default ran it already (eager)
    return job


def schedule_ahead_run(*, task_id: str, event_id: int) -> list[dict[str, Any]]:
    """The work of the rounds-ahead job: plan, and keep the plan (or why no draw is
    possible) on the job's row, under the key of the data it was computed from."""
    event = Event.objects.get(pk=event_id)
    found = _ahead_inputs(event)
    key = _ahead_key(event, found)
    rounds: list[dict[str, Any]] = []
    try:
        result: dict[str, Any] = {"rounds": [], "unknown_from": None}
        if found is not None:
            result = _ahead_plan(event, *found)
            rounds = result["rounds"]
    except UserFacingError as error:
        # the plan is shared by every reader of the same data: its error is said again in
        # each reader's language from its words (views.organiser.schedule)
        result = {"error": str(error.message), **(error.extra or {})}
        if error.words:
            result["error_words"] = error.words
    Job.objects.filter(task_id=task_id).update(result=result, key=key)
    return rounds
