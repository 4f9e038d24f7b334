"""The audit log's trigger covers ``TRUNCATE`` too (issue 38): row triggers refuse ``UPDATE`` and
``DELETE`` (0007), but ``TRUNCATE`` fires no row trigger. A statement trigger refuses it on
PostgreSQL, unless a superuser's session says ``SET pulka.audit_log_truncate = 'allowed'`` (the
test settings do, so that Django's test flush, a ``TRUNCATE`` of every table, still runs; no
application role is a superuser, docs/deployment.md). SQLite has no ``TRUNCATE``: its
``DELETE`` trigger (0007) covers a ``DELETE`` without ``WHERE``."""

from django.db import migrations

TABLE = "tournaments_auditlogentry"
MESSAGE = "the audit log is append-only: it is never truncated"

POSTGRESQL = [
    f"""CREATE OR REPLACE FUNCTION pulka_audit_log_no_truncate() RETURNS trigger AS $$
    BEGIN
        IF current_setting('pulka.audit_log_truncate', true) = 'allowed'
           AND (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
            RETURN NULL;
        END IF;
        RAISE EXCEPTION '{MESSAGE}';
    END; $$ LANGUAGE plpgsql""",
    f"""CREATE TRIGGER pulka_audit_log_no_truncate BEFORE TRUNCATE ON {TABLE}
    FOR EACH STATEMENT EXECUTE FUNCTION pulka_audit_log_no_truncate()""",
]
POSTGRESQL_REVERSE = [
    f"DROP TRIGGER IF EXISTS pulka_audit_log_no_truncate ON {TABLE}",
    "DROP FUNCTION IF EXISTS pulka_audit_log_no_truncate()",
]


def _run(statements):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            for sql in statements:
                schema_editor.execute(sql)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0021_strings36_error_words"),
    ]

    operations = [
        migrations.RunPython(_run(POSTGRESQL), _run(POSTGRESQL_REVERSE)),
    ]
