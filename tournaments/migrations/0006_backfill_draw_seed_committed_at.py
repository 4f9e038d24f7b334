"""Rounds whose seed's hash was published before this field existed: the time comes from the
event log ("round.seed_committed"), so their pages keep saying the hash came before the draw."""

from django.db import migrations


def backfill(apps, schema_editor):
    Round = apps.get_model("tournaments", "Round")
    AuditLogEntry = apps.get_model("tournaments", "AuditLogEntry")
    committed = {}
    for entry in AuditLogEntry.objects.filter(action="round.seed_committed").order_by("created_at"):
        key = (entry.event_id, (entry.data or {}).get("round"))
        committed.setdefault(key, entry)
    for round_ in Round.objects.filter(draw_seed_committed_at__isnull=True).exclude(
        draw_seed_hash=""
    ):
        entry = committed.get((round_.event_id, round_.number))
        if entry is not None and (entry.data or {}).get("sha256") == round_.draw_seed_hash:
            round_.draw_seed_committed_at = entry.created_at
            round_.save(update_fields=["draw_seed_committed_at"])


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0005_generated_file_player_links")]

    operations = [migrations.RunPython(backfill, migrations.RunPython.noop)]
