"""Remote seats: a seat whose decisions arrive over HTTP from its owner's client (docs/remote.md).

The match driver seats a remote bot as a ``RemoteSeat``, which has the interface of
``games.engine.bots.Bot``. When the seat must act it publishes the same ``act`` message a
sandboxed bot gets, as a RemoteAct row (match, seat, turn: the decision's name), and waits for
the row to be answered or for its deadline. The owner's client reads the open rows (the stream
or the long poll of api/views_remote.py) and answers with ``remote_act_answer``: a conditional
UPDATE from ``open`` to ``answered`` before the deadline, so an answer is taken once and a
second, late, foreign or misnamed one changes nothing. The clock is the server's: from
``published_at`` to ``answered_at``, charged as a sandboxed bot's answer is (bank, increment;
an empty bank is a timeout).

Nothing of a remote seat lives in the driver's memory: a driver that resumes after a worker's
death asks the same turn (the log is where it was), finds the row and publishes it again with
a fresh deadline, or takes the answer that came meanwhile; the answer becomes an event through
the append with an expected seq, so it is written once.

Waiting is a poll of the row, woken early by a bell: Redis publish/subscribe where a Redis
broker runs (any web process may take the answer, any worker waits for it), a condition
variable of this process otherwise (the embedded defaults: the driver runs in the process that
started the match, and the dev server takes the answer in another of its threads). The owner's
bell carries the act itself (act_payload), so a stream sends it without reading the rows; the
streams served on an event loop (config/asgi.py) listen through AsyncBell.
"""
from __future__ import annotations

import datetime as dt
import json
import logging
import threading
import time

from django.conf import settings
from django.db import OperationalError, connection, transaction
from django.db.models import F
from django.utils import timezone

from .models import BotVersion, RemoteAct
from .sandbox import BotFault, TimeControl
from .sandbox.channel import _Clock

log = logging.getLogger(__name__)

RUNTIME = "remote"  # BotVersion.runtime of a remote bot's version


def _poll_seconds() -> float:
    """How often a waiter reads the rows without a bell (another process, no Redis)."""
    return getattr(settings, "REMOTE_POLL_SECONDS", 0.05)


def sqlite_patient(operation):
    """``operation()``, tried again for a while when SQLite says a table is locked. A test's
    in-memory database is shared between threads through SQLite's shared cache, where a reader
    meets a writer's table lock at once instead of waiting (a file database waits: settings);
    the driver, the stream and the answers of one match meet there all the time."""
    for attempt in range(200):
        try:
            return operation()
        except OperationalError as exc:
            if connection.vendor != "sqlite" or "locked" not in str(exc) or attempt == 199:
                raise
            time.sleep(0.01)


# -- the bell ----------------------------------------------------------------------------------

def _redis_url() -> str | None:
    """The broker's Redis, where tasks do not run in process; None otherwise."""
    from config.celery import app

    url = settings.CELERY_BROKER_URL or ""
    if app.conf.task_always_eager or not url.startswith(("redis://", "rediss://")):
        return None
    return url


_redis_clients: dict[str, object] = {}
_local = threading.Condition()
_local_rings = 0


def _redis_client():
    url = _redis_url()
    if url is None:
        return None
    if url not in _redis_clients:
        import redis

        _redis_clients[url] = redis.Redis.from_url(url)
    return _redis_clients[url]


def _channel(name: str) -> str:
    return f"arena:{settings.CELERY_TASK_DEFAULT_QUEUE}:remote:{name}"


def owner_channel(user_id) -> str:
    """Rung when an act is published for one of the user's seats."""
    return _channel(f"owner:{user_id}")


def act_channel(act_id) -> str:
    """Rung when the act is answered."""
    return _channel(f"act:{act_id}")


def ring(channel: str, payload: bytes = b"1") -> None:
    """Wake whoever waits on ``channel`` (after the caller's commit, if it is in one). The
    ``payload`` reaches Redis listeners (an act's message, so a stream sends it without reading
    the rows: act_payload); a waiter in this process without Redis reads the rows."""
    def now():
        global _local_rings
        with _local:
            _local_rings += 1
            _local.notify_all()
        for loop, event in list(_async_waiters):
            try:
                loop.call_soon_threadsafe(event.set)
            except RuntimeError:  # its loop closed
                _async_waiters.discard((loop, event))
        client = _redis_client()
        if client is not None:
            try:
                client.publish(channel, payload)
            except Exception as exc:  # the poll still finds the row
                log.warning("remote: the bell %s could not ring: %s", channel, exc)

    transaction.on_commit(now)


def act_payload(act_id, published_at: dt.datetime, message: dict) -> bytes:
    """What the owner's bell carries when an act is published: its row's key and its message."""
    return json.dumps({"act": act_id, "published_at": published_at.isoformat(), "message": message},
                      separators=(",", ":")).encode()


def act_from_payload(payload: bytes) -> tuple[tuple, dict] | None:
    """The key (act id, published_at) and message an act_payload carries; None for another ring."""
    if not payload.startswith(b"{"):
        return None
    try:
        found = json.loads(payload)
        return (found["act"], found["published_at"]), found["message"]
    except (ValueError, KeyError, TypeError):
        return None


class Bell:
    """A waiter's ear on one channel: ``wait(seconds)`` returns early when the channel rings,
    with the payloads Redis brought (none from a ring in this process). Listening starts at
    creation, so a ring between a read of the rows and the wait is heard."""

    def __init__(self, channel: str):
        self._pubsub = None
        client = _redis_client()
        if client is not None:
            try:
                self._pubsub = client.pubsub(ignore_subscribe_messages=True)
                self._pubsub.subscribe(channel)
            except Exception as exc:
                log.warning("remote: cannot listen on %s (%s); polling", channel, exc)
                self._pubsub = None
        self._heard = _local_rings

    def wait(self, seconds: float) -> list[bytes]:
        if seconds <= 0:
            return []
        if self._pubsub is not None:
            try:
                heard = []
                message = self._pubsub.get_message(timeout=seconds)
                while message is not None:  # and whatever else came meanwhile
                    heard.append(message["data"])
                    message = self._pubsub.get_message(timeout=0)
                return heard
            except Exception:
                self._pubsub = None
        with _local:
            if _local_rings == self._heard:
                _local.wait(min(seconds, _poll_seconds()))
            self._heard = _local_rings
        return []

    def close(self) -> None:
        if self._pubsub is not None:
            try:
                self._pubsub.close()
            except Exception:
                pass
            self._pubsub = None


_async_waiters: set = set()  # (loop, asyncio.Event) of AsyncBells without Redis, rung by ring()
_async_clients: dict = {}  # (event loop, url) -> redis.asyncio.Redis


class AsyncBell:
    """Bell for a coroutine (the streams of config/asgi.py): the same channel, the same
    payloads, on the event loop. With Redis a task of its own reads the subscription (a blocked
    read: no wake-up while nothing rings); without it a ring of this process sets an event, and
    the waiter reads the rows every REMOTE_POLL_SECONDS besides (another process's ring)."""

    def __init__(self, channel: str):
        import asyncio

        self.channel = channel
        self._heard: asyncio.Queue = asyncio.Queue()
        self._event = asyncio.Event()
        self._pubsub = self._reader = None
        self._loop = asyncio.get_running_loop()

    async def open(self) -> "AsyncBell":
        import asyncio

        url = _redis_url()
        if url is not None:
            try:
                key = (self._loop, url)
                if key not in _async_clients:
                    import redis.asyncio

                    _async_clients[key] = redis.asyncio.Redis.from_url(url)
                self._pubsub = _async_clients[key].pubsub(ignore_subscribe_messages=True)
                await self._pubsub.subscribe(self.channel)
                self._reader = asyncio.create_task(self._read())
                return self
            except Exception as exc:
                log.warning("remote: cannot listen on %s (%s); polling", self.channel, exc)
                await self._pubsub_close()
        _async_waiters.add((self._loop, self._event))
        return self

    async def _read(self) -> None:
        try:
            while True:
                message = await self._pubsub.get_message(timeout=None)
                if message is not None:
                    self._heard.put_nowait(message["data"])
        except Exception as exc:  # the connection broke: the waiter polls from now on
            import asyncio

            if isinstance(exc, asyncio.CancelledError):
                raise
            log.warning("remote: lost the bell %s (%s); polling", self.channel, exc)
            self._pubsub = None
            _async_waiters.add((self._loop, self._event))
            self._heard.put_nowait(b"")

    async def wait(self, seconds: float, *, also=None) -> list[bytes]:
        """Until a ring (its payloads), ``seconds``, or the event ``also`` is set."""
        import asyncio

        if seconds <= 0:
            return []
        if self._pubsub is None:
            seconds, source = min(seconds, _poll_seconds()), self._event.wait()
        else:
            source = self._heard.get()
        waits = {asyncio.ensure_future(source)}
        if also is not None:
            waits.add(asyncio.ensure_future(also.wait()))
        done, pending = await asyncio.wait(waits, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
        heard = []
        for task in done:
            found = task.result()
            if isinstance(found, bytes) and found:
                heard.append(found)
        while not self._heard.empty():
            found = self._heard.get_nowait()
            if found:
                heard.append(found)
        self._event.clear()
        return heard

    async def _pubsub_close(self) -> None:
        if self._pubsub is not None:
            try:
                await self._pubsub.aclose()
            except Exception:
                pass
            self._pubsub = None

    async def close(self) -> None:
        _async_waiters.discard((self._loop, self._event))
        if self._reader is not None:
            self._reader.cancel()
            self._reader = None
        await self._pubsub_close()


# -- the answer --------------------------------------------------------------------------------

class AnswerRefused(ValueError):
    """An answer the seat does not take; ``code`` says why (docs/remote.md, "Refusals")."""

    def __init__(self, reason: str, *, code: str, status: int = 409):
        super().__init__(reason)
        self.code, self.status = code, status


def remote_act_answer(*, match, seat: int, turn, action, user, arrived=None) -> RemoteAct:
    """Take ``user``'s answer ``action`` to the act of ``match``'s ``seat`` at ``turn``, which
    ``arrived`` then (default: now; the clock stops when the request came in, not after its
    authentication and look-ups): one conditional UPDATE, so only the first answer in time is taken. AnswerRefused names the
    reason otherwise (not the owner, not a remote seat, no such act, answered already, late, the
    match over) and nothing is changed."""
    seats = match.seats or []
    if not 0 <= seat < len(seats):
        raise AnswerRefused(f"the match has seats 0-{len(seats) - 1}, not {seat}", code="no_such_seat", status=404)
    version = sqlite_patient(lambda: BotVersion.objects.select_related("bot")
                             .filter(pk=seats[seat].get("bot_version")).first())
    if version is None or version.bot.owner_id != user.pk:
        raise AnswerRefused(f"seat {seat} of this match is not your bot's", code="not_owner", status=403)
    if version.bot.kind != version.bot.Kind.REMOTE:
        raise AnswerRefused(f"seat {seat} is not a remote seat: its bot runs on the server", code="not_remote")
    if match.status != match.Status.RUNNING:
        raise AnswerRefused(f"the match is {match.status}: it asks nothing more", code="match_over")
    now = arrived or timezone.now()
    taken = sqlite_patient(lambda: RemoteAct.objects.filter(
        match=match, seat=seat, turn=turn, owner=user, status=RemoteAct.Status.OPEN, deadline__gte=now)
        .update(status=RemoteAct.Status.ANSWERED, answer=action, answered_at=now))
    act = sqlite_patient(lambda: RemoteAct.objects.filter(match=match, seat=seat, turn=turn).first())
    if not taken:
        raise _refusal(act, match=match, seat=seat, turn=turn, now=now)
    ring(act_channel(act.pk))
    return act


def _refusal(act: RemoteAct | None, *, match, seat: int, turn, now) -> AnswerRefused:
    """Why an answer to ``act`` (None: no act of that turn) was not taken."""
    if act is None:
        current = RemoteAct.objects.filter(match=match, seat=seat, status=RemoteAct.Status.OPEN) \
            .values_list("turn", flat=True).first()
        waiting = f"the seat's open act is turn {current}" if current is not None else "the seat has no open act"
        return AnswerRefused(f"seat {seat} was never asked at turn {turn}: {waiting}", code="wrong_turn")
    if act.status == RemoteAct.Status.ANSWERED:
        return AnswerRefused(f"turn {turn} of seat {seat} was answered already, at {act.answered_at.isoformat()}",
                             code="already_answered")
    if act.status == RemoteAct.Status.TIMED_OUT or (act.status == RemoteAct.Status.OPEN and act.deadline < now):
        return AnswerRefused(f"turn {turn} of seat {seat} is over: its deadline was {act.deadline.isoformat()}",
                             code="late")
    return AnswerRefused(f"turn {turn} of seat {seat} is no longer asked (the match moved on)", code="wrong_turn")


def remote_acts_open(*, user):
    """The open acts of ``user``'s remote seats in running matches, oldest first."""
    return RemoteAct.objects.filter(owner=user, status=RemoteAct.Status.OPEN, match__status="running") \
        .order_by("published_at", "id")


# -- the seat ----------------------------------------------------------------------------------

class RemoteSeat:
    """A remote bot in its seat; the interface of games.engine.bots.Bot. ``turn_of()`` gives the
    turn an act is asked at (the driver's log length: ``folder.seq + 1``)."""

    name = "remote"
    limits = None  # no process, no start-up grace: the clock runs from the publication

    def __init__(self, *, match_id, version: BotVersion, time_control: TimeControl = TimeControl(),
                 bank_ms: int | None = None, turn_of=None):
        self.match_id, self.version, self.time_control = match_id, version, time_control
        self.turn_of = turn_of
        self._clock = _Clock(time_control, 0)
        if bank_ms is not None:
            self._clock.bank_ms = max(0, int(bank_ms))
        self.last_clock: dict | None = None
        self.seat: int | None = None
        self._hello: dict | None = None
        self._thread = threading.get_ident()
        self._match_checked = time.monotonic()

    @property
    def bank_ms(self) -> int:
        """What is left of the time bank."""
        return self._clock.bank_ms

    def hello(self, message: dict) -> None:
        """Kept, and sent inside every act: a client that connects mid-match starts its program
        with it (docs/remote.md)."""
        self.seat = message.get("seat")
        self._hello = dict(message, time_control=self.time_control.to_json(),
                           runtime={"name": RUNTIME, "version": ""})

    def act(self, message: dict):
        """Publish the act, wait for the answer under the clock; the action, or BotFault."""
        try:
            return self._act(message)
        finally:
            if threading.get_ident() != self._thread:  # a simultaneous phase's pool thread
                connection.close()

    def _act(self, message: dict):
        act = sqlite_patient(lambda: self._publish(message))
        bell = Bell(act_channel(act.pk))
        try:
            act = self._wait(act, bell)
        finally:
            bell.close()
        if act.status == RemoteAct.Status.ANSWERED:
            elapsed = (act.answered_at - act.published_at).total_seconds()
            bank = self._clock.charge(elapsed, 0.0)
            self.last_clock = {"elapsed_ms": int(elapsed * 1000), "bank_ms": bank}
            return act.answer
        elapsed = (timezone.now() - act.published_at).total_seconds()
        self._clock.bank_ms = 0
        self.last_clock = {"elapsed_ms": int(elapsed * 1000), "bank_ms": 0}
        raise BotFault("timeout", {"detail": "no answer from the remote client before the clock ran out",
                                   "sent": "", "elapsed_ms": int(elapsed * 1000), "turn": act.turn})

    def _publish(self, message: dict) -> RemoteAct:
        """The row of this turn, published (again) with a fresh deadline, unless it was decided
        already (answered or timed out while no driver waited: that decision stands). Open rows
        of this seat at other turns are closed: the match moved on without them."""
        turn = self.turn_of() if self.turn_of is not None else 0
        now = timezone.now()
        window_ms = self.time_control.move_ms + self._clock.bank_ms
        body = dict(message, match=str(self.match_id), turn=turn,
                    clock={"move_ms": self.time_control.move_ms, "bank_ms": self._clock.bank_ms},
                    deadline=(now + dt.timedelta(milliseconds=window_ms)).isoformat(), hello=self._hello)
        fields = {"message": body, "published_at": now, "deadline": now + dt.timedelta(milliseconds=window_ms)}
        # One transaction: the act is seen (by the stream) only with its final stamp, once.
        with transaction.atomic():
            if connection.vendor == "postgresql":
                # Its COMMIT does not wait for the disk: the seat's clock runs from the stamp, and
                # the row is no record (a driver that resumes publishes it again); the answer's
                # and the events' commits stay durable.
                with connection.cursor() as cursor:
                    cursor.execute("SET LOCAL synchronous_commit TO OFF")
            RemoteAct.objects.filter(match_id=self.match_id, seat=self.seat, status=RemoteAct.Status.OPEN) \
                .exclude(turn=turn).update(status=RemoteAct.Status.CLOSED)
            act, created = RemoteAct.objects.get_or_create(
                match_id=self.match_id, seat=self.seat, turn=turn,
                defaults={**fields, "owner_id": self.version.bot.owner_id, "bot_version": self.version})
            if not created and RemoteAct.objects.filter(pk=act.pk, status=RemoteAct.Status.OPEN).update(
                    **fields, publications=F("publications") + 1):
                log.info("match %s: seat %s turn %s published again", self.match_id, self.seat, turn)
            stamped = self._stamp(act.pk, body, window_ms)
        # The bell first (the clock runs), then the row for the waiter: the stream sends the act
        # from the bell's payload, without reading it again.
        ring(owner_channel(act.owner_id), act_payload(act.pk, *stamped) if stamped else b"1")
        act.refresh_from_db()
        return act

    @staticmethod
    def _stamp(act_id, body: dict, window_ms: int) -> tuple[dt.datetime, dict] | None:
        """The clock starts now, as the act is committed (the writes before it are the server's
        time, not the seat's): published_at and the deadline set again, if still open. The
        stamp and the message; None if the act was decided already."""
        now = timezone.now()
        deadline = now + dt.timedelta(milliseconds=window_ms)
        message = dict(body, deadline=deadline.isoformat())
        if RemoteAct.objects.filter(pk=act_id, status=RemoteAct.Status.OPEN).update(
                published_at=now, deadline=deadline, message=message):
            return now, message
        return None

    def _wait(self, act: RemoteAct, bell: Bell) -> RemoteAct:
        """Until the row is answered, or its deadline passed and it was moved to timed_out (or
        answered at the last moment: the conditional UPDATE decides)."""
        while act.status == RemoteAct.Status.OPEN:
            left = (act.deadline - timezone.now()).total_seconds()
            if self._match_over():
                raise BotFault("timeout", {"detail": "the match ended (aborted) while the seat was asked",
                                           "sent": "", "elapsed_ms": 0, "turn": act.turn})
            if left < 0:
                sqlite_patient(lambda: RemoteAct.objects.filter(pk=act.pk, status=RemoteAct.Status.OPEN)
                               .update(status=RemoteAct.Status.TIMED_OUT))
            else:
                bell.wait(min(left + 0.001, 1.0))
            sqlite_patient(act.refresh_from_db)
        return act

    def _match_over(self) -> bool:
        """Whether the match stopped running (a cancelled tournament's abort), read at most once
        a second: the driver stops waiting then, and its write finds the match taken."""
        now = time.monotonic()
        if now - self._match_checked < 1.0:
            return False
        self._match_checked = now
        from replays.models import Match

        return not sqlite_patient(lambda: Match.objects.filter(pk=self.match_id, status=Match.Status.RUNNING)
                                  .exists())

    def result(self, message: dict) -> None:
        """The match ended: the owner's streams send their result lines now, not at their next
        keepalive."""
        ring(owner_channel(self.version.bot.owner_id), b"over")
        self.close()

    def close(self) -> None:
        """Nothing runs here; open rows of the seat are left to the next driver (a resumed
        match asks them again) or to the stream's filter on running matches."""
