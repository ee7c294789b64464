"""Cancelling a tournament (issue 40, item 5): its running and queued matches are aborted with the
reason in their logs, nothing of them is rated, and the drivers queued for them find nothing to do."""
import time

import pytest

from bots.driver import match_drive
from bots.services import builtin_bot_versions
from games.engine.log import validate
from replays.models import Event, Match
from replays.selectors import match_records
from tournaments.models import Tournament
from tournaments.services import ratings_recompute, tournament_cancel, tournament_create, tournament_start

GAME = "trap-the-wizard"
LONG = {"rounds": 5}  # well over a thousand events: a cancel lands mid-match


def _started(queue: bool):
    """A round robin of four built-in bots, started: two matches in its first round."""
    versions = builtin_bot_versions(game=GAME)
    tournament = tournament_create(name="cancel me", game=GAME, format="round-robin",
                                   entries=[versions[n] for n in ("greedy", "random", "greedy", "random")],
                                   rules_options=LONG)
    matches = tournament_start(tournament=tournament, queue=queue)
    assert len(matches) == 2
    return tournament, matches


def _assert_aborted_with_the_reason(tournament, match):
    """The match's log ends with match_aborted naming the cancel, and the log is valid."""
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED and match.result is None
    end = Event.objects.filter(match=match).order_by("-seq").first()
    assert end.kind == "match_aborted"
    assert end.payload["reason"] == f"tournament {tournament.pk} was cancelled"
    report = validate(match_records(match=match))
    assert report.ok, report.to_json()


def test_cancel_aborts_the_running_and_queued_matches_and_nothing_is_rated(db):
    """"Cancel aborts them (recorded as aborted, with the reason, nothing rated) and the queued
    tasks find nothing to do": one match half played, one never started."""
    tournament, (played, queued) = _started(queue=False)
    assert match_drive(match_id=played.pk, max_events=40) == "paused"

    assert sorted(map(str, tournament_cancel(tournament=tournament))) == sorted([str(played.pk), str(queued.pk)])

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED and tournament.cancelled_at is not None
    for match in (played, queued):
        _assert_aborted_with_the_reason(tournament, match)
        events = Event.objects.filter(match=match).count()
        assert match_drive(match_id=match.pk) == "not running"  # the queued task's delivery
        assert Event.objects.filter(match=match).count() == events
    assert ratings_recompute(game=GAME) == 0
    assert tournament_cancel(tournament=tournament) == []  # a second cancel changes nothing


@pytest.mark.postgres
@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_cancel_stops_a_real_worker_mid_match_and_its_queued_match_is_never_played(celery_worker_process):
    """With a real worker: one match is being driven (the worker runs one task at a time), the
    other waits in the queue. After the cancel the driver stops at its next append, the queued
    task finds the match not running, and neither log grows past its match_aborted."""
    tournament, matches = _started(queue=True)
    deadline = time.monotonic() + 60
    while not any(Event.objects.filter(match=m).count() > 30 for m in matches):
        assert celery_worker_process.poll() is None, "the worker died"
        assert time.monotonic() < deadline, "the worker never started a match"
        time.sleep(0.05)
    tournament_cancel(tournament=tournament)
    for match in matches:
        _assert_aborted_with_the_reason(tournament, match)
    lengths = {m.pk: Event.objects.filter(match=m).count() for m in matches}
    # Both tasks have run once the worker says so: the driver stopped, the queued one returned.
    outcomes = _play_match_outcomes(2)
    # the driver at work stops; the queued one finds nothing to do (the match held by the
    # cancel, or already aborted)
    assert "'lease lost'" in outcomes and len(outcomes) == 2, outcomes
    assert outcomes[1 - outcomes.index("'lease lost'")] in ("'busy'", "'not running'"), outcomes
    assert {m.pk: Event.objects.filter(match=m).count() for m in matches} == lengths
    assert ratings_recompute(game=GAME) == 0


def _play_match_outcomes(count: int, timeout: float = 60) -> list[str]:
    """What the first ``count`` play_match tasks of the test's worker returned (its log)."""
    import os
    import re

    from tests.conftest import ROOT

    name = "worker" + (f"-{os.environ['PYTEST_XDIST_WORKER']}" if os.environ.get("PYTEST_XDIST_WORKER") else "")
    worker_log = ROOT / "var" / f"test-{name}.log"
    deadline = time.monotonic() + timeout
    while True:
        outcomes = re.findall(r"Task bots\.play_match\[[^\]]+\] succeeded in [^:]+: (.+)", worker_log.read_text())
        if len(outcomes) >= count:
            return outcomes
        assert time.monotonic() < deadline, worker_log.read_text()[-3000:]
        time.sleep(0.2)


def test_the_sweep_aborts_a_cancelled_tournaments_match_whose_abort_never_landed(db):
    """A cancel whose process died after taking the leases (its aborts never written) left the
    match running behind a day-long lease, out of every driver's and sweep's reach: the
    tournaments' sweep aborts it with the cancel's reason, and a second sweep finds nothing."""
    from tournaments.services import CANCELLED_TOKEN, tournaments_sweep

    tournament, (played, queued) = _started(queue=False)
    assert match_drive(match_id=played.pk, max_events=40) == "paused"
    # what tournament_cancel commits before its aborts, and nothing after
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.CANCELLED)
    Match.objects.filter(pk__in=[played.pk, queued.pk]).update(driver_token=CANCELLED_TOKEN)
    assert Match.objects.filter(pk__in=[played.pk, queued.pk], status=Match.Status.RUNNING).count() == 2

    assert tournaments_sweep()["cancelled_matches_aborted"] == 2

    for match in (played, queued):
        _assert_aborted_with_the_reason(tournament, match)
    assert tournaments_sweep()["cancelled_matches_aborted"] == 0
    assert ratings_recompute(game=GAME) == 0
