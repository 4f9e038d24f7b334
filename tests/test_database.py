"""The test command runs on PostgreSQL; a run on SQLite would hide PostgreSQL-only behaviour
(partial unique indexes, select_for_update, NUL bytes)."""

import pytest
from django.db import connection


@pytest.mark.django_db
def test_tests_run_on_postgresql():
    assert connection.vendor == "postgresql", (
        f"tests ran on {connection.vendor}; run them with the README's test command"
    )
    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version_num")
        assert int(cursor.fetchone()[0]) >= 130000


@pytest.mark.django_db
def test_migrations_match_the_models():
    """A model change without its migration would break every deployment."""
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
    except SystemExit as exc:  # makemigrations --check exits 1 when a migration is missing
        raise AssertionError(f"missing migrations:\n{out.getvalue()}") from exc
