"""Issue 43.5: "The matchmaker, rating updates and scrimmage bookkeeping survive worker kills and
restarts: no match scheduled twice, none lost, no rating applied twice or skipped, the number in
flight never above the setting (tests with a real broker and worker, as the driver's are)."

Real PostgreSQL, Redis and Celery worker processes (run, and fail rather than skip, when
DATABASE_URL and CELERY_BROKER_URL are set: CI's second pass). The test process plays the beat:
it queues the matchmaker (``ladder.matchmake``) to the worker and also runs it itself, so two
matchmakers race for the same ladder, and it runs the driver's sweep that queues a match again
once its dead driver's lease expired. Workers are killed with SIGKILL mid-match and inside the
rating fold (the ladder's row held by the test, so the worker's fold waits on it when killed);
a new worker takes over. Afterwards, from the database alone:

- the matches in flight, counted at every moment a ladder match was made (from the matches'
  start and end times), never exceed LADDER_MATCHES_IN_FLIGHT, and no bot played two ladder
  matches at once (no match scheduled twice);
- every ladder match ended, with a gap-free, valid log (none lost);
- every ended ladder match is folded in, and each version's games equal the ladder matches it
  played, the ratings equal a recompute of the whole history (no rating applied twice or skipped);
- a rated scrimmage ends finished with exactly its games, its W-T-L adding up to them.
"""
from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction

from bots.services import bot_create, bot_version_upload
from ladder.models import Ladder, LadderEntry, LadderMatch, LadderRating, Scrimmage, VersionCheck
from ladder.services import ladder_get_or_create, ladder_ratings_recompute
from replays.models import Event, Match

from ..bots.conftest import sandbox_required  # noqa: F401  (a fixture)
from ..bots.test_driver import _assert_finished_and_valid

ROOT = Path(__file__).resolve().parents[2]
GAME = "sorcado"
# The example random bot, thinking 30 ms a move: a Sorcado match then lasts a second or more, so
# a worker can be killed while one runs whatever the machine's load (unslowed, a quiet machine
# played a whole match in 0.2 s, between two looks of the test).
GOOD = (ROOT / "examples" / "bots" / "random_bot.py").read_bytes().replace(
    b"            action = rng.choice(", b"            __import__('time').sleep(0.03)\n            action = rng.choice(")
assert b"sleep(0.03)" in GOOD
CAP = 1  # four bots could play two matches at once: the cap, not the bots, holds them back
WORKER_ENV = {"MATCH_LEASE_SECONDS": "2", "LADDER_MATCHES_IN_FLIGHT": os.environ.get("TEST_LADDER_WORKER_CAP", str(CAP))}

pytestmark = [pytest.mark.postgres, pytest.mark.worker, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def ladder_of_four(settings, sandbox_required, purged_queue):  # noqa: F811
    """A Sorcado ladder of four bots (random, heuristic and two uploads of the example random
    bot, their checks passed): two matches could run at once, so the cap (one) is what holds
    them back."""
    settings.LADDER_MATCHES_IN_FLIGHT = CAP
    settings.ARENA_ALLOW_UNSANDBOXED_BOTS = False
    owner = get_user_model().objects.create_user("alice", password="alice-Secret-123")
    ladder = ladder_get_or_create(game=GAME)
    for name in ("rnd1", "rnd2"):
        bot = bot_create(owner=owner, name=name, game=GAME)
        version = bot_version_upload(bot=bot, filename="main.py", content=GOOD + f"# {name}\n".encode())
        VersionCheck.objects.create(version=version, status=VersionCheck.Status.PASSED)
        LadderEntry.objects.create(ladder=ladder, bot=bot, version=version)
    return ladder


def _beat(ladder) -> int:
    """One beat of the periodic tasks, as celery beat would queue them, plus a matchmaker in
    this process racing the worker's; the most matches in flight seen."""
    from bots.tasks import sweep_stuck_matches
    from ladder.tasks import matchmake

    matchmake.delay()
    matchmake()
    sweep_stuck_matches()
    return LadderMatch.objects.filter(ladder=ladder, match__status=Match.Status.RUNNING).count()


def _until(condition, ladder, worker, seconds: float, what: str) -> int:
    """Beat every half second until ``condition()``; the most matches in flight seen."""
    most, deadline = 0, time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        assert worker is None or worker.poll() is None, "the worker died"
        most = max(most, _beat(ladder))
        time.sleep(0.5)
    return most


def _kill(worker) -> None:
    os.kill(worker.pid, signal.SIGKILL)
    worker.wait()


def _ladder_row_holder(ladder) -> tuple[threading.Thread, threading.Event, threading.Event]:
    """A thread that holds the ladder's row FOR UPDATE from ``holding`` until ``release``: a
    worker folding a match in (or topping up) waits on it."""
    holding, release = threading.Event(), threading.Event()

    def hold():
        try:
            with transaction.atomic():
                Ladder.objects.select_for_update().get(pk=ladder.pk)
                holding.set()
                release.wait(timeout=120)
        finally:
            connection.close()

    return threading.Thread(target=hold), holding, release


def _until_playing(ladder, worker) -> None:
    """Wait until the worker is seen driving a ladder match (its events grow), with no
    matchmaker meanwhile: only the driver's sweep, for a match a killed worker left."""
    from bots.tasks import sweep_stuck_matches

    events = Event.objects.filter(match__ladder_match__ladder=ladder, match__status=Match.Status.RUNNING)
    before, deadline = events.count(), time.monotonic() + 60
    while events.count() <= before:
        assert time.monotonic() < deadline, "the worker drove no ladder match"
        assert worker.poll() is None, "the worker died"
        sweep_stuck_matches()
        time.sleep(0.2)


def _purge_control_queue() -> None:
    from django.conf import settings

    from config.celery import app

    with app.connection_for_write() as broker:
        broker.default_channel.queue_purge(settings.CELERY_CONTROL_QUEUE)


def _waiting_on_a_lock() -> bool:
    """Another session of this database waits on a row lock (the worker, on the ladder's row)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                       "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()")
        return cursor.fetchone()[0] > 0


def _drain(ladder) -> None:
    """No new matches (every bot taken off); a fresh worker and the beat finish what runs and
    fold in what ended."""
    from tests.conftest import start_worker, stop_worker

    LadderEntry.objects.filter(ladder=ladder).update(active=False)
    worker = start_worker("ladder-drain", **WORKER_ENV)
    try:
        pending = LadderMatch.objects.filter(ladder=ladder)
        _until(lambda: not pending.filter(match__status=Match.Status.RUNNING).exists()
               and not pending.filter(applied=False).exists(), ladder, worker, 120,
               "a ladder match was lost: still running or never folded in")
    finally:
        stop_worker(worker)


def _assert_the_books_balance(ladder, *, matchmaker_only: bool = True) -> None:
    """No match scheduled twice, none lost, no rating applied twice or skipped, the cap kept
    (``matchmaker_only``: a scrimmage's games are made at once, whatever the cap, and seat the
    requester in each)."""
    made = list(LadderMatch.objects.filter(ladder=ladder).select_related("match").order_by("match__created_at"))
    assert made, "no ladder match was made"
    for ladder_match in made:
        _assert_finished_and_valid(ladder_match.match)
        assert ladder_match.applied
    # In flight at each moment a match was made: those made before it and not ended yet.
    for one in made if matchmaker_only else []:
        overlapping = [other for other in made if other.match.created_at <= one.match.created_at
                       and other.match.ended_at > one.match.created_at]
        assert len(overlapping) <= CAP, f"{len(overlapping)} ladder matches in flight at once"
        seated = [entry for other in overlapping for entry in other.entries]
        assert len(seated) == len(set(seated)), "a bot was in two ladder matches at once"
    played: dict[int, int] = {}
    for ladder_match in made:
        for seat in ladder_match.match.seats:
            played[seat["bot_version"]] = played.get(seat["bot_version"], 0) + 1
    stored = {r.version_id: (r.mu, r.sigma, r.games) for r in LadderRating.objects.filter(ladder=ladder)}
    assert {version: games for version, (_, _, games) in stored.items()} == played
    assert ladder_ratings_recompute(ladder=ladder) == len(made)
    again = {r.version_id: (r.mu, r.sigma, r.games) for r in LadderRating.objects.filter(ladder=ladder)}
    assert again.keys() == stored.keys()
    assert all(again[v] == pytest.approx(stored[v]) for v in stored)


def test_kill_9_workers_mid_match_and_mid_fold_and_the_ladders_books_still_balance(ladder_of_four):
    from tests.conftest import start_worker, stop_worker

    ladder, most = ladder_of_four, 0
    ended = LadderMatch.objects.filter(ladder=ladder, match__status=Match.Status.ENDED)
    for attempt in range(2):  # killed mid-match: its lease expires, the sweep queues it again
        worker = start_worker(f"ladder-doomed{attempt}", **WORKER_ENV)
        try:
            target = ended.count() + 2
            most = max(most, _until(lambda: ended.count() >= target and Event.objects.filter(
                match__ladder_match__ladder=ladder, match__status=Match.Status.RUNNING).count() >= 10,
                ladder, worker, 90, "the worker played no ladder match"))
            _kill(worker)
        finally:
            if worker.poll() is None:
                stop_worker(worker)
    # Killed inside the fold: the beat stops, the worker is seen playing a match (a solo worker
    # holds no other message meanwhile), the control queue is emptied of the beat's matchmakers,
    # and the ladder's row is held: when that match ends, the worker's fold waits on the row
    # (PostgreSQL shows it waiting on a lock), and is killed there. The beat's matchmaker folds
    # the match in later, once.
    worker = start_worker("ladder-doomed-fold", **WORKER_ENV)
    holder, holding, release = _ladder_row_holder(ladder)
    try:
        running = LadderMatch.objects.filter(ladder=ladder, match__status=Match.Status.RUNNING)
        _until(running.exists, ladder, worker, 60, "no ladder match to hold back")
        _until_playing(ladder, worker)
        _purge_control_queue()
        folded = LadderMatch.objects.filter(ladder=ladder, applied=True).count()
        holder.start()
        assert holding.wait(timeout=30)
        deadline = time.monotonic() + 90
        while not _waiting_on_a_lock():
            assert time.monotonic() < deadline, "the worker never came to fold a match in"
            assert worker.poll() is None, "the worker died"
            time.sleep(0.2)
        _kill(worker)
    finally:
        release.set()
        if holder.is_alive():
            holder.join(timeout=60)
        if worker.poll() is None:
            stop_worker(worker)
    assert LadderMatch.objects.filter(ladder=ladder, applied=True).count() == folded, \
        "the killed worker's fold was not undone"
    _drain(ladder)
    assert most <= CAP
    _assert_the_books_balance(ladder)


def test_kill_9_a_worker_mid_scrimmage_and_it_still_finishes_with_every_game(ladder_of_four):
    """A rated scrimmage of six games (its games count in the ladder's matches in flight); the
    worker is killed mid-game, a new one finishes it: exactly six games, W-T-L adding up to six,
    each folded into the ladder once."""
    from ladder.scrimmages import scrimmage_create, scrimmage_record
    from tests.conftest import start_worker, stop_worker

    ladder = ladder_of_four
    mine = LadderEntry.objects.get(ladder=ladder, bot__name="rnd1")
    LadderEntry.objects.filter(ladder=ladder).exclude(pk=mine.pk).exclude(bot__name="random").update(active=False)
    opponent = LadderEntry.objects.get(ladder=ladder, bot__name="random")
    worker = start_worker("scrimmage-doomed", **WORKER_ENV)
    try:
        scrimmage = scrimmage_create(owner=mine.bot.owner, bot=mine.bot, opponents=[opponent.bot], games=6,
                                     rated=True)
        LadderEntry.objects.filter(ladder=ladder).update(active=False)  # the matchmaker adds none
        games = Match.objects.filter(scrimmage_match__scrimmage=scrimmage)
        deadline = time.monotonic() + 90
        while not (games.filter(status=Match.Status.ENDED).count() >= 1
                   and Event.objects.filter(match__in=games.filter(status=Match.Status.RUNNING)).count() >= 10):
            assert time.monotonic() < deadline, "the worker played no game of the scrimmage"
            assert worker.poll() is None, "the worker died"
            time.sleep(0.1)
        _kill(worker)
    finally:
        if worker.poll() is None:
            stop_worker(worker)
    assert Scrimmage.objects.get(pk=scrimmage.pk).status == Scrimmage.Status.OPEN
    rescuer = start_worker("scrimmage-rescuer", **WORKER_ENV)
    try:
        _until(lambda: Scrimmage.objects.get(pk=scrimmage.pk).status == Scrimmage.Status.FINISHED
               and not LadderMatch.objects.filter(ladder=ladder, applied=False).exists(), ladder, rescuer, 120,
               "the scrimmage never finished")
    finally:
        stop_worker(rescuer)
    scrimmage.refresh_from_db()
    record = scrimmage_record(scrimmage=scrimmage)["record"]
    assert games.count() == 6 and record["pending"] == record["aborted"] == 0
    assert record["wins"] + record["ties"] + record["losses"] == 6
    assert scrimmage.finished_at is not None
    assert LadderMatch.objects.filter(ladder=ladder).count() == 6  # its games are the ladder's matches
    _assert_the_books_balance(ladder, matchmaker_only=False)
