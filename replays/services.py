"""Writes to the event store. ``event_append`` is the only code that inserts events.

Every append names the seq it expects; two writers with the same expectation can never fork a
log: the loser gets AppendConflict and writes nothing.
"""
from __future__ import annotations

import datetime as dt
import functools
import uuid
import weakref

import psycopg
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DataError, IntegrityError, connections, transaction
from django.db.backends.utils import CursorWrapper
from psycopg.types.json import Jsonb
from django.utils import timezone

from games.engine import chance, registry, signature
from games.engine.log import (END_KINDS, GENESIS, Folder, LogError, Report, created_payload,
                              read_jsonl, record_hash, sealed, validate)

from .archives import ArchiveRefused
from .generations import generation_bump, tournament_scope
from .models import Event, Match, Snapshot, Validation
from .selectors import match_head, match_record_stream, match_records
from .signing import end_payload_signed, signing_keys_public


_MATCH_ID = Match._meta.pk
_PAYLOAD, _TIME = Event._meta.get_field("payload"), Event._meta.get_field("time")


class AppendConflict(Exception):
    """Another writer appended first (or the caller's head is stale): nothing was written."""


class ImportRefused(Exception):
    """An imported replay failed validation; ``report`` says the first bad seq and why."""

    def __init__(self, reason: str, report: dict | None = None):
        super().__init__(reason)
        self.reason = reason
        self.report = report


def _iso(moment: dt.datetime) -> str:
    if moment.tzinfo is not dt.timezone.utc:  # timezone.now() is in UTC already
        moment = moment.astimezone(dt.timezone.utc)
    return moment.isoformat(timespec="microseconds")


def event_append(*, match: Match, expected_seq: int, prev_hash: str, kind: str,
                 seat: int | None = None, payload: dict, state=None,
                 after_time: str | None = None) -> dict:
    """Append one event at ``expected_seq`` chained to ``prev_hash``. Writes a snapshot when
    ``state`` (the state after this event) is given and seq is a multiple of
    REPLAY_SNAPSHOT_EVERY. Signs match_ended/match_aborted with the service's current key
    (replays/signing.py), ends the match row and queues its validation when the transaction
    commits. Raises AppendConflict if the head is not at expected_seq - 1 with hash prev_hash,
    or is an end event; then nothing is written.

    An ordinary event outside a transaction is one statement in autocommit: one round trip,
    committed on its own; on PostgreSQL an event with its snapshot too (the snapshot's INSERT
    reads the event's from a WITH clause, so both rows or neither). An end writes more than
    one row and queues work on commit, so it runs in a transaction, as a snapshot does on
    other databases; inside the caller's transaction the append is a savepoint of it.

    ``after_time`` is the previous event's time: times never go backwards in a log (the
    validator refuses it), so an append on a machine whose clock is behind the previous
    writer's (a match resumed by another worker) takes that time instead of its own."""
    now = timezone.now()
    if after_time is not None:
        now = max(now, dt.datetime.fromisoformat(after_time))
    closes = kind in END_KINDS
    if closes:  # signed here, where the end's time is known: the signature covers it
        payload = end_payload_signed(match=str(match.id), seq=expected_seq, kind=kind, seat=seat,
                                     payload=payload, time=_iso(now), prev_hash=prev_hash)
    record, payload_text = sealed(match=str(match.id), seq=expected_seq, kind=kind, seat=seat,
                                  payload=payload, time=_iso(now), prev_hash=prev_hash)
    snapshot = (state is not None and not closes
                and expected_seq % settings.REPLAY_SNAPSHOT_EVERY == 0)
    # the snapshot's state, encoded before anything is written (an encoding that fails writes nothing)
    encoded = registry.get(match.ruleset, match.ruleset_version).encode(state) if snapshot else None
    db = connections[DEFAULT_DB_ALIAS]  # once: each attribute of the `connection` proxy is a lookup
    try:
        if not (closes or db.in_atomic_block or (snapshot and db.vendor != "postgresql")):
            _event_insert(db, match=match, seq=expected_seq, kind=kind, seat=seat, payload=payload,
                          when=now, prev_hash=prev_hash, hash_=record["hash"], snapshot=encoded,
                          payload_text=payload_text)
            return record
        with transaction.atomic():  # a savepoint inside the caller's transaction: a lost race
            # rolls back to it, and the caller's transaction stays usable
            _event_insert(db, match=match, seq=expected_seq, kind=kind, seat=seat, payload=payload,
                          when=now, prev_hash=prev_hash, hash_=record["hash"], payload_text=payload_text)
            if snapshot:
                Snapshot.objects.create(match=match, seq=expected_seq, state=encoded)
            if closes:
                _match_close(match=match, kind=kind, payload=payload, when=now)
    except IntegrityError as exc:  # (match, seq) taken: another writer won the race
        raise AppendConflict(f"match {match.id}: seq {expected_seq} was taken by another writer") from exc
    return record


# The head check and the insert are one statement: the row is inserted only if event seq-1 of the
# match has the expected hash and is not an end event; a stale head inserts no row. Two writers
# that both saw the head race for (match, seq), and the unique constraint is the last word against
# the fork: the loser's INSERT fails (IntegrityError). It is SQL on the connection's cursor, not
# the ORM, because the ORM cannot say INSERT ... SELECT ... WHERE, and its create() costs about
# half a millisecond of Python per event (BENCHMARKS.md).
_INSERT = ("INSERT INTO replays_event (match_id, seq, kind, seat, payload, time, prev_hash, hash) "
           "SELECT {values} WHERE {condition}")
_HEAD_IS = ("EXISTS (SELECT 1 FROM replays_event WHERE match_id = {match} AND seq = %s "
            "AND hash = %s AND kind NOT IN ({ends}))")
# SELECT's literals have no type of their own on PostgreSQL: cast each to its column's type.
_CASTS = {"postgresql": ("::uuid", "::integer", "::varchar", "::smallint", "::jsonb",
                         "::timestamptz", "::varchar", "::varchar")}


# On PostgreSQL an event and its snapshot are one statement too: the event's INSERT in a WITH
# clause, the snapshot's reading the row it returns, so the snapshot is written exactly when the
# event is (a stale head writes neither) and the statement commits both or neither. Before, a
# snapshot took a transaction of four round trips and the ORM's create(): about a millisecond,
# 20 µs on every event at one snapshot in 50 (BENCHMARKS.md).
_WITH_SNAPSHOT = ("WITH appended AS ({insert} RETURNING match_id, seq) "
                  "INSERT INTO replays_snapshot (match_id, seq, state) "
                  "SELECT match_id, seq, %s::jsonb FROM appended")


@functools.cache
def _insert_sql(vendor: str, first: bool, snapshot: bool = False) -> str:
    """The one-statement append for a database vendor (``first``: seq 0, nothing to chain to;
    ``snapshot``: with the snapshot's row, PostgreSQL only)."""
    casts = _CASTS.get(vendor, ("",) * 8)
    values = ", ".join(f"%s{cast}" for cast in casts)
    ends = ", ".join(f"'{kind}'" for kind in sorted(END_KINDS))
    condition = "1 = 1" if first else _HEAD_IS.format(match=f"%s{casts[0]}", ends=ends)
    insert = _INSERT.format(values=values, condition=condition)
    return _WITH_SNAPSHOT.format(insert=insert) if snapshot else insert


def _event_insert(db, *, match: Match, seq: int, kind: str, seat: int | None, payload: dict,
                  when: dt.datetime, prev_hash: str, hash_: str, snapshot=None,
                  payload_text: str | None = None) -> None:
    """Insert the event row if the head is what the caller expects: AppendConflict if it is
    not, IntegrityError if another writer took (match, seq) meanwhile. ``snapshot``: the
    encoded state after the event, written with it in the same statement (PostgreSQL).
    ``payload_text``: the payload's canonical JSON (written for its hash), which PostgreSQL
    reads as the jsonb it stands for: the payload is not encoded a second time. Only ASCII
    text is sent so: json's escapes of anything else (a lone surrogate) keep failing as
    PostgreSQL refuses them (DataError), never as text the driver cannot encode."""
    if db.vendor == "postgresql":  # the values psycopg adapts as Django would, without its layers
        document = payload_text if payload_text is not None and payload_text.isascii() else Jsonb(payload)
        match_id, values = match.pk, (document, when)
    else:
        match_id = _MATCH_ID.get_db_prep_value(match.pk, db)
        values = (_PAYLOAD.get_db_prep_save(payload, db), _TIME.get_db_prep_save(when, db))
    params = [match_id, seq, kind, seat, *values, prev_hash, hash_]
    if seq > 0:
        params += [match_id, seq - 1, prev_hash]
    if snapshot is not None:
        if db.vendor != "postgresql":
            raise ValueError("a snapshot in the event's statement needs PostgreSQL")
        params.append(Jsonb(snapshot))
    with _append_cursor(db) as cursor:
        cursor.execute(_insert_sql(db.vendor, seq == 0, snapshot is not None), params)
        inserted = cursor.rowcount
    if inserted != 1:
        raise AppendConflict(_conflict_reason(match=match, seq=seq, prev_hash=prev_hash))


_SERVER_CURSORS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _append_cursor(db):
    """A cursor for the append. On PostgreSQL a server-binding psycopg cursor, so the statement
    is prepared once per connection (settings: prepare_threshold) instead of parsed and planned
    on every event; one per connection, kept, and wrapped by Django like its own cursors (errors,
    execute wrappers). While queries are logged (DEBUG), Django's own cursor: its log can print
    only client-bound SQL."""
    if db.vendor != "postgresql" or db.queries_logged:
        return db.cursor()
    db.ensure_connection()
    db.validate_thread_sharing()
    raw = _SERVER_CURSORS.get(db.connection)
    if raw is None or raw.closed:
        raw = _SERVER_CURSORS[db.connection] = psycopg.Cursor(db.connection)
    return _KeptCursor(raw, db)


class _KeptCursor(CursorWrapper):
    """Django's cursor wrapper around a kept cursor: leaving ``with`` does not close it."""

    def __exit__(self, *exc_info):
        return None


def _conflict_reason(*, match: Match, seq: int, prev_hash: str) -> str:
    """Why an append wrote nothing (read after the fact: the refusal itself was atomic)."""
    head = Event.objects.filter(match=match, seq=seq - 1).order_by().values_list("hash", "kind").first()
    if head is not None and head[0] == prev_hash and head[1] in END_KINDS:
        return f"match {match.id} has ended: nothing follows {head[1]}"
    if seq > 0 and (head is None or head[0] != prev_hash):
        return f"match {match.id}: event {seq - 1} is not the head with hash {prev_hash[:12]}..."
    return f"match {match.id}: seq {seq} was taken by another writer"


def _match_close(*, match: Match, kind: str, payload: dict, when: dt.datetime) -> None:
    """Record the end on the match row and validate the log once the end is committed."""
    from .tasks import validate_match

    match.status = Match.Status.ENDED if kind == "match_ended" else Match.Status.ABORTED
    match.result = payload.get("result")
    match.ended_at = when
    match.save(update_fields=["status", "result", "ended_at"])
    match_id = str(match.id)
    transaction.on_commit(lambda: validate_match.delay(match_id))
    # A tournament's standings and bracket show its matches' results (replays/generations.py).
    tournament = Match.objects.filter(pk=match.pk).values_list("pairing_game__pairing__tournament", flat=True).first()
    if tournament is not None:
        generation_bump(tournament_scope(tournament))


def match_create(*, ruleset: str, players: int, options: dict | None = None,
                 seats: list[dict] | None = None, seed: bytes | None = None,
                 time_control: dict | None = None, fault_policy: dict | None = None,
                 queued_at: dt.datetime | None = None, rated: bool = True) -> Match:
    """A new match with its match_created event. Raises UnknownRuleset or InvalidOptions.
    ``time_control`` and ``fault_policy`` are recorded in the log for the audit; ``queued_at``:
    when its driver is queued (Match.queued_at), None where none is; ``rated=False`` (a check
    match) keeps it out of the ratings, and the log says so (``"rated": false``)."""
    engine = registry.get(ruleset)
    engine.check_players(players)
    opts = engine.options(options)
    seats = seats or [{} for _ in range(players)]
    if len(seats) != players:
        raise ValueError(f"{players} players but {len(seats)} seats")
    seed = seed or chance.new_seed()
    with transaction.atomic():
        match = Match.objects.create(
            ruleset=engine.spec.name, ruleset_version=engine.spec.version,
            options=engine.options_json(opts), players=players, seats=seats, seed=seed,
            seed_commitment=chance.commitment(seed), time_control=time_control or {},
            fault_policy=fault_policy or {}, queued_at=queued_at, rated=rated)
        payload = created_payload(ruleset=engine, options=opts, players=players, seats=seats,
                                  seed_commitment=match.seed_commitment)
        payload.update({"time_control": match.time_control, "fault_policy": match.fault_policy})
        if not rated:
            payload["rated"] = False
        event_append(match=match, expected_seq=0, prev_hash=GENESIS, kind="match_created",
                     payload=payload)
    return match


def match_abort(*, match: Match, reason: str) -> dict:
    """End a running match without a result (the seed is revealed so the log stays auditable)."""
    head = Event.objects.filter(match=match).order_by("-seq").first()
    if head.kind in END_KINDS:
        raise AppendConflict(f"match {match.id} has already ended")
    return event_append(match=match, expected_seq=head.seq + 1, prev_hash=head.hash,
                        kind="match_aborted", payload={"reason": reason, "seed": bytes(match.seed).hex()},
                        after_time=_iso(head.time))


def match_validate(*, match: Match) -> Validation:
    """Re-fold the whole log against the rules and the snapshots, and check the end's signature
    against the service's keys (unless the match is marked unsigned); store and return the
    verdict."""
    snapshots = dict(Snapshot.objects.filter(match=match).values_list("seq", "state"))
    # The head first (the seed its end reveals checks each chance outcome on the way), then the
    # log up to it a chunk at a time: a long log is never held whole (validate's ``last``).
    head = match_head(match=match)  # the table's head, or an archived match's
    try:
        last = None if head is None else match_records(match=match, first=head["seq"], last=head["seq"])[0]
        records = [] if head is None else match_record_stream(match=match, last=head["seq"])
        report = validate(records, last=last, snapshots=snapshots,
                          keys=None if match.unsigned else signing_keys_public())
    except ArchiveRefused as exc:  # an archive that no longer reads back as the log it was
        report = Report(ok=False, events=head["seq"] + 1, reason=f"archive: {exc.reason}")
    return Validation.objects.create(match=match, ok=report.ok, events=report.events,
                                     first_bad_seq=report.first_bad_seq, reason=report.reason,
                                     report=report.to_json())


def match_import(*, lines, allow_unsigned: bool = False) -> Match:
    """Store an exported replay (JSON Lines) after validating it in full, its end's signature
    included (one of this service's keys, retired ones too). A bad replay is refused with the
    validator's report and nothing is written.

    ``allow_unsigned`` also takes a replay whose end carries no signature, or one of a key this
    service does not know (another service's, or a forger's), and marks the match unsigned: an
    operator's explicit choice for a log nothing vouches for. A signature of a key of ours that
    does not hold is refused all the same: the log was changed after we signed it."""
    try:
        records = read_jsonl(lines)
    except Exception as exc:  # LogError: a line that is not a JSON object
        raise ImportRefused(str(exc)) from None
    keys = signing_keys_public()
    unsigned = allow_unsigned and _signature_unverifiable(records, keys)
    report = validate(records, keys=None if unsigned else keys)
    if not report.ok:
        hint = (" (manage.py import --allow-unsigned stores it marked unsigned)"
                if report.signature in (signature.UNSIGNED, signature.UNKNOWN_KEY) else "")
        raise ImportRefused(f"seq {report.first_bad_seq}: {report.reason}{hint}", report.to_json())
    if not report.ended:
        raise ImportRefused("only finished (ended or aborted) matches can be imported: the seed "
                            "of a live match is secret, so its chance outcomes cannot be verified",
                            report.to_json())
    times = []
    for record in records:
        try:
            moment = dt.datetime.fromisoformat(record["time"])
        except (TypeError, ValueError):
            moment = None
        if moment is None or moment.tzinfo is None or _iso(moment) != record["time"]:
            raise ImportRefused(f"seq {record['seq']}: time {record['time']!r} is not ISO 8601 UTC "
                                f"with microseconds as exported")
        times.append(moment)
    _check_importable(records[0])
    try:
        with transaction.atomic():
            match = _match_store_imported(records, times, report, unsigned=unsigned)
    except (IntegrityError, DataError, OverflowError) as exc:
        raise ImportRefused(f"the database refused the replay: {exc}") from None
    return match


def _signature_unverifiable(records: list[dict], keys: dict[str, bytes]) -> bool:
    """Whether the last record is an end that is unsigned or signed by a key not in ``keys``:
    the only signature faults ``allow_unsigned`` forgives (anything malformed is left to the
    validator, which refuses it)."""
    last = records[-1] if records else None
    if not (isinstance(last, dict) and last.get("kind") in END_KINDS
            and isinstance(last.get("payload"), dict)):
        return False
    try:
        status, _ = signature.end_status(last, keys)
    except LogError:
        return False
    return status in (signature.UNSIGNED, signature.UNKNOWN_KEY)


def _check_importable(created: dict) -> None:
    """What the validator leaves to the store: a match id in the spelling the database gives
    back (or its stored copy would no longer hash the same), seats as the service writes them,
    and a match not stored yet."""
    match_id, payload = created["match"], created["payload"]
    try:
        canonical = str(uuid.UUID(match_id))
    except (ValueError, TypeError, AttributeError):
        canonical = None
    if canonical != match_id:
        raise ImportRefused(f"match id {match_id!r} is not a UUID in canonical form "
                            f"(lower case, with dashes), as this service exports it")
    seats = payload["seats"]
    if not isinstance(seats, list) or len(seats) != payload["players"]:
        raise ImportRefused("match_created: seats must be a list of one object per player")
    for seat in seats:
        problem = _seat_refusal(seat) if isinstance(seat, dict) else "a seat is not an object"
        if problem:
            raise ImportRefused(f"match_created: seats must be a list of one object per player ({problem})")
    if Match.objects.filter(pk=match_id).exists():
        raise ImportRefused(f"match {match_id} is already stored")


SEAT_FIELDS = {"bot_version": int, "bot": str, "version": int, "kind": str}  # as match_start writes


def _seat_refusal(seat: dict) -> str | None:
    """Why a seat object is not one this service writes (keys of SEAT_FIELDS, typed), or None."""
    for key, value in seat.items():
        kind = SEAT_FIELDS.get(key)
        if kind is None:
            return f"unknown seat field {key!r}"
        if value is not None and (type(value) is not kind):
            return f"seat field {key!r} must be {kind.__name__} or null"
    return None


def _match_store_imported(records: list[dict], times: list[dt.datetime], report, *,
                          unsigned: bool) -> Match:
    """Write a validated replay (call inside a transaction): the match, marked imported so its
    seats, which name bots of another service, never feed ratings (and ``unsigned`` if no
    signature of ours vouches for it); its events, snapshots and verdict. Reads the events back
    and refuses the replay if any no longer hashes the same."""
    created, end = records[0], records[-1]
    payload = created["payload"]
    engine = registry.get(payload["ruleset"], payload["version"])
    match = Match.objects.create(
        id=created["match"], ruleset=payload["ruleset"], ruleset_version=payload["version"],
        options=payload["options"], players=payload["players"], seats=payload["seats"],
        seed=bytes.fromhex(end["payload"]["seed"]), seed_commitment=payload["seed_commitment"],
        status=Match.Status.ENDED if end["kind"] == "match_ended" else Match.Status.ABORTED,
        result=end["payload"]["result"] if end["kind"] == "match_ended" else None,
        ended_at=times[-1], imported=True, unsigned=unsigned)
    Event.objects.bulk_create([
        Event(match=match, seq=r["seq"], kind=r["kind"], seat=r["seat"], payload=r["payload"],
              time=t, prev_hash=r["prev_hash"], hash=r["hash"]) for r, t in zip(records, times)])
    for stored in match_records(match=match):
        if record_hash(stored) != stored["hash"]:
            raise ImportRefused(f"seq {stored['seq']}: the database does not give this event back "
                                f"as written (a number or text it rewrites), so its hash would break")
    every = settings.REPLAY_SNAPSHOT_EVERY
    folder, snapshots = Folder(created), []
    for record in records[1:]:
        folder.advance(record)
        if record["seq"] % every == 0 and record["kind"] not in END_KINDS:
            snapshots.append(Snapshot(match=match, seq=record["seq"], state=engine.encode(folder.state)))
    Snapshot.objects.bulk_create(snapshots)
    Validation.objects.create(match=match, ok=True, events=report.events, report=report.to_json())
    return match
