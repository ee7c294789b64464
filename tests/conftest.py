"""Shared fixtures. PostgreSQL/Redis tests run when DATABASE_URL / CELERY_BROKER_URL are set and
then fail (never skip) if the service is down; on the embedded defaults they are skipped."""
import importlib
import os
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlparse, urlunparse

import pytest

ROOT = Path(__file__).resolve().parent.parent


# The tests of the rules alone: games/ has no Django import, so a test here that asks for no
# database cannot reach one (pytest-django refuses database access without it).
ENGINE_TEST_DIRS = (ROOT / "tests" / "games", ROOT / "tests" / "conformance")
DATABASE_FIXTURES = {"db", "transactional_db", "django_db_reset_sequences", "django_db_serialized_rollback",
                     "live_server", "client", "admin_client", "django_user_model"}


def runs_without_database(item) -> bool:
    """A test of the rules alone: under tests/games or tests/conformance, with no database
    fixture and no django_db, postgres or worker marker; or a test marked ``no_services``. Its
    outcome does not depend on DATABASE_URL or CELERY_BROKER_URL."""
    path = Path(str(item.fspath))
    if item.get_closest_marker("no_services"):
        return True  # says so itself (e.g. a bot played in the sandbox, offline)
    return (any(folder in path.parents for folder in ENGINE_TEST_DIRS)
            and not DATABASE_FIXTURES & set(getattr(item, "fixturenames", ()))
            and not any(item.get_closest_marker(m) for m in ("django_db", "postgres", "worker")))


CONFORMANCE_DIR = ROOT / "tests" / "conformance"


def conformance_group(item) -> str | None:
    """The case (a game and its options) a conformance test plays, named by its ``case`` or
    ``key`` parameter. The case's random playouts are played once per process and kept
    (tests/conformance/conftest.py, lru_cache), so with ``--dist loadgroup`` (dev.py test) every
    test of a case runs in the same xdist worker: the cases are spread over the workers, and no
    worker plays another's playouts again."""
    params = getattr(getattr(item, "callspec", None), "params", {})
    key = params.get("case", params.get("key"))
    if isinstance(key, str) and CONFORMANCE_DIR in Path(str(item.fspath)).parents:
        return f"conformance:{key}"
    return None


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the xdist_group marks (--dist loadgroup)
def pytest_collection_modifyitems(config, items):
    on_postgres = (os.environ.get("DATABASE_URL") or "").startswith(("postgres://", "postgresql://"))
    with_broker = bool(os.environ.get("CELERY_BROKER_URL"))
    if os.environ.get("ARENA_DATABASE_PASS") == "1":
        # .ci/run's second pass, on PostgreSQL, Redis and a worker: the tests of the rules alone
        # ran in the first pass and would run the very same code again (about half the suite's
        # time), so they are deselected here, and pytest reports how many.
        engine_only = [item for item in items if runs_without_database(item)]
        if engine_only:
            config.hook.pytest_deselected(items=engine_only)
            items[:] = [item for item in items if not runs_without_database(item)]
    for item in items:
        group = conformance_group(item)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))
        if "postgres" in item.keywords and not on_postgres:
            item.add_marker(pytest.mark.skip(reason="needs DATABASE_URL=postgres://... (set by .ci/run)"))
        if "worker" in item.keywords and not (with_broker and on_postgres):
            item.add_marker(pytest.mark.skip(
                reason="needs CELERY_BROKER_URL and a PostgreSQL DATABASE_URL (set by .ci/run)"))


@pytest.fixture(autouse=True, scope="session")
def signing_key_dir(tmp_path_factory):
    """The private keys that sign match ends, in a directory of the test session rather than
    ./var (each test's database is rolled back, so each test that ends a match makes a key);
    in the environment too, so the Celery workers tests start sign with the same keys."""
    from django.conf import settings

    path = tmp_path_factory.mktemp("signing-keys")
    before = settings.SIGNING_KEY_DIR, os.environ.get("SIGNING_KEY_DIR")
    settings.SIGNING_KEY_DIR = path
    os.environ["SIGNING_KEY_DIR"] = str(path)
    yield path
    settings.SIGNING_KEY_DIR = before[0]
    if before[1] is None:
        os.environ.pop("SIGNING_KEY_DIR", None)
    else:
        os.environ["SIGNING_KEY_DIR"] = before[1]


def worker_queues() -> list[str]:
    """Every queue of the service: the matches', the control tasks' and the ladder's."""
    from django.conf import settings

    return [settings.CELERY_TASK_DEFAULT_QUEUE, settings.CELERY_CONTROL_QUEUE, settings.CELERY_LADDER_QUEUE]


def start_worker(name: str = "worker", **env_extra: str) -> subprocess.Popen:
    """Start a real Celery worker process on the test database and wait until it is ready; it
    takes every queue: the matches', the control tasks' and the ladder's."""
    from django.conf import settings
    from django.db import connection

    url = urlparse(os.environ["DATABASE_URL"])
    env = dict(os.environ, DATABASE_URL=urlunparse(url._replace(path="/" + connection.settings_dict["NAME"])),
               **env_extra)
    # Under pytest-xdist two test processes may start a "worker" at once: each names its own
    # (log, node name); their queues are their own already (dev.py, parallel_args).
    if os.environ.get("PYTEST_XDIST_WORKER"):
        name = f"{name}-{os.environ['PYTEST_XDIST_WORKER']}"
    log = ROOT / "var" / f"test-{name}.log"
    log.parent.mkdir(exist_ok=True)
    with open(log, "w") as out:
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "--concurrency=1",
             "--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel=INFO",
             "-n", f"{name}@%h", "-Q", ",".join(worker_queues())],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while "ready." not in log.read_text():
        if worker.poll() is not None or time.monotonic() > deadline:
            stop_worker(worker)
            pytest.fail(f"the Celery worker did not start:\n{log.read_text()[-3000:]}")
        time.sleep(0.2)
    return worker


def stop_process_group(process: subprocess.Popen, timeout: float = 30) -> None:
    """SIGTERM to the process group a test started (``start_new_session``: gunicorn and its
    workers), SIGKILL if it is still there after ``timeout`` seconds."""
    import signal

    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def stop_worker(worker: subprocess.Popen) -> None:
    worker.terminate()
    try:
        worker.wait(timeout=20)
    except subprocess.TimeoutExpired:
        worker.kill()
        worker.wait()


@pytest.fixture(autouse=True)
def check_matches_only_where_tested(request):
    """An upload plays a check match (ladder.services): the tests of that (marked
    ``check_matches``) have it; every other test uploads without one, so that its own matches
    are all it plays."""
    if request.node.get_closest_marker("check_matches"):
        yield
        return
    from django.conf import settings

    before = settings.ARENA_CHECK_MATCHES
    settings.ARENA_CHECK_MATCHES = False
    yield
    settings.ARENA_CHECK_MATCHES = before


@pytest.fixture
def purged_queue():
    """The test broker's queues (matches, control tasks, the ladder) emptied first, so no
    message of an earlier test is delivered."""
    from config.celery import app

    with app.connection_for_write() as connection:
        for queue in worker_queues():
            connection.default_channel.queue_purge(queue)


@pytest.fixture
def celery_worker_process(django_db_setup, django_db_blocker, purged_queue):
    """A real Celery worker process on the test database."""
    worker = start_worker()
    try:
        yield worker
    finally:
        stop_worker(worker)


@pytest.fixture
def eager_tasks():
    """Run Celery tasks in process for this test, whatever the broker setting (the worker
    integration tests are where tasks cross a real broker)."""
    from config.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = before


@pytest.fixture
def live_db(transactional_db):
    """A database whose transactions really commit (a live server's, or tasks queued at commit).
    Its teardown runs before the flush of transactional_db, which on SQLite deletes row by row
    and so meets the append-only trigger: empty the event table with the trigger lifted for a
    moment (PostgreSQL flushes with TRUNCATE, which it allows)."""
    yield
    from django.db import connection

    if connection.vendor != "sqlite":
        return
    append_only = importlib.import_module("replays.migrations._append_only")
    with connection.cursor() as cursor:
        cursor.execute("DROP TRIGGER IF EXISTS replays_event_no_delete")
        cursor.execute("DELETE FROM replays_event")
        cursor.execute(append_only.SQLITE_NO_DELETE_UNLESS_ARCHIVED)
        cursor.execute("DROP TRIGGER IF EXISTS replays_matcharchive_no_delete")  # write-once too
        cursor.execute("DELETE FROM replays_matcharchive")
        cursor.execute(append_only.SQLITE_ARCHIVE_KEPT[1])
