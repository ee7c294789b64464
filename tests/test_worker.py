"""Integration: a real Celery worker process, Redis and PostgreSQL (run by .ci/run)."""
import time

import pytest

from bots.services import match_play_builtin
from replays.models import Validation


@pytest.mark.postgres
@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_validates_a_finished_match(celery_worker_process, settings):
    assert not settings.CELERY_TASK_ALWAYS_EAGER, "with a broker, tasks must go to the worker"
    match = match_play_builtin(ruleset="trap-the-wizard", bots=["greedy", "random"],
                               options={"rounds": 1})  # the end commits, then validate_match is queued
    deadline = time.monotonic() + 60
    while not Validation.objects.filter(match=match).exists():
        assert celery_worker_process.poll() is None, "the worker died"
        assert time.monotonic() < deadline, "the worker did not validate the match within 60 s"
        time.sleep(0.2)
    verdict = Validation.objects.get(match=match)
    assert verdict.ok and verdict.report["chance_verified"], verdict.report
    assert verdict.events == match.events.count()
