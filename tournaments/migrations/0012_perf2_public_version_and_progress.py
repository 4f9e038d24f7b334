from django.db import migrations, models


class Migration(migrations.Migration):
    """The version of a round's public page (issue 28): the cache key and ETag of the page;
    the progress of a long document's rendering (a round's filled protocols)."""

    dependencies = [
        ("tournaments", "0011_prx_fours_remainder"),
    ]

    operations = [
        migrations.AddField(
            model_name="round",
            name="public_version",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="round",
            name="public_changed_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="generatedfile",
            name="progress",
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
