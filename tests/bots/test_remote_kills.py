"""Issue 41.5: "the waiting driver and the remote client survive worker kills and reconnects (an
act is re-sent after recovery; an answer is applied exactly once)".

Real PostgreSQL, Redis and Celery worker processes (run, and fail rather than skip, when
DATABASE_URL and CELERY_BROKER_URL are set). A remote bot's match is driven by a worker; the
test, a client over HTTP (a live server in this process: any web process takes answers, the
worker hears them through Redis), answers its acts. The worker is killed with SIGKILL twice
while an act waits:

1. unanswered: the sweep queues the match again, the new worker's driver publishes the same turn
   again (the same row, a second publication, a fresh deadline), and the answer to it is written;
2. answered while no worker runs: the answer is taken (before the deadline) and the new driver
   writes it without asking again.

Then the reference client (examples/remote/client.py, started mid-match: it greets its
program with the hello the act carries) plays the match to its end. Afterwards, from the
database: a gap-free valid log, every remote act answered once and written once (one action
event of seat 0 per act, with that act's answer), no forfeit.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from api.services import token_create
from bots.models import RemoteAct
from bots.services import bot_create, builtin_bot_versions, match_start
from replays.models import Event, Match

from .test_driver import _assert_finished_and_valid

ROOT = Path(__file__).resolve().parents[2]
GAME = "trap-the-wizard"
WORKER_ENV = {"MATCH_LEASE_SECONDS": "2"}

pytestmark = [pytest.mark.postgres, pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def _http(url: str, token: str, body: dict | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(url, data=json.dumps(body).encode() if body is not None else None,
                                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc)


def _open_act(base: str, token: str, *, seconds: float = 60) -> dict:
    """The first open act, by the long poll (as a client sees it)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        status, body = _http(f"{base}/api/remote/next/?wait=5", token)
        assert status == 200, body
        if body["acts"]:
            return body["acts"][0]
    raise AssertionError("no act was published")


def _answer(base: str, token: str, act: dict) -> tuple[int, dict]:
    return _http(f"{base}/api/matches/{act['match']}/seats/{act['seat']}/act/", token,
                 {"turn": act["turn"], "action": act["legal_actions"][-1]})


def _kill(worker) -> None:
    os.kill(worker.pid, signal.SIGKILL)
    worker.wait()


def _until_published_again(act_id: int, publications: int) -> None:
    """Run the driver's sweep (as beat would) until a new driver published the act again."""
    from bots.tasks import sweep_stuck_matches

    deadline = time.monotonic() + 90
    while RemoteAct.objects.get(pk=act_id).publications < publications:
        assert time.monotonic() < deadline, "no driver published the act again"
        sweep_stuck_matches()
        time.sleep(0.3)


def _until_no_other_session(seconds: float = 30) -> None:
    """The live server's stream threads end (a stream notices its client gone at its next
    keepalive line) and close their connections, so the test database can be dropped."""
    from django.db import connection

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                           "AND pid <> pg_backend_pid()")
            if cursor.fetchone()[0] == 0:
                return
        time.sleep(0.2)


def test_kill_9_the_worker_while_a_remote_act_waits_and_each_answer_is_written_once(live_server, purged_queue,
                                                                                      settings):
    from tests.conftest import start_worker, stop_worker

    settings.REMOTE_KEEPALIVE_SECONDS = 1

    base = live_server.url
    user = get_user_model().objects.create_user("alice", password="alice-Secret-123")
    _, token = token_create(user=user, name="remote")
    remote = bot_create(owner=user, name="far-away", game=GAME, remote=True).versions.get()
    match = match_start(ruleset=GAME, versions=[remote, builtin_bot_versions(game=GAME)["random"]],
                        options={"rounds": 1}, time_control={"move_ms": 30000, "bank_ms": 0})
    workers = [start_worker("remote-doomed", **WORKER_ENV)]
    client = None
    try:
        # an act answered as usual, through the worker's wait
        act = _open_act(base, token)
        assert _answer(base, token, act)[0] == 200

        # 1. killed while the act waits, unanswered: published again, same turn, by the next driver
        act = _open_act(base, token)
        row = RemoteAct.objects.get(match=match, seat=0, turn=act["turn"])
        _kill(workers[-1])
        workers.append(start_worker("remote-second", **WORKER_ENV))
        _until_published_again(row.pk, 2)
        again = _open_act(base, token)
        assert (again["match"], again["seat"], again["turn"]) == (act["match"], act["seat"], act["turn"])
        assert again["deadline"] > act["deadline"]
        status, body = _answer(base, token, again)
        assert status == 200, body
        status, body = _answer(base, token, again)
        assert (status, body["error"]["code"]) == (409, "already_answered")

        # 2. killed while an act waits, answered while no worker runs: written without asking again
        act = _open_act(base, token)
        row = RemoteAct.objects.get(match=match, seat=0, turn=act["turn"])
        _kill(workers[-1])
        assert _answer(base, token, act)[0] == 200
        workers.append(start_worker("remote-third", **WORKER_ENV))
        from bots.tasks import sweep_stuck_matches

        deadline = time.monotonic() + 90
        while not Event.objects.filter(match=match, seq=act["turn"]).exists():
            assert time.monotonic() < deadline, "the answer given while no worker ran was never written"
            sweep_stuck_matches()
            time.sleep(0.3)
        row.refresh_from_db()
        assert row.publications == 1 and row.status == "answered"

        # the reference client, started mid-match, plays it to the end
        client = subprocess.Popen([sys.executable, str(ROOT / "examples/remote/client.py"), "--url", base,
                                   "--token", token, "--matches", "1", "--",
                                   sys.executable, str(ROOT / "examples/bots/random_bot.py")],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        deadline = time.monotonic() + 120
        while Match.objects.get(pk=match.pk).status == Match.Status.RUNNING:
            assert time.monotonic() < deadline, "the match did not end"
            assert workers[-1].poll() is None, "the worker died"
            sweep_stuck_matches()
            time.sleep(0.3)
        _, err = client.communicate(timeout=60)
        assert client.returncode == 0, err
    finally:
        if client is not None and client.poll() is None:
            client.kill()
        for worker in workers:
            if worker.poll() is None:
                stop_worker(worker)
        _until_no_other_session()
    _assert_finished_and_valid(match)
    assert not Event.objects.filter(match=match, kind="forfeit").exists()
    acts = {a.turn: a for a in RemoteAct.objects.filter(match=match)}
    actions = {e.seq: e.payload for e in Event.objects.filter(match=match, kind="action", seat=0)}
    assert set(acts) == set(actions), "every act written once, as the action of its turn"
    assert all(a.status == "answered" and actions[turn]["action"] == a.answer for turn, a in acts.items())
    assert max(a.publications for a in acts.values()) == 2
