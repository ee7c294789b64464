"""Reads served from memory (docs/caching.md; issue 42, items 2 and 3).

- **A finished match** (ended or aborted) never changes: its log is closed and append-only,
  and after the end nothing is hidden, so every step, event page and export of it is the same
  bytes for every reader for ever. Its row and head are kept in each process's memory after
  the first read (``match_read``), so a revalidation is answered 304 without a query, and the
  body of each read is rendered once and kept in the shared cache (Redis where CACHE_URL names
  it) under its ETag: the log's last hash, the URL and the representation; each process keeps
  the bodies it served last (MEMORY_BODY_BYTES) in its memory too.
- **A running match's public step** (no seat, for a reader who owns no seat of it and is not
  an auditor: the very bytes anonymous visitors get) is rendered once per step for every
  such reader: tagged under the log's head seq (never its hash, which would let a redacted
  action be guessed), so the next event gives every step a new tag; read again without a
  session it is answered before the view (``_live_answer``).
  A seat's view, the full state and raw events of a live match are never tagged nor cached:
  they depend on who asks.
- **Standings, brackets, leaderboards**: cached under the generation of their scope
  (replays/generations.py), which every write that changes them replaces.
"""
from __future__ import annotations

import functools
import hashlib
import threading
from collections import OrderedDict

from django.core.cache import cache
from django.db.models import OuterRef, Subquery
from django.http import Http404, HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_vary_headers
from django.utils.http import parse_etags

from replays.generations import PREFIX as GENERATION_PREFIX, generations_of
from replays.models import Event, Match

from . import permissions as rights
from .renderers import FastJSONRenderer, json_bytes

# Bump when the body of a tagged read changes shape, so caches drop their old copies.
FORMAT = 3  # 2: the events list in every list's envelope; 3: rendered by orjson, live steps tagged
FINISHED_CACHE_CONTROL = "public, max-age=86400"
LIVE_CACHE_CONTROL = "private, no-cache"
GENERATION_CACHE_CONTROL = "public, no-cache"  # standings and the like: ask again, cheaply
FINISHED = (Match.Status.ENDED, Match.Status.ABORTED)
FINISHED_TIMEOUT = 7 * 86400  # seconds a finished match's body stays in the cache unread
LIVE_TIMEOUT = 600  # a live step's body: replaced at the next event anyway
GENERATION_TIMEOUT = 600  # a safety net: a write that bypasses the services is seen within it
LARGEST_CACHED = 4 * 2**20  # bytes; a larger body (a long export) is rendered on each read
MEMORY_MATCHES = 20_000  # finished matches' rows a process keeps
MEMORY_BODY_BYTES = 32 * 2**20  # finished matches' rendered bodies a process keeps, in bytes

_finished: OrderedDict[str, Match] = OrderedDict()
_bodies: OrderedDict[str, tuple] = OrderedDict()  # body key -> cache entry, finished matches only
_bodies_size = 0
_finished_lock = threading.Lock()


def match_read(pk) -> Match:
    """The match ``pk`` with its head: ``head_seq`` and ``head_hash`` (None before the first
    event), else 404. A finished match comes from this process's memory after its first read
    (its row and head never change again); a live one is one query, its head included.
    Every match is visible to everyone (api.permissions.matches_visible_to), so the memory
    holds no reader's rights."""
    key = str(pk)
    with _finished_lock:
        match = _finished.get(key)
        if match is not None:
            _finished.move_to_end(key)
            return match
    latest = Event.objects.filter(match=OuterRef("pk")).order_by("-seq")
    match = rights.matches_visible_to(None).filter(pk=pk).annotate(
        head_seq=Subquery(latest.values("seq")[:1]), head_hash=Subquery(latest.values("hash")[:1])).first()
    if match is None:
        raise Http404("No Match matches the given query.")
    if match.status in FINISHED:
        with _finished_lock:
            _finished[key] = match
            while len(_finished) > MEMORY_MATCHES:
                _finished.popitem(last=False)
    return match


def reads_publicly(user, match: Match) -> bool:
    """Does ``user`` get the public face of ``match`` (no auditor, owns none of its seats)?
    Anonymous readers do without a query."""
    if user is None or not user.is_authenticated:
        return True
    return not rights.is_auditor(user) and not rights.match_seats_of(user, match)


def _representation(request) -> str | None:
    """The media type the response is rendered in, when it is the compact JSON this module
    renders and caches itself; None for the browsable API or an indented JSON."""
    renderer = getattr(request, "accepted_renderer", None)
    media_type = getattr(request, "accepted_media_type", "") or ""
    if type(renderer) is not FastJSONRenderer or "indent" in media_type:
        return None
    return renderer.media_type


def _rendered_as(request) -> tuple[str, str]:
    """(the renderer's format, the media type) content negotiation chose: what a tag names."""
    return (getattr(getattr(request, "accepted_renderer", None), "format", ""),
            getattr(request, "accepted_media_type", ""))


def _tag(*parts) -> str:
    return f'"{hashlib.sha256(" ".join(map(str, parts)).encode()).hexdigest()[:32]}"'


def read_etag(request, match: Match, *, public_live: bool = False) -> str | None:
    """The ETag of this read of ``match`` (from ``match_read``): for a finished match the log's
    last hash, the URL (what was asked for, and the host its links name) and the representation;
    for a live match's public read (``public_live``) the head's seq instead of its hash; None
    for any other read of a live match."""
    renderer, media_type = _rendered_as(request)
    if match.status in FINISHED:
        return _tag(FORMAT, match.pk, match.head_hash, request.build_absolute_uri(), renderer, media_type)
    if public_live:
        return _tag(FORMAT, match.pk, "live", match.head_seq, request.build_absolute_uri(), renderer,
                    media_type)
    return None


def not_modified(request, etag: str | None, cache_control: str | None = None):
    """A 304 when the client already holds this representation (If-None-Match)."""
    if etag is None or etag not in parse_etags(request.headers.get("If-None-Match", "")):
        return None
    return tagged(HttpResponseNotModified(), etag, cache_control)


def tagged(response, etag: str | None, cache_control: str | None = None):
    """``response`` with its ETag and cache policy: a finished match's read is public for a
    day, a live match's private and asked again each time (``cache_control`` overrides)."""
    if etag is not None:
        response["ETag"] = etag
    response["Cache-Control"] = cache_control or (LIVE_CACHE_CONTROL if etag is None else FINISHED_CACHE_CONTROL)
    return response


def _body_key(etag: str) -> str:
    return f"read:{etag.strip(chr(34))}"


def _response_of(entry) -> HttpResponse:
    content_type, body, headers = entry[:3]
    response = HttpResponse(body, content_type=content_type)
    for name, value in headers.items():
        response[name] = value
    return response


def cached_response(request, etag: str | None, *, shared: bool = True) -> HttpResponse | None:
    """The body stored under ``etag``, as a response (None when there is none, or the read is
    not cacheable: no tag, or a representation this module does not render); without
    ``shared``, from this process's memory alone."""
    if etag is None or _representation(request) is None:
        return None
    return stored_response(etag, shared=shared)


def stored_response(etag: str, *, shared: bool = True) -> HttpResponse | None:
    """The body ``store`` kept under ``etag``, as a response; None when there is none. A
    finished match's bodies are also kept in this process's memory (they never change), so
    the reads most asked for cost no round trip to the cache; without ``shared`` the shared
    cache is not asked."""
    key = _body_key(etag)
    with _finished_lock:
        entry = _bodies.get(key)
        if entry is not None:
            _bodies.move_to_end(key)
    if entry is None and not shared:
        return None
    if entry is None:
        entry = cache.get(key)
        if entry is None:
            return None
        if not entry[3]:  # a finished match's: kept here too
            _remember_body(key, entry)
    return _response_of(entry)


def _remember_body(key: str, entry) -> None:
    global _bodies_size
    with _finished_lock:
        if key in _bodies:
            return
        _bodies[key] = entry
        _bodies_size += len(entry[1])
        while _bodies_size > MEMORY_BODY_BYTES:
            _, dropped = _bodies.popitem(last=False)
            _bodies_size -= len(dropped[1])


def json_response(request, etag: str | None, data, *, live: bool = False, shared: bool = True):
    """``data`` as the response, rendered once and stored under ``etag`` for every later reader
    (a DRF Response, rendered the usual way and not stored, for the browsable API or an
    indented JSON); without ``shared``, kept in this process's memory alone."""
    media_type = _representation(request)
    if media_type is None:
        from rest_framework.response import Response

        return Response(data)
    response = HttpResponse(json_bytes(data), content_type=media_type)
    store(etag, response, live=live, shared=shared)
    return response


def store(etag: str | None, response: HttpResponse, *, live: bool = False, headers=(),
          shared: bool = True) -> None:
    """Keep ``response``'s body under ``etag`` (with the named headers), if it is not too large:
    in the shared cache (unless not ``shared``) and, for a finished match's, this process's memory."""
    if etag is None or len(response.content) > LARGEST_CACHED:
        return
    # (content type, body, headers, live): a live step's body is never kept in process memory
    entry = (response["Content-Type"], response.content, {name: response[name] for name in headers}, live)
    if shared or live:
        cache.set(_body_key(etag), entry, LIVE_TIMEOUT if live else FINISHED_TIMEOUT)
    if not live:
        _remember_body(_body_key(etag), entry)


MEMORY_KNOWN = 50_000  # (URL, Accept) pairs of reads a process answers before any view (about 0.5 kB each)

# (URL, Accept) -> ("finished", ETag, headers) or ("generation", (scopes, body key, media type), headers)
_known: OrderedDict[tuple[str, str], tuple[str, object, dict]] = OrderedDict()
_KNOWN_HEADERS = ("Content-Type", "Content-Disposition", "Cache-Control", "ETag", "Allow", "Vary")


class FinishedReadsMiddleware:
    """Reads that are the same bytes for every reader, answered before the view: a finished
    match's (a 304 to a client that holds it, else the body from this process's memory) and a
    generation-cached one's (standings, brackets, leaderboards: a 304 or the body, after the one
    cache read the view makes too). docs/caching.md, "Before the view".

    The innermost middleware: every other one (security headers, sessions, CSRF, frames) runs
    around it as around a view. On the way out it remembers each such read a view answered:
    a finished one (a 200 with ``FINISHED_CACHE_CONTROL`` and an ETag, varying at most with
    Accept) by its ETag and headers, a generation-cached one by what the view looked it up
    under (``arena_generation``). The same GET again skips URL resolving, authentication, the
    rate limits and the view. Such an answer is not counted by the rate limits, as a 304 is not
    counted by GitHub's API: it costs less than counting it would. A request with an
    Authorization header always goes to the view, which checks the token."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method != "GET" or "HTTP_AUTHORIZATION" in request.META:
            # a token is checked by the view (a bad one is a 401 there, whatever is read)
            return self.get_response(request)
        key = (request.build_absolute_uri(), request.META.get("HTTP_ACCEPT", ""))
        with _finished_lock:
            known = _known.get(key)
        if known is not None and (answer := _known_answer(request, *known)) is not None:
            return answer
        response = self.get_response(request)
        remembered = None
        if (response.status_code in (200, 304) and response.get("Cache-Control") == FINISHED_CACHE_CONTROL
                and response.has_header("ETag") and response.get("Vary", "Accept") in ("Accept", "")
                and not response.streaming):
            # a 304 names no Content-Type: remembered, it answers the next 304s only
            remembered = ("finished", response["ETag"])
        elif response.status_code in (200, 304) and getattr(response, "arena_generation", None):
            remembered = ("generation", response.arena_generation)
        elif (response.status_code in (200, 304) and getattr(response, "arena_live", None)
              and not _signed_in(request)):
            remembered = ("live", response.arena_live)
        if remembered is not None:
            if response.status_code == 304:
                response.headers.pop("Content-Type", None)  # (Django's 304 has none already)
            headers = {name: response[name] for name in _KNOWN_HEADERS if response.has_header(name)}
            with _finished_lock:
                _known[key] = (*remembered, headers)
                _known.move_to_end(key)
                while len(_known) > MEMORY_KNOWN:
                    _known.popitem(last=False)
        return response


def _known_answer(request, kind: str, what, headers: dict) -> HttpResponse | None:
    """The answer to a read remembered as ``kind`` (see FinishedReadsMiddleware), or None when
    the view must answer: a finished body no longer in this process's memory, a generation
    whose copy is missing or stale. Headers are the view's: an API view's answer also varies
    with the cookie (DRF's authentication read the session, and the session middleware said so
    on the way out); the viewer's frames.json read no session."""
    if kind == "live":
        return _live_answer(request, what, headers)
    if kind == "generation":
        scopes, body_key, media_type = what
        _, _, response = _generation_lookup(request, list(scopes), body_key, media_type)
        if response is None:
            return None
        for name in ("Allow", "Vary"):
            if name in headers:
                response[name] = headers[name]
    elif what in parse_etags(request.headers.get("If-None-Match", "")):
        response = HttpResponseNotModified()
        for name, value in headers.items():
            if name not in ("Content-Type", "Content-Disposition"):
                response[name] = value
    elif "Content-Type" not in headers:  # learnt from a 304: the view answers a read of the body
        return None
    else:
        body_key = _body_key(what)
        with _finished_lock:
            entry = _bodies.get(body_key)
            if entry is None:
                return None
            _bodies.move_to_end(body_key)
        response = HttpResponse(entry[1])
        for name, value in headers.items():
            response[name] = value
    if "Vary" in headers:  # an API view's: DRF's authentication read the session there
        patch_vary_headers(response, ("Cookie",))
    return response


def _signed_in(request) -> bool:
    """Might the request be a signed-in user's? (A session cookie: the view then looks the user
    up; with none, and no Authorization header, every view sees an anonymous reader.)"""
    from django.conf import settings

    # (DRF's test client signs a user in without a cookie: force_authenticate marks the request)
    return settings.SESSION_COOKIE_NAME in request.COOKIES or getattr(request, "_force_auth_user", None) is not None


def _live_answer(request, what, headers: dict) -> HttpResponse | None:
    """A running match's public step for an anonymous reader, before the view (docs/caching.md,
    "A live match's public step"): the match's status and head seq from one indexed read, the
    step's seq-free part from this process's memory (or the cache), the head written before it;
    a 304 when the reader holds the current tag. None (the view answers) once the match is over,
    for a reader who might be signed in (their seats, or an auditor's rights, change what they
    read), or when the part is in neither memory nor the cache."""
    if _signed_in(request):
        return None
    match_pk, n, key, renderer, media_type = what
    status, seq = _live_head(match_pk)
    if status != Match.Status.RUNNING or seq is None or n > seq:
        return None
    etag = _tag(FORMAT, match_pk, "live", seq, request.build_absolute_uri(), renderer, media_type)
    if etag in parse_etags(request.headers.get("If-None-Match", "")):
        response = HttpResponseNotModified()
        skip = ("Content-Type", "Content-Disposition", "ETag")
    else:
        tail = _live_tail(key)
        if tail is None:
            return None
        response = HttpResponse(json_bytes({"match": match_pk, "step": n, "steps": seq + 1})[:-1] + b"," + tail[1:])
        skip = ("ETag",)
    for name, value in headers.items():
        if name not in skip:
            response[name] = value
    response["ETag"] = etag
    if "Vary" in headers:  # an API view's: DRF's authentication read the session there
        patch_vary_headers(response, ("Cookie",))
    return response


def _live_head(match_pk) -> tuple[str | None, int | None]:
    """(status, the last event's seq) of the match ``match_pk``: one indexed read, without the
    ORM's compiling of the query (the view's match_read reads the same, with the whole row)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(_live_head_sql(), [Match._meta.pk.get_db_prep_value(match_pk, connection)])
        row = cursor.fetchone()
    return (None, None) if row is None else (row[0], row[1])


@functools.cache
def _live_head_sql() -> str:
    event, match = Event._meta, Match._meta
    return (f"SELECT m.{match.get_field('status').column}, (SELECT e.{event.get_field('seq').column} "
            f"FROM {event.db_table} e WHERE e.{event.get_field('match').column} = m.{match.pk.column} "
            f"ORDER BY e.{event.get_field('seq').column} DESC LIMIT 1) "
            f"FROM {match.db_table} m WHERE m.{match.pk.column} = %s")


MEMORY_LIVE_TAILS = 4096  # seq-free parts of live public steps a process keeps (a few kB each)
_live_tails: OrderedDict[str, bytes] = OrderedDict()


def _live_tail(key: str) -> bytes | None:
    """The seq-free part of a live public step kept under ``key``: this process's memory, else
    the cache (another process rendered it). It never changes while the match runs."""
    with _finished_lock:
        tail = _live_tails.get(key)
        if tail is not None:
            _live_tails.move_to_end(key)
            return tail
    tail = cache.get(key)
    if tail is not None:
        _remember_live_tail(key, tail)
    return tail


def _remember_live_tail(key: str, tail: bytes) -> None:
    with _finished_lock:
        _live_tails[key] = tail
        _live_tails.move_to_end(key)
        while len(_live_tails) > MEMORY_LIVE_TAILS:
            _live_tails.popitem(last=False)


def live_step_tail_key(request, match: Match) -> str | None:
    """Where the seq-free part of a live match's public step is kept (``live_step_response``):
    the match, the URL and the representation, no head; None for a representation this module
    does not render (the browsable API, indented JSON)."""
    if _representation(request) is None:
        return None
    renderer, media_type = _rendered_as(request)
    return "livestep:" + _tag(FORMAT, match.pk, "live-tail", request.build_absolute_uri(), renderer,
                              media_type).strip('"')


def live_step_marked(request, response, match: Match, n: int, key: str | None):
    """``response`` (a live public step ``n``, or its 304) marked for FinishedReadsMiddleware,
    which answers the same read again before the view while the match runs (_live_answer)."""
    if key is not None:
        response.arena_live = (match.pk, n, key, *_rendered_as(request))
    return response


def live_step_response(request, key: str, head: dict, compute_tail) -> HttpResponse:
    """A live match's public step: ``head`` (match, step, steps: the one part that changes with
    each event) written before the rest, which is rendered once per step for every public reader
    and kept under ``key``. Step n of a running match shows the state after event n, its event
    as the public sees it and who acts next: none of it changes while the match goes on, so an
    event appended gives every step a new tag (its ``steps``) but no new fold. ``compute_tail``
    returns the rest as a dict (seat, view, event, next). The bytes are those of rendering the
    whole document at once."""
    tail = _live_tail(key)
    if tail is None:
        tail = json_bytes(compute_tail())
        if len(tail) <= LARGEST_CACHED:
            cache.set(key, tail, LIVE_TIMEOUT)
            _remember_live_tail(key, tail)
    return HttpResponse(json_bytes(head)[:-1] + b"," + tail[1:], content_type=_representation(request))


def _generation_lookup(request, scopes: list[str], body_key: str, media_type: str):
    """(the scopes' tokens, the etag, the stored answer or None) of a generation-cached read,
    from one cache read: the tokens and the copy together."""
    found = cache.get_many([*(GENERATION_PREFIX + scope for scope in scopes), body_key])
    generations = generations_of(scopes, found)
    etag = _tag(FORMAT, " ".join(scopes), *generations, request.build_absolute_uri(), media_type)
    if (unchanged := not_modified(request, etag, GENERATION_CACHE_CONTROL)) is not None:
        return generations, etag, unchanged
    entry = found.get(body_key)
    if entry is not None and entry[0] == generations:
        return generations, etag, tagged(_response_of(entry[1:]), etag, GENERATION_CACHE_CONTROL)
    return generations, etag, None


def generation_cached(view, request, scopes: list[str], compute):
    """The response of ``compute()`` (a DRF Response) for this URL, rendered once per generation
    of ``scopes`` (replays/generations.py) and served from the cache until a write replaces one
    of them; tagged with those generations, so a revalidation is a 304 without a query. The
    copy is stored under the tokens read before it was computed: a write meanwhile replaced
    them, so it is never served. The answer names what it was looked up under
    (``arena_generation``), for FinishedReadsMiddleware to answer the same GET before the view."""
    media_type = _representation(request)
    if media_type is None:
        return compute()
    where = " ".join(scopes)
    body_key = f"generation-read:{hashlib.sha256(f'{FORMAT} {where} {request.build_absolute_uri()} {media_type}'.encode()).hexdigest()[:32]}"
    generations, etag, stored = _generation_lookup(request, scopes, body_key, media_type)
    if stored is None:
        answer = compute()
        if answer.status_code != 200:
            return answer
        stored = HttpResponse(json_bytes(answer.data), content_type=media_type)
        cache.set(body_key, (generations, stored["Content-Type"], stored.content, {}), GENERATION_TIMEOUT)
        stored = tagged(stored, etag, GENERATION_CACHE_CONTROL)
    stored.arena_generation = (tuple(scopes), body_key, media_type)
    return stored
