"""The database refuses UPDATE and DELETE on events, whatever code (or person) tries it.

TRUNCATE stays possible on PostgreSQL for the test runner's flush; it is a table-level operation
no application path issues.
"""
from django.db import migrations

POSTGRES_UP = """
CREATE OR REPLACE FUNCTION replays_event_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'replays_event is append-only: % refused', TG_OP
        USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER replays_event_append_only BEFORE UPDATE OR DELETE ON replays_event
    FOR EACH ROW EXECUTE FUNCTION replays_event_append_only();
"""
POSTGRES_DOWN = """
DROP TRIGGER IF EXISTS replays_event_append_only ON replays_event;
DROP FUNCTION IF EXISTS replays_event_append_only();
"""
SQLITE_UP = [
    "CREATE TRIGGER replays_event_no_update BEFORE UPDATE ON replays_event "
    "BEGIN SELECT RAISE(ABORT, 'replays_event is append-only: UPDATE refused'); END;",
    "CREATE TRIGGER replays_event_no_delete BEFORE DELETE ON replays_event "
    "BEGIN SELECT RAISE(ABORT, 'replays_event is append-only: DELETE refused'); END;",
]
SQLITE_DOWN = ["DROP TRIGGER IF EXISTS replays_event_no_update;",
               "DROP TRIGGER IF EXISTS replays_event_no_delete;"]


def statements(vendor: str, up: bool) -> list[str]:
    if vendor == "postgresql":
        return [POSTGRES_UP if up else POSTGRES_DOWN]
    if vendor == "sqlite":
        return SQLITE_UP if up else SQLITE_DOWN
    raise RuntimeError(f"no append-only trigger for database vendor {vendor!r}")


def forwards(apps, schema_editor):
    for sql in statements(schema_editor.connection.vendor, up=True):
        schema_editor.execute(sql, params=None)


def backwards(apps, schema_editor):
    for sql in statements(schema_editor.connection.vendor, up=False):
        schema_editor.execute(sql, params=None)


class Migration(migrations.Migration):
    dependencies = [("replays", "0001_initial")]
    operations = [migrations.RunPython(forwards, backwards)]
