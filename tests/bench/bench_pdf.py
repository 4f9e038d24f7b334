"""Benchmark (not a timed test): the blank protocols of a 100-table round as one PDF.
Also the filled protocols of a 333-table round (issue 28, target under 60 s) and of a whole
event of three such rounds (issue 29): ``-k filled``.

Run: ``.venv/bin/python -m pytest --no-migrations -p no:cacheprovider -s tests/bench/bench_pdf.py``
— prints the figures; target under 10 s (issue 6). Also renders the seating list of the same
round, and checks the PDF has one page per table.
"""

from __future__ import annotations

import os
import random
import time
from pathlib import Path

import pytest

from tests.tournaments.standings.factories import make_event, play_round
from tests.tournaments.standings.pdf_helpers import page_count
from tournaments.pdf import contexts as pdf_contexts
from tournaments.pdf import documents as pdf
from tournaments.pdf import protocol_contexts as pdf_protocols

TABLES = 100


@pytest.mark.django_db
def test_bench_blank_protocols_100_tables(tmp_path):
    event, entries = make_event(players=3 * TABLES, slug="bench-pdf")
    round_, _ = play_round(event, entries, 1, rng=random.Random(1), protocols=False)

    # a Celery worker is a long-lived process: measure warm, and report the first render too
    t0 = time.perf_counter()
    pdf.render(
        "seating",
        {"event": {"name": "warm-up", "slug": "w"}, "round": 1, "tables": [], "alphabetical": []},
    )
    t_first = time.perf_counter() - t0

    t0 = time.perf_counter()
    context = pdf_contexts.blank_protocols_context(
        round_=round_, base_url="https://pulka.example.org"
    )
    t_context = time.perf_counter() - t0
    t0 = time.perf_counter()
    rendered = pdf.render("blank", context)
    t_render = time.perf_counter() - t0

    if os.environ.get("PULKA_BENCH_PDF_OUT"):  # keep the file to look at it
        Path(os.environ["PULKA_BENCH_PDF_OUT"]).write_bytes(rendered.data)
    pages = page_count(rendered.data, tmp_path, rendered.filename)
    assert pages == TABLES

    t0 = time.perf_counter()
    seating = pdf.render("seating", pdf_contexts.seating_context(round_=round_))
    t_seating = time.perf_counter() - t0
    print(f"\n[bench_pdf] first render in the process (WeasyPrint and fonts load): {t_first:.2f} s")
    print(
        f"[bench_pdf] blank protocols, {TABLES} tables: context {t_context:.2f} s, "
        f"render {t_render:.2f} s, total {t_context + t_render:.2f} s, {pages} pages, "
        f"{len(rendered.data) / 1024:.0f} KiB"
    )
    print(
        f"[bench_pdf] seating list of the same round ({3 * TABLES} players): "
        f"{t_seating:.2f} s, {len(seating.data) / 1024:.0f} KiB"
    )


#: the tables of a national final's round (999 players at tables of three), issue 28
ROUND_TABLES = int(os.environ.get("PULKA_BENCH_ROUND_TABLES", "333"))


@pytest.mark.django_db
def test_bench_filled_protocols_of_a_round(tmp_path):
    """The filled protocols of a 333-table round as one job (target under 60 s, issue 28):
    the contexts from one query set, one font configuration, progress every 10 tables."""
    import resource

    from tournaments.models import Protocol

    event, entries = make_event(players=3 * ROUND_TABLES, slug="bench-filled")
    round_, _ = play_round(event, entries, 1, rng=random.Random(28), approve=True, target=10)
    deals = sum(len(p.data.get("deals", [])) for p in Protocol.objects.filter(table__round=round_))
    pdf.render("seating", {"event": {"name": "warm-up", "slug": "w"}, "round": 1, "tables": []})

    t0 = time.perf_counter()
    context = pdf_protocols.filled_round_context(round_=round_)
    t_context = time.perf_counter() - t0
    from tournaments.pdf.files import generated_file_request

    t0 = time.perf_counter()  # asking for it: the sheets' inputs hashed in the request
    generated_file_request(event=event, kind="filled", round_=round_)
    t_request = time.perf_counter() - t0
    reports: list[tuple[int, int, float]] = []
    cpu0 = time.process_time()
    t0 = time.perf_counter()
    rendered = pdf.render(
        "filled",
        context,
        progress=lambda done, total: reports.append((done, total, time.perf_counter() - t0)),
    )
    t_render = time.perf_counter() - t0
    cpu_render = time.process_time() - cpu0
    pages = page_count(rendered.data, tmp_path, rendered.filename)
    # a page per sheet at pulkas to 10 (pdf_filled: a longer one would go on to a next page)
    assert pages == ROUND_TABLES and reports[-1][:2] == (ROUND_TABLES, ROUND_TABLES)
    # one table's own file in the same round (issue 28: it loaded the whole round's seats)
    from tournaments.models import Table

    table = Table.objects.filter(round=round_).order_by("number").last()
    t0 = time.perf_counter()
    single = pdf.render("filled", pdf_protocols.filled_protocol_context(table=table))
    t_single = time.perf_counter() - t0
    assert single.data.startswith(b"%PDF")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    laid_out = next((t for d, _n, t in reports if d >= ROUND_TABLES // 2), 0.0)
    print(
        f"\n[bench_pdf] filled protocols of a round, {ROUND_TABLES} tables ({deals} deals): "
        f"context {t_context:.2f} s, render {t_render:.2f} s ({cpu_render:.2f} s of CPU; "
        f"half the tables laid out at "
        f"{laid_out:.1f} s), total {t_context + t_render:.2f} s, {pages} pages, "
        f"{len(rendered.data) / 1024:.0f} KiB, peak RSS {rss:.0f} MiB, "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )
    print(
        f"[bench_pdf] one table's filled protocol in that round: {t_single:.2f} s; asking for "
        f"the round's file (the request): {t_request:.2f} s"
    )


#: rounds of the whole event's file (issue 29), each of ROUND_TABLES tables
EVENT_ROUNDS = int(os.environ.get("PULKA_BENCH_EVENT_ROUNDS", "3"))


@pytest.mark.django_db
def test_bench_filled_protocols_of_an_event(tmp_path):
    """Every round's filled protocols in one file (issue 29): EVENT_ROUNDS rounds of
    ROUND_TABLES tables, one job with progress, a bookmark per round and per table."""
    import resource

    event, entries = make_event(players=3 * ROUND_TABLES, slug="bench-event")
    rng = random.Random(29)
    for number in range(1, EVENT_ROUNDS + 1):
        play_round(event, entries, number, rng=rng, approve=True, target=10)
    pdf.render("seating", {"event": {"name": "warm-up", "slug": "w"}, "round": 1, "tables": []})

    t0 = time.perf_counter()
    context = pdf_protocols.filled_event_context(event=event)
    t_context = time.perf_counter() - t0
    # asking for the file from the documents page: the sheets' inputs hashed in the request
    # (the job is sent after the commit, which this test never makes)
    from tournaments.pdf.files import generated_file_request

    t0 = time.perf_counter()
    generated_file_request(event=event, kind="protocols")
    t_request = time.perf_counter() - t0
    reports: list[tuple[int, int]] = []
    cpu0 = time.process_time()
    t0 = time.perf_counter()
    rendered = pdf.render(
        "protocols", context, progress=lambda done, total: reports.append((done, total))
    )
    t_render = time.perf_counter() - t0
    cpu_render = time.process_time() - cpu0
    pages = page_count(rendered.data, tmp_path, rendered.filename)
    sheets = EVENT_ROUNDS * ROUND_TABLES
    # a page per sheet, a few more where a pulka is longer than a page (it goes on, not cut)
    assert sheets <= pages < sheets * 1.05 and reports[-1] == (sheets, sheets)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"\n[bench_pdf] filled protocols of an event, {EVENT_ROUNDS} rounds of {ROUND_TABLES} "
        f"tables: context {t_context:.2f} s, the request {t_request:.2f} s, "
        f"render {t_render:.2f} s ({cpu_render:.2f} s of "
        f"CPU), {sheets} sheets on {pages} pages, {len(rendered.data) / 1024:.0f} KiB, peak RSS {rss:.0f} MiB, "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )


#: tables of a round of another rule family (``-k family``); its convention and game size
FAMILY_TABLES = int(os.environ.get("PULKA_BENCH_FAMILY_TABLES", "60"))
FAMILY_EVENTS = {  # family → (convention, pulka target: the bula, the pot games' deals, sits)
    "balkan": ("croatian", 30),
    "pot": ("viennese", 10),
    "priffe": ("modern", 3),
}


@pytest.mark.django_db
@pytest.mark.parametrize("family", sorted(FAMILY_EVENTS))
def test_bench_filled_protocols_of_a_family_round(family, tmp_path):
    """A round's filled protocols of the Balkan, pot and Priffe families (issue 28): CPU
    seconds of the round job at FAMILY_TABLES tables (``PULKA_BENCH_FAMILY_TABLES``; the
    lead's figure: 333), with the machine's load."""
    convention, target = FAMILY_EVENTS[family]
    size = 4 if family == "priffe" else 3
    event, entries = make_event(
        players=size * FAMILY_TABLES,
        slug=f"bench-{family}",
        variant=convention,
        pulka_target=target,
        table_size_policy=str(size),
    )
    round_, _ = play_round(
        event, entries, 1, rng=random.Random(28), approve=True, target=target, family=family
    )
    pdf.render("seating", {"event": {"name": "warm-up", "slug": "w"}, "round": 1, "tables": []})
    t0 = time.perf_counter()
    context = pdf_protocols.filled_round_context(round_=round_)
    t_context = time.perf_counter() - t0
    load = os.getloadavg()[0]
    cpu0 = time.process_time()
    t0 = time.perf_counter()
    rendered = pdf.render("filled", context)
    t_render = time.perf_counter() - t0
    cpu_render = time.process_time() - cpu0
    pages = page_count(rendered.data, tmp_path, rendered.filename)
    assert pages >= FAMILY_TABLES
    print(
        f"\n[bench_pdf] filled protocols of a {family} round ({convention}), {FAMILY_TABLES} "
        f"tables: context {t_context:.2f} s, render {t_render:.2f} s ({cpu_render:.2f} s of "
        f"CPU, {cpu_render / FAMILY_TABLES * 1000:.0f} ms a sheet), {pages} pages, "
        f"{len(rendered.data) / 1024:.0f} KiB, load average {load:.1f} → "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )
