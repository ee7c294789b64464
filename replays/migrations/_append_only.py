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
CREATE OR REPLACE FUNCTION replays_matcharchive_kept() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'replays_matcharchive is write-once: % refused', TG_OP
        USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER replays_matcharchive_kept BEFORE UPDATE OR DELETE ON replays_matcharchive
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
