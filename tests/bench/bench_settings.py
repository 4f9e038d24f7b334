"""Settings of the gunicorn that bench_pages serves: Pulka's (DEBUG off), its URLconf plus the
trivial baseline view."""

import os

from tournaments.settings.base import *  # noqa: F403
from tournaments.settings.base import CACHES

ROOT_URLCONF = "tests.bench.bench_urls"
DEBUG = False
# each run its own keys in the shared Redis (the event's slug and ids repeat from run to run)
CACHES["default"]["KEY_PREFIX"] = os.environ.get("BENCH_CACHE_PREFIX", "")
