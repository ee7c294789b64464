"""The event store on the embedded default (SQLite) and, under .ci/run, on PostgreSQL."""
import contextlib
import threading

import pytest
from django.db import DatabaseError, connection, transaction

from games.engine import registry
from games.engine.log import Folder, record_hash, validate
from replays.models import Event, Match, Snapshot
from replays.selectors import match_folder, match_record_stream, match_records, state_at
from replays.services import AppendConflict, event_append, match_create, match_validate
from replays.signing import signing_keys_public


def _disable_append_only_trigger(table="replays_event", postgres="replays_event_append_only",
                                 sqlite="replays_event_no_update"):
    """Tests only: let the test tamper with a stored event (or another protected row: ``table``
    and its triggers), as an attacker with DB access could."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # Django's foreign keys are deferred; settle them so the table can be altered.
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute(f"ALTER TABLE {table} DISABLE TRIGGER {postgres}")
        else:
            cursor.execute(f"DROP TRIGGER {sqlite}")


def _tamper(match, seq, payload, rehash_from_here=False):
    """Overwrite event ``seq``'s payload; with ``rehash_from_here`` recompute the hash chain from
    it on, so only the rules (not the hashes) can tell."""
    _disable_append_only_trigger()
    records = match_records(match=match)
    records[seq]["payload"] = payload
    last = len(records) if rehash_from_here else seq + 1
    for i in range(seq, last):
        if i > seq or rehash_from_here:
            records[i]["prev_hash"] = records[i - 1]["hash"]
            records[i]["hash"] = record_hash(records[i])
        Event.objects.filter(match=match, seq=i).update(
            payload=records[i]["payload"], prev_hash=records[i]["prev_hash"], hash=records[i]["hash"])


def test_it_plays_and_validates_a_match_on_commit(played_match):
    played_match.refresh_from_db()
    assert played_match.status == Match.Status.ENDED
    latest = played_match.validations.first()
    assert latest is not None and latest.ok, latest and latest.report
    assert latest.report["chance_verified"] and latest.report["ended"]
    seqs = list(played_match.events.values_list("seq", flat=True))
    assert seqs == list(range(len(seqs)))


def test_it_refuses_update_of_an_event(played_match):
    event = played_match.events.get(seq=1)
    with pytest.raises(DatabaseError, match="append-only"):
        with transaction.atomic():
            Event.objects.filter(pk=event.pk).update(payload={"forged": True})
    event.refresh_from_db()
    assert event.payload != {"forged": True}


def test_it_refuses_delete_of_an_event(played_match):
    count = played_match.events.count()
    with pytest.raises(DatabaseError, match="append-only"):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("DELETE FROM replays_event WHERE match_id = %s", [played_match.pk.hex
                           if connection.vendor == "sqlite" else played_match.pk])
    assert played_match.events.count() == count


def test_a_second_writer_at_the_same_seq_gets_a_conflict_and_writes_nothing(db):
    match = match_create(ruleset="trap-the-wizard", players=2)
    head = match_records(match=match)[0]
    chance = {"spec": {"kind": "dice", "count": 1, "sides": 6}, "outcome": [3]}
    event_append(match=match, expected_seq=1, prev_hash=head["hash"], kind="chance", payload=chance)
    with pytest.raises(AppendConflict):
        event_append(match=match, expected_seq=1, prev_hash=head["hash"], kind="chance",
                     payload={**chance, "outcome": [5]})
    with pytest.raises(AppendConflict):  # a stale head: seq 2 is free but 1's hash is not this
        event_append(match=match, expected_seq=2, prev_hash=head["hash"], kind="chance", payload=chance)
    assert list(match.events.values_list("seq", "payload")) == [(0, head["payload"]), (1, chance)]


@pytest.mark.postgres  # a transaction=True test: only PostgreSQL can empty the append-only table
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("snapshot", [False, True], ids=["event", "event-and-snapshot"])
def test_an_ordinary_append_is_one_statement_committed_on_its_own(snapshot, settings):
    """Issue 16: the head check and the insert are one round trip; outside a transaction nothing
    else is sent (no BEGIN, no separate head lookup, no COMMIT). With a snapshot due, the
    snapshot's INSERT reads the event's from a WITH clause: still one statement, where it used
    to take a transaction and the ORM. The event's statement is the same on SQLite, where the
    other tests run it inside their transaction."""
    settings.REPLAY_SNAPSHOT_EVERY = 1
    match = match_create(ruleset="trap-the-wizard", players=2)
    head = match_records(match=match)[0]
    chance = {"spec": {"kind": "dice", "count": 1, "sides": 6}, "outcome": [3]}
    state = _snapshot_state() if snapshot else None
    sent = []

    def record(execute, sql, params, many, context):
        sent.append(sql.split()[0])
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        event_append(match=match, expected_seq=1, prev_hash=head["hash"], kind="chance",
                     payload=chance, state=state)
    assert sent == ["WITH" if snapshot else "INSERT"] and connection.get_autocommit()
    assert list(match.events.values_list("seq", "payload")) == [(0, head["payload"]), (1, chance)]
    assert list(Snapshot.objects.filter(match=match).values_list("seq", flat=True)) == ([1] if snapshot else [])
    with pytest.raises(AppendConflict, match="not the head"):
        event_append(match=match, expected_seq=2, prev_hash=head["hash"], kind="chance",
                     payload=chance, state=state)
    assert match.events.count() == 2 and Snapshot.objects.filter(match=match).count() == int(snapshot)


@pytest.mark.parametrize("payload", [
    {"action": {"type": "move", "to": 6}},
    {"action": {"say": "Zauberer \u00e9\u00df \U0001f9d9", "odds": 0.1, "tiny": 1e-07, "none": None}},
    {"action": {"big": 2**63 - 1, "nested": [[], {}, [1, [2, [3]]]], "escaped": "\"\\\n\t"}},
], ids=["ascii", "non-ascii-and-floats", "ints-and-escapes"])
def test_a_payload_reads_back_as_it_was_appended_and_hashes_the_same(db, payload):
    """The stored payload (on PostgreSQL the canonical JSON the hash was written from, where it
    is ASCII) reads back equal, and the record read back has the hash it was sealed with."""
    match = match_create(ruleset="trap-the-wizard", players=2)
    head = match_records(match=match)[0]
    sealed = event_append(match=match, expected_seq=1, prev_hash=head["hash"], kind="action",
                          seat=0, payload=payload)
    stored = match_records(match=match)[1]
    assert stored["payload"] == payload and stored == sealed
    assert record_hash(stored) == stored["hash"]


def _snapshot_state():
    """A state to snapshot (any encodable one: the append stores what it is given)."""
    ruleset = registry.get("trap-the-wizard")
    return ruleset.setup(2, ruleset.options({}))


def test_an_append_with_a_snapshot_writes_both_rows_or_neither(db, settings):
    """The snapshot of event seq is written exactly when the event is: a stale head or a taken
    seq writes neither (on PostgreSQL the two INSERTs are one statement, on SQLite one
    transaction)."""
    settings.REPLAY_SNAPSHOT_EVERY = 2
    match = match_create(ruleset="trap-the-wizard", players=2)
    head = match_records(match=match)[0]
    chance = {"spec": {"kind": "dice", "count": 1, "sides": 6}, "outcome": [3]}
    state = _snapshot_state()
    first = event_append(match=match, expected_seq=1, prev_hash=head["hash"], kind="chance",
                         payload=chance, state=state)
    with pytest.raises(AppendConflict, match="not the head"):  # seq 2 is a snapshot's: stale head
        event_append(match=match, expected_seq=2, prev_hash=head["hash"], kind="chance",
                     payload=chance, state=state)
    assert match.events.count() == 2 and not Snapshot.objects.filter(match=match).exists()
    event_append(match=match, expected_seq=2, prev_hash=first["hash"], kind="chance",
                 payload=chance, state=state)
    with pytest.raises(AppendConflict, match="taken by another writer"):
        event_append(match=match, expected_seq=2, prev_hash=first["hash"], kind="chance",
                     payload={**chance, "outcome": [4]}, state=state)
    ruleset = registry.get("trap-the-wizard")
    assert list(Snapshot.objects.filter(match=match).values_list("seq", "state")) == [(2, ruleset.encode(state))]
    assert list(match.events.values_list("seq", flat=True)) == [0, 1, 2]


def test_a_refused_append_leaves_the_callers_transaction_usable(db):
    """A conflict inside the caller's transaction raises AppendConflict and aborts nothing: on
    PostgreSQL a failed statement would poison the whole transaction, so the refusal is "no row
    inserted", never a database error."""
    match = match_create(ruleset="trap-the-wizard", players=2)
    head = match_records(match=match)[0]
    chance = {"spec": {"kind": "dice", "count": 1, "sides": 6}, "outcome": [3]}
    with transaction.atomic():
        event_append(match=match, expected_seq=1, prev_hash=head["hash"], kind="chance", payload=chance)
        with pytest.raises(AppendConflict, match="taken by another writer"):
            event_append(match=match, expected_seq=1, prev_hash=head["hash"], kind="chance",
                         payload={**chance, "outcome": [4]})
        assert match.events.count() == 2  # the transaction still answers


def test_an_append_never_goes_back_in_time_behind_the_previous_event(db):
    """Issue 12.7: the validator refuses a log whose times go backwards, so a writer whose clock
    is behind the previous writer's (another worker resuming the match) takes the previous
    event's time instead of its own."""
    match = match_create(ruleset="trap-the-wizard", players=2)
    head = match_records(match=match)[0]
    chance = {"spec": {"kind": "dice", "count": 1, "sides": 6}, "outcome": [3]}
    ours = event_append(match=match, expected_seq=1, prev_hash=head["hash"], kind="chance",
                        payload=chance, after_time=head["time"])  # behind our clock: ours
    assert ours["time"] > head["time"]
    ahead = "2999-01-01T00:00:00.000000+00:00"  # as if the previous writer's clock were far ahead
    record = event_append(match=match, expected_seq=2, prev_hash=ours["hash"], kind="chance",
                          payload=chance, after_time=ahead)
    assert record["time"] == ahead and match_records(match=match)[2] == record


def test_nothing_is_appended_after_the_end_of_a_match(played_match):
    head = match_records(match=played_match)[-1]
    assert head["kind"] == "match_ended"
    with pytest.raises(AppendConflict, match="has ended"):
        event_append(match=played_match, expected_seq=head["seq"] + 1, prev_hash=head["hash"],
                     kind="forfeit", seat=0, payload={"reason": "resigned"})
    assert played_match.events.count() == head["seq"] + 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("in_transaction", [True, False], ids=["in-a-transaction", "autocommit"])
@pytest.mark.parametrize("snapshot", [False, True], ids=["event", "event-and-snapshot"])
def test_two_concurrent_appends_at_the_same_seq_leave_exactly_one(in_transaction, snapshot, settings):
    """Two threads, two real PostgreSQL connections, one seq: one wins, one conflicts, both in
    the caller's transaction (a savepoint) and as the single autocommit statement; with a
    snapshot due at that seq, exactly one snapshot too."""
    settings.REPLAY_SNAPSHOT_EVERY = 1
    state = _snapshot_state() if snapshot else None
    for attempt in range(5):
        match = match_create(ruleset="trap-the-wizard", players=2)
        head = match_records(match=match)[0]
        barrier, outcomes = threading.Barrier(2), []

        def writer(outcome):
            try:
                with transaction.atomic() if in_transaction else contextlib.nullcontext():
                    barrier.wait(timeout=10)
                    event_append(match=match, expected_seq=1, prev_hash=head["hash"], kind="chance",
                                 payload={"spec": {"kind": "dice", "count": 1, "sides": 6}, "outcome": [outcome]},
                                 state=state)
                outcomes.append("ok")
            except AppendConflict:
                outcomes.append("conflict")
            finally:
                connection.close()

        threads = [threading.Thread(target=writer, args=(o,)) for o in (2, 5)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
        assert sorted(outcomes) == ["conflict", "ok"], f"attempt {attempt}: {outcomes}"
        assert list(Event.objects.filter(match=match).values_list("seq", flat=True)) == [0, 1]
        assert Snapshot.objects.filter(match=match).count() == (1 if snapshot else 0)


def test_the_validator_names_a_tampered_event_by_seq(played_match):
    chance_seq = played_match.events.filter(kind="chance").order_by("seq")[3].seq
    payload = dict(played_match.events.get(seq=chance_seq).payload)
    payload["outcome"] = [7 - payload["outcome"][0]]
    _tamper(played_match, chance_seq, payload)
    verdict = match_validate(match=played_match)
    assert not verdict.ok
    assert verdict.first_bad_seq == chance_seq
    assert "hash" in verdict.reason


def test_a_tampered_chance_outcome_is_caught_even_with_a_rebuilt_hash_chain(played_match):
    chance_seq = played_match.events.filter(kind="chance").order_by("seq")[2].seq
    payload = dict(played_match.events.get(seq=chance_seq).payload)
    payload["outcome"] = [payload["outcome"][0] % 6 + 1]
    _tamper(played_match, chance_seq, payload, rehash_from_here=True)
    verdict = match_validate(match=played_match)
    assert not verdict.ok
    assert verdict.first_bad_seq == chance_seq
    assert "derivation" in verdict.reason


def test_the_record_stream_is_the_log_a_chunk_at_a_time_and_validates_as_the_list_does(played_match):
    """match_validate reads the head, then streams the table up to it (validate's ``last``)."""
    records = match_records(match=played_match)
    head = len(records) - 1
    assert list(match_record_stream(match=played_match, last=head, chunk=7)) == records
    assert list(match_record_stream(match=played_match, last=10, chunk=3)) == records[:11]
    verdict = match_validate(match=played_match)
    snapshots = dict(Snapshot.objects.filter(match=played_match).values_list("seq", "state"))
    assert verdict.ok and verdict.events == len(records) and verdict.report["snapshots_checked"] > 0
    assert verdict.report == validate(records, snapshots=snapshots, keys=signing_keys_public()).to_json()


def test_the_validator_names_a_snapshot_that_differs_from_the_fold(played_match):
    snapshot = Snapshot.objects.filter(match=played_match).order_by("seq").first()
    assert snapshot is not None, "a match of this length writes snapshots"
    ruleset = registry.get("trap-the-wizard")
    earlier = ruleset.encode(state_at(match=played_match, n=snapshot.seq - 1))
    assert earlier != snapshot.state
    Snapshot.objects.filter(pk=snapshot.pk).update(state=earlier)
    verdict = match_validate(match=played_match)
    assert (verdict.ok, verdict.first_bad_seq) == (False, snapshot.seq)
    assert "snapshot" in verdict.reason


def test_state_at_any_step_equals_the_fold_from_event_zero(played_match, settings):
    ruleset = registry.get("trap-the-wizard")
    records = match_records(match=played_match)
    snapshots = set(Snapshot.objects.filter(match=played_match).values_list("seq", flat=True))
    every = settings.REPLAY_SNAPSHOT_EVERY
    assert snapshots == {s for s in range(every, len(records) - 1, every)}
    folder = Folder(records[0])
    steps = {0, 1, every - 1, every, every + 1, len(records) - 2, len(records) - 1}
    for record in records[1:]:
        folder.advance(record)
        if record["seq"] in steps:
            assert ruleset.encode(state_at(match=played_match, n=record["seq"])) == ruleset.encode(folder.state)
    assert match_folder(match=played_match).ended


def test_a_fold_at_any_step_reads_the_snapshot_and_one_range_of_events(played_match, settings):
    """replays.selectors.match_folder: two queries (the snapshot at or before the step; the first
    event, the snapshot's event and those after it up to the step in one read), and the same
    state as the fold from event zero, before the first snapshot, on one and between two."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    ruleset = registry.get("trap-the-wizard")
    records = match_records(match=played_match)
    every = settings.REPLAY_SNAPSHOT_EVERY
    folder = Folder(records[0])
    states = {0: ruleset.encode(folder.state)}
    for record in records[1:]:
        folder.advance(record)
        states[record["seq"]] = ruleset.encode(folder.state)
    for n in (0, 1, every - 1, every, every + 1, 2 * every + 3, len(records) - 1):
        with CaptureQueriesContext(connection) as queries:
            at = match_folder(match=played_match, upto=n)
        assert len(queries) == 2, [q["sql"] for q in queries]
        assert at.seq == n and ruleset.encode(at.state) == states[n]
    with pytest.raises(IndexError):
        match_folder(match=played_match, upto=len(records))


def test_the_stored_log_is_the_log_the_offline_validator_accepts(played_match):
    report = validate(match_records(match=played_match))
    assert report.ok and report.ended and report.chance_verified
