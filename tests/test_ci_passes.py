""".ci/run's second pass (PostgreSQL, Redis, a worker) leaves out only the tests of the rules
alone, which ran in the first pass and cannot reach a database or a broker; and `dev.py test`
runs the suite in pytest-xdist processes that share no Celery queue."""
import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parent.parent


def collected(**env) -> set[str]:
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                           "tests/games/test_sorcado.py", "tests/conformance/test_schemas.py",
                           "tests/replays/test_event_store.py"],
                          cwd=ROOT, capture_output=True, text=True, env={**os.environ, **env}, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return {line for line in done.stdout.splitlines() if "::" in line}


def test_it_deselects_the_engine_tests_and_keeps_every_database_test_in_the_database_pass():
    every = collected(ARENA_DATABASE_PASS="0")
    database_pass = collected(ARENA_DATABASE_PASS="1")
    left_out = every - database_pass
    assert database_pass < every and left_out
    assert all(t.startswith(("tests/games/", "tests/conformance/")) for t in left_out), left_out
    # an engine test is left out; a django_db test beside engine tests and the event store stay
    assert any(t.startswith("tests/games/test_sorcado.py::") for t in left_out)
    assert "tests/conformance/test_schemas.py::test_the_api_serves_each_games_schemas_publicly" in database_pass
    assert {t for t in every if t.startswith("tests/replays/")} <= database_pass


def _dev():
    """dev.py, the repository's entry point (a script, imported from its path)."""
    spec = importlib.util.spec_from_file_location("dev_entry_point", ROOT / "dev.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_dev_test_runs_a_process_per_core_each_with_queues_of_its_own():
    """With a broker, the real workers one test process starts take only its own tasks: each
    pytest-xdist process gets a queue name of its own before settings are read."""
    dev = _dev()
    args = dev.parallel_args(["-q"])
    assert args[:2] == ["--dist", "loadgroup"]
    queues = [arg.split("env:CELERY_QUEUE=")[1] for arg in args[2:]]
    assert all(arg.startswith("--tx=popen//env:CELERY_QUEUE=") for arg in args[2:])
    assert 1 <= len(queues) <= dev.TEST_WORKERS and len(set(queues)) == len(queues)
    # a choice of processes on the command line is kept as given
    for chosen in (["-n", "0"], ["-n2"], ["--numprocesses=3"], ["--tx", "popen"], ["-p", "no:xdist"],
                   ["--dist=load"]):
        assert dev.parallel_args(["-q", *chosen]) == [], chosen


def test_the_tests_of_a_conformance_case_share_a_group_and_no_other_test_has_one():
    """--dist loadgroup keeps a case's tests in the process that plays its playouts once."""
    from tests.conftest import conformance_group

    def item(path: str, **params):
        return SimpleNamespace(fspath=ROOT / path, callspec=SimpleNamespace(params=params))

    one = conformance_group(item("tests/conformance/test_conformance.py", case="sorcado"))
    assert one == conformance_group(item("tests/conformance/test_determinize.py", key="sorcado")) == \
        conformance_group(item("tests/conformance/test_schemas.py", key="sorcado"))
    assert one != conformance_group(item("tests/conformance/test_conformance.py", case="warlock"))
    assert conformance_group(item("tests/games/test_sorcado.py", key="sorcado")) is None
    assert conformance_group(SimpleNamespace(fspath=ROOT / "tests/conformance/test_conformance.py")) is None
