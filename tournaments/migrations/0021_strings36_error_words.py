# Issue 36: a background job's error kept as words, said again in the reader's language.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0020_teams_teams"),
    ]

    operations = [
        migrations.AddField(
            model_name="round",
            name="draw_job_error_words",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="job",
            name="error_words",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="standingssnapshot",
            name="error_words",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="generatedfile",
            name="error_words",
            field=models.JSONField(blank=True, null=True),
        ),
    ]
