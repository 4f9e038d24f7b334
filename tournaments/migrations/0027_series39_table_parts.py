import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

LOG = "tournaments_organisationlogentry"
MESSAGE = "the audit log is append-only: entries are never changed or deleted"
# the same refusals as the event's log (migrations 0007 and 0022): their functions, triggers on
# this table
TRIGGERS = {
    "postgresql": [
        f"""CREATE OR REPLACE FUNCTION pulka_audit_log_append_only() RETURNS trigger AS $$
        BEGIN RAISE EXCEPTION '{MESSAGE}'; END; $$ LANGUAGE plpgsql""",
        f"""CREATE TRIGGER pulka_organisation_log_append_only BEFORE UPDATE OR DELETE ON {LOG}
        FOR EACH ROW EXECUTE FUNCTION pulka_audit_log_append_only()""",
        # and TRUNCATE, as the event's log (migration 0022's function)
        f"""CREATE TRIGGER pulka_organisation_log_no_truncate BEFORE TRUNCATE ON {LOG}
        FOR EACH STATEMENT EXECUTE FUNCTION pulka_audit_log_no_truncate()""",
    ],
    "sqlite": [
        f"""CREATE TRIGGER pulka_organisation_log_no_{what.lower()} BEFORE {what} ON {LOG}
        BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END"""
        for what in ("UPDATE", "DELETE")
    ],
}
TRIGGERS_REVERSE = {
    "postgresql": [
        f"DROP TRIGGER IF EXISTS pulka_organisation_log_append_only ON {LOG}",
        f"DROP TRIGGER IF EXISTS pulka_organisation_log_no_truncate ON {LOG}",
    ],
    "sqlite": [
        f"DROP TRIGGER IF EXISTS pulka_organisation_log_no_{what}" for what in ("update", "delete")
    ],
}


def _run(statements):
    def run(apps, schema_editor):
        for sql in statements.get(schema_editor.connection.vendor, []):
            schema_editor.execute(sql)

    return run


class Migration(migrations.Migration):
    """Issue 39: a series' table stored in parts (the head and a row per person), so that a
    change writes only the rows it changes (the stored tables keep their one document in the
    head, read as it is until the next computation writes the parts); an organisation's log
    of its roles, append-only as the event's log."""

    dependencies = [
        ("tournaments", "0026_rate41b_changes_without_constraints"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RenameField(
            model_name="seriesstandingssnapshot",
            old_name="data",
            new_name="head",
        ),
        migrations.CreateModel(
            name="SeriesStandingsRow",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("cells", models.JSONField(blank=True, default=list)),
                (
                    "person",
                    models.ForeignKey(
                        db_constraint=False,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="tournaments.person",
                    ),
                ),
                (
                    "snapshot",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="rows",
                        to="tournaments.seriesstandingssnapshot",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("snapshot", "person"), name="one_series_standings_row_per_person"
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="OrganisationLogEntry",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("action", models.CharField(max_length=60)),
                ("reason", models.TextField(blank=True)),
                ("data", models.JSONField(blank=True, default=dict)),
                ("created_at", models.DateTimeField(auto_now_add=True, db_index=True)),
                (
                    "organisation",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="log",
                        to="tournaments.organisation",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={"ordering": ["-created_at", "-id"]},
        ),
        migrations.RunPython(_run(TRIGGERS), _run(TRIGGERS_REVERSE)),
    ]
