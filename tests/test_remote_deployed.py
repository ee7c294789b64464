"""Issue 41, "Done when": a remote bot (the reference client examples/remote/client.py running
examples/bots/random_bot.py) plays a tournament against built-in bots through gunicorn started as
deployed (deploy/gunicorn.conf.py, DEBUG off), everything through the API.

With DATABASE_URL (PostgreSQL) and CELERY_BROKER_URL set (.ci/run's second pass) the server runs on
the test database with the broker and a real Celery worker drives the matches; a service that is
down fails the test. Without them (the first pass) the same test runs on the embedded defaults:
the server on a SQLite file of its own, migrated and with its built-in bots as the README's
production path does, tasks in process (a match with a remote seat is driven in a thread of the
server process that started it). Meanwhile 24 more streams of the same owner stay open, more
than the server's 16 threads (4 processes x 4): they wait on the event loop (config/asgi.py), and
the site answers all along."""
import json
import os
import secrets
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlparse, urlunparse

import pytest

from tests.conftest import stop_process_group

ROOT = Path(__file__).resolve().parent.parent
GAME = "trap-the-wizard"
EXTRA_STREAMS = 24  # more than gunicorn's 4 x 4 threads


def _with_services() -> bool:
    return (os.environ.get("DATABASE_URL") or "").startswith(("postgres://", "postgresql://")) \
        and bool(os.environ.get("CELERY_BROKER_URL"))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _server_env(tmp_path: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE", "DEBUG")}
    env.update(DEBUG="0", SECRET_KEY=secrets.token_urlsafe(40), ALLOWED_HOSTS="127.0.0.1", ARENA_PLAIN_HTTP="1",
               ARENA_VAR_DIR=str(tmp_path / "var"), ARENA_ACCESS_LOG="",
               API_THROTTLE_ANON="100000/minute", API_THROTTLE_USER="100000/minute")
    if _with_services():
        from django.db import connection

        url = urlparse(os.environ["DATABASE_URL"])
        env["DATABASE_URL"] = urlunparse(url._replace(path="/" + connection.settings_dict["NAME"]))
    else:  # the embedded defaults: a database of the server's own, tasks in process
        env["DATABASE_URL"] = f"sqlite:///{tmp_path}/arena.sqlite3"
        env.pop("CELERY_BROKER_URL", None)
        env.pop("CACHE_URL", None)
        for command in (["migrate", "--noinput"], ["builtinbots"]):
            done = subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env,
                                  capture_output=True, text=True, timeout=300)
            assert done.returncode == 0, done.stderr[-3000:]
    return env


# With the services: their database (transactions that commit, seen by the server and the worker).
# Without them the test touches no test database: the server has its own.
pytestmark = ([pytest.mark.postgres, pytest.mark.worker, pytest.mark.django_db(transaction=True)]
              if _with_services() else [pytest.mark.no_services])


@pytest.fixture
def deployed(request, tmp_path):
    """The base URL of gunicorn as deployed, on PostgreSQL + Redis + a real worker or on the
    embedded defaults (the module's docstring)."""
    if _with_services():
        request.getfixturevalue("celery_worker_process")
        from bots.services import builtin_bot_versions

        builtin_bot_versions(game=GAME)  # as `manage.py builtinbots` leaves them
    env = _server_env(tmp_path)
    port = _free_port()
    log = open(tmp_path / "gunicorn.log", "w")
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py",
                               "--bind", f"127.0.0.1:{port}"], cwd=ROOT, env=env, stdout=log,
                              stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 240  # collectstatic at start, on a busy machine
    try:
        while True:
            assert server.poll() is None, (tmp_path / "gunicorn.log").read_text()[-3000:]
            try:
                with urllib.request.urlopen(f"{base}/api/health/", timeout=5):
                    break
            except OSError:
                assert time.monotonic() < deadline, "gunicorn did not answer within 240 s"
                time.sleep(0.5)
        yield base
    finally:
        stop_process_group(server, timeout=40)
        log.close()


def _call(base: str, path: str, body: dict | None = None, token: str | None = None):
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(base + path, data=None if body is None else json.dumps(body).encode(),
                                     headers=headers, method="GET" if body is None else "POST")
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return json.load(answer)
    except urllib.error.HTTPError as refused:
        raise AssertionError(f"{path}: {refused.code} {refused.read()[:500]!r}") from None


class IdleStream(threading.Thread):
    """A stream held open, read to its end (the lines it got)."""

    def __init__(self, base: str, token: str):
        super().__init__(daemon=True)
        self.request = urllib.request.Request(f"{base}/api/remote/stream/?seconds=3600",
                                              headers={"Authorization": f"Bearer {token}"})
        self.connected, self.lines, self.response = threading.Event(), [], None

    def run(self):
        try:
            with urllib.request.urlopen(self.request, timeout=600) as self.response:
                for line in self.response:
                    self.lines.append(json.loads(line))
                    self.connected.set()
        except (OSError, ValueError):
            pass
        finally:
            self.connected.set()

    def close(self):
        if self.response is not None:
            try:
                self.response.fp.raw._sock.shutdown(socket.SHUT_RDWR)
            except (AttributeError, OSError):
                pass


def test_a_remote_bot_plays_a_tournament_against_builtin_bots_through_gunicorn_as_deployed(deployed):
    base = deployed
    password = secrets.token_urlsafe(16)
    _call(base, "/api/users/", {"username": "faraway", "password": password})
    token = _call(base, "/api/tokens/", {"username": "faraway", "password": password, "name": "ci"})["token"]
    bot = _call(base, "/api/bots/", {"name": "far-away", "game": GAME, "remote": True}, token)
    assert (bot["kind"], bot["remote"]) == ("remote", True)
    builtin = [b for b in _call(base, f"/api/bots/?game={GAME}&kind=builtin")["results"] if b["name"] != "search"]
    assert len(builtin) >= 2, builtin
    cup = _call(base, "/api/tournaments/", {
        "name": "Remote cup", "game": GAME, "format": "round-robin", "rules_options": {"rounds": 1},
        "time_control": {"move_ms": 5000, "bank_ms": 30000}, "admits_remote_bots": True}, token)
    for entrant in [bot, *builtin]:
        _call(base, f"/api/tournaments/{cup['id']}/entries/", {"bot": entrant["id"]}, token)

    streams = [IdleStream(base, token) for _ in range(EXTRA_STREAMS)]
    for stream in streams:
        stream.start()
    try:
        for stream in streams:
            assert stream.connected.wait(120), "a stream did not open"
        assert all(stream.lines[:1] == [{"type": "keepalive"}] for stream in streams)
        # every thread of the server would be taken by now, were the streams served in threads
        assert _call(base, "/api/health/") == {"status": "ok"}
        # the long poll waits on the event loop too, then answers as the API does; refusals as ever
        assert _call(base, "/api/remote/next/?wait=1", token=token) == {"acts": []}
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{base}/api/remote/stream/", timeout=30)
        assert refused.value.code == 401
        assert json.load(refused.value)["error"]["code"] == "not_authenticated"

        _call(base, f"/api/tournaments/{cup['id']}/start/", {}, token)
        client = subprocess.run(
            [sys.executable, "examples/remote/client.py", "--url", base, "--token", token,
             "--matches", str(len(builtin)), "--", sys.executable, "examples/bots/random_bot.py"],
            cwd=ROOT, capture_output=True, text=True, timeout=900)
        assert client.returncode == 0, client.stderr[-3000:]
        assert client.stderr.count(": ended,") == len(builtin), client.stderr[-3000:]
        assert "refused" not in client.stderr, client.stderr[-3000:]

        deadline = time.monotonic() + 300  # the last matches between built-in bots, the advance
        while (tournament := _call(base, f"/api/tournaments/{cup['id']}/"))["status"] != "finished":
            assert time.monotonic() < deadline, tournament
            time.sleep(1)
        assert _call(base, "/api/health/") == {"status": "ok"}
    finally:
        for stream in streams:
            stream.close()

    matches = _call(base, f"/api/matches/?tournament={cup['id']}&limit=200")["results"]
    assert len(matches) == (len(builtin) + 1) * len(builtin) // 2
    ours = [m for m in matches if any(s["kind"] == "remote" for s in m["seats"])]
    assert len(ours) == len(builtin)
    for match in ours:
        assert match["status"] == "ended", match
        seat = next(i for i, s in enumerate(match["seats"]) if s["kind"] == "remote")
        assert match["seats"][seat]["bot"]["name"] == "far-away"
        events = _call(base, f"/api/matches/{match['id']}/events/?limit=1000")["results"]
        # every decision of the remote seat is an answer the client sent: no fault, no timeout
        assert any(e["kind"] == "action" and e["seat"] == seat for e in events)
        assert not [e for e in events if e["kind"] == "forfeit" and e["seat"] == seat]
    standings = _call(base, f"/api/tournaments/{cup['id']}/standings/")["results"]
    assert "far-away" in [row["bot"] for row in standings], standings
    # the idle streams got the acts too (every stream of the owner does) and stayed open
    assert all(any(line["type"] == "act" for line in stream.lines) for stream in streams)
