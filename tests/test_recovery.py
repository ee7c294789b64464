"""Issue 12: every effect of a finished match is recoverable from the database alone. Whatever a
dying worker loses (the tournament's advance, the validation, the ratings, the match's own
message), a sweep finds it owed and makes it good, once; nothing merely waiting is queued again
before it has waited MATCH_QUEUE_WAIT_SECONDS, the sign of a message lost before it was sent.
"""
import ast
import os
import signal
import threading
import time
from pathlib import Path

import pytest
from django.db import connection, transaction
from django.utils import timezone

from bots.driver import (lost_matches_take, match_drive, match_lease_claim, stuck_match_ids,
                         stuck_matches_take)
from bots.services import builtin_bot_versions, match_start
from replays.models import Match, Validation
from tournaments.models import Rating, Tournament
from tournaments.services import tournament_create, tournament_start, tournaments_sweep

ROOT = Path(__file__).resolve().parent.parent


def _sorcado_tournament(entrants: int, format: str = "round-robin") -> Tournament:
    versions = builtin_bot_versions(game="sorcado")
    names = sorted(versions)
    tournament = tournament_create(name="t", game="sorcado", format=format,
                                   entries=[versions[names[i % len(names)]] for i in range(entrants)])
    tournament_start(tournament=tournament, queue=False)
    return tournament


def test_a_lost_advance_and_lost_ratings_are_made_good_by_the_sweep(db):
    """The worker wrote the end and died before the tournament heard of it (no match_finished
    ran) and the ratings recompute queued at the finish was lost too: the sweep advances the
    tournament and rates it, from the database alone, and a second sweep finds nothing owed."""
    tournament = _sorcado_tournament(2)
    match = Match.objects.get(pairing_game__pairing__tournament=tournament)
    assert match_drive(match_id=match.id) == "ended"  # ... and nothing else ran
    assert tournaments_sweep()["advanced"] == 1
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED and not tournament.rated
    # The recompute queued on commit never runs inside this test's transaction: lost, as with
    # a dying worker. The next sweep sees a finished tournament not rated yet.
    assert tournaments_sweep() == {"advanced": 0, "matches_started": 0, "ratings_recomputed": ["sorcado"],
                                  "cancelled_matches_aborted": 0}
    tournament.refresh_from_db()
    assert tournament.rated and Rating.objects.filter(game="sorcado").count() == 2
    assert tournaments_sweep() == {"advanced": 0, "matches_started": 0, "ratings_recomputed": [],
                                  "cancelled_matches_aborted": 0}


def test_the_sweep_starts_the_next_round_a_lost_advance_owed(db):
    tournament = _sorcado_tournament(4, format="single-elimination")
    first_round = list(Match.objects.filter(pairing_game__pairing__tournament=tournament))
    assert len(first_round) == 2
    assert match_drive(match_id=first_round[0].id) == "ended"
    assert tournaments_sweep()["matches_started"] == 0, "a match still runs: nothing is owed yet"
    assert match_drive(match_id=first_round[1].id) == "ended"
    assert tournaments_sweep()["matches_started"] == 1  # the final
    assert tournaments_sweep()["matches_started"] == 0  # started once


def test_a_lost_validation_is_queued_again_after_the_grace(db, eager_tasks):
    from replays.selectors import unvalidated_match_ids
    from replays.tasks import sweep_validations

    versions = builtin_bot_versions(game="sorcado")
    match = match_start(ruleset="sorcado", versions=[versions["random"], versions["heuristic"]],
                        queue=False)
    assert match_drive(match_id=match.id) == "ended"  # validate_match waits for a commit: lost
    assert unvalidated_match_ids() == [], "within the grace the validation may still be queued"
    assert unvalidated_match_ids(grace_seconds=0) == [match.pk]
    Match.objects.filter(pk=match.pk).update(ended_at=timezone.now() - timezone.timedelta(minutes=5))
    assert sweep_validations() == 1
    assert Validation.objects.get(match=match).ok
    assert sweep_validations() == 0


def test_a_match_waiting_in_the_queue_is_not_stuck_and_a_dead_drivers_is_taken_once(db):
    """Issue 12.2: the sweep told queued from stuck by the lease alone and re-queued whatever
    had none. Now only an expired lease is stuck, and taking it clears it, so the next sweep
    sees a match waiting for its new driver, not a stuck one."""
    versions = builtin_bot_versions(game="sorcado")
    match = match_start(ruleset="sorcado", versions=[versions["random"], versions["random"]],
                        queue=False)
    Match.objects.filter(pk=match.pk).update(created_at=timezone.now() - timezone.timedelta(minutes=5))
    assert stuck_match_ids() == [], "never claimed: waiting in the queue"
    Match.objects.filter(pk=match.pk).update(driver_token="dead",
                                             driver_lease_until=timezone.now() - timezone.timedelta(seconds=1))
    assert stuck_matches_take() == [match.pk]
    assert stuck_matches_take() == [], "queued again once: now it waits for its driver"
    assert match_drive(match_id=match.id) == "ended"


def test_a_match_whose_message_was_lost_is_queued_again_once_it_has_waited(db, eager_tasks, settings):
    """Found by bench/recovery.py (2026-11-28): the control worker was killed between the commit
    that made a round's eight matches and the publish of their play_match messages. The matches
    stayed running with no lease, which the sweep took for "waiting in the queue", and the
    tournament waited for ever. A match no driver has claimed MATCH_QUEUE_WAIT_SECONDS after it
    was queued is queued again, once a wait; one that is merely young, driven, or never queued
    (driven in process) is not."""
    from bots.tasks import sweep_stuck_matches

    settings.MATCH_QUEUE_WAIT_SECONDS = 60
    versions = builtin_bot_versions(game="sorcado")
    pair = [versions["random"], versions["random"]]
    lost = match_start(ruleset="sorcado", versions=pair)  # its message: on commit, never here
    in_process = match_start(ruleset="sorcado", versions=pair, queue=False)
    driven = match_start(ruleset="sorcado", versions=pair)
    assert lost.queued_at is not None and in_process.queued_at is None
    assert lost_matches_take() == [], "queued a moment ago: it may be waiting in the queue"
    long_ago = timezone.now() - timezone.timedelta(minutes=5)
    Match.objects.filter(pk__in=[lost.pk, in_process.pk, driven.pk]).update(created_at=long_ago)
    Match.objects.filter(pk__in=[lost.pk, driven.pk]).update(queued_at=long_ago)
    assert match_lease_claim(match_id=driven.pk, token="alive")  # a live driver holds it
    assert stuck_match_ids() == [], "no expired lease: nothing is stuck in the old sense"
    assert sweep_stuck_matches() == 1  # play_match runs here (eager): the lost match is played
    lost.refresh_from_db()
    assert lost.status == Match.Status.ENDED
    assert lost_matches_take() == [] and sweep_stuck_matches() == 0
    for match in (in_process, driven):
        match.refresh_from_db()
        assert match.status == Match.Status.RUNNING


def test_a_lost_match_is_taken_by_one_sweep_and_waits_again_before_the_next(db, settings):
    settings.MATCH_QUEUE_WAIT_SECONDS = 60
    versions = builtin_bot_versions(game="sorcado")
    match = match_start(ruleset="sorcado", versions=[versions["random"], versions["random"]])
    Match.objects.filter(pk=match.pk).update(queued_at=timezone.now() - timezone.timedelta(minutes=2))
    assert lost_matches_take() == [match.pk]
    assert lost_matches_take() == [], "queued again a moment ago"
    assert lost_matches_take(wait_seconds=0) == [match.pk], "and again once the wait is over"
    # a stuck match queued again by the sweep waits the whole wait too, from then
    Match.objects.filter(pk=match.pk).update(driver_token="dead", queued_at=None,
                                             created_at=timezone.now() - timezone.timedelta(minutes=5),
                                             driver_lease_until=timezone.now() - timezone.timedelta(seconds=1))
    assert stuck_matches_take() == [match.pk]
    assert lost_matches_take() == []
    match.refresh_from_db()
    assert match.driver_lease_until is None and match.queued_at is not None


def test_the_driver_imports_nothing_of_the_layers_above():
    """Issue 12.1: bots/ (the match driver) must not import tournaments/; a match's end is
    announced through settings.MATCH_END_TASKS."""
    offenders = []
    for path in (ROOT / "bots").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            offenders += [f"{path.relative_to(ROOT)}: {name}" for name in names
                          if name.split(".")[0] in ("tournaments", "api")]
    assert offenders == []


def test_control_tasks_have_a_queue_of_their_own():
    """Issue 12.3: sweeps, advances and validations never wait behind matches."""
    from django.conf import settings

    from config.celery import app

    def queue(task):
        return app.amqp.router.route({}, task)["queue"].name

    assert queue("bots.play_match") == settings.CELERY_TASK_DEFAULT_QUEUE
    control = {queue(task) for task in ("bots.sweep_stuck_matches", "tournaments.match_finished",
                                        "tournaments.advance_tournament", "tournaments.sweep_tournaments",
                                        "tournaments.recompute_ratings", "replays.validate_match",
                                        "replays.sweep_validations", "ladder.check_version",
                                        "ladder.match_ended", "ladder.matchmake",
                                        "ladder.sweep_version_checks")}
    assert control == {settings.CELERY_CONTROL_QUEUE} != {settings.CELERY_TASK_DEFAULT_QUEUE}
    assert set(settings.CELERY_BEAT_SCHEDULE[name]["task"] for name in settings.CELERY_BEAT_SCHEDULE) == {
        "bots.sweep_stuck_matches", "tournaments.sweep_tournaments", "replays.sweep_validations",
        "ladder.sweep_version_checks", "ladder.matchmake"}
    # The ladder's matches go to a queue of their own (docs/ladder.md), apart from both.
    assert settings.CELERY_LADDER_QUEUE not in (settings.CELERY_CONTROL_QUEUE, settings.CELERY_TASK_DEFAULT_QUEUE)


def _row_holder(tournament) -> tuple[threading.Thread, threading.Event, threading.Event]:
    """A thread (not started) that holds the tournament's row FOR UPDATE on a connection of its
    own, from ``holding`` until ``release`` is set."""
    holding, release = threading.Event(), threading.Event()

    def hold():
        try:
            with transaction.atomic():
                Tournament.objects.select_for_update().get(pk=tournament.pk)
                holding.set()
                release.wait(timeout=120)
        finally:
            connection.close()

    return threading.Thread(target=hold), holding, release


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_sweep_does_not_wait_for_a_tournament_another_transaction_holds():
    tournament = _sorcado_tournament(2)
    match = Match.objects.get(pairing_game__pairing__tournament=tournament)
    assert match_drive(match_id=match.id) == "ended"
    holder, holding, release = _row_holder(tournament)
    holder.start()
    try:
        assert holding.wait(timeout=30)
        started = time.monotonic()
        tournaments_sweep()
        assert time.monotonic() - started < 10, "the sweep waited for the lock"
        assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.RUNNING
    finally:
        release.set()
        holder.join(timeout=60)
    tournaments_sweep()
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED


@pytest.mark.postgres
@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_kill_9_inside_match_finished_does_not_freeze_the_tournament(purged_queue):
    """The issue's reproduction: a 4-entrant single elimination; the tournament row is held
    FOR UPDATE so the worker blocks inside match_finished; the worker is killed with SIGKILL,
    the lock released and a new worker started. The sweep (run here in place of beat) finds the
    advance owed: the tournament finishes, every match ended once and validated."""
    from tests.conftest import start_worker, stop_worker

    versions = builtin_bot_versions(game="sorcado")
    names = sorted(versions)
    tournament = tournament_create(name="kill", game="sorcado", format="single-elimination",
                                   entries=[versions[names[i % len(names)]] for i in range(4)])
    holder, holding, release = _row_holder(tournament)
    worker = start_worker("doomed-control", MATCH_LEASE_SECONDS="2")
    try:
        tournament_start(tournament=tournament)  # queues the two first-round matches
        holder.start()
        assert holding.wait(timeout=30)
        first_round = Match.objects.filter(pairing_game__pairing__tournament=tournament)
        deadline = time.monotonic() + 90
        while first_round.filter(status=Match.Status.RUNNING).exists():
            assert time.monotonic() < deadline, "the worker did not play the first round"
            time.sleep(0.2)
        time.sleep(2)  # the worker is now blocked in match_finished, on the held row
        os.kill(worker.pid, signal.SIGKILL)
        worker.wait()
    finally:
        release.set()
        if holder.is_alive():
            holder.join(timeout=60)
        if worker.poll() is None:
            stop_worker(worker)
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.RUNNING
    rescuer = start_worker("rescuer-control", MATCH_LEASE_SECONDS="2")
    try:
        deadline = time.monotonic() + 120
        while Tournament.objects.get(pk=tournament.pk).status != Tournament.Status.FINISHED:
            assert time.monotonic() < deadline, "the tournament never left round 1"
            tournaments_sweep()  # the periodic task, run here instead of by celery beat
            time.sleep(1)
        matches = list(Match.objects.filter(pairing_game__pairing__tournament=tournament))
        assert len(matches) == 3 and all(m.status == Match.Status.ENDED for m in matches)
        while Validation.objects.filter(match__in=matches).values("match").distinct().count() < 3:
            assert time.monotonic() < deadline, "a match was never validated"
            time.sleep(0.5)
        assert all(v.ok for v in Validation.objects.filter(match__in=matches))
    finally:
        stop_worker(rescuer)


@pytest.mark.postgres
@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_killed_workers_match_is_queued_again_within_one_lease_plus_one_sweep(purged_queue):
    """Issue 40, item 10: after a worker kill the median wait was 34 s and the longest 80 s
    against a 30 s lease, because a driver held its lease ahead for the longest answer its clock
    allows (here: a 1 s move and a 60 s bank). The designed bound: the dead driver's lease runs
    out at most one lease after the kill (a heartbeat renews it one lease ahead at most), and
    the first sweep after that queues the match again; a new worker finishes it."""
    from bots.tasks import sweep_stuck_matches
    from replays.models import Event
    from tests.conftest import start_worker, stop_worker

    lease = 4
    versions = builtin_bot_versions(game="trap-the-wizard")
    doomed = start_worker("doomed-lease", MATCH_LEASE_SECONDS=str(lease))
    try:
        match = match_start(ruleset="trap-the-wizard", versions=[versions["greedy"], versions["random"]],
                            options={"rounds": 5}, time_control={"move_ms": 1000, "bank_ms": 60_000})
        # not "just created" (stuck_match_ids leaves a match of the last 10 s alone)
        Match.objects.filter(pk=match.pk).update(created_at=timezone.now() - timezone.timedelta(minutes=1))
        deadline = time.monotonic() + 60
        while Event.objects.filter(match=match).count() < 60:
            assert time.monotonic() < deadline, "the worker never started the match"
            time.sleep(0.05)
        os.kill(doomed.pid, signal.SIGKILL)
        doomed.wait()
        killed_at = timezone.now()
    finally:
        if doomed.poll() is None:
            stop_worker(doomed)
    match.refresh_from_db()
    assert match.status == Match.Status.RUNNING, "the match ended before the kill"
    # One lease from the kill at most (it was 62 s and more: move + bank + a third of a lease).
    assert match.driver_lease_until <= killed_at + timezone.timedelta(seconds=lease)
    # The sweep, run here as beat would: nothing before the lease runs out, the match at its
    # first run after.
    while timezone.now() <= match.driver_lease_until:
        assert stuck_matches_take() == [], "queued again while the lease still held"
        time.sleep(0.5)
    rescuer = start_worker("rescuer-lease", MATCH_LEASE_SECONDS=str(lease))
    try:
        assert sweep_stuck_matches() == 1
        deadline = time.monotonic() + 120
        while Match.objects.get(pk=match.pk).status == Match.Status.RUNNING:
            assert time.monotonic() < deadline, "the match was not finished after it was queued again"
            time.sleep(0.5)
    finally:
        stop_worker(rescuer)
    match.refresh_from_db()
    assert match.status == Match.Status.ENDED


@pytest.mark.postgres
@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_after_the_broker_loses_its_data_the_next_sweep_queues_every_waiting_match_again(purged_queue):
    """Issue 40, item 10: after a Redis restart a queued match was queued again only 124 s later
    (MATCH_QUEUE_WAIT_SECONDS). The sweep leaves a key in the broker; when it is gone, the
    broker lost its data with every queued message, and the very next sweep queues every match
    waiting for a driver again. Then a worker plays them."""
    from bots.tasks import broker_marker_key, sweep_stuck_matches
    from config.celery import app
    from django.conf import settings
    from tests.conftest import start_worker, stop_worker

    sweep_stuck_matches()  # a broker seen before: its key is there
    assert sweep_stuck_matches() == 0
    versions = builtin_bot_versions(game="sorcado")
    waiting = [match_start(ruleset="sorcado", versions=[versions["random"], versions["random"]])
               for _ in range(2)]  # their messages wait in the broker: no worker runs yet
    assert sweep_stuck_matches() == 0, "merely waiting: nothing is queued again"
    # The broker restarts without its data: the queued messages and the key are gone.
    with app.connection_for_write() as connection:
        connection.default_channel.queue_purge(settings.CELERY_TASK_DEFAULT_QUEUE)
        connection.default_channel.client.delete(broker_marker_key())
    assert sweep_stuck_matches() == 2  # at once, not MATCH_QUEUE_WAIT_SECONDS later
    assert sweep_stuck_matches() == 0, "one loss, one re-queue"
    worker = start_worker()
    try:
        deadline = time.monotonic() + 120
        while Match.objects.filter(pk__in=[m.pk for m in waiting], status=Match.Status.RUNNING).exists():
            assert time.monotonic() < deadline, "the matches queued again were not played"
            time.sleep(0.5)
    finally:
        stop_worker(worker)
    assert Match.objects.filter(pk__in=[m.pk for m in waiting], status=Match.Status.ENDED).count() == 2
