"""Standings stored in parts (issue 28): the snapshot's ``data`` becomes its small ``head``,
the rows go to ``StandingsPart``; each protocol version's statistics move from the snapshot's
``protocol_stats`` blob to a ``ProtocolStats`` row (with the version's results).

A snapshot stored before keeps its whole standings in ``head`` and is read as it is until its
next recomputation (its inputs' fingerprint has a new layout number, so the next job computes
and writes the parts; nothing is lost meanwhile). That recomputation is asked for here: each
such snapshot counts one more request, and the jobs sweep (``standings_sweep``: beat, the
``jobs_sweep`` command, or a web request) sends its job a minute later."""

import django.db.models.deletion
from django.db import migrations, models


def stats_to_rows(apps, schema_editor):
    Snapshot = apps.get_model("tournaments", "StandingsSnapshot")
    Protocol = apps.get_model("tournaments", "Protocol")
    ProtocolStats = apps.get_model("tournaments", "ProtocolStats")
    for snapshot in Snapshot.objects.exclude(protocol_stats={}).iterator():
        stats = snapshot.protocol_stats or {}
        ids = [int(k) for k in stats if str(k).isdigit()]
        results = dict(Protocol.objects.filter(id__in=ids).values_list("id", "result"))
        rows = []
        for pid in ids:
            entry = stats[str(pid)]
            if pid not in results or not isinstance(entry, dict):
                continue
            if "k" not in entry and "error" not in entry:
                continue  # an older layout: computed again when needed
            r = [
                [x.get("seat"), x.get("entry"), x.get("whists")]
                for x in results[pid] or []
                if isinstance(x, dict)
            ]
            rows.append(ProtocolStats(protocol_id=pid, data={"r": r, **entry}))
        ProtocolStats.objects.bulk_create(rows, ignore_conflicts=True, batch_size=1000)


def ask_for_parts(apps, schema_editor):
    from django.db.models import F
    from django.utils import timezone

    Snapshot = apps.get_model("tournaments", "StandingsSnapshot")
    Snapshot.objects.exclude(head={}).update(
        requested=F("requested") + 1, requested_at=timezone.now()
    )


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0014_pdffast_event_protocols")]

    operations = [
        migrations.RenameField("standingssnapshot", "data", "head"),
        migrations.CreateModel(
            name="StandingsPart",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("key", models.CharField(max_length=32)),
                ("data", models.JSONField(blank=True, default=dict)),
                (
                    "snapshot",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="parts",
                        to="tournaments.standingssnapshot",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("snapshot", "key"), name="one_standings_part_per_key"
                    )
                ]
            },
        ),
        migrations.CreateModel(
            name="ProtocolStats",
            fields=[
                (
                    "protocol",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="+",
                        serialize=False,
                        to="tournaments.protocol",
                    ),
                ),
                ("data", models.JSONField(blank=True, default=dict)),
            ],
        ),
        migrations.RunPython(stats_to_rows, migrations.RunPython.noop),
        migrations.RemoveField("standingssnapshot", "protocol_stats"),
        migrations.RunPython(ask_for_parts, migrations.RunPython.noop),
    ]
