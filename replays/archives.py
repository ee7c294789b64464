"""Archived logs: a finished match's events moved out of the event table, compressed, with their
hash chain and signature intact, and read back wherever the event table was read.

Why (docs/scaling.md, BENCHMARKS.md "Growth"): a stored event costs about 480 bytes in the event
table and its indexes, the same event about 60 in gzip'd JSON Lines; a finished match never
changes, and the event table is what grows with use. Appends and step reads do not slow down
as it grows (B-tree lookups), but its size, its backups and its maintenance (VACUUM) do.

``match_archive`` validates the log in full (rules, chance, signature against the service's
keys), writes the export's JSON Lines gzip'd into a MatchArchive row, reads the archive back and
compares it with the log record for record, and only then deletes the match's event rows: all
in one transaction, and the database's append-only trigger lets the rows go only once the
archive row exists (migration 0009). Snapshots stay: a step read of an archived match is still
a decode plus fewer than REPLAY_SNAPSHOT_EVERY applies.

``archive_records`` reads an archive back: the bytes must have the digest stored with them, and
the records must chain (each hash recomputed, each prev_hash the hash before it) up to the
stored head and end in a signature of one of the service's keys. A process checks each archive
once and keeps the last few it read (a replay is read step after step).
"""
from __future__ import annotations

import datetime as dt
import functools
import gzip
import hashlib
import json

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.engine import signature
from games.engine.log import END_KINDS, GENESIS, LogError, Report, canonical_json, record_hash, validate

from .models import Event, Match, MatchArchive, Snapshot

FORMAT = "jsonl.gz"


class ArchiveRefused(Exception):
    """A match that cannot be archived, or an archive that does not read back: ``reason`` says
    why; nothing was written or deleted."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def archive_bytes(records: list[dict]) -> bytes:
    """The records as ``manage.py export`` writes them (one canonical JSON object a line),
    gzip'd with a fixed header time, so the same log always gives the same bytes."""
    text = "".join(canonical_json(record) + "\n" for record in records)
    return gzip.compress(text.encode(), compresslevel=6, mtime=0)


def _records_checked(data: bytes, *, digest: str, head_hash: str, events: int, keys) -> list[dict]:
    """The records in ``data`` if they are the archived log: the digest, the count, the chain
    from GENESIS to ``head_hash`` and the end's signature (``keys``; None: a match marked
    unsigned). ArchiveRefused says what does not hold."""
    if hashlib.sha256(data).hexdigest() != digest:
        raise ArchiveRefused("the archive's bytes do not have the digest stored with them")
    try:
        lines = gzip.decompress(data).decode().splitlines()
        records = [json.loads(line) for line in lines]
    except (OSError, EOFError, ValueError) as exc:
        raise ArchiveRefused(f"the archive cannot be read: {exc}") from None
    if len(records) != events:
        raise ArchiveRefused(f"the archive holds {len(records)} records, not {events}")
    prev = GENESIS
    for index, record in enumerate(records):
        if not isinstance(record, dict) or record.get("seq") != index:
            raise ArchiveRefused(f"record {index} is not seq {index}")
        if record.get("prev_hash") != prev:
            raise ArchiveRefused(f"seq {index}: hash chain broken")
        try:
            ok = record_hash(record) == record.get("hash")
        except (KeyError, TypeError, ValueError):
            ok = False
        if not ok:
            raise ArchiveRefused(f"seq {index}: hash mismatch: the event was changed after it was written")
        prev = record["hash"]
    if prev != head_hash:
        raise ArchiveRefused("the archive's last hash is not the head stored with it")
    last = records[-1] if records else None
    if last is None or last.get("kind") not in END_KINDS:
        raise ArchiveRefused("the archive does not end with the end of the match")
    try:
        signature.check_end(last, keys=keys, report=Report(ok=False, events=events))
    except LogError as exc:
        raise ArchiveRefused(f"seq {exc.seq}: {exc.reason}") from None
    return records


@functools.lru_cache(maxsize=16)
def _archive_read(match_id: str, digest: str, head_hash: str, events: int, unsigned: bool) -> tuple:
    """The checked records of one archive, kept per process (an archive never changes: the
    digest names its bytes). Keys are read on a miss only."""
    from .signing import signing_keys_public

    data = bytes(MatchArchive.objects.values_list("data", flat=True).get(pk=match_id))
    records = _records_checked(data, digest=digest, head_hash=head_hash, events=events,
                               keys=None if unsigned else signing_keys_public())
    return tuple(records)


def archive_records(*, match: Match, first: int = 0, last: int | None = None) -> list[dict] | None:
    """The records of an archived ``match`` with first <= seq <= last (copies: a caller may
    change them), or None if the match is not archived. ArchiveRefused if the archive fails its
    checks."""
    archive = (MatchArchive.objects.filter(pk=match.pk)
               .values_list("sha256", "head_hash", "events").first())
    if archive is None:
        return None
    records = _archive_read(str(match.pk), *archive, bool(match.unsigned))
    end = len(records) if last is None else last + 1
    return [dict(record) for record in records[max(first, 0):end]]


def match_archive(*, match: Match) -> MatchArchive:
    """Archive a finished match (see the module's docstring). ArchiveRefused, with nothing
    written or deleted, for a running match, one archived already, or a log that does not
    validate (its first bad seq and why)."""
    from .selectors import match_records
    from .signing import signing_keys_public

    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match.pk)
        if match.status == Match.Status.RUNNING:
            raise ArchiveRefused(f"match {match.pk} is running: only finished logs are archived")
        if MatchArchive.objects.filter(pk=match.pk).exists():
            raise ArchiveRefused(f"match {match.pk} is archived already")
        records = match_records(match=match)
        snapshots = dict(Snapshot.objects.filter(match=match).values_list("seq", "state"))
        report = validate(records, snapshots=snapshots,
                          keys=None if match.unsigned else signing_keys_public())
        if not report.ok:
            raise ArchiveRefused(f"seq {report.first_bad_seq}: {report.reason}")
        data = archive_bytes(records)
        digest = hashlib.sha256(data).hexdigest()
        read_back = _records_checked(data, digest=digest, head_hash=records[-1]["hash"],
                                     events=len(records),
                                     keys=None if match.unsigned else signing_keys_public())
        if read_back != records:  # nothing lost: every record as the table gave it
            raise ArchiveRefused("the archive does not read back as the log it was made from")
        archive = MatchArchive.objects.create(match=match, format=FORMAT, data=data,
                                              events=len(records), head_hash=records[-1]["hash"],
                                              sha256=digest)
        Event.objects.filter(match=match).delete()  # allowed now that the archive row exists
    return archive


def matches_to_archive(*, older_than_days: float | None = None, limit: int = 1000) -> list:
    """Ids of finished matches that ended more than ``older_than_days`` ago (default
    settings.ARCHIVE_AFTER_DAYS) and are not archived, oldest end first."""
    days = settings.ARCHIVE_AFTER_DAYS if older_than_days is None else older_than_days
    cutoff = timezone.now() - dt.timedelta(days=days)
    return list(Match.objects.filter(status__in=[Match.Status.ENDED, Match.Status.ABORTED],
                                     ended_at__lt=cutoff, archive__isnull=True)
                .order_by("ended_at", "id").values_list("pk", flat=True)[:limit])
