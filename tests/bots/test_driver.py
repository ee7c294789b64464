"""The match driver: resumes from the log, survives faults and killed workers, never forks a log."""
import datetime as dt
import os
import signal
import threading
import time

import pytest
from django.db import connection
from django.utils import timezone

from bots.driver import match_drive, match_lease_claim, stuck_match_ids
from bots.services import builtin_bot_versions, match_start
from games.engine import registry
from games.engine.log import validate
from replays.models import Event, Match
from replays.selectors import match_records

TWO_ROUNDS = {"rounds": 2}


def _versions(game="trap-the-wizard", names=("greedy", "random")):
    available = builtin_bot_versions(game=game)
    return [available[name] for name in names]


def _assert_finished_and_valid(match):
    match.refresh_from_db()
    assert match.status == Match.Status.ENDED
    seqs = list(Event.objects.filter(match=match).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(len(seqs))), "the log has a gap or a duplicate seq"
    report = validate(match_records(match=match))
    assert report.ok and report.chance_verified, report.to_json()


def test_it_drives_a_match_of_builtin_bot_versions_to_a_valid_end(db, eager_tasks):
    match = match_start(ruleset="trap-the-wizard", versions=_versions(), options=TWO_ROUNDS, queue=False)
    assert match_drive(match_id=match.id) == "ended"
    _assert_finished_and_valid(match)
    actions = Event.objects.filter(match=match, kind="action")
    assert all("elapsed_ms" in e.payload["clock"] for e in actions), "every decision records its time"


def test_the_search_bot_plays_a_match_thinking_by_the_matchs_move_time(db):
    """Issue 15.2: the search bot's "per-move budget taken from the clock it is given": in the
    driver's process it is told the match's move_ms and no bank (none is kept for built-ins)."""
    from bots.driver import seat_bot
    from bots.sandbox import TimeControl
    from games.engine import registry
    from games.engine.search import SearchBot

    match = match_start(ruleset="trap-the-wizard", versions=_versions(names=("search", "random")),
                        options={"rounds": 1, "turn_limit": 30}, time_control={"move_ms": 40, "bank_ms": 5000},
                        queue=False)
    bot = seat_bot(seat=0, info=match.seats[0], ruleset=registry.get("trap-the-wizard"),
                   time_control=TimeControl(move_ms=40, bank_ms=5000), bot_seed=0)
    # the game's search (Trap the Wizard's own tuning of the generic SearchBot)
    assert type(bot) is registry.get("trap-the-wizard").bots()["search"]
    assert isinstance(bot, SearchBot) and bot.clock == {"move_ms": 40, "bank_ms": 0}
    assert match_drive(match_id=match.id) == "ended"
    _assert_finished_and_valid(match)


def test_it_resumes_a_half_played_match_from_its_log(db):
    match = match_start(ruleset="trap-the-wizard", versions=_versions(), options={"rounds": 5},
                        queue=False, seed=b"resume".ljust(32, b"."))  # fixed: over 150 events
    assert match_drive(match_id=match.id, max_events=150) == "paused"
    before = [(r["seq"], r["hash"]) for r in match_records(match=match)]
    assert len(before) == 151
    assert match_drive(match_id=match.id) == "ended"  # a fresh driver: fold the log, go on
    after = [(r["seq"], r["hash"]) for r in match_records(match=match)]
    assert after[:151] == before and len(after) > 151
    _assert_finished_and_valid(match)


def test_a_second_driver_finds_the_lease_taken_and_writes_nothing(db):
    match = match_start(ruleset="trap-the-wizard", versions=_versions(), options=TWO_ROUNDS, queue=False)
    assert match_lease_claim(match_id=match.id, token="someone-else")
    assert match_drive(match_id=match.id) == "busy"
    assert Event.objects.filter(match=match).count() == 1
    assert stuck_match_ids(older_than_seconds=0) == []  # a live lease is not stuck


def test_a_match_whose_lease_expired_is_stuck_and_a_fresh_one_is_not(db, settings):
    match = match_start(ruleset="trap-the-wizard", versions=_versions(), options=TWO_ROUNDS, queue=False)
    settings.MATCH_LEASE_SECONDS = -1  # a claim that has already expired, as a dead worker's does
    assert match_lease_claim(match_id=match.id, token="dead-worker")
    assert stuck_match_ids(older_than_seconds=0) == [match.id]
    assert stuck_match_ids(older_than_seconds=3600) == [], "too young to be called stuck"
    settings.MATCH_LEASE_SECONDS = 30
    assert match_drive(match_id=match.id) == "ended"  # the expired lease can be taken over
    assert stuck_match_ids(older_than_seconds=0) == []


def test_an_ended_match_is_not_driven_again(db):
    match = match_start(ruleset="trap-the-wizard", versions=_versions(), options=TWO_ROUNDS, queue=False)
    match_drive(match_id=match.id)
    count = Event.objects.filter(match=match).count()
    assert match_drive(match_id=match.id) == "not running"
    assert Event.objects.filter(match=match).count() == count


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_same_match_driven_twice_at_once_appends_nothing_twice():
    match = match_start(ruleset="trap-the-wizard", versions=_versions(), options=TWO_ROUNDS, queue=False)
    outcomes, barrier = [], threading.Barrier(2)

    def drive():
        try:
            barrier.wait(timeout=10)
            outcomes.append(match_drive(match_id=match.id))
        finally:
            connection.close()

    threads = [threading.Thread(target=drive) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert sorted(outcomes) == ["busy", "ended"]
    _assert_finished_and_valid(match)


@pytest.mark.postgres
@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_kill_9_the_worker_mid_match_and_a_new_worker_finishes_it(purged_queue):
    """Five times: a worker is killed with SIGKILL mid-match; a new worker, queued by the sweep
    once the dead driver's lease expires, finishes the match; the log is gap-free and valid."""
    from bots.tasks import sweep_stuck_matches
    from tests.conftest import start_worker, stop_worker

    for attempt in range(5):
        first = start_worker(f"doomed{attempt}", MATCH_LEASE_SECONDS="2")
        try:
            # Five rounds: well over a thousand events, so the kill lands mid-match.
            match = match_start(ruleset="trap-the-wizard", versions=_versions(), options={"rounds": 5})
            deadline = time.monotonic() + 60
            while Event.objects.filter(match=match).count() < 30 + 30 * attempt:
                assert time.monotonic() < deadline, "the first worker never started the match"
                time.sleep(0.05)
            os.kill(first.pid, signal.SIGKILL)
            first.wait()
        finally:
            if first.poll() is None:
                stop_worker(first)
        played = Event.objects.filter(match=match).count()
        match.refresh_from_db()
        assert match.status == Match.Status.RUNNING, f"attempt {attempt}: the match ended before the kill"
        second = start_worker(f"rescuer{attempt}", MATCH_LEASE_SECONDS="2")
        try:
            deadline = time.monotonic() + 90
            while Match.objects.get(pk=match.pk).status == Match.Status.RUNNING:
                assert time.monotonic() < deadline, f"attempt {attempt}: the match was not finished"
                sweep_stuck_matches()  # the periodic task, run here instead of by celery beat
                time.sleep(1)
        finally:
            stop_worker(second)
        assert Event.objects.filter(match=match).count() > played
        _assert_finished_and_valid(match)


def test_it_keeps_the_lease_through_a_slow_but_legal_move(db, settings, monkeypatch):
    """A move inside its time control outlasting the plain lease is not a dead worker."""
    from games.engine import registry

    settings.MATCH_LEASE_SECONDS = 1  # stands for 30 s against a move_ms of 45 s
    random = builtin_bot_versions(game="sorcado")["random"]
    match = match_start(ruleset="sorcado", versions=[random, random], queue=False,
                        time_control={"move_ms": 45_000})
    bot_class = registry.get("sorcado").builtin_bots()["random"]
    act, seen = bot_class.act, {"calls": 0}

    def slow_act(self, message):
        seen["calls"] += 1
        if seen["calls"] == 3:
            time.sleep(1.2)  # longer than the plain lease, well inside move_ms
            seen["stuck"] = match.id in stuck_match_ids(older_than_seconds=0)
            seen["taken_over"] = match_lease_claim(match_id=match.id, token="second-driver")
        return act(self, message)

    monkeypatch.setattr(bot_class, "act", slow_act)
    assert match_drive(match_id=match.id) == "ended"
    assert seen["calls"] > 3 and not seen["stuck"] and not seen["taken_over"]
    match.refresh_from_db()
    assert match.status == Match.Status.ENDED


def test_it_holds_the_lease_for_one_move_of_the_time_control_not_longer(db, settings, monkeypatch):
    """While a bot thinks, the lease runs out soon after its move_ms + bank could: a worker that
    dies mid-move is still swept after about that long."""
    from games.engine import registry

    settings.MATCH_LEASE_SECONDS = 3
    random = builtin_bot_versions(game="sorcado")["random"]
    match = match_start(ruleset="sorcado", versions=[random, random], queue=False,
                        time_control={"move_ms": 4000, "bank_ms": 2000})
    bot_class = registry.get("sorcado").builtin_bots()["random"]
    act, left = bot_class.act, []

    def timed_act(self, message):
        until = Match.objects.values_list("driver_lease_until", flat=True).get(pk=match.id)
        left.append((until - timezone.now()).total_seconds())
        return act(self, message)

    monkeypatch.setattr(bot_class, "act", timed_act)
    assert match_drive(match_id=match.id) == "ended"
    assert left and all(6 < seconds <= 6 + 3 for seconds in left), left


def test_it_aborts_a_match_after_repeated_driver_failures_with_the_reason(db, settings):
    """A built-in bot the game no longer ships fails every driver; the sweep retries it only
    MATCH_DRIVE_ATTEMPTS times, then the match is aborted with the error as its reason."""
    from bots.models import Bot

    settings.MATCH_DRIVE_ATTEMPTS = 3
    match = match_start(ruleset="trap-the-wizard", versions=_versions(), options=TWO_ROUNDS, queue=False)
    Bot.objects.filter(game="trap-the-wizard", builtin_name="random").update(builtin_name="retired")
    for attempt in range(2):
        with pytest.raises(KeyError, match="retired"):
            match_drive(match_id=match.id)
        assert stuck_match_ids(older_than_seconds=0) == [match.id], "the sweep tries again"
    assert match_drive(match_id=match.id) == "aborted"
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED
    last = Event.objects.filter(match=match).order_by("-seq").first()
    assert last.kind == "match_aborted" and "3 drivers failed" in last.payload["reason"]
    assert "KeyError" in last.payload["reason"] and "retired" in last.payload["reason"]
    assert stuck_match_ids(older_than_seconds=0) == []


def test_it_counts_only_failures_in_a_row(db, settings):
    from bots.models import Bot

    settings.MATCH_DRIVE_ATTEMPTS = 2
    match = match_start(ruleset="trap-the-wizard", versions=_versions(), options=TWO_ROUNDS, queue=False)
    bot = Bot.objects.get(game="trap-the-wizard", builtin_name="random")

    def ship_random_as(name):
        Bot.objects.filter(pk=bot.pk).update(builtin_name=name)

    ship_random_as("retired")
    with pytest.raises(KeyError):
        match_drive(match_id=match.id)
    ship_random_as("random")  # shipped again: the next driver plays on and clears the count
    assert match_drive(match_id=match.id, max_events=3) == "paused"
    ship_random_as("retired")
    with pytest.raises(KeyError):  # one failure since the last good driver: not aborted yet
        match_drive(match_id=match.id)
    match.refresh_from_db()
    assert match.status == Match.Status.RUNNING


LONGER_THAN_THE_DRIVER = {"rounds": 20, "turn_limit": 100_000, "wizards": 6}  # 18 M events by max_events


def test_options_that_allow_more_events_than_the_driver_plays_are_refused_at_creation(db):
    """Issue 40, item 12: Trap the Wizard's options allow up to 18 M events by max_events while
    the driver stops at MAX_EVENTS; such a match is refused when it is created, with the
    reason, and nothing is stored. Options within the bound are taken."""
    from bots.driver import MAX_EVENTS, decision_bound
    from games.engine import InvalidOptions

    ruleset = registry.get("trap-the-wizard")
    assert decision_bound(ruleset, 2, LONGER_THAN_THE_DRIVER) > MAX_EVENTS
    with pytest.raises(InvalidOptions, match=r"max_events.*1,000,000 the match driver plays"):
        match_start(ruleset="trap-the-wizard", versions=_versions(), options=LONGER_THAN_THE_DRIVER,
                    queue=False)
    assert not Match.objects.exists()
    within = {"rounds": 20, "turn_limit": 5_000, "wizards": 6}
    assert decision_bound(ruleset, 2, within) <= MAX_EVENTS
    assert match_start(ruleset="trap-the-wizard", versions=_versions(), options=within, queue=False)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_killed_connection_under_a_running_driver_raises_its_own_error_and_frees_the_lease_at_once():
    """Issue 40, item 9: the driver's database connection is terminated (pg_terminate_backend)
    mid-match. The driver raises the real error (the terminated connection, not a second error of
    the lease release), the lease is released on a fresh connection (expired, with the failure
    counted), so the sweep sees the match at once rather than when the lease runs out; the next
    driver finishes it."""
    from django.db import OperationalError, connections

    from bots.driver import stuck_matches_take

    match = match_start(ruleset="trap-the-wizard", versions=_versions(), options={"rounds": 5}, queue=False)
    Match.objects.filter(pk=match.pk).update(created_at=timezone.now() - dt.timedelta(minutes=1))
    backend, raised = [], []

    def drive():
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                backend.append(cursor.fetchone()[0])
            match_drive(match_id=match.pk)
        except Exception as exc:  # the driver's error, to be asserted below
            raised.append(exc)
        finally:
            connection.close()

    driver = threading.Thread(target=drive)
    driver.start()
    deadline = time.monotonic() + 60
    while Event.objects.filter(match=match).count() < 50:
        assert time.monotonic() < deadline and driver.is_alive(), "the driver never got going"
        time.sleep(0.02)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [backend[0]])
    driver.join(timeout=60)
    assert not driver.is_alive()
    assert len(raised) == 1 and isinstance(raised[0], OperationalError), raised
    assert "terminat" in str(raised[0]), raised[0]  # the real error: the connection was terminated
    match.refresh_from_db()
    assert match.status == Match.Status.RUNNING
    assert match.driver_token == "failed:1"
    assert match.driver_lease_until <= timezone.now()  # not 30 s on: the sweep sees it now
    assert stuck_matches_take() == [match.pk]
    assert match_drive(match_id=match.pk) == "ended"
    _assert_finished_and_valid(match)
    assert connections["default"].is_usable()


def test_every_games_default_options_are_within_the_driver_limit():
    """The check of item 12 refuses no game's defaults: the limit is the game's bound for its
    defaults where that is more than MAX_EVENTS (Warlock's and Wizard Kings' are loose)."""
    from bots.driver import MAX_EVENTS, events_bound_check, events_limit

    for name in registry.names():
        ruleset = registry.get(name)
        for players in range(ruleset.spec.min_players, ruleset.spec.max_players + 1):
            events_bound_check(ruleset, players, {})
            assert events_limit(ruleset, players) >= MAX_EVENTS
    assert events_limit(registry.get("trap-the-wizard"), 2) == MAX_EVENTS
