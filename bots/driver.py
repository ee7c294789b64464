"""The match driver: plays a stored match on from its log, crash-proof and idempotent.

``match_drive`` reads the log, folds it, asks whoever must act, checks, appends with the expected
seq, and repeats until the end. A lease on the match row lets one driver run at a time: a second
delivery of the same task finds the lease taken and returns; a driver whose worker was killed
stops renewing, its lease expires and the periodic sweep queues the match again. A bot thinking
slowly but legally never looks like a dead worker: a worker's driver renews its lease from a
heartbeat thread while a step is within the longest answer the time control allows, and the
lease never reaches more than one lease ahead, so a dead worker's match is queued again within
one lease plus one sweep (_Lease). Even if two drivers overlapped, appends with
an expected seq make a fork impossible (AppendConflict). A match whose message never reached a
worker (lost between the commit and the publish, or with the broker's data) has no lease at
all; the sweep queues it again once it has waited MATCH_QUEUE_WAIT_SECONDS unclaimed.

A driver that fails (no sandbox on this worker, a built-in bot the game no longer ships) leaves
``failed:<n>`` as the match's driver token; the sweep queues it again, and after
MATCH_DRIVE_ATTEMPTS failures in a row the match is aborted with the last error as its reason.
"""
from __future__ import annotations

import datetime as dt
import logging
import threading
import time
import uuid

from django.conf import settings
from django.db import DatabaseError, connection
from django.db.models import Q
from django.utils import timezone

from games.engine import InvalidOptions, registry
from replays.models import Event, Match
from replays.selectors import match_folder
from replays.services import AppendConflict, event_append, match_abort

from .models import BotVersion
from .referee import FaultPolicy, RefereeRunner
from .remote import RemoteSeat
from .sandbox import SandboxedBot, TimeControl, sandbox_check

log = logging.getLogger(__name__)


class LeaseLost(Exception):
    """Another driver took the match over (our lease expired): stop without writing."""


FAILED = "failed:"  # driver token of a match whose last drivers failed: "failed:<count>"
MAX_EVENTS = 1_000_000  # a match this long has a bug in its rules, not a long game


def _lease_seconds() -> int:
    return getattr(settings, "MATCH_LEASE_SECONDS", 30)


def _drive_attempts() -> int:
    return getattr(settings, "MATCH_DRIVE_ATTEMPTS", 5)


def match_lease_claim(*, match_id, token: str) -> bool:
    """Take the driver lease if nobody holds a live one (one atomic UPDATE)."""
    now = timezone.now()
    return Match.objects.filter(pk=match_id, status=Match.Status.RUNNING).filter(
        Q(driver_lease_until__isnull=True) | Q(driver_lease_until__lt=now)
    ).update(driver_token=token, driver_lease_until=now + dt.timedelta(seconds=_lease_seconds())) == 1


class _Lease:
    """The lease a driver holds, renewed only when it would run out too soon (not on every event:
    one UPDATE saved per append; the expected-seq append still refuses a fork if a lease ever
    lapsed unnoticed). Create it just before claiming, so it never thinks it has more left.

    A driver on PostgreSQL outside a transaction (a worker's) also renews it from a heartbeat
    thread every third of a lease, to one lease from then, while the step under way is within
    the longest time it may take (the clock's move and bank, a sandbox's startup, a third of a
    lease). So the lease never reaches more than one lease beyond now: when the worker dies, it
    runs out within one lease of the death, however long the bots' clocks are, and the sweep
    queues the match at its next run (issue 40, item 10: the lease had been held ahead for the
    whole of the longest answer, and a match waited up to 80 s after a kill with a 30 s lease).
    A driver hung past its step's time stops being renewed and loses the match as before. Inside
    a transaction (a test's) another connection could not see the match, and SQLite has one
    writer: there the lease is held ahead for the longest answer from the driver's own thread."""

    def __init__(self, match_id, token: str):
        self.match_id, self.token, self.seconds = match_id, token, _lease_seconds()
        self.expires = time.monotonic() + self.seconds
        self.step_until: float | None = None  # monotonic end of the longest the step may take
        self.lost = False  # the heartbeat found the lease taken over
        self._stop, self._heartbeat = threading.Event(), None

    def heartbeat_start(self) -> None:
        """Renew from a thread of its own where the module's docstring says so."""
        if connection.vendor != "postgresql" or connection.in_atomic_block:
            return
        self._heartbeat = threading.Thread(target=self._beat, name=f"lease-{self.match_id}", daemon=True)
        self._heartbeat.start()

    def heartbeat_stop(self) -> None:
        if self._heartbeat is not None:
            self._stop.set()
            self._heartbeat.join()
            self._heartbeat = None

    def _beat(self) -> None:
        """The heartbeat thread: one UPDATE a third of a lease, on its own connection."""
        try:
            while not self._stop.wait(self.seconds / 3):
                if self.step_until is not None and time.monotonic() > self.step_until:
                    continue  # the step overran all it may take: let the lease run out
                started = time.monotonic()
                try:
                    renewed = Match.objects.filter(pk=self.match_id, driver_token=self.token).update(
                        driver_lease_until=timezone.now() + dt.timedelta(seconds=self.seconds))
                except DatabaseError as exc:  # the driver's own thread meets it too, if it lasts
                    log.warning("match %s: the lease heartbeat failed: %s", self.match_id, exc)
                    connection.close()
                    continue
                if not renewed:
                    self.lost = True
                    return
                self.expires = max(self.expires, started + self.seconds)
        finally:
            connection.close()

    def hold(self, seconds: float) -> None:
        """Make the lease last at least ``seconds`` more. When it must be renewed, it is renewed
        for a third of a lease beyond that, so it is written at most once per third of a lease."""
        if self.lost:
            raise LeaseLost(f"match {self.match_id}: lease taken over")
        if self.expires - time.monotonic() >= seconds:
            return
        length = seconds + self.seconds / 3
        if not Match.objects.filter(pk=self.match_id, driver_token=self.token).update(
                driver_lease_until=timezone.now() + dt.timedelta(seconds=length)):
            raise LeaseLost(f"match {self.match_id}: lease taken over")
        self.expires = time.monotonic() + length

    def hold_for_write(self) -> None:
        """Before an append: renewed once a third of the lease has passed."""
        self.hold(self.seconds * 2 / 3)

    def hold_while_asking(self, bots, time_control: TimeControl) -> None:
        """Before a step that may ask a bot: the longest answer any seat may take, and a third of
        a lease for writing it. Built-in bots have no clock of their own; the time control is
        their budget too. With the heartbeat that is the step's time limit and the lease is
        held as for a write; without it, the lease is held ahead for all of it."""
        longest = max((_answer_seconds(bot, time_control) for bot in bots), default=0.0)
        if self._heartbeat is not None:
            self.step_until = time.monotonic() + longest + self.seconds / 3
            self.hold_for_write()
        else:
            self.hold(longest + self.seconds / 3)


def _answer_seconds(bot, time_control: TimeControl) -> float:
    """The longest one answer may take: move_ms, what is left of the bank, and for a sandboxed
    bot the startup grace (its process may be started, or restarted after a fault, on this move)."""
    bank_ms = getattr(bot, "bank_ms", time_control.bank_ms)
    limits = getattr(bot, "limits", None)
    startup_ms = limits.startup_ms if limits is not None else 0
    return (time_control.move_ms + bank_ms + startup_ms) / 1000


def _lease_release(*, match_id, token: str, failures: int = 0) -> None:
    """Give the match up; ``failures`` (drivers in a row that failed) is left for the next one.
    After a failure the lease is left expired rather than cleared, so the sweep retries the
    match (it retries expired leases only), at its next run.

    The driver may have failed because its database connection died (a server restart, a
    terminated backend): the release would then fail on it too, mask the driver's error and
    leave the lease to run out. So a release that meets a broken connection closes it and is
    made once more on a fresh one (outside a transaction only: inside one, the caller's, a new
    connection would not be the caller's)."""
    def release():
        Match.objects.filter(pk=match_id, driver_token=token).update(
            driver_lease_until=timezone.now() if failures else None,
            driver_token=f"{FAILED}{failures}" if failures else "")

    _on_a_live_connection(release, f"match {match_id}: the lease release")


def _on_a_live_connection(write, what: str):
    """``write()``; if it meets a broken connection, once more on a fresh one (see
    _lease_release)."""
    try:
        return write()
    except DatabaseError as exc:
        if connection.in_atomic_block:
            raise
        log.warning("%s met a broken connection (%s); made again on a fresh one", what, exc)
        connection.close()
        return write()


def builtin_bot(ruleset, name: str, seed: int, time_control: TimeControl):
    """The built-in bot ``name`` in this process. No bank is kept for it: it is told the move
    time and an empty bank, so a bot that thinks by the clock (search) stays within move_ms."""
    bot = ruleset.bots()[name](ruleset, seed)
    bot.clock = {"move_ms": time_control.move_ms, "bank_ms": 0}
    return bot


def decision_bound(ruleset, players: int, options: dict) -> int | None:
    """The most times one seat can be asked to act in a match of these options: the game's
    bound on a match's events (``max_events``), None for a game that states none. It sets an
    uploaded bot's CPU allowance (bots.sandbox.cpu_allowance)."""
    bound = getattr(ruleset, "max_events", None)
    return bound(players, ruleset.options(options)) if bound is not None else None


def events_limit(ruleset, players: int) -> int:
    """The most events the driver plays in one match of ``players``: MAX_EVENTS, or the game's
    bound for its default options where that is more (Warlock's and Wizard Kings' bounds are
    loose, true bounds of 3 M-177 M events; their matches run hundreds). Past it a match is
    failed as a bug in its rules."""
    default = decision_bound(ruleset, players, {})
    return max(MAX_EVENTS, default or 0)


def events_bound_check(ruleset, players: int, options: dict | None) -> None:
    """Refuse (InvalidOptions, with the reason) options under which a match may legally run
    longer than the driver plays one (events_limit): such a match would be failed by the driver
    although no rule was broken (Trap the Wizard's turn_limit and rounds allow 18 M events
    against the driver's 1 M). Called when a match or a tournament is created, before anything
    is stored."""
    bound, limit = decision_bound(ruleset, players, options or {}), events_limit(ruleset, players)
    if bound is not None and bound > limit:
        raise InvalidOptions(
            f"these options let a {players}-player match of {ruleset.spec.name} run to {bound:,} events "
            f"(the game's max_events), more than the {limit:,} the match driver plays: choose "
            "options that bound a match to at most that many")


def seat_bot(*, seat: int, info: dict, ruleset, time_control: TimeControl, bot_seed: int,
             bank_ms: int | None = None, decisions: int | None = None, match_id=None):
    """The bot playing ``seat``: a built-in bot in process, a remote bot's mailbox (RemoteSeat,
    its ``turn_of`` set by the caller), or an uploaded bot in the sandbox
    (refused with SandboxUnavailable where bubblewrap cannot run, unless the local-development
    setting ARENA_ALLOW_UNSANDBOXED_BOTS is on) whose CPU allowance covers ``decisions`` moves
    at this time control (decision_bound)."""
    from .services import bot_version_code_dir

    version = BotVersion.objects.select_related("bot").get(pk=info["bot_version"])
    if version.bot.kind == "builtin":
        return builtin_bot(ruleset, version.bot.builtin_name, bot_seed * 1000 + seat, time_control)
    if version.bot.kind == "remote":
        return RemoteSeat(match_id=match_id, version=version, time_control=time_control, bank_ms=bank_ms)
    unsandboxed = getattr(settings, "ARENA_ALLOW_UNSANDBOXED_BOTS", False)
    if not unsandboxed:
        sandbox_check()
    return SandboxedBot(bot_version_code_dir(version=version), time_control=time_control,
                        sandbox=not unsandboxed, bank_ms=bank_ms, decisions=decisions)


def banks_so_far(match: Match) -> dict[int, int]:
    """Each seat's time bank as its last recorded clock left it (a resumed match goes on with
    what the bots had, not with full banks)."""
    banks: dict[int, int] = {}
    for seat, payload in Event.objects.filter(match=match, kind="action").order_by("-seq") \
            .values_list("seat", "payload").iterator():
        bank = (payload.get("clock") or {}).get("bank_ms")
        if bank is not None and seat not in banks:
            banks[seat] = bank
            if len(banks) == match.players:
                break
    return banks


def _strikes_so_far(match: Match) -> dict[int, int]:
    """Default actions already played for faulting seats (the policy survives a resume)."""
    strikes: dict[int, int] = {}
    for seat in Event.objects.filter(match=match, kind="action", payload__has_key="fault") \
            .values_list("seat", flat=True):
        strikes[seat] = strikes.get(seat, 0) + 1
    return strikes


def match_drive(*, match_id, bot_seed: int = 0, max_events: int | None = None,
                seated: dict | None = None) -> str:
    """Play the match to its end (or ``max_events`` more events) from wherever its log stands.
    ``seated``, if given, receives the seats' bots (closed by then; a sandboxed bot's stderr tail
    stays readable: botcheck shows it).
    Returns "ended", "paused" (max_events reached), "busy" (another driver holds the match),
    "not running", "lease lost" or "aborted" (MATCH_DRIVE_ATTEMPTS drivers failed in a row).
    Any other failure is raised, and counted on the match for the next driver."""
    token = uuid.uuid4().hex
    failures = _failures_so_far(match_id)
    lease = _Lease(match_id, token)
    if not match_lease_claim(match_id=match_id, token=token):
        running = Match.objects.filter(pk=match_id, status=Match.Status.RUNNING).exists()
        return "busy" if running else "not running"
    bots, failed_in_a_row = {}, 0
    lease.heartbeat_start()
    try:
        return _play(Match.objects.get(pk=match_id), lease, bots, bot_seed=bot_seed, max_events=max_events)
    except (LeaseLost, AppendConflict) as exc:
        log.warning("match %s: driver stops: %s", match_id, exc)
        return "lease lost"
    except Exception as exc:
        if not _still_ours(match_id, token):
            # the match was taken from us meanwhile (a cancelled tournament's abort, whose lock
            # may end our append in a deadlock): nothing of ours to retry
            log.warning("match %s: driver stops, its lease was taken: %r", match_id, exc)
            return "lease lost"
        # Retried by the sweep, but not forever: an error that comes back on every worker (no
        # sandbox, a missing built-in bot) would otherwise hold the match, and its tournament.
        if failures + 1 < _drive_attempts():
            failed_in_a_row = failures + 1
            log.error("match %s: driver %d in a row failed: %r", match_id, failed_in_a_row, exc)
            raise
        log.error("match %s: aborted after %d failed drivers: %r", match_id, failures + 1, exc)
        return _abort_failing(match_id, failures + 1, exc)
    finally:
        lease.heartbeat_stop()
        for bot in bots.values():
            close = getattr(bot, "close", None)
            if close:
                close()
        if seated is not None:
            seated.update(bots)
        try:
            _lease_release(match_id=match_id, token=token, failures=failed_in_a_row)
        except DatabaseError:
            if not failed_in_a_row:
                raise
            # The database is gone for good: the driver's own error (raised on) is the one to
            # see; the lease runs out and the sweep retries the match then.
            log.exception("match %s: the lease could not be released", match_id)


def _play(match: Match, lease: _Lease, bots: dict, *, bot_seed: int, max_events: int | None) -> str:
    """Seat the bots (into ``bots``: the caller closes them) and play on from the log, holding
    the lease before every step. "ended", or "paused" after ``max_events``."""
    ruleset = registry.get(match.ruleset, match.ruleset_version)
    time_control = TimeControl(**match.time_control)
    banks = banks_so_far(match)
    decisions = decision_bound(ruleset, len(match.seats), match.options)
    bots.update({seat: seat_bot(seat=seat, info=info, ruleset=ruleset, time_control=time_control,
                                bot_seed=bot_seed, bank_ms=banks.get(seat), decisions=decisions,
                                match_id=match.pk)
                 for seat, info in enumerate(match.seats)})
    folder = match_folder(match=match)
    for bot in bots.values():
        if isinstance(bot, RemoteSeat):
            bot.turn_of = lambda: folder.seq + 1  # the act's name survives a resume: the log's length

    def append(kind, seat, payload, state):
        lease.hold_for_write()
        return event_append(match=match, expected_seq=folder.seq + 1, prev_hash=folder.head_hash,
                            kind=kind, seat=seat, payload=payload, state=state,
                            after_time=folder.head_time)

    runner = RefereeRunner(folder, seed=bytes(match.seed), bots=bots, append=append,
                           policy=FaultPolicy.from_json(match.fault_policy),
                           strikes=_strikes_so_far(match))
    limit = events_limit(ruleset, len(match.seats))
    for _ in range(limit if max_events is None else max_events):
        lease.hold_while_asking(bots.values(), time_control)
        if not runner.step():
            return "ended"
    if max_events is None:
        raise RuntimeError(f"match {match.pk} did not end within {limit} events")
    return "paused"


def _still_ours(match_id, token: str) -> bool:
    """Whether the match still runs under our lease (read on a live connection)."""
    try:
        return _on_a_live_connection(lambda: Match.objects.filter(
            pk=match_id, driver_token=token, status=Match.Status.RUNNING).exists(),
            f"match {match_id}: the lease check")
    except DatabaseError:
        return True  # cannot tell: counted as a failure, as before


def _failures_so_far(match_id) -> int:
    """How many drivers in a row failed on the match (read from its driver token)."""
    token = Match.objects.filter(pk=match_id).values_list("driver_token", flat=True).first() or ""
    return int(token[len(FAILED):]) if token.startswith(FAILED) else 0


def _abort_failing(match_id, attempts: int, exc: Exception) -> str:
    """End a match no driver can play, with the reason in its log; "aborted"."""
    reason = f"{attempts} drivers failed in a row; the last: {type(exc).__name__}: {exc}"[:500]
    try:
        _on_a_live_connection(lambda: match_abort(match=Match.objects.get(pk=match_id), reason=reason),
                              f"match {match_id}: the abort")
    except AppendConflict:  # it ended meanwhile (a driver that overlapped us finished it)
        return "not running"
    return "aborted"


def stuck_match_ids(*, older_than_seconds: int = 10) -> list:
    """Running matches whose driver died or failed: an expired lease, created a while ago. A
    match with no lease at all has not been picked up yet (it waits in the queue): not stuck,
    unless it has waited too long (``lost_matches_take``)."""
    now = timezone.now()
    return list(Match.objects.filter(status=Match.Status.RUNNING, driver_lease_until__lt=now,
                                     created_at__lt=now - dt.timedelta(seconds=older_than_seconds))
                .values_list("pk", flat=True))


def stuck_matches_take(*, older_than_seconds: int = 10, among=None) -> list:
    """The stuck matches (of the ids ``among``, if given), each taken by clearing its expired
    lease (one UPDATE each, so two sweeps never queue one match twice, and a match queued again
    counts as waiting until a driver claims it, from now: ``queued_at``)."""
    taken = []
    stuck = stuck_match_ids(older_than_seconds=older_than_seconds)
    for match_id in stuck if among is None else [m for m in stuck if str(m) in {str(a) for a in among}]:
        now = timezone.now()
        if Match.objects.filter(pk=match_id, driver_lease_until__lt=now).update(
                driver_lease_until=None, queued_at=now):
            taken.append(match_id)
    return taken


def _queue_wait_seconds() -> int:
    return getattr(settings, "MATCH_QUEUE_WAIT_SECONDS", 120)


def lost_matches_take(*, wait_seconds: int | None = None) -> list:
    """Running matches queued for a driver ``wait_seconds`` ago (default
    settings.MATCH_QUEUE_WAIT_SECONDS) that no driver has claimed since: their message is
    presumed lost (a worker killed between the commit that made the match and the publish after
    it, a broker restarted without its data). Each is taken by moving its ``queued_at`` to now
    (one UPDATE each: two sweeps never queue it twice, and it waits the whole time again before
    the next). A match that merely waits that long behind a long queue gets a second message;
    the driver that takes the later one finds the match ended or its lease held, and returns."""
    wait = _queue_wait_seconds() if wait_seconds is None else wait_seconds
    cutoff = timezone.now() - dt.timedelta(seconds=wait)
    waiting = Match.objects.filter(status=Match.Status.RUNNING, driver_lease_until__isnull=True,
                                   queued_at__lt=cutoff)
    taken = []
    for match_id in waiting.values_list("pk", flat=True):
        if waiting.filter(pk=match_id).update(queued_at=timezone.now()):
            taken.append(match_id)
    return taken
