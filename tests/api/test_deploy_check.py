"""The production settings (DEBUG off): `manage.py check --deploy` is clean, for docker-compose's
settings too, and the production server (gunicorn) serves the API and the static files."""
import json
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]


def _check_deploy(tmp_path, **extra):
    env = dict(os.environ, DEBUG="0", SECRET_KEY=secrets.token_urlsafe(64), ALLOWED_HOSTS="arena.example",
               ARENA_VAR_DIR=str(tmp_path), CACHE_URL="redis://127.0.0.1:6379/1")
    env.update(extra)
    env.pop("DJANGO_SETTINGS_MODULE", None)
    return subprocess.run([sys.executable, "manage.py", "check", "--deploy"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_it_passes_the_deploy_check_in_production(tmp_path):
    done = _check_deploy(tmp_path)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "security." not in output, output  # every deployment setting is right
    assert "no issues" in output, output


def test_it_lets_the_environment_override_a_production_setting(tmp_path):
    done = _check_deploy(tmp_path, SECURE_SSL_REDIRECT="0")
    assert "security.W008" in done.stdout + done.stderr  # the check notices the override


def test_a_per_process_cache_is_flagged_for_deployment(tmp_path):
    """Issue 12.5: behind several server processes a per-process cache lets each one allow the
    whole request rate, so the deploy check names it."""
    done = _check_deploy(tmp_path, CACHE_URL="")
    assert "arena.W001" in done.stdout + done.stderr


COMPOSE = ROOT / "docker-compose.yml"


def _compose_environment() -> dict:
    """The environment docker-compose.yml gives the web service, with a real secret key where
    the file asks for one."""
    compose = yaml.safe_load(COMPOSE.read_text())
    environment = dict(compose["x-app"]["environment"])
    assert environment["SECRET_KEY"].startswith("${SECRET_KEY:?"), "the key must come from outside"
    environment["SECRET_KEY"] = secrets.token_urlsafe(50)
    return environment


def test_the_compose_settings_pass_the_deploy_check(tmp_path):
    """Issue 12.4: `manage.py check --deploy` is clean for the settings docker-compose runs."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "DJANGO_SETTINGS_MODULE")}
    env.update(_compose_environment(), ARENA_VAR_DIR=str(tmp_path))
    done = subprocess.run([sys.executable, "manage.py", "check", "--deploy"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    output = done.stdout + done.stderr
    assert done.returncode == 0 and "no issues" in output, output
    assert _compose_environment()["DEBUG"] == "0"


def test_compose_runs_the_production_server_not_runserver():
    compose = yaml.safe_load(COMPOSE.read_text())
    assert "command" not in compose["services"]["web"]  # the Dockerfile's CMD
    command = (ROOT / "Dockerfile").read_text().split("\nCMD ", 1)[1]
    assert "exec gunicorn -c deploy/gunicorn.conf.py" in command and "runserver" not in command


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _get(url: str, **headers):
    """Status, headers (an email.message.Message: names in any case, as HTTP has them) and body."""
    request = urllib.request.Request(url, headers=headers)

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(request, timeout=10) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def test_the_production_server_serves_the_api_and_static_files_without_debug(tmp_path):
    """Issue 12.4: gunicorn with DEBUG off, as the Dockerfile runs it: the API answers over the
    proxy's HTTPS, plain HTTP is redirected, and static files come from the application server
    (WhiteNoise) with their hashed names and long cache lifetimes."""
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE",)}
    env.update(DEBUG="0", SECRET_KEY=secrets.token_urlsafe(50), ALLOWED_HOSTS="127.0.0.1",
               ARENA_VAR_DIR=str(tmp_path), SECURE_PROXY_SSL_HEADER_NAME="HTTP_X_FORWARDED_PROTO",
               DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    env.pop("CELERY_BROKER_URL", None)
    for command in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
        done = subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=180)
        assert done.returncode == 0, done.stdout + done.stderr
    manifest = json.loads((tmp_path / "static" / "staticfiles.json").read_text())
    hashed = manifest["paths"]["viewer/viewer.js"]
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", "--bind",
                               f"127.0.0.1:{port}", "--workers", "2"], cwd=ROOT, env=dict(env, WEB_THREADS="2"),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        base, deadline = f"http://127.0.0.1:{port}", time.monotonic() + 60
        while True:
            try:
                status, headers, body = _get(f"{base}/api/games/", **{"X-Forwarded-Proto": "https"})
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, server.communicate()[0]
                time.sleep(0.2)
        assert status == 200 and headers["Content-Type"] == "application/json", body[:300]
        assert "trap-the-wizard" in {game["name"] for game in json.loads(body)["results"]}
        status, headers, _ = _get(f"{base}/api/games/")  # plain HTTP, not through the proxy
        assert status == 301 and headers["Location"].startswith("https://")
        status, headers, body = _get(f"{base}/static/{hashed}", **{"X-Forwarded-Proto": "https"})
        assert status == 200 and body == (ROOT / "web" / "static" / "viewer" / "viewer.js").read_bytes()
        assert "max-age=315360000" in headers["Cache-Control"]  # immutable: the name is its hash
    finally:
        server.terminate()
        server.wait(timeout=20)


@pytest.mark.worker  # needs Redis: runs where CELERY_BROKER_URL is set
def test_the_throttles_count_across_server_processes_in_redis(tmp_path):
    """Issue 12.5: with CACHE_URL set, two server processes share one count: a client gets the
    anonymous rate in all, not once per process. Each process makes 6 requests against a limit
    of 10 a minute; 10 pass in all, and the second process turns its last 2 away."""
    broker = os.environ["CELERY_BROKER_URL"]
    script = ("import django, json; django.setup(); from django.test import Client; "
              "print(json.dumps([Client().get('/api/games/').status_code for _ in range(6)]))")
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", DEBUG="1", API_THROTTLE_ANON="10/minute",
               ALLOWED_HOSTS="testserver",
               CACHE_URL=broker, CACHE_KEY_PREFIX=f"throttle-test-{secrets.token_hex(8)}",
               ARENA_VAR_DIR=str(tmp_path), DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    codes = []
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr[-2000:]
        codes.append(json.loads(done.stdout.strip().splitlines()[-1]))
    assert codes == [[200] * 6, [200] * 4 + [429] * 2]
