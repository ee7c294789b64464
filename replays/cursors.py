"""Folds kept where a reader of a finished match will ask next (docs/caching.md).

People step through a replay: step n, then n + 1, then n + 2. Each of those reads, when its body
is not cached yet, would fold from the nearest snapshot: the snapshot, then a range of events, two
queries and up to REPLAY_SNAPSHOT_EVERY applies, for one event more than the read before it.

A finished match never changes, so after a step read this process keeps the fold where it stands
(a *cursor*: the folder after event n and the events read ahead of it) under (match, n). The read
of step n + 1 takes that cursor, applies one event and moves the cursor on: no query while the
events read ahead last, one range read (no snapshot) when they run out. A read at any other step
folds as before, reading AHEAD events past its step in the same range read. Each process keeps
the CURSORS cursors used last; a cursor belongs to one read at a time (taken out, put back).

Only finished matches: a running match's log grows, and who may see what changes with it.
"""
from __future__ import annotations

import threading
from collections import OrderedDict

from games.engine.log import Folder

from .models import Match
from .selectors import match_records, match_step

CURSORS = 64  # cursors a process keeps (each one folded state and its events read ahead)
AHEAD = 20  # events read past the step asked for, for the reads that follow it (a cold read pays for them)

_cursors: OrderedDict[tuple[str, int], tuple[Folder, list[dict]]] = OrderedDict()
_lock = threading.Lock()


def step_read(*, match: Match, n: int) -> tuple[Folder, dict, list[dict]]:
    """(the folder after event ``n`` of the finished ``match``, event n's record, the records
    read ahead of it): from the cursor a read of step n - 1 left, else from the nearest snapshot.
    IndexError if the match has no event n. The folder changes its state in place: give it back
    with ``keep`` once nothing more will read the state, or drop it."""
    with _lock:
        taken = _cursors.pop((str(match.pk), n - 1), None)
    if taken is not None:
        folder, ahead = taken
        if not ahead:  # the events read ahead ran out: the next ones, in one range read
            ahead = match_records(match=match, first=n, last=n + AHEAD)
        if ahead and ahead[0]["seq"] == n:
            folder.advance(ahead[0])
            return folder, ahead[0], ahead[1:]
        # past the head (or a cursor out of step): fold afresh below, which says which
    folder, record, ahead = match_step(match=match, upto=n, in_place=True, ahead=AHEAD)
    return folder, record, ahead


def waiting(*, match: Match, n: int) -> bool:
    """Is a cursor after event ``n`` of ``match`` kept here (a read of step n + 1 steps on)?"""
    with _lock:
        return (str(match.pk), n) in _cursors


def keep(*, match: Match, n: int, folder: Folder, ahead: list[dict]) -> None:
    """Keep ``folder`` (after event ``n``) for a read of step n + 1; the CURSORS used last stay."""
    if folder.ended and not ahead:
        return  # the last step: nothing follows it
    with _lock:
        _cursors[(str(match.pk), n)] = (folder, ahead)
        _cursors.move_to_end((str(match.pk), n))
        while len(_cursors) > CURSORS:
            _cursors.popitem(last=False)


def forget() -> None:
    """Drop every cursor (tests)."""
    with _lock:
        _cursors.clear()
