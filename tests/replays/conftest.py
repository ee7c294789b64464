import pytest

from bots.services import match_play_builtin
from replays.models import Event

FAST = {"rounds": 1}  # one round of Trap the Wizard: usually a few hundred events
SNAPSHOT_EVERY = 10  # small, so that every match the fixture plays has several snapshots


@pytest.fixture
def played_match(db, django_capture_on_commit_callbacks, eager_tasks, settings):
    """A finished Trap the Wizard match of built-in bots, validated by its on-commit task, with
    at least three snapshots. The chance of a match derives from its (random) id, so its length
    varies: about 1 match in 75 of one round ends within 50 events. One that is too short for
    the snapshot tests is played again with the next bot seed."""
    settings.REPLAY_SNAPSHOT_EVERY = SNAPSHOT_EVERY
    for bot_seed in range(7, 17):
        with django_capture_on_commit_callbacks(execute=True):
            match = match_play_builtin(ruleset="trap-the-wizard", bots=["greedy", "random", "random"],
                                       options=FAST, bot_seed=bot_seed,
                                       seed=b"fixture-seed".ljust(32, b"."))
        if Event.objects.filter(match=match).count() > 3 * SNAPSHOT_EVERY + 1:
            return match
    pytest.fail("ten one-round matches in a row ended within 31 events")
