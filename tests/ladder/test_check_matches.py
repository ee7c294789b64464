"""Issue 43.1: "A newly uploaded version plays one check match as soon as a worker is free ...
Its state (pending, passed, failed with the fault and the match) is on the version in the API
and the site ... Built-in bots pass by definition."

On the embedded defaults a task runs in the process that queues it, so an upload's check match
is played when the upload commits; on PostgreSQL + Redis the same happens on a real worker
(the last test). Uploaded bots run in the sandbox.
"""
from __future__ import annotations

import io
import time
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from bots.models import BotVersion
from bots.services import bot_create, bot_version_upload, builtin_bot_versions
from games.engine import registry
from ladder.models import VersionCheck
from ladder.services import version_check_finish, version_check_start
from ladder.tasks import sweep_version_checks
from replays.models import Event, Match

from ..api.conftest import token_client
from ..bots.conftest import sandbox_required  # noqa: F401  (a fixture)

pytestmark = pytest.mark.check_matches

ROOT = Path(__file__).resolve().parents[2]
GAME = "sorcado"  # short matches: about 35 decisions a seat
GOOD = (ROOT / "examples" / "bots" / "random_bot.py").read_bytes()
CRASHES = b"import json, sys\nfor line in sys.stdin:\n    if json.loads(line)['type'] == 'act':\n        sys.exit(3)\n"
ILLEGAL = (b"import json, sys\nfor line in sys.stdin:\n    if json.loads(line)['type'] == 'act':\n"
           b"        print(json.dumps({'action': 'a move no game has'}), flush=True)\n")


@pytest.fixture
def alice(live_db, settings):
    settings.ARENA_ALLOW_UNSANDBOXED_BOTS = False
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return get_user_model().objects.create_user("alice", password="alice-Secret-123")


@pytest.fixture
def owner(alice, eager_tasks):
    """alice, with the tasks an upload queues run in this process whatever the broker setting
    (the real worker's test below is where they cross Redis)."""
    return alice


def _upload(user, content: bytes, name: str = "bot", game: str = GAME) -> BotVersion:
    return bot_version_upload(bot=bot_create(owner=user, name=name, game=game), filename="main.py", content=content)


def test_an_uploaded_version_plays_its_check_match_and_passes(owner, sandbox_required):  # noqa: F811
    version = _upload(owner, GOOD)
    check = VersionCheck.objects.select_related("match").get(version=version)
    assert check.status == VersionCheck.Status.PASSED and (check.reason, check.fault) == ("", None)
    match = check.match
    assert match.status == Match.Status.ENDED and match.ruleset == GAME
    # The version in seat 0 against the game's random bot, at the fewest players the game takes.
    assert match.players == registry.get(GAME).spec.min_players
    assert match.seats[0]["bot_version"] == version.pk
    assert [seat["bot"] for seat in match.seats[1:]] == ["random"] * (match.players - 1)
    assert Event.objects.filter(match=match, kind="action", seat=0).exists()
    assert check.finished_at is not None


def test_a_check_match_moves_no_rating(owner, sandbox_required):  # noqa: F811
    """It tests the version, it does not measure it: unrated, and its log says so."""
    from tournaments.models import Rating
    from tournaments.services import ratings_recompute

    check = VersionCheck.objects.select_related("match").get(version=_upload(owner, GOOD))
    assert check.match.status == Match.Status.ENDED and check.match.rated is False
    assert Event.objects.get(match=check.match, seq=0).payload["rated"] is False
    assert ratings_recompute(game=GAME) == 0 and not Rating.objects.exists()


@pytest.mark.parametrize("content, cause", [(CRASHES, "crash"), (ILLEGAL, "illegal")])
def test_a_version_that_faults_fails_with_the_fault_and_its_match(owner, sandbox_required, content, cause):  # noqa: F811
    version = _upload(owner, content)
    check = VersionCheck.objects.get(version=version)
    assert check.status == VersionCheck.Status.FAILED
    assert cause in check.reason and cause in check.fault["reason"], (check.reason, check.fault)
    faulted = Event.objects.get(match=check.match, seq=check.fault["seq"])
    assert faulted.seat == 0 and faulted.kind in ("forfeit", "action")
    assert check.match.status == Match.Status.ENDED


def test_each_step_runs_once_however_often_it_is_delivered(owner, sandbox_required, settings):  # noqa: F811
    """A second delivery of the start or of the end changes nothing: one match, one verdict."""
    settings.ARENA_CHECK_MATCHES = False  # upload without the hook, then drive the steps by hand
    version = _upload(owner, GOOD)
    assert not VersionCheck.objects.filter(version=version).exists()  # off: no check at all
    settings.ARENA_CHECK_MATCHES = True
    VersionCheck.objects.create(version=version)
    first = version_check_start(version_id=version.pk)
    again = version_check_start(version_id=version.pk)
    assert first.match_id == again.match_id and Match.objects.count() == 1
    decided = VersionCheck.objects.get(version=version)
    assert decided.status == VersionCheck.Status.PASSED  # played and decided on commit
    stamp = decided.finished_at
    version_check_finish(match_id=decided.match_id)
    assert VersionCheck.objects.get(version=version).finished_at == stamp


def test_the_sweep_starts_a_lost_check_and_decides_a_lost_verdict(owner, sandbox_required, settings):  # noqa: F811
    settings.ARENA_CHECK_MATCHES = False
    version = _upload(owner, GOOD)
    settings.ARENA_CHECK_MATCHES = True
    VersionCheck.objects.create(version=version)  # the start's message was lost
    settings.MATCH_END_TASKS = [t for t in settings.MATCH_END_TASKS if not t.startswith("ladder.")]
    assert sweep_version_checks() == 1  # started (and played: tasks run in process here)
    check = VersionCheck.objects.get(version=version)
    assert check.match.status == Match.Status.ENDED and check.status == VersionCheck.Status.PENDING
    assert sweep_version_checks() == 1  # the end's announcement was lost too: decided now
    assert VersionCheck.objects.get(version=version).status == VersionCheck.Status.PASSED
    assert sweep_version_checks() == 0


def test_the_check_is_on_the_version_in_the_api_and_the_site(owner, sandbox_required, client):  # noqa: F811
    api = token_client(owner)
    bot = api.post("/api/bots/", {"name": "merlin", "game": GAME}, format="json").json()
    named = io.BytesIO(CRASHES)
    named.name = "main.py"
    uploaded = api.post(f"/api/bots/{bot['id']}/versions/", {"file": named}, format="multipart")
    assert uploaded.status_code == 201, uploaded.json()
    listed = api.get(f"/api/bots/{bot['id']}/versions/").json()["results"][0]
    check = VersionCheck.objects.get(version__bot_id=bot["id"])
    assert listed["check"]["status"] == "failed" and listed["check"]["match"] == str(check.match_id)
    assert "crash" in listed["check"]["reason"] and listed["check"]["fault"]["reason"] == "crash"
    assert api.get(f"/api/bots/{bot['id']}/versions/1/").json()["check"] == listed["check"]
    page = client.get(f"/bots/{bot['id']}/").content.decode()
    assert 'class="check-failed">failed' in page and str(check.match_id) in page
    assert check.reason.replace("'", "&#x27;") in page


def test_uploadbot_prints_the_check_matchs_verdict(owner, sandbox_required, capsys, tmp_path):  # noqa: F811
    from django.core.management import call_command

    bad = tmp_path / "crashes.py"
    bad.write_bytes(CRASHES)
    call_command("uploadbot", str(ROOT / "examples" / "bots" / "random_bot.py"), "--game", GAME,
                 "--owner", "alice", "--name", "rnd")
    call_command("uploadbot", str(bad), "--game", GAME, "--owner", "alice", "--name", "crashes")
    out = capsys.readouterr().out
    good, failed = VersionCheck.objects.order_by("id")
    assert f"check match: passed (match {good.match_id})" in out
    assert f"check match: failed (match {failed.match_id}): {failed.reason}" in out


def test_a_builtin_bot_has_passed_by_definition(live_db, eager_tasks):
    from rest_framework.test import APIClient

    random = builtin_bot_versions(game=GAME)["random"]
    body = APIClient().get(f"/api/bots/{random.bot_id}/versions/").json()["results"][0]
    assert body["check"] == {"status": "passed", "match": None, "reason": "", "fault": None, "finished_at": None}
    assert not VersionCheck.objects.exists()


@pytest.mark.worker
def test_a_real_worker_plays_the_check_match_of_an_upload(celery_worker_process, alice, sandbox_required):  # noqa: F811
    """The start goes to the control queue and the match to the ladder queue, both taken by
    the worker (tests/conftest.py, worker_queues)."""
    version = _upload(alice, GOOD)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        check = VersionCheck.objects.get(version=version)
        if check.status != VersionCheck.Status.PENDING:
            break
        assert celery_worker_process.poll() is None, "the worker died"
        time.sleep(0.5)
    assert check.status == VersionCheck.Status.PASSED, (check.status, check.reason)
    assert check.match.status == Match.Status.ENDED


def test_the_documented_version_message_has_every_field_the_api_gives(owner, sandbox_required):  # noqa: F811
    """docs/ladder.md's example of a version with its check: the same fields as a real one."""
    import json
    import re

    from api.serializers_bots import BotVersionOutput

    text = (ROOT / "docs" / "ladder.md").read_text()
    [example] = [json.loads(block) for block in re.findall(r"```json\n(.*?)```", text, re.S) if '"check"' in block]
    version = BotVersion.objects.select_related("version_check").get(pk=_upload(owner, CRASHES).pk)
    real = BotVersionOutput(version).data
    assert set(example) == set(real) and set(example["check"]) == set(real["check"])
    assert set(example["check"]["fault"]) == set(real["check"]["fault"])
    assert example["check"]["reason"].split(" at event")[0] == real["check"]["reason"].split(" at event")[0]
