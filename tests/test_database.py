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



def test_migrations_match_the_models(tmp_path):
    """A model change without its migration would break every deployment. Run in a fresh
    process: pytest-django's --no-migrations would otherwise hide the migration files."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    env = {"PATH": os.environ["PATH"], "PULKA_VAR_DIR": str(tmp_path),
           "DJANGO_SETTINGS_MODULE": "tournaments.settings.base"}
    out = subprocess.run([sys.executable, "manage.py", "makemigrations", "--check", "--dry-run"],
                         cwd=root, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, f"missing migrations:\n{out.stdout}{out.stderr}"
