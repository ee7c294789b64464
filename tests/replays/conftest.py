import pytest

from bots.services import match_play_builtin

FAST = {"rounds": 1}  # one round of Trap the Wizard: a few hundred events


@pytest.fixture
def played_match(db, django_capture_on_commit_callbacks, eager_tasks):
    """A finished Trap the Wizard match of built-in bots, validated by its on-commit task."""
    with django_capture_on_commit_callbacks(execute=True):
        return match_play_builtin(ruleset="trap-the-wizard", bots=["greedy", "random", "random"],
                                  options=FAST, bot_seed=7, seed=b"fixture-seed".ljust(32, b"."))
