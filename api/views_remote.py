"""Remote seats (docs/remote.md): the owner's client gets the acts of its remote bots' seats by a
stream of JSON lines or a long poll, and answers each with a POST naming match, seat and turn.
Token or session authentication alike, so a browser's seat can use the same endpoints. Served as
deployed (config/asgi.py), the stream and the long poll wait on the server's event loop
(ASYNC_TAIL), not in one of its threads; the dev server and the test client wait in the thread."""
from __future__ import annotations

import json
import socket
import threading
import time

from django.conf import settings
from django.http import Http404, StreamingHttpResponse
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from bots.remote import (AnswerRefused, AsyncBell, Bell, act_from_payload, owner_channel, remote_act_answer,
                         remote_acts_open, sqlite_patient)
from bots.services import remote_matches_resume
from replays.models import Match

from .errors import ApiError
from .serializers_base import Input


def _stream_seconds() -> int:
    return getattr(settings, "REMOTE_STREAM_SECONDS", 600)


def _keepalive_seconds() -> float:
    return getattr(settings, "REMOTE_KEEPALIVE_SECONDS", 10)


class StreamInput(Input):
    seconds = serializers.IntegerField(
        required=False, min_value=1, max_value=3600, allow_null=True, default=None,
        help_text="How long the server keeps the stream open before it ends it (the client "
                  "reconnects); default REMOTE_STREAM_SECONDS (600).")


class NextInput(Input):
    wait = serializers.IntegerField(required=False, min_value=0, max_value=60, default=30,
                                    help_text="Seconds to wait for an act when none is open (0-60).")


class ActsOutput(serializers.Serializer):
    acts = serializers.ListField(child=serializers.JSONField(),
                                 help_text="The open acts of your remote seats, oldest first (docs/remote.md).")


@extend_schema_field({"anyOf": [{"type": "object"}, {"type": "array"}, {"type": "string"}, {"type": "number"},
                                 {"type": "boolean"}]})
class ActionField(serializers.JSONField):
    """An answer's action: any JSON value but null (null is refused: "may not be null")."""


class AnswerInput(Input):
    turn = serializers.IntegerField(min_value=0, help_text="The act's turn, as the act message gives it.")
    action = ActionField(help_text="The action, as a bot's answer line carries it: any JSON value but null "
                                   "(the rules judge it, as they judge a bot's answer).")


class AnswerOutput(serializers.Serializer):
    match = serializers.UUIDField()
    seat = serializers.IntegerField()
    turn = serializers.IntegerField()
    status = serializers.CharField(help_text="answered")
    elapsed_ms = serializers.IntegerField(help_text="The time charged to the seat: from the act's "
                                                    "publication to this answer's arrival.")


# Set in the request's environ by a server with an event loop (config/asgi.py): a view may then
# leave its waiting to the loop, as ``response.async_tail(run_sync, disconnected)``, an async
# iterator of the body's chunks, instead of holding one of the server's threads while it waits.
ASYNC_TAIL = "arena.async_tail"


def _params(serializer_class, request) -> dict:
    data = serializer_class(data=request.query_params)
    data.is_valid(raise_exception=True)
    return data.validated_data


def _line(message: dict) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


class RemoteStream(APIView):
    """Your remote seats' acts as they are published: newline-delimited JSON, one act per line
    (each open act once per connection; again if it is published again after a recovery), a
    ``result`` line when a match you were asked in ends, a ``keepalive`` line every few seconds."""

    permission_classes = [IsAuthenticated]

    @extend_schema(parameters=[StreamInput], responses={
        (200, "application/x-ndjson"): OpenApiResponse(OpenApiTypes.STR, description="JSON lines (docs/remote.md)")})
    def get(self, request):
        seconds = _params(StreamInput, request)["seconds"] or _stream_seconds()
        _send_at_once(request)
        user = request.user
        response = StreamingHttpResponse(_acts_stream(user, seconds), content_type="application/x-ndjson")
        if request.META.get(ASYNC_TAIL):
            response.async_tail = lambda run_sync, disconnected: _acts_lines_async(
                user, seconds, run_sync, disconnected)
        response["Cache-Control"] = "no-cache"
        response["X-Accel-Buffering"] = "no"  # a proxy must pass each line on at once
        return response


class _OpenStreams:
    """How many streams this process serves now (a stream whose client went away ends at its
    next line: within a keepalive)."""

    def __init__(self):
        self.count, self._lock = 0, threading.Lock()

    def add(self, step: int) -> None:
        with self._lock:
            self.count += step


open_streams = _OpenStreams()


def _send_at_once(request) -> None:
    """TCP_NODELAY on the request's connection, where the server gives its socket (gunicorn): a
    write (an act line; the answer's response body after its headers) made while the client has
    not yet acknowledged the previous one would otherwise wait for that acknowledgement, which a
    client delays up to 40 ms (Nagle's algorithm against delayed ACKs), and the seat's clock runs
    meanwhile (bench/remote.py measured a 42 ms median)."""
    sock = request.META.get("gunicorn.socket")
    if sock is not None:
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:
            pass


def _acts_stream(user, seconds: float):
    """The stream's lines for ``seconds``; see RemoteStream."""
    open_streams.add(1)
    try:
        yield from _acts_lines(user, seconds)
    finally:
        open_streams.add(-1)


class _StreamLines:
    """What one stream connection sends: each open act once per publication (its key: the row
    and its published_at), and a result line per seat it was asked in when that match is over."""

    def __init__(self, user):
        self.user = user
        self.sent: set = set()
        self.asked: dict[str, set[int]] = {}  # match id -> seats this connection sent acts for

    def _act(self, key: tuple, message: dict) -> list[bytes]:
        if key in self.sent:
            return []
        self.sent.add(key)
        self.asked.setdefault(str(message["match"]), set()).add(message["seat"])
        return [_line(message)]

    def from_rows(self) -> list[bytes]:
        """The open acts not sent yet and the results due, read from the database (after
        bringing back the owner's matches whose driver died with a dev server:
        remote_matches_resume)."""
        sqlite_patient(lambda: remote_matches_resume(user=self.user))
        lines = []
        for act in sqlite_patient(lambda: list(remote_acts_open(user=self.user))):
            lines += self._act((act.pk, act.published_at.isoformat()), act.message)
        return lines + list(_results(self.asked))

    def from_bell(self, payloads: list[bytes]) -> tuple[list[bytes], bool]:
        """The acts the bell's payloads carry (act_payload), and whether a ring carried
        something else (a match's end, a ring without Redis' payload): then read the rows."""
        lines, other = [], not payloads
        for payload in payloads:
            found = act_from_payload(payload)
            if found is None:
                other = True
            else:
                lines += self._act(*found)
        return lines, other


def _acts_lines(user, seconds: float):
    end = time.monotonic() + seconds
    keepalive = _keepalive_seconds()
    bell = Bell(owner_channel(user.pk))
    stream = _StreamLines(user)
    read_rows = True
    try:
        yield _line({"type": "keepalive"})  # the client knows at once that it is connected
        next_keepalive = time.monotonic() + keepalive
        while time.monotonic() < end:
            if read_rows:
                yield from stream.from_rows()
            now = time.monotonic()
            if now >= next_keepalive:
                yield _line({"type": "keepalive"})
                next_keepalive = now + keepalive
            lines, read_rows = stream.from_bell(bell.wait(min(next_keepalive, end) - time.monotonic()))
            yield from lines
    finally:
        bell.close()


async def _acts_lines_async(user, seconds: float, run_sync, disconnected):
    """_acts_lines for a server with an event loop (config/asgi.py): the same lines, waiting on
    the loop instead of in a thread; ``run_sync(f)`` runs a database read in the server's
    threads; the stream ends when ``disconnected`` is set."""
    end = time.monotonic() + seconds
    keepalive = _keepalive_seconds()
    bell = await AsyncBell(owner_channel(user.pk)).open()
    stream = _StreamLines(user)
    read_rows = True
    open_streams.add(1)
    try:
        yield _line({"type": "keepalive"})
        next_keepalive = time.monotonic() + keepalive
        while time.monotonic() < end and not disconnected.is_set():
            if read_rows:
                for line in await run_sync(stream.from_rows):
                    yield line
            now = time.monotonic()
            if now >= next_keepalive:
                yield _line({"type": "keepalive"})
                next_keepalive = now + keepalive
            heard = await bell.wait(min(next_keepalive, end) - time.monotonic(), also=disconnected)
            lines, read_rows = stream.from_bell(heard)
            for line in lines:
                yield line
    finally:
        open_streams.add(-1)
        await bell.close()


def _results(asked: dict[str, set[int]]):
    """A result line per seat of each match in ``asked`` that is over (then forgotten)."""
    if not asked:
        return
    over = sqlite_patient(lambda: list(Match.objects.filter(pk__in=list(asked))
                                       .exclude(status=Match.Status.RUNNING).only("pk", "status", "result")))
    for match in over:
        for seat in sorted(asked.pop(str(match.pk))):
            yield _line({"type": "result", "match": str(match.pk), "seat": seat, "status": match.status,
                         "result": match.result})


class RemoteNext(APIView):
    """Long poll: the open acts of your remote seats, waiting up to ``wait`` seconds for one
    when none is open (then an empty list)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(parameters=[NextInput], responses={200: ActsOutput})
    def get(self, request):
        wait = _params(NextInput, request)["wait"]
        sqlite_patient(lambda: remote_matches_resume(user=request.user))
        if request.META.get(ASYNC_TAIL) and wait:
            user = request.user
            acts = [act.message for act in sqlite_patient(lambda: list(remote_acts_open(user=user)))]
            if not acts:
                response = StreamingHttpResponse(iter(()), content_type="application/json")
                response.async_tail = lambda run_sync, disconnected: _next_async(
                    user, wait, run_sync, disconnected)
                return response
        end = time.monotonic() + wait
        bell = Bell(owner_channel(request.user.pk))
        try:
            while True:
                acts = [act.message for act in sqlite_patient(lambda: list(remote_acts_open(user=request.user)))]
                left = end - time.monotonic()
                if acts or left <= 0:
                    return Response({"acts": acts})
                bell.wait(min(left, _keepalive_seconds()))
        finally:
            bell.close()


async def _next_async(user, wait: float, run_sync, disconnected):
    """RemoteNext's wait on the event loop (ASYNC_TAIL): the body, once an act is open or the
    wait is over."""
    end = time.monotonic() + wait
    bell = await AsyncBell(owner_channel(user.pk)).open()
    try:
        while True:
            acts = await run_sync(lambda: [act.message for act in sqlite_patient(
                lambda: list(remote_acts_open(user=user)))])
            left = end - time.monotonic()
            if acts or left <= 0 or disconnected.is_set():
                yield JSONRenderer().render({"acts": acts})
                return
            await bell.wait(min(left, _keepalive_seconds()), also=disconnected)
    finally:
        await bell.close()


class RemoteAnswer(APIView):
    """Answer the act of ``seat`` at ``turn`` (your remote bot's seat): taken once, before the
    deadline; anything else is refused with the reason and changes nothing."""

    permission_classes = [IsAuthenticated]

    def dispatch(self, request, *args, **kwargs):
        self.arrived = timezone.now()  # before authentication: the seat's clock stops here
        return super().dispatch(request, *args, **kwargs)

    @extend_schema(request=AnswerInput, responses={
        200: AnswerOutput, 403: OpenApiResponse(description="not_owner"),
        404: OpenApiResponse(description="not_found, no_such_seat"),
        409: OpenApiResponse(description="wrong_turn, already_answered, late, match_over, not_remote")})
    def post(self, request, pk, seat: int):
        _send_at_once(request)  # the client waits for this response before it reads the next act
        data = AnswerInput(data=request.data)
        data.is_valid(raise_exception=True)
        match = sqlite_patient(lambda: Match.objects.filter(pk=pk).first())
        if match is None:
            raise Http404
        try:
            act = remote_act_answer(match=match, seat=seat, user=request.user, arrived=self.arrived,
                                    **data.validated_data)
        except AnswerRefused as exc:
            raise ApiError(str(exc), code=exc.code, status_code=exc.status) from None
        elapsed = (act.answered_at - act.published_at).total_seconds()
        return Response({"match": match.pk, "seat": seat, "turn": act.turn, "status": act.status,
                         "elapsed_ms": int(elapsed * 1000)})
