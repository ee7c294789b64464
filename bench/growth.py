"""Growth: how the event store ages (issue 42, item 6).

In a PostgreSQL database of its own (BENCH_GROWTH_URL, default ``arena_growth_big``, created,
migrated and emptied; dropped at the end unless --keep), one run:

1. a pool of real matches, played by the engines' built-in bots and stored as the service stores
   them (bench/dataset.py: sealed, signed, snapshots, bulk-loaded with COPY): the *fresh* table;
2. measured on it: append latency (``replays.services.event_append`` per event, autocommit, as
   the match driver appends, with snapshots), and step-read latency (``replays.selectors
   .state_at`` of a random step of a pool match: the snapshot and event reads and the fold; and
   the event rows alone, ``match_records`` of the 50 events after a snapshot);
3. the table grown to ``target`` events by bulk-loading copies of the pool's logs under new match
   ids, spread over two years of match ages, each copy re-sealed from event 0 (its hash chain
   whole and its end signed again; the chance outcomes are the template's, derived under the
   template's id, so a copy's fold is right but its chance check is not), with their match rows
   and snapshots. The table's indexes and foreign key are dropped for the load and rebuilt after
   it, as a bulk load is done (the rebuild is timed);
4. ``VACUUM (ANALYZE)`` and ``ANALYZE`` of the grown table timed: how long the maintenance an
   append-only table needs takes at that size;
5. the same appends and reads measured again on the grown table: the ratio to the fresh table
   is the figure;
6. the pool's matches archived (``manage.py archive``'s service) and their step reads measured
   again, the first read of an archive in a process (checked) and the next ones;
7. the bytes one stored event costs: the event table's heap, TOAST and indexes per row, the
   snapshots per event, against the same logs exported as JSON Lines (``manage.py export``'s
   text) compressed per match with gzip and with xz (LZMA), as an archive would keep them.

Run with nice: ``nice -n 10 .venv/bin/python bench/growth.py [--quick] [--events N] [--keep]``;
the report on stderr, the figures as JSON on the last line of stdout.
"""
from __future__ import annotations

import datetime as dt
import gzip
import hashlib
import json
import lzma
import os
import random
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import dataset  # noqa: E402
from games.engine.log import END_KINDS, GENESIS, canonical_json, sealed  # noqa: E402

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/arena_growth_big"
POOL = {"full": {"trap-the-wizard": 8, "wizard-kings": 6, "imperial-twing": 12, "warlock": 16,
                 "sorcado": 16},
        "quick": {"trap-the-wizard": 1, "wizard-kings": 1, "imperial-twing": 1, "warlock": 2,
                  "sorcado": 2}}
TARGET = {"full": 20_000_000, "quick": 30_000}
SAMPLES = {"full": {"appends": 3000, "reads": 400}, "quick": {"appends": 100, "reads": 20}}
AGE_DAYS = 730  # the copies' matches start over two years before the pool's
EVENT_CONSTRAINTS = ("event_match_seq_unique", "event_hash_unique")


def _copy_text(value: str) -> str:
    """``value`` escaped for COPY's text format (JSON escapes tabs and newlines already)."""
    return value.replace("\\", "\\\\")


class Template:
    """One pool log, prepared for fast copies: per record its kind, seat, payload text and time,
    so a copy costs a time shift, one sha256 and one line of COPY text per event."""

    def __init__(self, records: list[dict], snapshots: list[tuple[int, str]], match_row: tuple):
        self.records = records
        self.payload_texts = [canonical_json(r["payload"]) for r in records]
        self.times = [dt.datetime.fromisoformat(r["time"]) for r in records]
        self.snapshots = [(seq, _copy_text(state)) for seq, state in snapshots]
        self.match_row = match_row

    def copy(self, match_id: str, shift: dt.timedelta, sign) -> tuple[list[str], str, str]:
        """COPY text lines of the events of a copy under ``match_id``, moved by ``shift``, its end
        signed again by ``sign``; and the copy's first and last times."""
        lines, prev = [], GENESIS
        last = len(self.records) - 1
        for index, record in enumerate(self.records):
            when = (self.times[index] + shift).isoformat(timespec="microseconds")
            payload = record["payload"]
            if index == last and record["kind"] in END_KINDS:
                unsigned = {k: v for k, v in payload.items() if k != "signature"}
                payload = {**unsigned, "signature": sign(
                    {"match": match_id, "seq": index, "kind": record["kind"], "seat": record["seat"],
                     "payload": unsigned, "time": when, "prev_hash": prev})}
            sealed_record, text = sealed(match=match_id, seq=index, kind=record["kind"],
                                         seat=record["seat"], payload=payload, time=when,
                                         prev_hash=prev) if index == last else (
                _seal_fast(match_id, index, record["kind"], record["seat"], self.payload_texts[index],
                           payload, when, prev), self.payload_texts[index])
            seat = "\\N" if record["seat"] is None else str(record["seat"])
            lines.append(f"{match_id}\t{index}\t{record['kind']}\t{seat}\t{_copy_text(text)}\t"
                         f"{when}\t{prev}\t{sealed_record['hash']}\n")
            prev = sealed_record["hash"]
        return (lines, (self.times[0] + shift).isoformat(timespec="microseconds"),
                (self.times[-1] + shift).isoformat(timespec="microseconds"))


def _seal_fast(match_id, seq, kind, seat, payload_text, payload, when, prev) -> dict:
    """games.engine.log's record hash with the payload's canonical text given (the template's:
    a copy's payload is the template's), so only the envelope is written per copy."""
    from games.engine.log import _record_json

    record = {"match": match_id, "seq": seq, "kind": kind, "seat": seat, "payload": payload,
              "time": when, "prev_hash": prev}
    record["hash"] = hashlib.sha256(_record_json(record, payload_text).encode()).hexdigest()
    return record


def _percentiles(values: list[float]) -> dict:
    ordered = sorted(values)
    return {"median_us": 1e6 * statistics.median(ordered),
            "p95_us": 1e6 * ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))],
            "count": len(ordered)}


def appends_measure(templates: list[Template], count: int, rng: random.Random) -> dict:
    """Latency of event_append, one event at a time in autocommit (the driver's way), on new
    matches replaying pool logs (so the states and snapshots are the real ones)."""
    from games.engine.log import Folder
    from replays.services import event_append, match_create

    latencies = []
    while len(latencies) < count:
        template = rng.choice(templates)
        payload = template.records[0]["payload"]
        match = match_create(ruleset=payload["ruleset"], players=payload["players"],
                             options=payload["options"], seats=payload["seats"],
                             seed=rng.randbytes(32))
        folder = Folder(template.records[0])
        prev = match.events.get(seq=0).hash
        for record in template.records[1:]:
            if record["kind"] in END_KINDS or len(latencies) >= count:
                break  # an end writes the match row too; the appends measured are the events
            folder.advance(record)
            started = time.perf_counter()
            prev = event_append(match=match, expected_seq=record["seq"], prev_hash=prev,
                                kind=record["kind"], seat=record["seat"], payload=record["payload"],
                                state=folder.state)["hash"]
            latencies.append(time.perf_counter() - started)
    return _percentiles(latencies)


def reads_measure(match_ids: list[tuple[str, int]], count: int, rng: random.Random) -> dict:
    """Latency of a step read's store part (state_at: snapshot, events, fold) and of the event
    rows alone (the 50 events after a snapshot), at random steps of the pool's matches."""
    from django.conf import settings

    from replays.models import Match
    from replays.selectors import match_records, state_at

    every = settings.REPLAY_SNAPSHOT_EVERY
    matches = {match_id: Match.objects.get(pk=match_id) for match_id, _ in match_ids}
    steps, rows = [], []
    for _ in range(count):
        match_id, events = rng.choice(match_ids)
        match = Match.objects.get(pk=match_id)  # a request reads its match row too
        n = rng.randrange(events)
        started = time.perf_counter()
        state_at(match=match, n=n)
        steps.append(time.perf_counter() - started)
        first = (n // every) * every
        started = time.perf_counter()
        match_records(match=matches[match_id], first=first, last=first + every - 1)
        rows.append(time.perf_counter() - started)
    return {"step": _percentiles(steps), "rows": _percentiles(rows)}


def archived_measure(match_ids: list[tuple[str, int]], count: int, rng: random.Random) -> dict:
    """Archive the pool's matches (replays/archives.py) and measure their step reads again: cold
    (the process reads and checks the archive: digest, chain, signature) and warm (kept)."""
    from replays import archives
    from replays.models import Match
    from replays.selectors import state_at

    started = time.perf_counter()
    stored = sum(len(archives.match_archive(match=Match.objects.get(pk=m)).data) for m, _ in match_ids)
    archiving = time.perf_counter() - started
    cold, warm = [], []
    for _ in range(count):
        match_id, events = rng.choice(match_ids)
        match = Match.objects.get(pk=match_id)
        n = rng.randrange(events)
        archives._archive_read.cache_clear()
        started = time.perf_counter()
        state_at(match=match, n=n)
        cold.append(time.perf_counter() - started)
        started = time.perf_counter()
        state_at(match=match, n=n)
        warm.append(time.perf_counter() - started)
    return {"cold": _percentiles(cold), "warm": _percentiles(warm), "archive_bytes": stored,
            "archive_seconds": archiving, "matches": len(match_ids)}


def table_bytes() -> dict:
    """The event and snapshot tables' sizes on disk and row counts."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("""SELECT pg_relation_size('replays_event'),
                                 pg_total_relation_size('replays_event') - pg_relation_size('replays_event')
                                   - pg_indexes_size('replays_event'),
                                 pg_indexes_size('replays_event'),
                                 pg_total_relation_size('replays_snapshot'),
                                 pg_total_relation_size('replays_match'),
                                 (SELECT count(*) FROM replays_event)""")
        heap, toast, indexes, snapshots, matches, rows = cursor.fetchone()
        cursor.execute("""SELECT indexrelid::regclass::text, pg_relation_size(indexrelid)
                          FROM pg_index WHERE indrelid = 'replays_event'::regclass""")
        per_index = dict(cursor.fetchall())
    return {"heap": heap, "toast": toast, "indexes": indexes, "per_index": per_index,
            "snapshots": snapshots, "matches": matches, "events": rows}


def compressed_bytes(templates: list[Template]) -> dict:
    """The pool's logs as exported JSON Lines, per match: raw, gzip -6 and xz -6 bytes."""
    raw = gz = xz = events = 0
    for template in templates:
        text = "".join(canonical_json(r) + "\n" for r in template.records).encode()
        raw += len(text)
        gz += len(gzip.compress(text, 6))
        xz += len(lzma.compress(text, preset=6))
        events += len(template.records)
    return {"events": events, "jsonl": raw, "gzip": gz, "xz": xz}


def constraints_drop(cursor) -> None:
    cursor.execute("ALTER TABLE replays_event DROP CONSTRAINT " + ", DROP CONSTRAINT ".join(EVENT_CONSTRAINTS))
    cursor.execute("""SELECT conname FROM pg_constraint WHERE conrelid = 'replays_event'::regclass
                      AND contype = 'f'""")
    foreign = [row[0] for row in cursor.fetchall()]
    for name in foreign:
        cursor.execute(f"ALTER TABLE replays_event DROP CONSTRAINT {name}")
    return foreign


def constraints_restore(cursor, foreign: list[str]) -> None:
    """The constraints as the migrations made them (same names), built once over the table."""
    cursor.execute("SET maintenance_work_mem = '512MB'")
    cursor.execute("ALTER TABLE replays_event ADD CONSTRAINT event_match_seq_unique UNIQUE (match_id, seq)")
    cursor.execute("ALTER TABLE replays_event ADD CONSTRAINT event_hash_unique UNIQUE (hash)")
    for name in foreign:
        cursor.execute(f"ALTER TABLE replays_event ADD CONSTRAINT {name} FOREIGN KEY (match_id) "
                       "REFERENCES replays_match (id) DEFERRABLE INITIALLY DEFERRED")


def grow(templates: list[Template], target: int, *, sign, rng: random.Random, log) -> dict:
    """Bulk-load copies of the templates until the event table holds ``target`` rows."""
    from django.db import connection

    with connection.cursor() as wrapper:
        cursor = wrapper.cursor
        cursor.execute("SELECT count(*) FROM replays_event")
        have = cursor.fetchone()[0]
        started = time.perf_counter()
        foreign = constraints_drop(cursor)
        copies = 0
        loaded = 0
        reported = 0
        while have + loaded < target:
            batch_matches, batch_snapshots = [], []
            with cursor.copy("COPY replays_event (match_id, seq, kind, seat, payload, time, prev_hash, "
                             "hash) FROM STDIN") as copy:
                for _ in range(200):
                    template = rng.choice(templates)
                    match_id = str(uuid.UUID(int=rng.getrandbits(128), version=4))
                    shift = -dt.timedelta(seconds=rng.randrange(AGE_DAYS * 86400))
                    lines, first, last = template.copy(match_id, shift, sign)
                    copy.write("".join(lines))
                    row = list(template.match_row)
                    row[0], row[16], row[17] = match_id, first, last
                    batch_matches.append(row)
                    batch_snapshots.extend((match_id, seq, state) for seq, state in template.snapshots)
                    loaded += len(lines)
                    copies += 1
                    if have + loaded >= target:
                        break
            dataset.copy_rows(cursor, "replays_match", dataset.MATCH_COLUMNS, batch_matches)
            with cursor.copy("COPY replays_snapshot (match_id, seq, state) FROM STDIN") as copy:
                copy.write("".join(f"{m}\t{seq}\t{state}\n" for m, seq, state in batch_snapshots))
            if loaded - reported >= 1_000_000:
                reported = loaded
                log(f"growth: {have + loaded:,} events ({time.perf_counter() - started:.0f} s)")
        loading = time.perf_counter() - started
        started = time.perf_counter()
        constraints_restore(cursor, foreign)
        rebuilding = time.perf_counter() - started
    return {"copies": copies, "events_loaded": loaded, "load_seconds": loading,
            "index_rebuild_seconds": rebuilding}


def maintenance_time() -> dict:
    """VACUUM (ANALYZE) and ANALYZE of the event table, timed (autocommit)."""
    from django.db import connection

    out = {}
    with connection.cursor() as cursor:
        for name, statement in (("vacuum_analyze", "VACUUM (ANALYZE) replays_event"),
                                ("analyze", "ANALYZE replays_event"),
                                ("vacuum_again", "VACUUM replays_event")):
            started = time.perf_counter()
            cursor.execute(statement)
            out[name] = time.perf_counter() - started
    return out


def database_drop(url: str) -> None:
    import psycopg
    from urllib.parse import urlparse

    from django.db import connections

    connections.close_all()
    parts = urlparse(url)
    with psycopg.connect(host=parts.hostname, port=parts.port or 5432, user=parts.username or "postgres",
                         dbname="postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{parts.path.lstrip("/")}"')


def run(*, quick: bool = False, events: int | None = None, keep: bool = False,
        url: str | None = None) -> dict:
    from bench.append import database_create, database_reset, django_setup

    def log(text):
        print(text, file=sys.stderr, flush=True)

    size = "quick" if quick else "full"
    url = url or os.environ.get("BENCH_GROWTH_URL") or DEFAULT_URL
    target = events or TARGET[size]
    database_create(url)
    django_setup(url)
    database_reset()
    from django.conf import settings
    from django.db import connection

    from replays.signing import signing_key_current
    from cryptography.hazmat.primitives import serialization

    from games.engine import signature
    from unittest import mock

    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE replays_match, auth_user, bots_bot, bots_botversion CASCADE")
    key, private_key = signing_key_current()
    pem = private_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                    serialization.NoEncryption())
    versions = dataset.bots_create(per_game=8, owners=4, games=POOL[size])
    jobs = dataset.jobs_plan(versions, POOL[size], every=settings.REPLAY_SNAPSHOT_EVERY, seed=11)
    log(f"growth: playing the pool ({len(jobs)} matches) ...")
    played = list(dataset.play_all(jobs, pem, key.key_id))
    with connection.cursor() as wrapper:
        dataset.matches_store(played, cursor=wrapper.cursor)
        wrapper.execute("VACUUM ANALYZE")
    templates = [Template(p["records"], p["snapshots"], dataset.match_row(p)) for p in played]
    pool_ids = [(p["match"], len(p["records"])) for p in played]
    sign = lambda record: signature.sign(record, private_key=private_key, key=key.key_id)  # noqa: E731
    samples = SAMPLES[size]
    figures = {"machine_load": os.getloadavg()[0], "target": target, "pool_matches": len(played),
               "pool_events": sum(n for _, n in pool_ids)}
    # validation is queued on a match's end; nothing here ends a match, and nothing runs it
    with mock.patch("replays.tasks.validate_match.delay"):
        log("growth: measuring the fresh table ...")
        figures["fresh"] = {"appends": appends_measure(templates, samples["appends"], random.Random(1)),
                            **reads_measure(pool_ids, samples["reads"], random.Random(2)),
                            "bytes": table_bytes(), "load": os.getloadavg()[0]}
        log(f"growth: growing the table to {target:,} events ...")
        figures["grow"] = grow(templates, target, sign=sign, rng=random.Random(3), log=log)
        log("growth: VACUUM (ANALYZE) ...")
        figures["maintenance"] = maintenance_time()
        log("growth: measuring the grown table ...")
        figures["grown"] = {"appends": appends_measure(templates, samples["appends"], random.Random(1)),
                            **reads_measure(pool_ids, samples["reads"], random.Random(2)),
                            "bytes": table_bytes(), "load": os.getloadavg()[0]}
        log("growth: archiving the pool and reading it back ...")
        figures["archived"] = archived_measure(pool_ids, samples["reads"], random.Random(2))
    figures["compressed"] = compressed_bytes(templates)
    figures["machine_load_end"] = os.getloadavg()[0]
    figures["quick"] = quick
    if not keep:
        database_drop(url)
    return figures


def report(figures: dict) -> list[str]:
    fresh, grown = figures["fresh"], figures["grown"]
    size = grown["bytes"]
    events = size["events"]
    per_event = {"heap": size["heap"] / events, "toast": size["toast"] / events,
                 "indexes": size["indexes"] / events, "snapshots": size["snapshots"] / events}
    stored = per_event["heap"] + per_event["toast"] + per_event["indexes"]
    packed = figures["compressed"]
    jsonl, gz, xz = (packed[k] / packed["events"] for k in ("jsonl", "gzip", "xz"))
    lines = [f"A pool of {figures['pool_matches']} real matches ({figures['pool_events']:,} events, "
             f"all five games) is the fresh table; the table is then grown to {events:,} events by "
             f"bulk-loading {figures['grow']['copies']:,} re-sealed copies of them (COPY, psycopg 3). "
             f"Load average {figures['machine_load']:.1f} at the start, {fresh['load']:.1f} and "
             f"{grown['load']:.1f} while measuring the fresh and the grown table.", "",
             "| measure | fresh table | grown table | grown / fresh |", "| --- | ---: | ---: | ---: |"]
    for title, path in (("append (event_append, autocommit), median µs", ("appends", "median_us")),
                        ("append, p95 µs", ("appends", "p95_us")),
                        ("step read (state_at), median µs", ("step", "median_us")),
                        ("step read, p95 µs", ("step", "p95_us")),
                        ("the 50 event rows after a snapshot, median µs", ("rows", "median_us")),
                        ("the 50 event rows, p95 µs", ("rows", "p95_us"))):
        a, b = fresh[path[0]][path[1]], grown[path[0]][path[1]]
        lines.append(f"| {title} | {a:,.0f} | {b:,.0f} | {b / a:.2f}x |")
    lines.append(f"| events in the table | {fresh['bytes']['events']:,} | {events:,} | |")
    maintenance = figures["maintenance"]
    lines += ["", f"Bulk load: {figures['grow']['events_loaded']:,} events in "
                  f"{figures['grow']['load_seconds']:.0f} s "
                  f"({figures['grow']['events_loaded'] / figures['grow']['load_seconds']:,.0f} events/s), "
                  f"the two unique indexes and the foreign key rebuilt in "
                  f"{figures['grow']['index_rebuild_seconds']:.0f} s. Maintenance of the grown table: "
                  f"VACUUM (ANALYZE) {maintenance['vacuum_analyze']:.0f} s, ANALYZE alone "
                  f"{maintenance['analyze']:.1f} s, a second VACUUM (nothing to do) "
                  f"{maintenance['vacuum_again']:.1f} s.", "",
              "| bytes per stored event | bytes |", "| --- | ---: |",
              f"| event table: heap | {per_event['heap']:.0f} |",
              f"| event table: TOAST | {per_event['toast']:.0f} |",
              f"| event table: indexes ({', '.join(f'{k} {v / events:.0f}' for k, v in size['per_index'].items())}) "
              f"| {per_event['indexes']:.0f} |",
              f"| **event table in all** | **{stored:.0f}** |",
              f"| snapshots (one per {50} events), per event | {per_event['snapshots']:.0f} |",
              f"| exported JSON Lines | {jsonl:.0f} |",
              f"| JSON Lines, gzip -6 per match | {gz:.0f} ({stored / gz:.0f}x smaller than the table) |",
              f"| JSON Lines, xz -6 per match | {xz:.0f} ({stored / xz:.0f}x smaller) |",
              "", f"At that rate {events:,} events take {(size['heap'] + size['toast'] + size['indexes']) / 2**30:.1f} "
                  f"GiB in the event table (plus {size['snapshots'] / 2**30:.1f} GiB of snapshots); "
                  f"archived as gzip'd JSON Lines they would take {gz * events / 2**30:.2f} GiB."]
    archived = figures.get("archived")
    if archived:
        lines += ["", f"Archived (replays/archives.py): the {archived['matches']} pool matches archived in "
                      f"{archived['archive_seconds']:.1f} s (each validated in full, written, read back), "
                      f"{archived['archive_bytes'] / figures['pool_events']:.0f} bytes per event; a step read of "
                      f"an archived match, median {archived['cold']['median_us'] / 1000:.1f} ms the first time a "
                      f"process reads its archive (digest, chain and signature checked), "
                      f"{archived['warm']['median_us'] / 1000:.1f} ms after, against "
                      f"{grown['step']['median_us'] / 1000:.1f} ms from the event table."]
    if figures["quick"]:
        lines.append("(--quick: a small table, to check that it runs.)")
    return lines


if __name__ == "__main__":
    arguments = sys.argv[1:]
    count = int(arguments[arguments.index("--events") + 1]) if "--events" in arguments else None
    result = run(quick="--quick" in arguments, events=count, keep="--keep" in arguments)
    print("\n".join(report(result)), file=sys.stderr)
    print(json.dumps(result))
