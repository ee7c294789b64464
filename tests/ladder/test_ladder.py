"""Issue 43.2 and 43.5, the ladder: "A bot's newest passed version is on its game's ladder ... A
matchmaker ... keeps a configured number of ladder matches in flight ... Ratings are openskill
per ladder, applied exactly once per match in the order matches ended, recomputable from
history ... the leaderboard ranks by a conservative rating ... A new version starts fresh ... A
bot that faults in every ladder match is taken off the ladder after a documented number of
faults, and its owner sees why."

Matches are driven in this process (as ``manage.py ladder`` does); the last test lets a real
worker take them from the ladder's queue.
"""
from __future__ import annotations

import time
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from bots.driver import match_drive
from bots.services import bot_create, bot_version_upload
from ladder.models import Ladder, LadderEntry, LadderMatch, LadderRating, VersionCheck
from ladder.selectors import ladder_leaderboard
from ladder.services import (ladder_entry_set_active, ladder_get_or_create, ladder_match_finished,
                             ladder_ratings_recompute, ladder_top_up, version_check_finish, version_check_start)
from replays.models import Match

from ..bots.conftest import sandbox_required  # noqa: F401  (a fixture)

ROOT = Path(__file__).resolve().parents[2]
GAME = "sorcado"
GOOD = (ROOT / "examples" / "bots" / "random_bot.py").read_bytes()
CRASHES = b"import json, sys\nfor line in sys.stdin:\n    if json.loads(line)['type'] == 'act':\n        sys.exit(3)\n"


def _play(ladder, in_flight=1):
    """One top-up, its matches driven here and folded in; the ladder matches made."""
    made = ladder_top_up(ladder=ladder, in_flight=in_flight, queue=False)
    for ladder_match in made:
        match_drive(match_id=ladder_match.match_id)
        ladder_match_finished(match_id=ladder_match.match_id)
    return made


@pytest.fixture
def alice(db, settings):
    settings.ARENA_ALLOW_UNSANDBOXED_BOTS = False
    return get_user_model().objects.create_user("alice", password="alice-Secret-123")


def _checked(user, content, name, settings) -> "VersionCheck":
    """Upload ``content`` and play its check match here (the test's transaction never commits,
    so the hook's queued start is run by hand)."""
    settings.ARENA_CHECK_MATCHES = True
    version = bot_version_upload(bot=bot_create(owner=user, name=name, game=GAME), filename="main.py",
                                 content=content)
    check = version_check_start(version_id=version.pk)
    match_drive(match_id=check.match_id)
    return version_check_finish(match_id=check.match_id)


def test_a_ladder_starts_with_the_games_built_in_bots_but_not_the_one_that_thinks(db):
    ladder = ladder_get_or_create(game=GAME)
    names = set(LadderEntry.objects.filter(ladder=ladder).values_list("bot__name", flat=True))
    assert names == {"random", "heuristic"}  # not search: it thinks for its whole clock
    assert ladder.seats == 2 and ladder_get_or_create(game=GAME) == ladder
    with pytest.raises(ValueError, match="takes 2-4 players"):
        ladder_get_or_create(game="imperial-twing", seats=9)


def test_a_passed_version_joins_its_ladder_and_a_failed_one_does_not(alice, sandbox_required, settings):  # noqa: F811
    ladder = ladder_get_or_create(game=GAME)
    passed = _checked(alice, GOOD, "good", settings)
    failed = _checked(alice, CRASHES, "bad", settings)
    assert (passed.status, failed.status) == ("passed", "failed")
    entry = LadderEntry.objects.get(ladder=ladder, bot=passed.version.bot)
    assert entry.version == passed.version and entry.active
    assert not LadderEntry.objects.filter(bot=failed.version.bot).exists()


def test_a_ladder_made_later_enters_the_bots_that_passed_before(alice, sandbox_required, settings):  # noqa: F811
    passed = _checked(alice, GOOD, "early", settings)
    _checked(alice, CRASHES, "crashes", settings)
    ladder = ladder_get_or_create(game=GAME)
    entered = set(LadderEntry.objects.filter(ladder=ladder).values_list("bot__name", flat=True))
    assert entered == {"random", "heuristic", "early"}
    assert LadderEntry.objects.get(ladder=ladder, bot__name="early").version == passed.version


def test_the_matchmaker_never_exceeds_the_matches_in_flight(alice, settings):
    settings.LADDER_MATCHES_IN_FLIGHT = 2
    ladder = ladder_get_or_create(game="trap-the-wizard")
    for name in ("a", "b", "c", "d"):  # more bots than two matches need
        bot = bot_create(owner=alice, name=name, game=ladder.game)
        LadderEntry.objects.create(ladder=ladder, bot=bot, version=bot_version_upload(
            bot=bot, filename="main.py", content=GOOD + f"# {name}\n".encode()))
    first = ladder_top_up(ladder=ladder, queue=False)
    again = ladder_top_up(ladder=ladder, queue=False)
    running = LadderMatch.objects.filter(ladder=ladder, match__status=Match.Status.RUNNING)
    assert (len(first), len(again), running.count()) == (2, 0, 2)
    seated = [entry for m in running for entry in m.entries]
    assert len(seated) == len(set(seated)) == 4  # one match a bot at a time
    assert len({m.match.seed_commitment for m in running}) == 2  # each match its own seed


def test_ratings_fold_each_match_once_in_the_order_matches_ended_and_recompute_the_same(db):
    ladder = ladder_get_or_create(game=GAME)
    for _ in range(6):
        _play(ladder)
    assert not LadderMatch.objects.filter(ladder=ladder, applied=False).exists()
    before = {r.version_id: (r.mu, r.sigma, r.games) for r in LadderRating.objects.filter(ladder=ladder)}
    assert sum(games for _, _, games in before.values()) == 12  # 6 matches of 2 seats
    # A second announcement of an end folds nothing again.
    assert ladder_match_finished(match_id=LadderMatch.objects.filter(ladder=ladder).first().match_id) == 0
    assert {r.version_id: (r.mu, r.sigma, r.games) for r in LadderRating.objects.filter(ladder=ladder)} == before
    assert ladder_ratings_recompute(ladder=ladder) == 6
    after = {r.version_id: (r.mu, r.sigma, r.games) for r in LadderRating.objects.filter(ladder=ladder)}
    assert after.keys() == before.keys()
    assert all(after[v] == pytest.approx(before[v]) for v in before)
    # The leaderboard: best first by mu - 3 sigma, with games and the uncertainty.
    board = ladder_leaderboard(ladder=ladder)
    assert [row["rank"] for row in board] == [1, 2]
    assert board[0]["conservative"] >= board[1]["conservative"]
    assert board[0]["conservative"] == pytest.approx(board[0]["mu"] - 3 * board[0]["sigma"])
    assert {row["games"] for row in board} == {6}


def test_an_earlier_end_folds_first_whatever_order_the_announcements_come_in(db):
    ladder = ladder_get_or_create(game=GAME)
    made = ladder_top_up(ladder=ladder, in_flight=1, queue=False)
    match_drive(match_id=made[0].match_id)
    second = ladder_top_up(ladder=ladder, in_flight=1, queue=False)
    match_drive(match_id=second[0].match_id)
    # The second match's end is announced first: both are folded, the first match first.
    assert ladder_match_finished(match_id=second[0].match_id) == 2
    incremental = {r.version_id: (r.mu, r.sigma) for r in LadderRating.objects.filter(ladder=ladder)}
    ladder_ratings_recompute(ladder=ladder)
    assert {r.version_id: (r.mu, r.sigma) for r in LadderRating.objects.filter(ladder=ladder)} == \
        pytest.approx(incremental)


def test_a_new_version_starts_fresh_and_the_old_keeps_its_history(alice, sandbox_required, settings):  # noqa: F811
    ladder = ladder_get_or_create(game=GAME)
    first = _checked(alice, GOOD, "mine", settings).version
    LadderEntry.objects.filter(ladder=ladder).exclude(bot=first.bot).exclude(bot__name="random").update(active=False)
    _play(ladder)
    old = LadderRating.objects.get(ladder=ladder, version=first)
    assert old.games == 1
    second = bot_version_upload(bot=first.bot, filename="main.py", content=GOOD + b"# v2\n")
    version_check_start(version_id=second.pk)
    check = VersionCheck.objects.get(version=second)
    match_drive(match_id=check.match_id)
    version_check_finish(match_id=check.match_id)
    entry = LadderEntry.objects.get(ladder=ladder, bot=first.bot)
    assert entry.version == second
    row = next(r for r in ladder_leaderboard(ladder=ladder) if r["bot"] == first.bot)
    assert (row["version"], row["games"], row["sigma"]) == (2, 0, pytest.approx(25 / 3))
    assert LadderRating.objects.get(pk=old.pk).games == 1  # the old version's history stays


def test_a_bot_that_faults_match_after_match_is_taken_off_and_its_owner_sees_why(alice, sandbox_required, settings):  # noqa: F811
    settings.LADDER_MAX_FAULTS = 2
    ladder = ladder_get_or_create(game=GAME)
    bot = bot_create(owner=alice, name="crashes", game=GAME)
    entry = LadderEntry.objects.create(ladder=ladder, bot=bot, version=bot_version_upload(
        bot=bot, filename="main.py", content=CRASHES))  # entered by hand: it would fail its check
    LadderEntry.objects.filter(ladder=ladder, bot__name="heuristic").update(active=False)
    _play(ladder)
    assert LadderEntry.objects.get(pk=entry.pk).faults == 1 and LadderEntry.objects.get(pk=entry.pk).active
    _play(ladder)
    entry.refresh_from_db()
    assert not entry.active and entry.faults == 2
    assert "taken off after 2 ladder matches in a row with a fault" in entry.off_reason
    assert entry not in [row["entry"] for row in ladder_leaderboard(ladder=ladder)]
    # Off the ladder it is paired no more; its owner may put it back.
    assert ladder_top_up(ladder=ladder, in_flight=1, queue=False) == []
    ladder_entry_set_active(entry=entry, active=True)
    assert LadderEntry.objects.get(pk=entry.pk).off_reason == ""


def test_manage_py_ladder_plays_and_prints_the_leaderboard(db, capsys):
    call_command("ladder", GAME, "--matches", "3")
    out = capsys.readouterr().out
    assert f"{GAME} ladder: 3 match(es) played here" in out
    assert "heuristic" in out and "random" in out and "mu-3sigma" in out
    assert LadderMatch.objects.filter(applied=True).count() == 3
    assert not Match.objects.filter(rated=True).exists()  # ladder matches rate the ladder only


@pytest.mark.worker
def test_a_real_worker_plays_the_ladder_from_its_queue(live_db, celery_worker_process, settings):
    """The beat's matchmaker task queues matches on the ladder queue; the worker plays them and
    folds their ratings in, never more in flight than the setting."""
    from ladder.tasks import matchmake

    assert not settings.CELERY_TASK_ALWAYS_EAGER, "with a broker, tasks must go to the worker"
    ladder = ladder_get_or_create(game=GAME)
    matchmake.delay()  # what the beat queues every LADDER_SECONDS, on the control queue
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if LadderMatch.objects.filter(ladder=ladder, applied=True).exists():
            break
        running = LadderMatch.objects.filter(ladder=ladder, match__status=Match.Status.RUNNING).count()
        assert running <= settings.LADDER_MATCHES_IN_FLIGHT
        assert celery_worker_process.poll() is None, "the worker died"
        time.sleep(0.5)
    done = LadderMatch.objects.filter(ladder=ladder, applied=True).select_related("match").first()
    assert done is not None and done.match.status == Match.Status.ENDED
    assert LadderRating.objects.filter(ladder=ladder).count() == 2
    assert Ladder.objects.count() == 1


def test_the_migration_to_the_pairwise_model_folds_stored_ratings_again_as_a_recompute_does(db):
    """ladder/migrations/0006_ratings_pairwise.py: ratings stored by an older model (here made
    up) are folded again from the ladder's history; the rows equal a recompute's."""
    from importlib import import_module

    from django.apps import apps

    ladder = ladder_get_or_create(game=GAME)
    for _ in range(4):
        _play(ladder)
    recomputed = {r.version_id: (r.mu, r.sigma, r.conservative, r.games)
                  for r in LadderRating.objects.filter(ladder=ladder)}
    LadderRating.objects.filter(ladder=ladder).update(mu=40.0, sigma=1.0, conservative=37.0, games=99)
    import_module("ladder.migrations.0006_ratings_pairwise").refold(apps, None)
    after = {r.version_id: (r.mu, r.sigma, r.conservative, r.games) for r in LadderRating.objects.filter(ladder=ladder)}
    assert after.keys() == recomputed.keys() and len(after) == 2
    assert all(after[v] == pytest.approx(recomputed[v]) for v in recomputed)
