"""Append throughput on PostgreSQL, one committed event at a time as a live match writes them.

The same events (offline Trap the Wizard matches, seq 1 onwards) go into one PostgreSQL database
(``arena_bench``, created if missing, migrated, emptied) on the same machine, in one run:

- service: ``replays.services.event_append`` per event, outside any transaction as the match
  driver calls it (one INSERT ... SELECT ... WHERE <the head is as expected> statement in
  autocommit, prepared once per connection, with the snapshot every REPLAY_SNAPSHOT_EVERY events
  in the same statement; the end of a match takes a transaction), with the state after the event
  as the driver passes it; a second row calls it inside a caller's ``transaction.atomic()`` (the
  append is then a savepoint);
- floor: a plain single-row INSERT of the same row into a table with the same columns and the same
  unique keys (no foreign key, no trigger), through psycopg on Django's own connection: in
  autocommit (INSERT = one round trip and one commit) with the connection's client-side binding,
  the same INSERT prepared (server-side binding, as the service's statement is), and as BEGIN;
  INSERT; COMMIT;
- peer: the ``eventsourcing`` library's PostgreSQL recorders, ``insert_events([one event])`` per
  event (each call is its own transaction): the application recorder (LOCK TABLE, NOTIFY and the
  INSERT pipelined in one transaction, as an eventsourcing Application writes) and the aggregate
  recorder (one autocommit INSERT).

Every method runs ``rounds`` times, interleaved, on fresh match ids; the best round counts. A last,
instrumented service pass splits the append into its steps (seal, the INSERT, snapshot, close,
COMMIT, the rest). ``validate_match.delay`` (queued on match end) is replaced by a no-op: in
production it goes to a Celery worker, and run eagerly it would add a whole validation to the
last append of each match.
"""
from __future__ import annotations

import datetime as dt
import json
import os
import statistics
import time
import uuid
from contextlib import contextmanager
from dataclasses import dataclass
from unittest import mock
from urllib.parse import urlparse

from games.engine.log import Folder, seal

from . import fold as fold_bench

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/arena_bench"
FLOOR_TABLE = "bench_floor_event"
ES_APPLICATION_TABLE = "bench_es_application_events"
ES_AGGREGATE_TABLE = "bench_es_aggregate_events"


@dataclass
class PreparedMatch:
    """One offline match ready to be appended: its log and the state after each event."""

    index: int
    log: list[dict]
    states: list  # states[seq] is the state after event seq (None for the end events)

    @property
    def created(self) -> dict:
        return self.log[0]


def prepare(logs: list[list[dict]]) -> list[PreparedMatch]:
    """Fold each log once, keeping the state after every event (engines never mutate a state,
    so keeping them all is safe), as the match driver has it when it appends."""
    prepared = []
    for index, log in enumerate(logs):
        folder = Folder(log[0])
        states = [folder.state]
        for record in log[1:]:
            folder.advance(record)
            states.append(None if folder.ended else folder.state)
        prepared.append(PreparedMatch(index, log, states))
    return prepared


# -- the database ---------------------------------------------------------------------------------

def database_create(url: str) -> None:
    """Create the bench database named in ``url`` if it is missing."""
    import psycopg

    parts = urlparse(url)
    name = parts.path.lstrip("/")
    admin = psycopg.connect(host=parts.hostname, port=parts.port or 5432,
                            user=parts.username or "postgres", password=parts.password or "",
                            dbname="postgres", autocommit=True)
    with admin:
        exists = admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not exists:
            admin.execute(f'CREATE DATABASE "{name}"')


def django_setup(url: str) -> None:
    """Point Django at the bench database and set it up as production runs it: DEBUG off (the
    debug cursor logs every query)."""
    os.environ["DATABASE_URL"] = url
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    os.environ["DEBUG"] = "0"
    os.environ.setdefault("SECRET_KEY", "benchmark-only-not-a-secret")
    import django

    django.setup()


def database_reset() -> None:
    """Migrate, then empty every table the bench writes, so each run starts from the same place."""
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0, interactive=False)
    with connection.cursor() as cursor:
        cursor.execute(f"""
            CREATE TABLE IF NOT EXISTS {FLOOR_TABLE} (
                id bigserial PRIMARY KEY,
                match_id uuid NOT NULL,
                seq integer NOT NULL CHECK (seq >= 0),
                kind varchar(16) NOT NULL,
                seat smallint,
                payload jsonb NOT NULL,
                time timestamptz NOT NULL,
                prev_hash varchar(64) NOT NULL,
                hash varchar(64) NOT NULL UNIQUE,
                UNIQUE (match_id, seq))""")
        cursor.execute("TRUNCATE replays_match, replays_event, replays_snapshot, replays_validation, "
                       f"{FLOOR_TABLE} CASCADE")
        for table in (ES_APPLICATION_TABLE, ES_AGGREGATE_TABLE):
            cursor.execute(f"DROP TABLE IF EXISTS {table}")


# -- the appenders: each appends every event of ``matches`` (seq >= 1), one commit per event ------

def service_matches_create(matches: list[PreparedMatch]) -> list[tuple]:
    """Create the Match rows and their match_created events; returns (match, hash of seq 0)
    pairs. Untimed: every method is timed on the events after match_created."""
    from replays.services import match_create

    created = []
    for prepared in matches:
        payload = prepared.created["payload"]
        match = match_create(ruleset=payload["ruleset"], players=payload["players"],
                             options=payload["options"], seats=payload["seats"],
                             seed=fold_bench.match_seed(prepared.index))
        created.append((match, match.events.get(seq=0).hash))
    return created


def service_append(matches: list[PreparedMatch], stored: list[tuple], *, outer_atomic: bool) -> None:
    """event_append for every event, chained on the hash it returned; with ``outer_atomic`` each
    call sits in its own transaction.atomic() as in the match driver (bots.driver.match_drive)."""
    from django.db import transaction

    from replays.services import event_append

    for prepared, (match, prev_hash) in zip(matches, stored):
        for record in prepared.log[1:]:
            arguments = dict(match=match, expected_seq=record["seq"], prev_hash=prev_hash,
                             kind=record["kind"], seat=record["seat"], payload=record["payload"],
                             state=prepared.states[record["seq"]])
            if outer_atomic:
                with transaction.atomic():
                    prev_hash = event_append(**arguments)["hash"]
            else:
                prev_hash = event_append(**arguments)["hash"]


def floor_empty() -> None:
    """Empty the floor table (untimed)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(f"TRUNCATE {FLOOR_TABLE}")


FLOOR_INSERT = (f"INSERT INTO {FLOOR_TABLE} (match_id, seq, kind, seat, payload, time, prev_hash, "
                "hash) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)")


def floor_append(matches: list[PreparedMatch], round_: int, *, explicit_transaction: bool,
                 prepared_statement: bool = False) -> None:
    """Plain INSERTs of the same rows on Django's psycopg connection: autocommit (the INSERT is
    its own transaction) or an explicit BEGIN; INSERT; COMMIT; with ``prepared_statement`` on a
    server-binding cursor that prepares the INSERT once."""
    import psycopg
    from django.db import connection
    from psycopg.types.json import Jsonb

    connection.ensure_connection()
    raw = connection.connection
    assert raw.autocommit, "Django's connection is in autocommit mode outside atomic blocks"
    with (psycopg.Cursor(raw) if prepared_statement else raw.cursor()) as cursor:
        for prepared in matches:
            match_id = uuid.UUID(fold_bench.match_uuid(prepared.index, round_=round_))
            for record in prepared.log[1:]:
                row = (match_id, record["seq"], record["kind"], record["seat"],
                       Jsonb(record["payload"]), dt.datetime.now(dt.timezone.utc),
                       record["prev_hash"], record["hash"])
                if explicit_transaction:
                    with raw.transaction():
                        cursor.execute(FLOOR_INSERT, row)
                else:
                    cursor.execute(FLOOR_INSERT, row, prepare=prepared_statement or None)


def eventsourcing_recorder(url: str, *, application: bool):
    """An eventsourcing PostgreSQL recorder on the bench database, its table created."""
    from eventsourcing.postgres import (PostgresAggregateRecorder, PostgresApplicationRecorder,
                                        PostgresDatastore)

    parts = urlparse(url)
    datastore = PostgresDatastore(dbname=parts.path.lstrip("/"), host=parts.hostname,
                                  port=parts.port or 5432, user=parts.username or "postgres",
                                  password=parts.password or "", pool_size=1)
    if application:
        recorder = PostgresApplicationRecorder(datastore, events_table_name=ES_APPLICATION_TABLE)
    else:
        recorder = PostgresAggregateRecorder(datastore, events_table_name=ES_AGGREGATE_TABLE)
    recorder.create_table()
    return recorder


def eventsourcing_append(recorder, matches: list[PreparedMatch], round_: int) -> None:
    """insert_events([one StoredEvent]) per event: originator = the match, version = seq, state =
    the JSON of the rest of the record (serialised here, as the library's mapper would)."""
    from eventsourcing.persistence import StoredEvent

    for prepared in matches:
        match_id = uuid.UUID(fold_bench.match_uuid(prepared.index, round_=round_))
        for record in prepared.log[1:]:
            state = json.dumps({"kind": record["kind"], "seat": record["seat"],
                                "payload": record["payload"],
                                "time": dt.datetime.now(dt.timezone.utc).isoformat(),
                                "prev_hash": record["prev_hash"], "hash": record["hash"]},
                               separators=(",", ":")).encode()
            recorder.insert_events([StoredEvent(originator_id=match_id,
                                                originator_version=record["seq"],
                                                topic=f"arena:{record['kind']}", state=state)])


# -- the instrumented pass ------------------------------------------------------------------------

QUERY_STEPS = (
    ("INSERT INTO replays_event", "INSERT event with the head check (one statement)"),
    ("WITH appended AS (INSERT INTO replays_event", "INSERT event and its snapshot (every K-th event, "
                                                    "one statement)"),
    ('INSERT INTO "replays_snapshot"', "INSERT snapshot (every K-th event)"),
    ('UPDATE "replays_match"', "UPDATE match (its end)"),
)


@contextmanager
def timed_steps(totals: dict[str, float]):
    """Add the wall time of each of Django's queries (by QUERY_STEPS) and of each COMMIT to
    ``totals``. BEGIN has no query of its own: psycopg sends it before the transaction's first
    query, so it lands in that query's time."""
    from django.db import connection

    def wrapper(execute, sql, params, many, context):
        step = next((name for prefix, name in QUERY_STEPS if sql.startswith(prefix)), "other queries")
        start = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            totals[step] = totals.get(step, 0.0) + time.perf_counter() - start

    real_commit = connection._commit

    def commit():
        start = time.perf_counter()
        try:
            return real_commit()
        finally:
            totals["COMMIT"] = totals.get("COMMIT", 0.0) + time.perf_counter() - start

    connection._commit = commit
    try:
        with connection.execute_wrapper(wrapper):
            yield totals
    finally:
        del connection._commit


def seal_seconds(matches: list[PreparedMatch], repeats: int = 5) -> float:
    """The best time to seal (canonical JSON + sha256) every event once, as event_append does."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for prepared in matches:
            for r in prepared.log[1:]:
                seal(match=r["match"], seq=r["seq"], kind=r["kind"], seat=r["seat"],
                     payload=r["payload"], time="2026-01-01T00:00:00.000000+00:00",
                     prev_hash=r["prev_hash"])
        best = min(best, time.perf_counter() - start)
    return best


def encode_seconds(matches: list[PreparedMatch], every: int, repeats: int = 5) -> float:
    """The best time to encode the states that get a snapshot (turning the encoded state into
    JSON text happens in psycopg, inside the INSERT's time)."""
    from games.engine import registry

    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for prepared in matches:
            ruleset = registry.get(prepared.created["payload"]["ruleset"])
            for seq in range(every, len(prepared.states), every):
                if prepared.states[seq] is not None:
                    ruleset.encode(prepared.states[seq])
        best = min(best, time.perf_counter() - start)
    return best


def service_breakdown(matches: list[PreparedMatch], events: int) -> dict:
    """One instrumented service pass: seconds per event of each step of event_append."""
    from django.conf import settings

    stored = service_matches_create(matches)
    totals: dict[str, float] = {}
    with timed_steps(totals):
        start = time.perf_counter()
        service_append(matches, stored, outer_atomic=False)
        wall = time.perf_counter() - start
    steps = {name: seconds / events for name, seconds in totals.items()}
    steps["seal: canonical JSON + sha256 (timed apart)"] = seal_seconds(matches) / events
    steps["ruleset.encode of the snapshot states (timed apart)"] = (
        encode_seconds(matches, settings.REPLAY_SNAPSHOT_EVERY) / events)
    steps["the rest: Django ORM, atomic, Python (wall - the above)"] = (
        wall / events - sum(steps.values()))
    return {"wall_per_event": wall / events, "steps": steps}


# -- the benchmark --------------------------------------------------------------------------------

APPENDERS = (
    "floor: INSERT in autocommit",
    "floor: BEGIN; INSERT; COMMIT",
    "service: event_append",
    "service: event_append in a caller's atomic() (a savepoint)",
    "eventsourcing: application recorder",
    "eventsourcing: aggregate recorder",
    "floor: the same INSERT prepared, in autocommit",
)
SERVICE, FLOOR, PEER, FLOOR_PREPARED = APPENDERS[2], APPENDERS[0], APPENDERS[4], APPENDERS[6]

# (name, the session's synchronous_commit, what it shows)
MODES = (
    ("durable", "on", "as deployed: every COMMIT waits for the WAL flush to disk"),
    ("no-flush", "off", "session synchronous_commit=off: COMMIT does not wait for the disk, "
                        "so the figures show the software path (round trips, SQL, Python)"),
)


@dataclass
class Rounds:
    """Wall-clock seconds of each round of one appender over ``events`` events."""

    name: str
    events: int
    seconds: list[float]

    @property
    def rate(self) -> float:
        """Events per second in the best round."""
        return self.events / min(self.seconds)

    @property
    def median_rate(self) -> float:
        return self.events / statistics.median(self.seconds)


def play_logs(target_events: int, *, game: str, options: dict | None) -> list[list[dict]]:
    """Offline corpus matches, in order, until they hold ``target_events`` events after
    match_created."""
    logs, count = [], 0
    while count < target_events:
        logs.append(fold_bench.play_match(len(logs), game=game, options=options))
        count += len(logs[-1]) - 1
    return logs


def first_events(logs: list[list[dict]], events: int) -> list[list[dict]]:
    """The logs cut so that exactly ``events`` events follow the match_created records (the last
    match kept may stop part way, as a live match does)."""
    cut = []
    for log in logs:
        if events <= 0:
            break
        cut.append(log[:1 + events])
        events -= len(cut[-1]) - 1
    return cut


def session_synchronous_commit(value: str, recorders) -> None:
    """SET synchronous_commit on Django's connection (the service and the floor) and on each
    recorder's single pooled connection; only these sessions change, not the server."""
    from django.db import connection

    assert value in ("on", "off")
    with connection.cursor() as cursor:
        cursor.execute(f"SET synchronous_commit = {value}")
    for recorder in recorders:
        with recorder.datastore.get_connection() as conn:
            conn.execute(f"SET synchronous_commit = {value}")


def session_check(value: str, recorders) -> None:
    """Make sure every session still had ``value`` (a new pooled connection would not)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SHOW synchronous_commit")
        seen = [cursor.fetchone()[0]]
    for recorder in recorders:
        with recorder.datastore.get_connection() as conn:
            seen.append(conn.execute("SHOW synchronous_commit").fetchone()["synchronous_commit"])
    assert seen == [value] * len(seen), f"synchronous_commit changed during the run: {seen}"


def measure_rounds(matches: list[PreparedMatch], rounds: int, recorders: dict, ids: int) -> list[Rounds]:
    """Every appender ``rounds`` times over ``matches``, interleaved (the order reverses every
    other round); ``ids`` offsets the match ids so no round reuses another's."""
    events = sum(len(m.log) - 1 for m in matches)
    results = {name: Rounds(name, events, []) for name in APPENDERS}
    for round_ in range(rounds):
        for name in APPENDERS if round_ % 2 == 0 else APPENDERS[::-1]:
            fresh = ids + round_
            stored = service_matches_create(matches) if name.startswith("service") else None
            if name.startswith("floor"):
                floor_empty()  # the rows (and their unique hashes) repeat round after round
            start = time.perf_counter()
            if name == APPENDERS[0]:
                floor_append(matches, fresh, explicit_transaction=False)
            elif name == FLOOR_PREPARED:
                floor_append(matches, fresh, explicit_transaction=False, prepared_statement=True)
            elif name == APPENDERS[1]:
                floor_append(matches, fresh, explicit_transaction=True)
            elif name == APPENDERS[2]:
                service_append(matches, stored, outer_atomic=False)
            elif name == APPENDERS[3]:
                service_append(matches, stored, outer_atomic=True)
            else:
                eventsourcing_append(recorders[name], matches, fresh)
            results[name].seconds.append(time.perf_counter() - start)
    return list(results.values())


# One-round matches: a few thousand events then come from several matches of several seat
# counts, and include their ends (the match row's UPDATE, the validation queued).
OPTIONS = {"rounds": 1}


def run(*, durable_events: int = 800, no_flush_events: int = 2000, rounds: int = 7,
        game: str = fold_bench.GAME, options: dict | None = OPTIONS, url: str | None = None,
        breakdown: bool = True) -> dict:
    """Measure every appender on the same events, in both MODES; returns the figures."""
    url = url or os.environ.get("BENCH_DATABASE_URL") or DEFAULT_URL
    database_create(url)
    django_setup(url)
    database_reset()
    from django.conf import settings
    from django.db import connection

    from replays import tasks

    started = time.perf_counter()
    logs = play_logs(max(durable_events, no_flush_events), game=game, options=options)
    recorders = {PEER: eventsourcing_recorder(url, application=True),
                 APPENDERS[5]: eventsourcing_recorder(url, application=False)}
    modes, queued = [], []
    # The validation queued when a match ends goes to Celery in production; here it is counted.
    with mock.patch.object(tasks.validate_match, "delay", side_effect=queued.append):
        for number, ((mode, synchronous_commit, meaning), events) in enumerate(
                zip(MODES, (durable_events, no_flush_events))):
            matches = prepare(first_events(logs, events))
            session_synchronous_commit(synchronous_commit, recorders.values())
            results = measure_rounds(matches, rounds, recorders, ids=number * rounds)
            steps = service_breakdown(matches, events) if breakdown else None
            session_check(synchronous_commit, recorders.values())
            by_name = {r.name: r for r in results}
            service = by_name[SERVICE].rate
            modes.append({
                "mode": mode, "synchronous_commit": synchronous_commit, "meaning": meaning,
                "events": events, "matches": len(matches),
                "ended": sum(m.states[-1] is None for m in matches), "results": results,
                "service_over_floor": service / by_name[FLOOR].rate,
                "service_over_floor_explicit": service / by_name[APPENDERS[1]].rate,
                "service_over_floor_prepared": service / by_name[FLOOR_PREPARED].rate,
                "service_over_eventsourcing": service / by_name[PEER].rate,
                "service_over_eventsourcing_aggregate": service / by_name[APPENDERS[5]].rate,
                "breakdown": steps})
    with connection.cursor() as cursor:
        server = {}
        for name in ("server_version", "fsync", "wal_sync_method", "shared_buffers"):
            cursor.execute(f"SHOW {name}")
            server[name] = cursor.fetchone()[0]
        # reset_val: the server's (database's, role's) value, not this session's SET
        cursor.execute("SELECT reset_val FROM pg_settings WHERE name = 'synchronous_commit'")
        server["synchronous_commit"] = cursor.fetchone()[0]
    service_passes = 2 * rounds + (1 if breakdown else 0)
    assert len(queued) == service_passes * sum(mode["ended"] for mode in modes), \
        "every match the service played to the end queued its validation once"
    for recorder in recorders.values():
        recorder.datastore.close()
    return {"game": game, "options": options, "rounds": rounds,
            "snapshot_every": settings.REPLAY_SNAPSHOT_EVERY,
            "modes": modes, "server": server, "validations_queued": len(queued),
            "seconds": time.perf_counter() - started}


def report(figures: dict) -> list[str]:
    """The append benchmark as Markdown lines."""
    server = figures["server"]
    lines = [
        f"PostgreSQL {server['server_version']} on 127.0.0.1, server settings fsync={server['fsync']}, "
        f"synchronous_commit={server['synchronous_commit']}, wal_sync_method="
        f"{server['wal_sync_method']}, shared_buffers={server['shared_buffers']}. Events are "
        f"seq 1 onwards of offline `{figures['game']}` matches (options "
        f"`{json.dumps(figures['options'])}`, random bots, fixed seeds), the same for "
        f"every method; each is appended and committed on its own; {figures['rounds']} interleaved "
        f"rounds per method, the best round counts. The service snapshots every "
        f"{figures['snapshot_every']} events.",
    ]
    for mode in figures["modes"]:
        service = next(r for r in mode["results"] if r.name == SERVICE)
        lines += [
            "", f"### {mode['mode']}: {mode['meaning']}", "",
            f"{mode['events']:,} events from {mode['matches']} match(es), {mode['ended']} of them "
            f"played to the end.", "",
            "| method | events/s (best) | events/s (median) | ms/event (best) | service/it |",
            "| --- | ---: | ---: | ---: | ---: |",
        ]
        for rounds in mode["results"]:
            lines.append(f"| {rounds.name} | {rounds.rate:,.0f} | {rounds.median_rate:,.0f} | "
                         f"{1000 / rounds.rate:.3f} | {service.rate / rounds.rate:.2f} |")
        lines += [
            "",
            f"Ratios (throughput): service/floor **{mode['service_over_floor']:.2f}** (autocommit "
            f"INSERT), {mode['service_over_floor_prepared']:.2f} (the same INSERT prepared), "
            f"{mode['service_over_floor_explicit']:.2f} (BEGIN; INSERT; COMMIT); "
            f"service/eventsourcing **{mode['service_over_eventsourcing']:.2f}** (application "
            f"recorder), {mode['service_over_eventsourcing_aggregate']:.2f} (aggregate recorder).",
        ]
        if mode["breakdown"]:
            lines += breakdown_report(mode["breakdown"])
    return lines


def breakdown_report(breakdown: dict) -> list[str]:
    """The instrumented service pass as Markdown lines."""
    wall = breakdown["wall_per_event"]
    lines = ["", f"Where event_append's time goes (one instrumented pass over the same events: "
                 f"{wall * 1000:.3f} ms per event; queries timed as Django runs them, the pure "
                 f"Python steps timed apart on the same events):",
             "", "| step | µs/event | share |", "| --- | ---: | ---: |"]
    for name, seconds in sorted(breakdown["steps"].items(), key=lambda kv: -kv[1]):
        lines.append(f"| {name} | {seconds * 1e6:,.0f} | {seconds / wall:.0%} |")
    return lines
