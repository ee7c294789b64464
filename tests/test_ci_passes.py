""".ci/run's second pass (PostgreSQL, Redis, a worker) leaves out only the tests of the rules
alone, which ran in the first pass and cannot reach a database or a broker."""
import os
import subprocess
import sys
from pathlib import Path

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
