#!/usr/bin/env python3
"""One entry point that needs nothing but Python 3.11+:

    python3 dev.py demo    install everything into .venv, run a tournament, ladder matches and a match of built-in bots, say where to look
    python3 dev.py test    install the test dependencies into .venv and run the whole suite (args go to pytest)
    python3 dev.py bench   install the benchmark dependencies and run bench/ (see BENCHMARKS.md)

Embedded defaults: SQLite in ./var and Celery tasks in process. Set DATABASE_URL and
CELERY_BROKER_URL to use PostgreSQL, Redis and real workers instead.
"""
import hashlib
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
PYTHON = VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def run(*args: str, **kw) -> None:
    result = subprocess.run([str(a) for a in args], cwd=ROOT, **kw)
    if result.returncode:
        sys.exit(result.returncode)


def install(requirements: str) -> None:
    """Create .venv and install ``requirements`` into it, unless that exact file is installed."""
    if not PYTHON.exists():
        print(f"creating {VENV.relative_to(ROOT)} ...", flush=True)
        venv.create(VENV, with_pip=True, symlinks=os.name != "nt")  # as `python3 -m venv` does
    files = [ROOT / requirements, *sorted(ROOT.glob("requirements*.txt"))]
    digest = hashlib.sha256(b"".join(f.read_bytes() for f in files)).hexdigest()
    stamp = VENV / f".installed-{requirements.replace('/', '-')}"
    if stamp.exists() and stamp.read_text() == digest:
        return
    print(f"installing {requirements} ...", flush=True)
    run(PYTHON, "-m", "pip", "install", "--disable-pip-version-check", "-q", "-r", requirements)
    stamp.write_text(digest)


def ensure_bubblewrap() -> None:
    """bubblewrap sandboxes uploaded bots (Debian package). Installed when we may (root with
    apt-get); otherwise uploaded bots are refused with a clear error and built-ins still play."""
    if shutil.which("bwrap"):
        return
    if shutil.which("apt-get") and hasattr(os, "geteuid") and os.geteuid() == 0:
        print("installing bubblewrap (the sandbox of uploaded bots) ...", flush=True)
        quiet = {"stdout": subprocess.DEVNULL}
        subprocess.run(["apt-get", "update", "-qq"], **quiet)
        subprocess.run(["apt-get", "install", "-y", "-qq", "bubblewrap"], **quiet)
    if not shutil.which("bwrap"):
        print("note: bubblewrap is not installed (apt-get install bubblewrap); uploaded bots "
              "will be refused until it is", file=sys.stderr)


def ensure_chromium() -> None:
    """Debian's chromium runs the browser tests of the replay viewer (tests/api/
    test_viewer_browser.py, driven by Playwright; never `playwright install`) and its benchmark
    (bench/viewer.py). Installed when we may (root with apt-get); otherwise those tests skip
    (fail under ARENA_REQUIRE_BROWSER=1) and the benchmark stops with the reason."""
    if shutil.which("chromium"):
        return
    if shutil.which("apt-get") and hasattr(os, "geteuid") and os.geteuid() == 0:
        print("installing chromium (the browser tests of the replay viewer) ...", flush=True)
        quiet = {"stdout": subprocess.DEVNULL}
        subprocess.run(["apt-get", "update", "-qq"], **quiet)
        subprocess.run(["apt-get", "install", "-y", "-qq", "chromium"], **quiet)
    if not shutil.which("chromium"):
        print("note: chromium is not installed (apt-get install chromium); the browser tests "
              "of the replay viewer will be skipped", file=sys.stderr)


def demo() -> None:
    install("requirements.txt")
    ensure_bubblewrap()
    run(PYTHON, "manage.py", "migrate", "--verbosity", "0")
    run(PYTHON, "manage.py", "builtinbots", stdout=subprocess.DEVNULL)
    print("\n== a Swiss tournament of 8 built-in Trap the Wizard bots (one-round matches) ==", flush=True)
    run(PYTHON, "manage.py", "tournament", "--game", "trap-the-wizard", "--format", "swiss",
        "--entrants", "8", "--options", '{"rounds": 1}')
    print("\n== the Sorcado ladder: six ladder matches of its built-in bots, then its leaderboard ==", flush=True)
    run(PYTHON, "manage.py", "ladder", "sorcado", "--matches", "6")
    print("\n== a full four-player match between built-in bots ==", flush=True)
    run(PYTHON, "manage.py", "play", "trap-the-wizard", "--players", "4")


TEST_WORKERS = 4  # at most: pytest-xdist processes of `dev.py test` (fewer on fewer cores)


def parallel_args(pytest_args: list[str]) -> list[str]:
    """pytest-xdist: one test process per core (at most TEST_WORKERS), unless the arguments
    choose (-n, --numprocesses, --tx, --dist, -p no:xdist). Each process has Celery queues of its own
    (CELERY_QUEUE, read by config/settings.py before anything is queued), so with a broker the
    processes' tasks and their real workers (tests/conftest.py, start_worker) never meet; with
    --dist loadgroup the tests of one conformance case share a process (tests/conftest.py)."""
    chosen = ("-n", "--numprocesses", "--tx", "--dist")
    if any(arg.split("=")[0] in chosen or arg.startswith("-n") or arg == "no:xdist" for arg in pytest_args):
        return []
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    workers = max(1, min(TEST_WORKERS, cores))
    queue = os.environ.get("CELERY_QUEUE", "arena")
    return ["--dist", "loadgroup",
            *[f"--tx=popen//env:CELERY_QUEUE={queue}-test{index}" for index in range(workers)]]


def test(pytest_args: list[str]) -> None:
    install("requirements-test.txt")
    ensure_bubblewrap()
    ensure_chromium()
    run(PYTHON, "-m", "pytest", *parallel_args(pytest_args), *pytest_args)


def bench(args: list[str]) -> None:
    install("bench/requirements.txt")
    ensure_chromium()  # bench/viewer.py opens the viewer in it
    run(PYTHON, "bench/run.py", *args)


if __name__ == "__main__":
    command, rest = (sys.argv[1], sys.argv[2:]) if len(sys.argv) > 1 else ("", [])
    if command == "demo":
        demo()
    elif command == "test":
        test(rest)
    elif command == "bench":
        bench(rest)
    else:
        print(__doc__)
        sys.exit(2)
