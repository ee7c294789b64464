"""The append-only triggers of the event table (migrations 0002 and 0005)."""

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

# Migration 0009: events of a match may be deleted once its archive row exists (and only then:
# replays/archives.py writes the archive first, in the same transaction); the archive table
# itself refuses UPDATE and DELETE.
ARCHIVE_POSTGRES_UP = """
CREATE OR REPLACE FUNCTION replays_event_append_only() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'DELETE' AND EXISTS (
            SELECT 1 FROM replays_matcharchive WHERE match_id = OLD.match_id) THEN
        RETURN OLD;
    END IF;
    RAISE EXCEPTION 'replays_event is append-only: % refused', TG_OP
        USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
""" + POSTGRES_UP.split("CREATE TRIGGER")[0].replace(
    "replays_event_append_only()", "replays_matcharchive_kept()").replace(
    "replays_event is append-only", "replays_matcharchive is write-once") + """CREATE TRIGGER replays_matcharchive_kept BEFORE UPDATE OR DELETE ON replays_matcharchive
    FOR EACH ROW EXECUTE FUNCTION replays_matcharchive_kept();
"""
ARCHIVE_POSTGRES_DOWN = POSTGRES_UP.split("CREATE TRIGGER")[0] + """
DROP TRIGGER IF EXISTS replays_matcharchive_kept ON replays_matcharchive;
DROP FUNCTION IF EXISTS replays_matcharchive_kept();
"""
SQLITE_NO_DELETE_UNLESS_ARCHIVED = (
    "CREATE TRIGGER replays_event_no_delete BEFORE DELETE ON replays_event "
    "WHEN NOT EXISTS (SELECT 1 FROM replays_matcharchive WHERE match_id = OLD.match_id) "
    "BEGIN SELECT RAISE(ABORT, 'replays_event is append-only: DELETE refused'); END;")
SQLITE_ARCHIVE_KEPT = [
    "CREATE TRIGGER replays_matcharchive_no_update BEFORE UPDATE ON replays_matcharchive "
    "BEGIN SELECT RAISE(ABORT, 'replays_matcharchive is write-once: UPDATE refused'); END;",
    "CREATE TRIGGER replays_matcharchive_no_delete BEFORE DELETE ON replays_matcharchive "
    "BEGIN SELECT RAISE(ABORT, 'replays_matcharchive is write-once: DELETE refused'); END;",
]
ARCHIVE_SQLITE_UP = ["DROP TRIGGER IF EXISTS replays_event_no_delete;", SQLITE_NO_DELETE_UNLESS_ARCHIVED,
                     *SQLITE_ARCHIVE_KEPT]
ARCHIVE_SQLITE_DOWN = ["DROP TRIGGER IF EXISTS replays_event_no_delete;", SQLITE_UP[1],
                       "DROP TRIGGER IF EXISTS replays_matcharchive_no_update;",
                       "DROP TRIGGER IF EXISTS replays_matcharchive_no_delete;"]


def trigger_migration(*, postgres: tuple[str, str], sqlite: tuple[list[str], list[str]]):
    """A RunPython that installs (and on the way back removes) triggers: ``postgres`` is the
    (up, down) SQL on PostgreSQL, ``sqlite`` the (up, down) statements on SQLite."""
    from django.db import migrations

    def statements(vendor: str, up: bool) -> list[str]:
        if vendor == "postgresql":
            return [postgres[0] if up else postgres[1]]
        if vendor == "sqlite":
            return sqlite[0] if up else sqlite[1]
        raise RuntimeError(f"no append-only trigger for database vendor {vendor!r}")

    def forwards(apps, schema_editor):
        for sql in statements(schema_editor.connection.vendor, up=True):
            schema_editor.execute(sql, params=None)

    def backwards(apps, schema_editor):
        for sql in statements(schema_editor.connection.vendor, up=False):
            schema_editor.execute(sql, params=None)

    return migrations.RunPython(forwards, backwards)
