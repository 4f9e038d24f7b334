import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    """Issue 39: a series' table stored in parts (the head and a row per person), so that a
    change writes only the rows it changes. The stored tables keep their one document in the
    head (read as it is until the next computation writes the parts)."""

    dependencies = [
        ("tournaments", "0026_rate41b_changes_without_constraints"),
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
    ]
