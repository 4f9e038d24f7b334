"""Benchmark (not a timed test): ratings (issue 41) — how well they predict, and how fast they
are stored and served.

Run (each part on its own; the figures are in docs/performance.md, "Ratings")::

    .venv/bin/python tests/bench/bench_ratings.py predict            # pure, no database
    .venv/bin/python tests/bench/bench_ratings.py speed              # PostgreSQL
    .venv/bin/python tests/bench/bench_ratings.py pages              # PostgreSQL, Redis, gunicorn

**predict** simulates seasons of players of known strength and asks each rating, before each
event, to predict that event's tables. A player's strength θ is drawn from N(0, 1); at a table
each player performs θ + a Gumbel variable, so the table's order follows a Plackett–Luce model
with the strengths exactly; the table result (what prefko's formula reads) is 150 × (the
performance − the table's mean), a Balkan settlement's size at a bula of 30. Events of 18–60
players drawn from 400 (each player with his own frequency), 6–9 rounds at tables of three (of
four where the count needs them), seated at random. The first ``--warm`` events only rate;
every later event is predicted from the ratings before it, then rated. Figures per rating:

- *pairs ordered right*: of every two players at a table with different results, the share
  where the one rated higher finished ahead (equal ratings count one half);
- *log-likelihood per table* of the table's order under Plackett–Luce with each player's
  strength = rating / T, T chosen for each rating as the one that fits the predictions best
  (a grid of 60 values; generous to every rating alike); the uniform guess gives −log n!;
- for Pulka's rating also its own prediction (μ / √(Σσ² + nβ²), openskill's, without T).

The ratings: Pulka's default (μ of openskill's Weng–Lin Plackett–Luce, and its shown value
μ − 3σ), prefko's formula, and the baseline: the player's average place at his tables so far,
as a share of the table (0 first, 1 last; a new player 0.5).

**speed** builds a federation's season in the database ``pulka_bench_ratings`` (made again
each run): 2,000 persons, 100 Balkan events × 150 players × 9 rounds (50 tables of three a
round: 45,000 tables, 135,000 table results) with approved protocols, then times
``services.ratings.ratings_recompute`` from scratch, after the last event's results changed
(its protocols approved again with other results), after an event in the middle changed, and
unchanged.

**pages** serves the rating list of 2,000 persons with gunicorn beside the trivial view, as
``bench_pages.py`` serves the event pages (its functions, its settings), and prints the ratio.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tournaments.ratings import (  # noqa: E402
    PlayerState,
    RatedEvent,
    RatedTable,
    TableResult,
    model_for,
    rate_events,
)

# --- predict ------------------------------------------------------------------------------------


def season(
    seed: int, *, players: int = 400, events: int = 150, swiss: bool = True
) -> tuple[dict, list[RatedEvent]]:
    """A simulated season (see the module's docstring). ``swiss``: from the second round on,
    the players are seated by their points in the event so far (the leaders together, as a
    Swiss draw does), else at random every round."""
    rng = random.Random(seed)
    strength = {p: rng.gauss(0, 1) for p in range(1, players + 1)}
    often = {p: rng.uniform(0.15, 1.0) for p in strength}
    out = []
    for e in range(1, events + 1):
        size = rng.choice((18, 21, 24, 27, 30, 36, 45, 60))
        pool = list(strength)
        field = []
        while len(field) < size:
            p = rng.choice(pool)
            if p not in field and rng.random() < often[p]:
                field.append(p)
        tables = []
        points = dict.fromkeys(field, 0.0)
        for r in range(1, rng.randint(6, 9) + 1):
            rng.shuffle(field)
            if swiss and r > 1:  # stable: equal points stay shuffled
                field.sort(key=lambda p: -points[p])
            sizes = [3] * (len(field) // 3)
            for i in range(len(field) % 3):
                sizes[i] += 1
            at = 0
            for t, n in enumerate(sizes, 1):
                seated = field[at : at + n]
                at += n
                perf = [strength[p] - math.log(-math.log(rng.random())) for p in seated]
                mean = sum(perf) / n
                for p, x in zip(seated, perf, strict=True):
                    points[p] += sum(1 for y in perf if y < x) / (n - 1)
                tables.append(
                    RatedTable(
                        r,
                        t,
                        tuple(
                            TableResult(p, round(150 * (x - mean)))
                            for p, x in zip(seated, perf, strict=True)
                        ),
                        30,
                    )
                )
        out.append(RatedEvent(e, tuple(tables)))
    return strength, out


def _pl_loglik(order_strengths: list[float]) -> float:
    """log P(order) under Plackett–Luce, the strengths listed from first to last."""
    ll = 0.0
    for k in range(len(order_strengths) - 1):
        rest = order_strengths[k:]
        top = max(rest)
        ll += order_strengths[k] - (top + math.log(sum(math.exp(s - top) for s in rest)))
    return ll


class Baseline:
    """The average place so far (0 first … 1 last), a new player 0.5."""

    def __init__(self) -> None:
        self.sum: dict[int, float] = {}
        self.n: dict[int, int] = {}

    def value(self, p: int) -> float:
        return -(self.sum.get(p, 0.5) / self.n.get(p, 1)) if p in self.n else -0.5

    def rate(self, event: RatedEvent) -> None:
        for t in event.tables:
            scores = [r.score for r in t.results]
            for r in t.results:
                place = (
                    sum(1 for s in scores if s > r.score)
                    + (sum(1 for s in scores if s == r.score) - 1) / 2
                )
                self.sum[r.person] = self.sum.get(r.person, 0) + place / (len(scores) - 1)
                self.n[r.person] = self.n.get(r.person, 0) + 1


def predict(args) -> None:
    grid = [0.02 * 1.18**i for i in range(60)]
    totals: dict[str, dict] = {}
    for seed in range(args.seeds):
        _strength, events = season(seed, events=args.events, swiss=not args.random_seating)
        wl, pk = model_for("weng-lin"), model_for("prefko")
        states_wl: dict[int, PlayerState] = {}
        states_pk: dict[int, PlayerState] = {}
        base = Baseline()
        collected: dict[str, list] = {
            k: [] for k in ("Weng–Lin μ", "Weng–Lin μ − 3σ", "prefko", "baseline")
        }
        own: list[float] = []
        tables = 0
        for k, event in enumerate(events):
            if k >= args.warm:
                init_wl, init_pk = wl.initial(), pk.initial()
                for t in event.tables:
                    tables += 1
                    order = sorted(t.results, key=lambda r: -r.score)
                    people = [r.person for r in order]
                    s_wl = [states_wl.get(p, init_wl) for p in people]
                    values = {
                        "Weng–Lin μ": [s.mu for s in s_wl],
                        "Weng–Lin μ − 3σ": [s.mu - 3 * s.sigma for s in s_wl],
                        "prefko": [states_pk.get(p, init_pk).mu for p in people],
                        "baseline": [base.value(p) for p in people],
                    }
                    scores = [r.score for r in order]
                    for name, v in values.items():
                        collected[name].append((v, scores))
                    c = math.sqrt(sum(s.sigma**2 + wl.beta**2 for s in s_wl))
                    own.append(_pl_loglik([s.mu / c for s in s_wl]))
            states_wl = rate_events([event], wl, states_wl, keep_changes=False).states
            states_pk = rate_events([event], pk, states_pk, keep_changes=False).states
            base.rate(event)
        for name, items in collected.items():
            right = pairs = 0.0
            for v, scores in items:
                for i, j in combinations(range(len(v)), 2):
                    if scores[i] == scores[j]:
                        continue
                    pairs += 1
                    better, worse = (i, j) if scores[i] > scores[j] else (j, i)
                    right += 1.0 if v[better] > v[worse] else 0.5 if v[better] == v[worse] else 0
            spread = statistics.pstdev(x for v, _s in items for x in v) or 1.0
            best = max(
                (sum(_pl_loglik([x / (spread * g) for x in v]) for v, _s in items), g) for g in grid
            )
            t = totals.setdefault(name, {"right": 0.0, "pairs": 0.0, "ll": 0.0, "tables": 0})
            t["right"] += right
            t["pairs"] += pairs
            t["ll"] += best[0]
            t["tables"] += len(items)
        t = totals.setdefault("Weng–Lin's own prediction", {"ll": 0.0, "tables": 0})
        t["ll"] += sum(own)
        t["tables"] += len(own)
        uniform = totals.setdefault("uniform guess", {"ll": 0.0, "tables": 0})
        for v, _s in collected["baseline"]:
            uniform["ll"] += -math.log(math.factorial(len(v)))
            uniform["tables"] += 1
        print(f"[predict] seed {seed}: {tables} tables predicted", flush=True)
    print(
        f"\n{args.seeds} seasons × {args.events} events (the first {args.warm} of each only "
        "rated)\n\n| rating | pairs ordered right | log-likelihood per table |\n|---|---:|---:|"
    )
    for name, t in totals.items():
        share = f"{t['right'] / t['pairs']:.4f}" if t.get("pairs") else "—"
        print(f"| {name} | {share} | {t['ll'] / t['tables']:.4f} |")


# --- speed and pages: the database ---------------------------------------------------------------

EVENTS, PLAYERS, ROUNDS, PERSONS = 100, 150, 9, 2000


def _django(url: str, settings: str = "tournaments.settings.test") -> None:
    os.environ["DATABASE_URL"] = url
    os.environ["DJANGO_SETTINGS_MODULE"] = settings
    os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "true")
    import django

    django.setup()


def build(seed: int = 41) -> list[int]:
    """The season (see the module's docstring); returns the events' ids in date order."""
    import datetime as dt

    from django.db import transaction

    from tournaments.models import Entry, Event, Person, Player, Protocol, Round, Seat, Table

    rng = random.Random(seed)
    strength = [rng.gauss(0, 1) for _ in range(PERSONS)]
    persons = Person.objects.bulk_create(
        [
            Person(name=f"Igrač {i:04d}", name_key=f"igrac {i:04d}", club=f"Klub {i % 40}",
                   city=f"Grad {i % 12}")
            for i in range(PERSONS)
        ]
    )  # fmt: skip
    ids = []
    start = time.perf_counter()
    for e in range(EVENTS):
        with transaction.atomic():
            day = dt.date(2025, 1, 4) + dt.timedelta(days=3 * e)
            event = Event.objects.create(
                slug=f"turnir-{e:03d}", name=f"Turnir {e:03d}", starts_on=day, ends_on=day,
                variant="croatian", pulka_target=30, published=True,
            )  # fmt: skip
            field = rng.sample(range(PERSONS), PLAYERS)
            players = Player.objects.bulk_create(
                [Player(name=persons[i].name, club=persons[i].club) for i in field]
            )
            entries = Entry.objects.bulk_create(
                [
                    Entry(event=event, player=pl, person=persons[i], status="checked_in")
                    for pl, i in zip(players, field, strict=True)
                ]
            )
            by_person = dict(zip(field, entries, strict=True))
            for r in range(1, ROUNDS + 1):
                rnd = Round.objects.create(event=event, number=r, state=Round.State.CLOSED)
                order = list(field)
                rng.shuffle(order)
                tables = Table.objects.bulk_create(
                    [Table(round=rnd, number=t + 1, first_dealer=0) for t in range(PLAYERS // 3)]
                )
                seats, protocols = [], []
                for t, table in enumerate(tables):
                    at = order[3 * t : 3 * t + 3]
                    perf = [strength[i] - math.log(-math.log(rng.random())) for i in at]
                    mean = sum(perf) / 3
                    seats += [
                        Seat(round=rnd, table=table, position=k, entry=by_person[i])
                        for k, i in enumerate(at)
                    ]
                    protocols.append(
                        Protocol(
                            table=table,
                            version=1,
                            data={},
                            is_current=True,
                            approved=True,
                            result=[
                                {
                                    "seat": k,
                                    "entry": by_person[i].pk,
                                    "whists": str(round(150 * (x - mean))),
                                }
                                for k, (i, x) in enumerate(zip(at, perf, strict=True))
                            ],
                        )  # fmt: skip
                    )
                Seat.objects.bulk_create(seats)
                Protocol.objects.bulk_create(protocols)
            ids.append(event.pk)
        if e % 10 == 9:
            print(f"[build] {e + 1} events, {time.perf_counter() - start:.0f} s", flush=True)
    return ids


def _recreate(url: str) -> None:
    from urllib.parse import urlsplit

    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def _migrate() -> None:
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _correct(event_id: int, rng: random.Random) -> None:
    """The event's approved protocols approved again with other results (a referee's
    correction of every table: a new approved version each): every result's sign turned and
    moved by a few points, so that each run changes them (also on a database kept from a run
    before, whose corrections a fixed random sequence would only repeat)."""
    from tournaments.models import Protocol

    old = list(Protocol.objects.filter(table__round__event_id=event_id, approved=True))
    Protocol.objects.filter(pk__in=[p.pk for p in old]).update(approved=False, is_current=False)
    Protocol.objects.bulk_create(
        [
            Protocol(
                table_id=p.table_id,
                version=p.version + 1,
                data={},
                is_current=True,
                approved=True,
                result=[
                    {**r, "whists": str(-int(r["whists"]) + rng.randrange(-3, 4))} for r in p.result
                ],
            )  # fmt: skip
            for p in old
        ]
    )


def speed(args) -> None:
    url = os.environ.get(
        "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/pulka_bench_ratings"
    )
    if not args.keep:
        _recreate(url)
    _django(url)
    from django.db.models import F

    from tournaments.models import Event, PersonEventRating, RatingList
    from tournaments.selectors.ratings import stored_changes
    from tournaments.services import ratings as service

    if args.keep:
        _migrate()  # a database kept from an older schema (nothing to do otherwise)
        ids = list(Event.objects.order_by("starts_on", "pk").values_list("pk", flat=True))
    else:
        _migrate()
        ids = build()
    rating = service.family_rating_list(family="balkan")
    RatingList.objects.filter(pk=rating.pk).update(from_scratch=True)

    def changed(event_id: int) -> None:
        """What ``ratings_schedule_for_event`` writes, without running the job it queues (a
        job queued without a broker runs at once, inline)."""
        event = Event.objects.get(pk=event_id)
        RatingList.objects.filter(pk=rating.pk).update(
            requested=F("requested") + 1, dirty_date=event.starts_on, dirty_event=event.pk
        )

    timings = {}
    t, c = time.perf_counter(), time.process_time()
    service.ratings_recompute(list_id=rating.pk)
    timings["from scratch"] = (time.perf_counter() - t, time.process_time() - c)
    print(
        f"[speed] {len(stored_changes(rating_list=rating))} changes stored in "
        f"{PersonEventRating.objects.count()} records (one per person and event)",
        flush=True,
    )
    rng = random.Random(5)
    for name, event in (("after the last event changed", ids[-1]),
                        ("after the middle event (50th) changed", ids[49])):  # fmt: skip
        runs = []
        for _ in range(args.repeat):
            _correct(event, rng)
            changed(event)
            t, c = time.perf_counter(), time.process_time()
            service.ratings_recompute(list_id=rating.pk)
            runs.append((time.perf_counter() - t, time.process_time() - c))
        timings[name] = min(runs, key=lambda r: abs(r[0] - statistics.median(x[0] for x in runs)))
    changed(ids[-1])
    t, c = time.perf_counter(), time.process_time()
    service.ratings_recompute(list_id=rating.pk)
    timings["unchanged (a job asked again)"] = (time.perf_counter() - t, time.process_time() - c)
    assert RatingList.objects.get(pk=rating.pk).status == "ok"
    print("\n| ratings_recompute | wall (s) | CPU of this process (s) |\n|---|---:|---:|")
    for name, (wall, cpu) in timings.items():
        print(f"| {name} | {wall:.2f} | {cpu:.2f} |")


def pages(args) -> None:
    """The rating list of 2,000 persons beside the trivial view (bench_pages' machinery)."""
    from tests.bench import bench_pages as bp

    url = os.environ.get(
        "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/pulka_bench_ratings"
    )
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "tests.bench.bench_settings",
        "CELERY_TASK_ALWAYS_EAGER": "true",
        "REDIS_URL": "",
        "CACHE_URL": os.environ.get("BENCH_CACHE_URL", "redis://127.0.0.1:6379/13"),
        "BENCH_CACHE_PREFIX": f"bench-ratings-{os.getpid()}-{int(time.time())}",
        "PULKA_PAGE_CACHE": "true",
        "STATIC_ROOT": os.environ.get("STATIC_ROOT", "/tmp/pulka-bench-static"),
        "CELERY_BROKER_URL": "",
        "CONN_MAX_AGE": os.environ.get("CONN_MAX_AGE", "60"),
    }
    os.environ.update(env)
    if not args.keep:
        _recreate(url)
    _django(url, "tests.bench.bench_settings")
    from django.core.management import call_command

    call_command("collectstatic", interactive=False, verbosity=0)  # DEBUG is off
    if not args.keep:
        _migrate()
        build()
        from tournaments.models import RatingList
        from tournaments.services import ratings as service

        service.ratings_recompute(list_id=service.family_rating_list(family="balkan").pk)
        assert RatingList.objects.get(slug="balkan").ratings.count() == PERSONS
    pages = [
        ("trivial view", "/bench/trivial/"),
        ("rating list (2,000 persons)", "/ratings/balkan/"),
        ("rating list, a club", "/ratings/balkan/?active=0&city=0&club=7"),
        ("an event's page (for comparison)", "/e/turnir-099/"),
        ("a person's rating history", "/ratings/balkan/people/1/"),
        ("trivial view (again)", "/bench/trivial/"),
    ]
    encoding = {"Accept-Encoding": bp.BROWSER_ACCEPT_ENCODING}
    proc = bp.serve(args.port, env)
    try:
        rows = []
        for name, path in pages:
            size, sent, _etag = bp.warm(args.port, path, encoding)
            r = bp.load(
                args.port, path, clients=args.clients, seconds=args.seconds,
                requests=args.requests, headers=encoding, expect=200,
            )  # fmt: skip
            rows.append((name, size, sent, r))
            print(f"[pages] {name}: {r}", flush=True)
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    base = rows[0][3]["rps"]
    print(
        "\n| page | size | sent | req/s | p50 | p99 | ratio |\n|---|---:|---:|---:|---:|---:|---:|"
    )
    for name, size, sent, r in rows:
        print(
            f"| {name} | {size / 1024:.0f} KiB | {sent / 1024:.0f} KiB | {r['rps']:,.1f} | "
            f"{r['p50'] * 1000:.1f} ms | {r['p99'] * 1000:.1f} ms | {r['rps'] / base:.3f} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="part", required=True)
    p = sub.add_parser("predict")
    p.add_argument("--seeds", type=int, default=3)
    p.add_argument("--events", type=int, default=150)
    p.add_argument("--warm", type=int, default=30)
    p.add_argument("--random-seating", action="store_true", help="no Swiss rounds")
    s = sub.add_parser("speed")
    s.add_argument("--repeat", type=int, default=3)
    s.add_argument("--keep", action="store_true", help="the database already built")
    g = sub.add_parser("pages")
    g.add_argument("--port", type=int, default=8741)
    g.add_argument("--clients", type=int, default=32)
    g.add_argument("--seconds", type=float, default=6)
    g.add_argument("--requests", type=int, default=20000)
    g.add_argument("--keep", action="store_true", help="serve the database already built")
    args = parser.parse_args()
    {"predict": predict, "speed": speed, "pages": pages}[args.part](args)


if __name__ == "__main__":
    main()
