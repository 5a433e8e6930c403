"""On PostgreSQL the database itself refuses UPDATE and DELETE on result
events (TRUNCATE, used by test teardown, is left alone)."""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION league_resultevent_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'league_resultevent is append-only: % refused', TG_OP
        USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
DROP TRIGGER IF EXISTS league_resultevent_append_only ON league_resultevent;
CREATE TRIGGER league_resultevent_append_only
    BEFORE UPDATE OR DELETE ON league_resultevent
    FOR EACH ROW EXECUTE FUNCTION league_resultevent_append_only();
"""

DROP = """
DROP TRIGGER IF EXISTS league_resultevent_append_only ON league_resultevent;
DROP FUNCTION IF EXISTS league_resultevent_append_only();
"""


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)  # "%" is not a placeholder


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("league", "0001_initial")]
    operations = [migrations.RunPython(forwards, backwards, elidable=False)]
