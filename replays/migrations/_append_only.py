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
