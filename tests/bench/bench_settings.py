"""Settings of the gunicorn that bench_pages serves: Pulka's (DEBUG off), its URLconf plus the
trivial baseline view."""

from tournaments.settings.base import *  # noqa: F403

ROOT_URLCONF = "tests.bench.bench_urls"
DEBUG = False
