"""The match driver: plays a stored match on from its log, crash-proof and idempotent.

``match_drive`` reads the log, folds it, asks whoever must act, checks, appends with the expected
seq, and repeats until the end. A lease on the match row lets one driver run at a time: a second
delivery of the same task finds the lease taken and returns; a driver whose worker was killed
stops renewing, its lease expires and the periodic sweep queues the match again. Even if two
drivers overlapped, appends with an expected seq make a fork impossible (AppendConflict).
"""
from __future__ import annotations

import datetime as dt
import logging
import time
import uuid

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from games.engine import registry
from replays.models import Event, Match
from replays.selectors import match_folder
from replays.services import AppendConflict, event_append

from .models import BotVersion
from .referee import FaultPolicy, RefereeRunner
from .sandbox import SandboxedBot, TimeControl, sandbox_check

log = logging.getLogger(__name__)


class LeaseLost(Exception):
    """Another driver took the match over (our lease expired): stop without writing."""


def _lease_seconds() -> int:
    return getattr(settings, "MATCH_LEASE_SECONDS", 30)


def match_lease_claim(*, match_id, token: str) -> bool:
    """Take the driver lease if nobody holds a live one (one atomic UPDATE)."""
    now = timezone.now()
    return Match.objects.filter(pk=match_id, status=Match.Status.RUNNING).filter(
        Q(driver_lease_until__isnull=True) | Q(driver_lease_until__lt=now)
    ).update(driver_token=token, driver_lease_until=now + dt.timedelta(seconds=_lease_seconds())) == 1


class _Lease:
    """Renews the lease when a third of it has passed (not on every event: one UPDATE saved per
    append; the expected-seq append still refuses a fork if a lease ever lapsed unnoticed)."""

    def __init__(self, match_id, token: str):
        self.match_id, self.token = match_id, token
        self.renewed = time.monotonic()

    def renew_if_due(self) -> None:
        seconds = _lease_seconds()
        if time.monotonic() - self.renewed < seconds / 3:
            return
        until = timezone.now() + dt.timedelta(seconds=seconds)
        if not Match.objects.filter(pk=self.match_id, driver_token=self.token).update(
                driver_lease_until=until):
            raise LeaseLost(f"match {self.match_id}: lease taken over")
        self.renewed = time.monotonic()


def _lease_release(*, match_id, token: str) -> None:
    Match.objects.filter(pk=match_id, driver_token=token).update(driver_lease_until=None, driver_token="")


def seat_bot(*, seat: int, info: dict, ruleset, time_control: TimeControl, bot_seed: int,
             bank_ms: int | None = None):
    """The bot playing ``seat``: a built-in bot in process, or an uploaded bot in the sandbox
    (refused with SandboxUnavailable where bubblewrap cannot run, unless the local-development
    setting ARENA_ALLOW_UNSANDBOXED_BOTS is on)."""
    from .services import bot_version_code_dir

    version = BotVersion.objects.select_related("bot").get(pk=info["bot_version"])
    if version.bot.kind == "builtin":
        return ruleset.builtin_bots()[version.bot.builtin_name](ruleset, bot_seed * 1000 + seat)
    unsandboxed = getattr(settings, "ARENA_ALLOW_UNSANDBOXED_BOTS", False)
    if not unsandboxed:
        sandbox_check()
    return SandboxedBot(bot_version_code_dir(version=version), time_control=time_control,
                        sandbox=not unsandboxed, bank_ms=bank_ms)


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


def match_drive(*, match_id, bot_seed: int = 0, max_events: int | None = None) -> str:
    """Play the match to its end (or ``max_events`` more events) from wherever its log stands.
    Returns "ended", "paused" (max_events reached), "busy" (another driver holds the match),
    "not running" or "lease lost"."""
    token = uuid.uuid4().hex
    if not match_lease_claim(match_id=match_id, token=token):
        running = Match.objects.filter(pk=match_id, status=Match.Status.RUNNING).exists()
        return "busy" if running else "not running"
    bots = {}
    try:
        match = Match.objects.get(pk=match_id)
        ruleset = registry.get(match.ruleset)
        time_control = TimeControl(**match.time_control)
        banks = banks_so_far(match)
        bots = {seat: seat_bot(seat=seat, info=info, ruleset=ruleset, time_control=time_control,
                               bot_seed=bot_seed, bank_ms=banks.get(seat))
                for seat, info in enumerate(match.seats)}
        folder = match_folder(match=match)
        lease = _Lease(match_id, token)

        def append(kind, seat, payload, state):
            lease.renew_if_due()
            return event_append(match=match, expected_seq=folder.seq + 1, prev_hash=folder.head_hash,
                                kind=kind, seat=seat, payload=payload, state=state)

        runner = RefereeRunner(folder, seed=bytes(match.seed), bots=bots, append=append,
                               policy=FaultPolicy.from_json(match.fault_policy),
                               strikes=_strikes_so_far(match))
        if max_events is None:
            runner.run()
            return "ended"
        for _ in range(max_events):
            if not runner.step():
                return "ended"
        return "paused"
    except (LeaseLost, AppendConflict) as exc:
        log.warning("match %s: driver stops: %s", match_id, exc)
        return "lease lost"
    finally:
        for bot in bots.values():
            close = getattr(bot, "close", None)
            if close:
                close()
        _lease_release(match_id=match_id, token=token)


def stuck_match_ids(*, older_than_seconds: int = 10) -> list:
    """Running matches nobody drives: no lease or an expired one, created a while ago."""
    now = timezone.now()
    return list(Match.objects.filter(status=Match.Status.RUNNING,
                                     created_at__lt=now - dt.timedelta(seconds=older_than_seconds))
                .filter(Q(driver_lease_until__isnull=True) | Q(driver_lease_until__lt=now))
                .values_list("pk", flat=True))
