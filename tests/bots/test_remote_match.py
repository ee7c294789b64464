"""A whole match of a remote bot on the embedded defaults (SQLite, tasks in process): the
reference client (examples/remote/client.py) runs examples/bots/random_bot.py against a built-in
bot, over a live server; and the clock: a client that sleeps is charged its sleep, one that never
answers loses on time (docs/remote.md, "The clock")."""
import datetime as dt
import json
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from api.services import token_create
from bots.driver import match_drive
from tests.api.test_remote_docs import until_streams_end
from bots.models import RemoteAct
from bots.remote import sqlite_patient
from bots.services import bot_create, builtin_bot_versions, match_start
from replays.models import Event, Match

ROOT = Path(__file__).resolve().parents[2]
GAME = "trap-the-wizard"


def remote_bot(username="alice", game=GAME):
    user = get_user_model().objects.create_user(username=username, password="x-Secret-123")
    bot = bot_create(owner=user, name="far-away", game=game, remote=True)
    _, token = token_create(user=user, name="remote")
    return user, bot.versions.get(), token


def client_process(url: str, token: str, *program: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, str(ROOT / "examples/remote/client.py"), "--url", url,
                             "--token", token, "--matches", "1", "--", *program],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)


@pytest.mark.parametrize("game, options", [(GAME, {"rounds": 1}), ("warlock", {})],
                         ids=["trap-the-wizard", "warlock-simultaneous-choices"])
def test_it_plays_a_whole_match_with_the_reference_client_and_random_bot(game, options, live_server, live_db,
                                                                         settings):
    """Trap the Wizard asks one seat at a time; Warlock's secret simultaneous choices ask both
    seats at once (the referee's threads: the remote seat waits in one of them)."""
    settings.REMOTE_KEEPALIVE_SECONDS = 1  # the stream notices its client gone at once
    user, version, token = remote_bot(game=game)
    opponent = builtin_bot_versions(game=game)["random"]
    match = match_start(ruleset=game, versions=[version, opponent], options=options, queue=False,
                        time_control={"move_ms": 5000, "bank_ms": 20000})
    client = client_process(live_server.url, token, sys.executable, str(ROOT / "examples/bots/random_bot.py"))
    try:
        assert match_drive(match_id=match.pk) == "ended"
        out, err = client.communicate(timeout=60)
    finally:
        if client.poll() is None:
            client.kill()
    until_streams_end()
    match.refresh_from_db()
    assert match.status == Match.Status.ENDED
    assert client.returncode == 0, err
    assert not Event.objects.filter(match=match, kind="forfeit").exists(), err
    seat0 = list(Event.objects.filter(match=match, kind="action", seat=0).values_list("payload", flat=True))
    assert seat0 and all("fault" not in p and p["clock"]["elapsed_ms"] >= 0 for p in seat0)
    acts = RemoteAct.objects.filter(match=match)
    assert acts.count() == len(seat0)
    assert set(acts.values_list("status", flat=True)) == {RemoteAct.Status.ANSWERED}
    assert f"playing {game}" in err  # random_bot.py got its hello through the client


def answer_after(match, seat: int, delay: float, token_user, stop: threading.Event, answered: list):
    """A client in a thread: answers each open act of the seat after ``delay`` seconds, with
    its first legal action, through the API."""
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(token_user)
    try:
        _answer_each(client, match, seat, delay, stop, answered)
    finally:
        connection.close()


def _answer_each(client, match, seat, delay, stop, answered):
    while not stop.is_set():
        act = sqlite_patient(lambda: RemoteAct.objects.filter(match=match, seat=seat, status="open").first())
        if act is None:
            time.sleep(0.01)
            continue
        time.sleep(delay)
        response = client.post(f"/api/matches/{match.pk}/seats/{seat}/act/",
                               {"turn": act.turn, "action": act.message["legal_actions"][0]}, format="json")
        answered.append((act.turn, response.status_code, response.json()))
        while sqlite_patient(RemoteAct.objects.filter(pk=act.pk, status="open").exists) and not stop.is_set():
            time.sleep(0.01)


def test_it_charges_a_client_that_sleeps_its_sleep(live_db):
    """docs/remote.md: "the time from publishing the act to receiving the answer is charged to
    the seat": a client that sleeps 0.3 s past move_ms 100 draws about 0.2 s a move on the bank."""
    user, version, _ = remote_bot()
    opponent = builtin_bot_versions(game=GAME)["random"]
    match = match_start(ruleset=GAME, versions=[version, opponent], options={"rounds": 1}, queue=False,
                        time_control={"move_ms": 100, "bank_ms": 60000})
    stop, answered = threading.Event(), []
    thread = threading.Thread(target=answer_after, args=(match, 0, 0.3, user, stop, answered))
    thread.start()
    try:
        assert match_drive(match_id=match.pk, max_events=40) in ("paused", "ended")
    finally:
        stop.set()
        thread.join()
    clocks = [p["clock"] for p in Event.objects.filter(match=match, kind="action", seat=0)
              .order_by("seq").values_list("payload", flat=True)]
    assert clocks, answered
    assert all(c["elapsed_ms"] >= 300 for c in clocks)
    bank = 60000
    for clock in clocks:  # each move charged what it took beyond move_ms, from the server's clock
        bank -= clock["elapsed_ms"] - 100
        assert abs(clock["bank_ms"] - bank) <= len(clocks)  # whole milliseconds, rounded per move
        bank = clock["bank_ms"]
    assert clocks[-1]["bank_ms"] < 60000 - 200 * len(clocks) + 5 * len(clocks)
    assert all(code == 200 for _, code, _ in answered)


def test_it_forfeits_a_seat_whose_client_never_answers_on_time(db):
    """docs/remote.md: an unanswered act is a timeout when move_ms and the bank run out, a
    recorded forfeit under the default policy, as for a crashed uploaded bot."""
    user, version, _ = remote_bot()
    opponent = builtin_bot_versions(game=GAME)["random"]
    match = match_start(ruleset=GAME, versions=[version, opponent], options={"rounds": 1}, queue=False,
                        time_control={"move_ms": 100, "bank_ms": 200})
    started = time.monotonic()
    assert match_drive(match_id=match.pk) == "ended"
    assert time.monotonic() - started >= 0.3
    forfeit = Event.objects.get(match=match, kind="forfeit")
    assert forfeit.seat == 0 and forfeit.payload["reason"] == "timeout"
    assert forfeit.payload["elapsed_ms"] >= 300
    act = RemoteAct.objects.get(match=match)
    assert act.status == RemoteAct.Status.TIMED_OUT


def test_a_match_whose_dev_server_died_is_driven_again_when_its_client_reconnects(live_server, live_db,
                                                                                  eager_tasks, settings):
    """Issue 41.5 on the embedded defaults (tasks in process, no sweep running): a dev server
    that stops takes the thread driving a remote match with it. When the seat's owner reads its
    acts again (the long poll here; the stream does the same), the match whose lease ran out is
    taken once and driven again in a thread of the server, which publishes the act again; the
    reference client then plays it to the end."""
    settings.REMOTE_KEEPALIVE_SECONDS = 1
    from bots.services import remote_matches_resume

    user, version, token = remote_bot()
    opponent = builtin_bot_versions(game=GAME)["random"]
    match = match_start(ruleset=GAME, versions=[version, opponent], options={"rounds": 1}, queue=False,
                        time_control={"move_ms": 5000, "bank_ms": 20000})
    # the driver of the stopped server: it held the match, and its lease ran out
    Match.objects.filter(pk=match.pk).update(driver_token="dead-server",
                                             driver_lease_until=timezone.now() - dt.timedelta(seconds=1))
    other_user, other_version, _ = remote_bot(username="bob")  # another owner's reads bring back nothing of it
    assert remote_matches_resume(user=other_user) == []

    request = urllib.request.Request(f"{live_server.url}/api/remote/next/?wait=30",
                                     headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        acts = json.load(answer)["acts"]
    assert [(act["match"], act["seat"]) for act in acts] == [(str(match.pk), 0)]
    assert remote_matches_resume(user=user) == []  # taken once: the new driver holds the lease now

    client = client_process(live_server.url, token, sys.executable, str(ROOT / "examples/bots/random_bot.py"))
    try:
        out, err = client.communicate(timeout=120)
    finally:
        if client.poll() is None:
            client.kill()
    deadline = time.monotonic() + 60
    while sqlite_patient(lambda: Match.objects.get(pk=match.pk).status) == Match.Status.RUNNING:
        assert time.monotonic() < deadline, err
        time.sleep(0.1)
    until_streams_end()
    match.refresh_from_db()
    assert match.status == Match.Status.ENDED, err
    assert client.returncode == 0, err
    assert not Event.objects.filter(match=match, kind="forfeit").exists(), err
    assert Event.objects.filter(match=match, kind="action", seat=0).count() == \
        RemoteAct.objects.filter(match=match, status=RemoteAct.Status.ANSWERED).count() > 0
