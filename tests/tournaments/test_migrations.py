"""Data migrations on rows made before them."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = ("tournaments", "0005_generated_file_player_links")
AFTER = ("tournaments", "0006_backfill_draw_seed_committed_at")


def test_the_time_a_seeds_hash_was_published_comes_from_the_event_log():
    """Rounds whose hash was published before ``draw_seed_committed_at`` existed get the time
    of their "round.seed_committed" entry; a hash the log does not match gets none."""
    import datetime as dt

    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    apps = executor.loader.project_state([BEFORE]).apps
    Event = apps.get_model("tournaments", "Event")
    Round = apps.get_model("tournaments", "Round")
    AuditLogEntry = apps.get_model("tournaments", "AuditLogEntry")
    event = Event.objects.create(
        slug="old", name="Old Cup", starts_on=dt.date(2026, 1, 1), ends_on=dt.date(2026, 1, 1)
    )
    committed = Round.objects.create(event=event, number=1, draw_seed_hash="ab" * 32)
    made_with_draw = Round.objects.create(event=event, number=2, draw_seed_hash="cd" * 32)
    entry = AuditLogEntry.objects.create(
        event=event, action="round.seed_committed", data={"round": 1, "sha256": "ab" * 32}
    )
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([AFTER])
    apps = executor.loader.project_state([AFTER]).apps
    Round = apps.get_model("tournaments", "Round")
    assert Round.objects.get(pk=committed.pk).draw_seed_committed_at == entry.created_at
    assert Round.objects.get(pk=made_with_draw.pk).draw_seed_committed_at is None
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())  # back to the latest for the next test
