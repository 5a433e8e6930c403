"""Events carry an anchor: the HMAC of their hash under GAMES_ANCHOR_KEY.

Events stored before this migration are anchored here with the key the
settings hold now (on PostgreSQL the append-only trigger is switched off for
this one update and on again after it).
"""

import hashlib
import hmac

from django.conf import settings
from django.db import migrations, models


def anchor_existing(apps, schema_editor):
    Event = apps.get_model("games", "Event")
    key = settings.GAMES_ANCHOR_KEY.encode("utf-8")
    postgres = schema_editor.connection.vendor == "postgresql"
    table = Event._meta.db_table
    with schema_editor.connection.cursor() as cur:
        if postgres:
            cur.execute(f"ALTER TABLE {table} DISABLE TRIGGER games_event_append_only")
        for pk, digest in Event.objects.filter(anchor="").values_list("pk", "hash").iterator():
            cur.execute(f"UPDATE {table} SET anchor = %s WHERE id = %s",
                        [hmac.new(key, digest.encode("ascii"), hashlib.sha256).hexdigest(), pk])
        if postgres:
            cur.execute(f"ALTER TABLE {table} ENABLE TRIGGER games_event_append_only")


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0005_game_training"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="anchor",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        migrations.RunPython(anchor_existing, migrations.RunPython.noop, elidable=False),
    ]
