"""A person for every player who has entries (issue 39): the entries made before persons point
at one. A player with a federation id is one record across events already, so his entries share
one person; a player without one was a new record at each registration and gets a person of his
own (two such records of one person are merged by an organiser, never guessed here)."""

import unicodedata

from django.db import migrations


def folded(text):
    """``tournaments.models.series.folded`` as it was when this migration was written."""
    text = text.replace("đ", "dj").replace("Đ", "Dj").replace("ß", "ss")
    plain = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    return " ".join(plain.casefold().split())


def persons_for_entries(apps, schema_editor):
    Entry = apps.get_model("tournaments", "Entry")
    Person = apps.get_model("tournaments", "Person")
    Player = apps.get_model("tournaments", "Player")
    players = Player.objects.filter(entries__person__isnull=True).distinct().order_by("pk")
    for player in players.iterator(chunk_size=1000):
        person = Person.objects.create(
            name=player.name,
            name_key=folded(player.name),
            club=player.club,
            city=player.city,
            federation_id=player.federation_id,
        )
        Entry.objects.filter(player=player, person__isnull=True).update(person=person)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0017_leagues_organisations_persons_series"),
    ]

    operations = [
        migrations.RunPython(persons_for_entries, migrations.RunPython.noop, elidable=True),
    ]
