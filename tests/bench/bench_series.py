"""Benchmark (not a timed test): a federation's season (issue 39) — 100 events × 150 players ×
9 rounds, 2,000 persons, 10 series — its series tables recomputed.

Run: ``PULKA_TEST_DB_NAME=test_pulka_series .venv/bin/python -m pytest --no-migrations -p
no:cacheprovider -s tests/bench/bench_series.py`` — prints the figures; targets (issue 39):
every series recomputed from scratch under 5 s; after one event's standings change, its series
updated under 300 ms.

A series job reads only its events' stored standings (``selectors.series.series_inputs``), so
the events' standings are made the way the event job makes them, from synthetic round results:
each round, 50 tables of three with random results summing to zero, ranked by the pure
``compute_standings`` and stored as a snapshot in parts (the order, a row per player, a part
per table), as ``services.standings`` stores them. No pulka is generated: that is the events' benchmark
(``bench_standings.py``). The season: each event draws its 150 players from the 2,000 persons
(most from its region, some from everywhere); nine regional leagues of 11 or 12 events (best 8,
at least 3 to be ranked) and a national cup of all 100 (weights by category, best 20).

The figures, each the wall time of ``services.series.series_standings_recompute``:

- *from scratch*: a new worker (nothing in the process's memory), every series computed and
  stored;
- *after one event changed*: one event's standings recomputed (a new stored version), then
  the two series it belongs to (its league and the cup), median and worst of 10 events;
- *unchanged*: a repeated job.

``PULKA_BENCH_PROFILE=1`` prints a profile of the first update after one event changed.
"""

from __future__ import annotations

import cProfile
import datetime as dt
import os
import pstats
import random
import statistics
import time
from fractions import Fraction

import pytest
from django.utils import timezone

from tournaments.models import (
    Entry,
    Event,
    Organisation,
    Person,
    Player,
    Round,
    Series,
    SeriesEvent,
    StandingsPart,
    StandingsSnapshot,
)
from tournaments.selectors import series as selectors
from tournaments.services import series as service
from tournaments.standings import RoundResult, compute_standings
from tournaments.standings.series import compute_series_standings

EVENTS, PLAYERS, ROUNDS, PERSONS, REGIONS = 100, 150, 9, 2000, 9


def event_standings(entries: list[int], rng: random.Random) -> dict:
    """One event's stored standings: ``ROUNDS`` rounds of tables of three, random results."""
    results = []
    for n in range(1, ROUNDS + 1):
        order = list(entries)
        rng.shuffle(order)
        for t in range(len(order) // 3):
            seated = order[3 * t : 3 * t + 3]
            a, b = rng.randint(-120, 120), rng.randint(-120, 120)
            for seat, (entry, score) in enumerate(zip(seated, (a, b, -a - b), strict=True)):
                results.append(
                    RoundResult(entry, n, 1000 * n + t, Fraction(score), True, seat, t + 1, 3)
                )
    data = compute_standings(results).as_json()
    data["meta"] = {"round_states": {str(n): "closed" for n in range(1, ROUNDS + 1)}}
    return data


def parts_of(data: dict) -> dict[str, object]:
    """The stored parts of the standings ``data`` (``services.standings``): the order, a row
    part per player, a part per table with its seats."""
    parts: dict[str, object] = {
        "order": [
            [r["entry"], r["place"], r["place_label"], r["shared"], r["decided_by"]]
            for r in data["rows"]
        ]
    }
    tables: dict[int, dict] = {}
    for r in data["rows"]:
        parts[f"r:{r['entry']}"] = {
            k: r[k]
            for k in (
                "entry",
                "rounds_played",
                "no_result",
                "no_result_rounds",
                "total",
                "provisional_total",
                "has_provisional",
                "adjustment",
                "sat_out",
                "metrics",
            )
        }
        for n, c in r["rounds"].items():
            table = tables.setdefault(
                c["table"],
                {
                    "round": int(n),
                    "table": c["table"],
                    "table_number": c["table_number"],
                    "size": c["size"],
                    "final": c["final"],
                    "seats": [],
                },
            )
            table["seats"].append(
                {
                    "entry": r["entry"],
                    "seat": c["seat"],
                    "whists": c["whists"],
                    "score": c["score"],
                    "place": c["place"],
                    "versus": c["versus"],
                }
            )
    parts.update({f"t:{t}": table for t, table in tables.items()})
    return parts


def store(event: Event, data: dict) -> None:
    """The event's snapshot, as a recomputation leaves it: a new version, in parts."""
    now = timezone.now()
    snapshot, _ = StandingsSnapshot.objects.get_or_create(event=event)
    StandingsPart.objects.filter(snapshot=snapshot).delete()
    StandingsPart.objects.bulk_create(
        [StandingsPart(snapshot=snapshot, key=k, data=v) for k, v in parts_of(data).items()],
        batch_size=1000,
    )
    snapshot.head = {
        "version": 2,
        "rounds": data["rounds"],
        "columns": data["columns"],
        "round_states": data["meta"]["round_states"],
    }
    snapshot.status = StandingsSnapshot.Status.OK
    snapshot.requested = snapshot.computed = snapshot.computed + 1
    snapshot.computed_at = now
    snapshot.inputs_hash = f"bench-{snapshot.computed}-{now.timestamp()}"
    snapshot.save()


def season() -> tuple[list[Series], list[Event], dict[int, list[int]]]:
    rng = random.Random(39)
    org = Organisation.objects.create(slug="fed", name="Federation", kind="federation")
    persons = Person.objects.bulk_create(
        [Person(name=f"Igrač {i:04d}", name_key=f"igrac {i:04d}") for i in range(PERSONS)]
    )
    region_of = {p.pk: i % REGIONS for i, p in enumerate(persons)}
    by_region = {r: [p.pk for p in persons if region_of[p.pk] == r] for r in range(REGIONS)}
    events = []
    for i in range(EVENTS):
        day = dt.date(2027, 1, 1) + dt.timedelta(days=3 * i)
        events.append(
            Event(
                slug=f"e{i:03d}",
                name=f"Event {i}",
                starts_on=day,
                ends_on=day,
                published=True,
                rounds_planned=ROUNDS,
                organisation=org,
            )
        )
    events = Event.objects.bulk_create(events)
    Round.objects.bulk_create(
        [
            Round(event=e, number=n, state=Round.State.CLOSED)
            for e in events
            for n in range(1, ROUNDS + 1)
        ]
    )
    entries_of: dict[int, list[int]] = {}
    for i, event in enumerate(events):
        region = i % REGIONS
        local = rng.sample(by_region[region], 120)
        others = rng.sample([p.pk for p in persons if region_of[p.pk] != region], PLAYERS - 120)
        chosen = local + others
        players = Player.objects.bulk_create([Player(name=f"p{p}") for p in chosen])
        made = Entry.objects.bulk_create(
            [
                Entry(event=event, player=pl, person_id=p, status=Entry.Status.CHECKED_IN)
                for pl, p in zip(players, chosen, strict=True)
            ]
        )
        entries_of[event.pk] = [e.pk for e in made]
        store(event, event_standings(entries_of[event.pk], rng))
    series = []
    for r in range(REGIONS):
        series.append(
            Series.objects.create(
                slug=f"liga-{r}",
                name=f"League {r}",
                organisation=org,
                family="russian",
                best_of=8,
                min_events=3,
            )
        )
        SeriesEvent.objects.bulk_create(
            [
                SeriesEvent(series=series[-1], event=e)
                for i, e in enumerate(events)
                if i % REGIONS == r
            ]
        )
    cup = Series.objects.create(
        slug="cup", name="National cup", organisation=org, family="russian", best_of=20
    )
    SeriesEvent.objects.bulk_create(
        [SeriesEvent(series=cup, event=e, weight=(1, 1.5, 2)[i % 3]) for i, e in enumerate(events)]
    )
    series.append(cup)
    return series, events, entries_of


def all_series(series: list[Series]) -> tuple[float, float]:
    """Wall and CPU time (of this process: the database's work is in the wall time only)."""
    t0, c0 = time.perf_counter(), time.process_time()
    for s in series:
        service.series_standings_recompute(series_id=s.pk)
    return time.perf_counter() - t0, time.process_time() - c0


@pytest.mark.django_db
def test_bench_series_a_federations_season():
    t0 = time.perf_counter()
    series, events, entries_of = season()
    print(f"\n[bench_series] setup {time.perf_counter() - t0:.1f} s")
    selectors._places_cache.clear()
    service._tables.clear()  # a new worker: no series' table kept
    service._written.clear()
    wall, cpu = all_series(series)
    rows = sum(len(s.standings_snapshot.data["rows"]) for s in Series.objects.all())
    print(
        f"[bench_series] from scratch, {len(series)} series ({rows} rows): "
        f"{wall:.3f} s (cpu {cpu:.3f} s)"
    )
    wall, cpu = all_series(series)
    print(f"[bench_series] all unchanged (repeated jobs): {wall:.3f} s (cpu {cpu:.3f} s)")
    rng = random.Random(7)
    times, cpus = [], []
    for event in rng.sample(events, 10):
        store(event, event_standings(entries_of[event.pk], rng))
        ids = selectors.series_of_event(event_id=event.pk)
        profile = cProfile.Profile() if os.environ.get("PULKA_BENCH_PROFILE") else None
        if profile and not times:
            profile.enable()
        t0, c0 = time.perf_counter(), time.process_time()
        for s in ids:
            service.series_standings_recompute(series_id=s)
        times.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
        if profile and len(times) == 1:
            profile.disable()
            pstats.Stats(profile).sort_stats("cumulative").print_stats(40)
        assert len(ids) == 2
    print(
        f"[bench_series] after one event changed, its 2 series: median "
        f"{1000 * statistics.median(times):.0f} ms (cpu {1000 * statistics.median(cpus):.0f} ms), "
        f"worst {1000 * max(times):.0f} ms"
    )
    assert Series.objects.filter(standings_snapshot__status="ok").count() == len(series)
    # the tables updated incrementally are the tables computed from scratch
    for s in series:
        inputs = selectors.series_inputs(series=s)
        results, _info, _unlinked = inputs.events()
        stored = Series.objects.get(pk=s.pk).standings_snapshot.data
        assert stored["rows"] == compute_series_standings(results, inputs.rules).as_json()["rows"]
    print(f"[bench_series] the cup's last update: {service._tables[series[-1].pk].last}")
