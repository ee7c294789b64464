"""Request rates under concurrency (issue 40, item 7): parallel clients get no more than the limit.

Real parallel requests against the production server (gunicorn, threads in each process): on the
embedded defaults one process with a per-process memory cache, whose threads must not interleave
a count; with Redis (the PostgreSQL+Redis pass) two processes sharing the count in it."""
import os
import secrets
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 60  # a minute: the test ends long before any request leaves the window
CLIENTS, EACH = 8, 25  # 200 requests from 8 parallel connections


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            response.read()
            return response.status
    except urllib.error.HTTPError as error:
        error.read()
        return error.code


def _server(tmp_path, workers: int, cache_url: str) -> tuple[subprocess.Popen, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE", "CELERY_BROKER_URL")}
    env.update(DEBUG="1", ALLOWED_HOSTS="127.0.0.1", ARENA_VAR_DIR=str(tmp_path),
               DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}", API_THROTTLE_ANON=f"{LIMIT}/minute",
               CACHE_URL=cache_url, CACHE_KEY_PREFIX=f"throttle-test-{secrets.token_hex(8)}")
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}",
                               "--workers", str(workers), "--worker-class", "gthread", "--threads", "8"],
                              cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base, deadline = f"http://127.0.0.1:{port}", time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"{base}/api/health/", timeout=5):
                break
        except urllib.error.HTTPError:
            break  # it answers
        except OSError:
            assert server.poll() is None and time.monotonic() < deadline, server.communicate()[0]
            time.sleep(0.2)
    return server, base


def _hammer(base: str) -> Counter:
    """CLIENTS threads, each EACH requests back to back, released together."""
    codes, barrier = Counter(), threading.Barrier(CLIENTS)
    lock = threading.Lock()

    def client():
        barrier.wait(timeout=30)
        for _ in range(EACH):
            code = _status(f"{base}/api/games/")
            with lock:
                codes[code] += 1

    threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    return codes


def _assert_exactly_the_limit(tmp_path, workers: int, cache_url: str):
    server, base = _server(tmp_path, workers, cache_url)
    try:
        codes = _hammer(base)
    finally:
        server.terminate()
        server.wait(timeout=20)
    # "parallel clients get no more than the limit": not one more, and not fewer either.
    assert codes == Counter({200: LIMIT, 429: CLIENTS * EACH - LIMIT}), codes


def test_parallel_clients_get_exactly_the_limit_from_the_memory_cache_of_one_process(tmp_path):
    """The embedded defaults: one server process, eight threads, the per-process memory cache."""
    _assert_exactly_the_limit(tmp_path, workers=1, cache_url="")


@pytest.mark.worker  # needs Redis: runs where CELERY_BROKER_URL is set
def test_parallel_clients_get_exactly_the_limit_across_processes_counting_in_redis(tmp_path):
    """CACHE_URL set: two server processes of eight threads each share one count in Redis (the
    broker's database, under a key prefix of this test's own)."""
    _assert_exactly_the_limit(tmp_path, workers=2, cache_url=os.environ["CELERY_BROKER_URL"])


def _allowed_by_threads(throttle_class) -> int:
    """CLIENTS threads, EACH requests each, through ``throttle_class`` (one throttle a request,
    as DRF makes them): how many it allowed."""
    from django.contrib.auth.models import AnonymousUser
    from rest_framework.test import APIRequestFactory

    allowed, barrier, lock = [], threading.Barrier(CLIENTS), threading.Lock()

    def client():
        barrier.wait(timeout=30)
        for _ in range(EACH):
            request = APIRequestFactory().get("/api/games/")
            request.user = AnonymousUser()
            ok = throttle_class().allow_request(request, None)
            with lock:
                allowed.append(ok)

    threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert len(allowed) == CLIENTS * EACH
    return sum(allowed)


def _slow_clock():
    """The time, after a pause: a thread switch between a throttle's read and its write, where
    DRF's own throttle takes the time, becomes certain rather than rare."""
    time.sleep(0.002)
    return time.time()


def test_threads_of_one_process_never_interleave_a_count():
    """The count itself, under the slow clock: DRF's throttle lets the threads all read the same
    history and overshoots; the atomic one allows exactly the limit."""
    from rest_framework.throttling import AnonRateThrottle as DrfAnonRateThrottle

    from api.throttles import AnonRateThrottle

    class Atomic(AnonRateThrottle):
        rate, timer = f"{LIMIT}/minute", staticmethod(_slow_clock)

    class Drf(DrfAnonRateThrottle):
        rate, timer = f"{LIMIT}/minute", staticmethod(_slow_clock)

    assert _allowed_by_threads(Atomic) == LIMIT
    from django.core.cache import cache

    cache.clear()
    assert _allowed_by_threads(Drf) > LIMIT  # the defect the atomic count fixes, shown here
