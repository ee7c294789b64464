"""Writes to the event store. ``event_append`` is the only code that inserts events.

Every append names the seq it expects; two writers with the same expectation can never fork a
log: the loser gets AppendConflict and writes nothing.
"""
from __future__ import annotations

import datetime as dt
import uuid

from django.conf import settings
from django.db import DataError, IntegrityError, transaction
from django.utils import timezone

from games.engine import chance, registry
from games.engine.log import (END_KINDS, GENESIS, Folder, created_payload, read_jsonl, record_hash,
                              seal, validate)

from .models import Event, Match, Snapshot, Validation
from .selectors import match_records


class AppendConflict(Exception):
    """Another writer appended first (or the caller's head is stale): nothing was written."""


class ImportRefused(Exception):
    """An imported replay failed validation; ``report`` says the first bad seq and why."""

    def __init__(self, reason: str, report: dict | None = None):
        super().__init__(reason)
        self.reason = reason
        self.report = report


def _iso(moment: dt.datetime) -> str:
    return moment.astimezone(dt.timezone.utc).isoformat(timespec="microseconds")


def event_append(*, match: Match, expected_seq: int, prev_hash: str, kind: str,
                 seat: int | None = None, payload: dict, state=None) -> dict:
    """Append one event at ``expected_seq`` chained to ``prev_hash``, in its own transaction
    (or a savepoint of the caller's). Writes a snapshot when ``state`` (the state after this
    event) is given and seq is a multiple of REPLAY_SNAPSHOT_EVERY. Ends the match row on
    match_ended/match_aborted and queues its validation when the transaction commits.
    Raises AppendConflict if the head is not at expected_seq - 1 with hash prev_hash."""
    now = timezone.now()
    record = seal(match=str(match.id), seq=expected_seq, kind=kind, seat=seat, payload=payload,
                  time=_iso(now), prev_hash=prev_hash)
    try:
        with transaction.atomic():
            if expected_seq > 0:
                # .order_by(): no default ordering, which would JOIN the match table to sort one row.
                head = list(Event.objects.filter(match=match, seq=expected_seq - 1).order_by()
                            .values_list("hash", "kind"))
                if [h for h, _ in head] != [prev_hash]:
                    raise AppendConflict(f"match {match.id}: event {expected_seq - 1} is not the head "
                                         f"with hash {prev_hash[:12]}...")
                if head[0][1] in END_KINDS:
                    raise AppendConflict(f"match {match.id} has ended: nothing follows {head[0][1]}")
            Event.objects.create(match=match, seq=expected_seq, kind=kind, seat=seat, payload=payload,
                                 time=now, prev_hash=prev_hash, hash=record["hash"])
            if (state is not None and kind not in END_KINDS
                    and expected_seq % settings.REPLAY_SNAPSHOT_EVERY == 0):
                ruleset = registry.get(match.ruleset, match.ruleset_version)
                Snapshot.objects.create(match=match, seq=expected_seq, state=ruleset.encode(state))
            if kind in END_KINDS:
                _match_close(match=match, kind=kind, payload=payload, when=now)
    except IntegrityError as exc:
        raise AppendConflict(f"match {match.id}: seq {expected_seq} was taken by another writer") from exc
    return record


def _match_close(*, match: Match, kind: str, payload: dict, when: dt.datetime) -> None:
    """Record the end on the match row and validate the log once the end is committed."""
    from .tasks import validate_match

    match.status = Match.Status.ENDED if kind == "match_ended" else Match.Status.ABORTED
    match.result = payload.get("result")
    match.ended_at = when
    match.save(update_fields=["status", "result", "ended_at"])
    match_id = str(match.id)
    transaction.on_commit(lambda: validate_match.delay(match_id))


def match_create(*, ruleset: str, players: int, options: dict | None = None,
                 seats: list[dict] | None = None, seed: bytes | None = None,
                 time_control: dict | None = None, fault_policy: dict | None = None) -> Match:
    """A new match with its match_created event. Raises UnknownRuleset or InvalidOptions.
    ``time_control`` and ``fault_policy`` are recorded in the log for the audit."""
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
            fault_policy=fault_policy or {})
        payload = created_payload(ruleset=engine, options=opts, players=players, seats=seats,
                                  seed_commitment=match.seed_commitment)
        payload.update({"time_control": match.time_control, "fault_policy": match.fault_policy})
        event_append(match=match, expected_seq=0, prev_hash=GENESIS, kind="match_created",
                     payload=payload)
    return match


def match_abort(*, match: Match, reason: str) -> dict:
    """End a running match without a result (the seed is revealed so the log stays auditable)."""
    head = Event.objects.filter(match=match).order_by("-seq").first()
    if head.kind in END_KINDS:
        raise AppendConflict(f"match {match.id} has already ended")
    return event_append(match=match, expected_seq=head.seq + 1, prev_hash=head.hash,
                        kind="match_aborted", payload={"reason": reason, "seed": bytes(match.seed).hex()})


def match_validate(*, match: Match) -> Validation:
    """Re-fold the whole log against the rules and the snapshots; store and return the verdict."""
    records = match_records(match=match)
    snapshots = dict(Snapshot.objects.filter(match=match).values_list("seq", "state"))
    report = validate(records, snapshots=snapshots)
    return Validation.objects.create(match=match, ok=report.ok, events=report.events,
                                     first_bad_seq=report.first_bad_seq, reason=report.reason,
                                     report=report.to_json())


def match_import(*, lines) -> Match:
    """Store an exported replay (JSON Lines) after validating it in full. A bad replay is refused
    with the validator's report and nothing is written."""
    try:
        records = read_jsonl(lines)
    except Exception as exc:  # LogError: a line that is not a JSON object
        raise ImportRefused(str(exc)) from None
    report = validate(records)
    if not report.ok:
        raise ImportRefused(f"seq {report.first_bad_seq}: {report.reason}", report.to_json())
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
            match = _match_store_imported(records, times, report)
    except (IntegrityError, DataError, OverflowError) as exc:
        raise ImportRefused(f"the database refused the replay: {exc}") from None
    return match


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


def _match_store_imported(records: list[dict], times: list[dt.datetime], report) -> Match:
    """Write a validated replay (call inside a transaction): the match, marked imported so its
    seats, which name bots of another service, never feed ratings; its events, snapshots and
    verdict. Reads the events back and refuses the replay if any no longer hashes the same."""
    created, end = records[0], records[-1]
    payload = created["payload"]
    engine = registry.get(payload["ruleset"], payload["version"])
    match = Match.objects.create(
        id=created["match"], ruleset=payload["ruleset"], ruleset_version=payload["version"],
        options=payload["options"], players=payload["players"], seats=payload["seats"],
        seed=bytes.fromhex(end["payload"]["seed"]), seed_commitment=payload["seed_commitment"],
        status=Match.Status.ENDED if end["kind"] == "match_ended" else Match.Status.ABORTED,
        result=end["payload"]["result"] if end["kind"] == "match_ended" else None,
        ended_at=times[-1], imported=True)
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
