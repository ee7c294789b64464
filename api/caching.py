"""Validators and cache headers for reads of a finished match.

A finished (ended or aborted) match's log is closed: every step, event page and export of it
is the same bytes for every reader for ever (after the end nothing is hidden, so rights no
longer change the answer). Such a read gets an ETag naming the log's last hash and what was
asked for, and may be cached by anyone; a conditional request that still matches is answered
304 after one index read, before any fold. Reads of a live match are neither tagged nor cached:
who may see what changes while it runs, and so does the step count.
"""
from __future__ import annotations

import hashlib

from django.http import HttpResponseNotModified
from django.utils.http import parse_etags

from replays.models import Match
from replays.selectors import match_head

# Bump when the body of a tagged read changes shape, so caches drop their old copies.
FORMAT = 2  # 2: the events list in every list's envelope (count, next, previous, results)
FINISHED_CACHE_CONTROL = "public, max-age=86400"
LIVE_CACHE_CONTROL = "private, no-cache"
FINISHED = (Match.Status.ENDED, Match.Status.ABORTED)


def finished_etag(request, match: Match) -> str | None:
    """The ETag of this read of ``match`` (None while it runs): the log's last hash, the
    URL (what was asked for, and the host its links name) and the representation (JSON or
    the browsable API)."""
    if match.status not in FINISHED:
        return None
    head = match_head(match=match)
    renderer = getattr(getattr(request, "accepted_renderer", None), "format", "")
    key = f"{FORMAT} {match.pk} {head and head['hash']} {request.build_absolute_uri()} {renderer}"
    return f'"{hashlib.sha256(key.encode()).hexdigest()[:32]}"'


def not_modified(request, etag: str | None) -> HttpResponseNotModified | None:
    """A 304 when the client already holds this representation (If-None-Match)."""
    if etag is None or etag not in parse_etags(request.headers.get("If-None-Match", "")):
        return None
    return tagged(HttpResponseNotModified(), etag)


def tagged(response, etag: str | None):
    """``response`` with the ETag and the cache policy of a finished (or a live) match."""
    if etag is None:
        response["Cache-Control"] = LIVE_CACHE_CONTROL
    else:
        response["ETag"] = etag
        response["Cache-Control"] = FINISHED_CACHE_CONTROL
    return response
