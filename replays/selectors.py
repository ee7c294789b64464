"""Reads of the event store: records, folds and step-through states. An archived match's
records come from its archive (replays/archives.py) wherever the event table held them."""
from __future__ import annotations

import itertools
from typing import Iterator

from django.db.models import Q

from games.engine import Chance, Ended, ToAct, registry
from games.engine.log import Folder

from .archives import archive_records
from .models import Event, Match, MatchArchive, Snapshot


def event_record(event: Event, match_id: str | None = None) -> dict:
    """An event row as a log record (the exported JSON Lines form)."""
    return {"match": match_id or str(event.match_id), "seq": event.seq, "kind": event.kind,
            "seat": event.seat, "payload": event.payload,
            "time": event.time.isoformat(timespec="microseconds"),
            "prev_hash": event.prev_hash, "hash": event.hash}


def match_records(*, match: Match, first: int = 0, last: int | None = None) -> list[dict]:
    """The records of ``match`` with first <= seq <= last, in order."""
    match_id = str(match.id)
    records = [event_record(e, match_id) for e in _events(match, first, last)]
    if not records:  # none in the table: an archived match's are in its archive
        return archive_records(match=match, first=first, last=last) or []
    return records


def _events(match: Match, first: int = 0, last: int | None = None):
    """The event rows of ``match`` with first <= seq <= last, in seq order."""
    events = Event.objects.filter(match=match, seq__gte=first)
    return (events if last is None else events.filter(seq__lte=last)).order_by("seq")


def match_record_stream(*, match: Match, last: int, chunk: int = 1000) -> Iterator[dict]:
    """The records of ``match`` with seq <= last, in order, read ``chunk`` rows at a time (a
    server-side cursor on PostgreSQL): a validation of a long log never holds it whole."""
    match_id = str(match.id)
    rows = _events(match, last=last).iterator(chunk_size=chunk)
    first = next(rows, None)
    if first is None:  # an archived match: its records come from the archive
        return iter(archive_records(match=match, last=last) or [])
    return itertools.chain((event_record(first, match_id),), (event_record(e, match_id) for e in rows))


def match_event_count(*, match: Match) -> int:
    count = Event.objects.filter(match=match).count()
    if count == 0:
        archived = MatchArchive.objects.filter(pk=match.pk).values_list("events", flat=True).first()
        return archived or 0
    return count


def match_head(*, match: Match) -> dict | None:
    """The seq and hash of the last event of ``match`` (None before its first): one step down
    the (match, seq) index, where a count reads every row. Seqs are gap-free, so the match has
    seq + 1 events."""
    head = Event.objects.filter(match=match).order_by("-seq").values("seq", "hash").first()
    if head is None:  # an archived match: the archive row holds its head
        archived = MatchArchive.objects.filter(pk=match.pk).values_list("events", "head_hash").first()
        if archived is not None:
            return {"seq": archived[0] - 1, "hash": archived[1]}
    return head


def match_folder(*, match: Match, upto: int | None = None, in_place: bool = False) -> Folder:
    """The fold of ``match`` after event ``upto`` (default: the head): ``match_step``'s folder."""
    return match_step(match=match, upto=upto, in_place=in_place)[0]


def match_step(*, match: Match, upto: int | None = None, in_place: bool = False,
               ahead: int | None = None):
    """(the folder, the record of event ``upto``): the fold of ``match`` after event ``upto``
    (default: the head) and that event's record, read by the fold's own range read (a step read
    needs both: no third query for the record). The fold goes from the nearest snapshot
    at or before it: one decode plus fewer than REPLAY_SNAPSHOT_EVERY applies. ``in_place``: the
    fold changes one state as it goes (no copy per event, Folder.in_place) and the folder goes
    on that way; for a caller that reads the state it stands at and keeps none from before.

    Two queries: the snapshot, then in one range read the log's first event (match_created),
    the snapshot's own event (its hash goes on the chain) and the events after it up to
    ``upto``. An archived match reads the same records from its archive.

    ``ahead`` (with ``upto``): the same range read goes on up to ``ahead`` events past ``upto``,
    and the result is (folder, record, the records after ``upto``) for a reader who will step
    on (replays.cursors)."""
    snapshots = Snapshot.objects.filter(match=match)
    if upto is not None:
        snapshots = snapshots.filter(seq__lte=upto)
    snapshot = snapshots.order_by("-seq").only("seq", "state").first()
    begin = snapshot.seq if snapshot is not None else 0
    last = upto if upto is None or not ahead else upto + ahead
    rows = Event.objects.filter(match=match).filter(Q(seq=0) | Q(seq__gte=begin))
    if last is not None:
        rows = rows.filter(seq__lte=last)
    match_id = str(match.id)
    records = [event_record(e, match_id) for e in rows.order_by("seq")]
    if not records:  # none in the table: an archived match's are in its archive
        records = [r for r in archive_records(match=match, last=last) or [] if r["seq"] == 0 or r["seq"] >= begin]
    following = []
    if last != upto:
        cut = next((i for i, r in enumerate(records) if r["seq"] > upto), len(records))
        records, following = records[:cut], records[cut:]
    if not records or records[0]["seq"] != 0:
        raise Match.DoesNotExist(f"match {match.id} has no events")
    created = records[0]
    if snapshot is None:
        folder, rest = Folder(created, in_place=in_place), records[1:]
    else:
        at = 0 if begin == 0 else 1  # the snapshot's own event
        if len(records) <= at or records[at]["seq"] != begin:
            raise ValueError(f"match {match.id}: the event of its snapshot {begin} is missing")
        ruleset = registry.get(match.ruleset, match.ruleset_version)
        folder = Folder.resume(created, seq=snapshot.seq, state=ruleset.decode(snapshot.state),
                               head_hash=records[at]["hash"], in_place=in_place)
        rest = records[at + 1:]
    folder.advance_all(rest)
    if upto is not None and folder.seq != upto:
        raise IndexError(f"match {match.id} has no event {upto} (last is {folder.seq})")
    if ahead is not None:
        return folder, records[-1], following
    return folder, records[-1]


def state_at(*, match: Match, n: int):
    """The state after event ``n``."""
    return match_folder(match=match, upto=n, in_place=True).state


def match_latest_validation(*, match: Match):
    return match.validations.order_by("-created_at", "-id").first()


def unvalidated_match_ids(*, grace_seconds: int | None = None) -> list:
    """Ended (or aborted) matches with no validation verdict ``grace_seconds`` after their end
    (default settings.VALIDATION_GRACE_SECONDS): the validation queued at the end was lost.
    Imported matches carry the verdict they were stored with."""
    import datetime as dt

    from django.conf import settings
    from django.utils import timezone

    grace = settings.VALIDATION_GRACE_SECONDS if grace_seconds is None else grace_seconds
    return list(Match.objects.filter(status__in=[Match.Status.ENDED, Match.Status.ABORTED],
                                     ended_at__lt=timezone.now() - dt.timedelta(seconds=grace),
                                     validations__isnull=True)
                .order_by("ended_at").values_list("pk", flat=True)[:1000])


def folder_next(folder: Folder) -> dict:
    """Who or what moves after the folder's step, in the one shape the API and the CLI share:
    ``{"kind": "act", "seats": [...]}``, ``{"kind": "chance", "spec": {...}}`` or
    ``{"kind": "ended", "result": {...}}``."""
    if folder.ended:
        return {"kind": "ended", "result": folder.result}
    nxt = folder.next()
    if isinstance(nxt, ToAct):
        return {"kind": "act", "seats": list(nxt.seats)}
    if isinstance(nxt, Chance):
        return {"kind": "chance", "spec": nxt.spec}
    assert isinstance(nxt, Ended)
    return {"kind": "ended", "result": nxt.result.to_json()}
