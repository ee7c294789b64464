#!/usr/bin/env python3
"""One entry point that needs nothing but Python 3.11+:

    python3 dev.py demo    install everything into .venv, run a tournament, ladder matches, a match of each game and a four-player match of built-in bots, say where to look
    python3 dev.py test    install the test dependencies into .venv and run the whole suite (args go to pytest)
    python3 dev.py bench   install the benchmark dependencies and run bench/ (see BENCHMARKS.md)
    python3 dev.py lock    write the lock files (requirements*.lock: every package, with hashes) anew

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


# Every package installed, with the hashes of its files, resolved from the direct pins of each
# requirements file (`python3 dev.py lock` writes them anew with uv; README, "Dependencies").
LOCKS = {"requirements.txt": "requirements.lock", "requirements-test.txt": "requirements-test.lock",
         "bench/requirements.txt": "bench/requirements.lock"}
UV = "uv==0.13.8"  # the resolver of `dev.py lock` (installed into .venv by that command only)


def install(requirements: str) -> None:
    """Create .venv and install the lock of ``requirements`` into it (every package pinned, each
    file's hash checked: ``pip install --require-hashes``), unless that exact lock is installed."""
    if not PYTHON.exists():
        print(f"creating {VENV.relative_to(ROOT)} ...", flush=True)
        venv.create(VENV, with_pip=True, symlinks=os.name != "nt")  # as `python3 -m venv` does
    lock = LOCKS[requirements]
    digest = hashlib.sha256((ROOT / lock).read_bytes()).hexdigest()
    stamp = VENV / f".installed-{lock.replace('/', '-')}"
    if stamp.exists() and stamp.read_text() == digest:
        return
    print(f"installing {lock} ...", flush=True)
    run(PYTHON, "-m", "pip", "install", "--disable-pip-version-check", "-q", "--require-hashes", "-r", lock)
    stamp.write_text(digest)


def lock() -> None:
    """Write every lock file anew from its requirements file's direct pins: uv resolves them for
    every platform (``--universal``) from Python 3.11 on and records every file's hash."""
    if not PYTHON.exists():
        venv.create(VENV, with_pip=True, symlinks=os.name != "nt")
    run(PYTHON, "-m", "pip", "install", "--disable-pip-version-check", "-q", UV)
    for requirements, locked in LOCKS.items():
        print(f"{requirements} -> {locked}", flush=True)
        run(PYTHON, "-m", "uv", "pip", "compile", "--quiet", "--universal", "--generate-hashes",
            "--python-version", "3.11", "--custom-compile-command", "python3 dev.py lock",
            "--output-file", locked, requirements)


def ensure_debian_package(command: str, package: str, why: str, missing: str) -> None:
    """Install Debian's ``package`` (which provides ``command``) when we may (root with apt-get),
    printing ``why``; otherwise, or if that failed, print ``missing`` (what does not work
    without it). Only Debian's package registry is used."""
    if shutil.which(command):
        return
    if shutil.which("apt-get") and hasattr(os, "geteuid") and os.geteuid() == 0:
        print(f"installing {package} ({why}) ...", flush=True)
        quiet = {"stdout": subprocess.DEVNULL}
        subprocess.run(["apt-get", "update", "-qq"], **quiet)
        subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *package.split()], **quiet)
    if not shutil.which(command):
        print(f"note: {package} is not installed (apt-get install {package}); {missing}", file=sys.stderr)


def ensure_bubblewrap() -> None:
    """bubblewrap sandboxes uploaded bots (Debian package). Installed when we may (root with
    apt-get); otherwise uploaded bots are refused with a clear error and built-ins still play."""
    ensure_debian_package("bwrap", "bubblewrap", "the sandbox of uploaded bots",
                          "uploaded bots will be refused until it is")


def ensure_chromium() -> None:
    """Debian's chromium runs the browser tests of the replay viewer (tests/api/
    test_viewer_browser.py, driven by Playwright; never `playwright install`) and its benchmark
    (bench/viewer.py). Installed when we may (root with apt-get); otherwise those tests skip
    (fail under ARENA_REQUIRE_BROWSER=1) and the benchmark stops with the reason."""
    ensure_debian_package("chromium", "chromium", "the browser tests of the replay viewer",
                          "the browser tests of the replay viewer will be skipped")


def ensure_npm_packages() -> None:
    """What the browser tests load into pages from the npm registry (package.json: axe-core,
    the accessibility checker), installed as package-lock.json pins it (`npm ci`, integrity
    checked) into node_modules, unless that exact lock is installed."""
    ensure_debian_package("npm", "npm", "the browser tests' accessibility checker",
                          "the accessibility tests will fail under ARENA_REQUIRE_BROWSER=1, else skip")
    if not shutil.which("npm"):
        return
    lock = ROOT / "package-lock.json"
    stamp = ROOT / "node_modules" / ".installed-package-lock"
    digest = hashlib.sha256(lock.read_bytes()).hexdigest()
    if stamp.exists() and stamp.read_text() == digest:
        return
    print("installing package-lock.json (axe-core, for the browser tests) ...", flush=True)
    run("npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error")
    stamp.write_text(digest)


PYTHON_NUMERIC = ROOT / "var" / "runtimes" / "python-numeric"


def ensure_runtimes(*, build_tools: bool = False) -> None:
    """What the runtimes of uploaded bots need (docs/protocol.md, "Runtimes"): Debian's nodejs
    for `node`; python-numeric's environment from requirements-numeric.txt (pinned with hashes,
    wheels only) into var/runtimes/python-numeric, which the sandbox binds read-only (never into
    .venv: bots get numpy and nothing of the service's packages). ``native`` needs nothing on
    the worker; ``build_tools``: gcc and libc6-dev, with which the tests build static C bots (as
    an author builds the starter bot)."""
    ensure_debian_package("node", "nodejs", "the node runtime of uploaded bots",
                          "bots of the node runtime will be refused until it is")
    if build_tools:
        ensure_debian_package("gcc", "gcc libc6-dev", "the tests build static C bots with it",
                              "the tests of the native runtime will be skipped")
    requirements = ROOT / "requirements-numeric.txt"
    stamp = PYTHON_NUMERIC / ".installed"
    digest = hashlib.sha256(requirements.read_bytes()).hexdigest()
    if stamp.exists() and stamp.read_text() == digest:
        return
    print("installing requirements-numeric.txt (the python-numeric runtime of uploaded bots) ...", flush=True)
    staging = PYTHON_NUMERIC.with_name(PYTHON_NUMERIC.name + ".new")
    shutil.rmtree(staging, ignore_errors=True)
    done = subprocess.run([str(PYTHON), "-m", "pip", "install", "--disable-pip-version-check", "-q",
                           "--require-hashes", "--no-deps", "--only-binary=:all:", "--target", str(staging),
                           "-r", str(requirements)], cwd=ROOT)
    if done.returncode:
        shutil.rmtree(staging, ignore_errors=True)
        print("note: requirements-numeric.txt could not be installed; bots of the python-numeric "
              "runtime will be refused", file=sys.stderr)
        return
    for folder, _, files in os.walk(staging):  # the bot's own uid reads it
        os.chmod(folder, 0o755)
        for path in (os.path.join(folder, name) for name in files):
            os.chmod(path, 0o755 if os.access(path, os.X_OK) else 0o644)
    (staging / ".installed").write_text(digest)
    shutil.rmtree(PYTHON_NUMERIC, ignore_errors=True)
    staging.rename(PYTHON_NUMERIC)


def demo() -> None:
    install("requirements.txt")
    ensure_bubblewrap()
    ensure_runtimes()
    run(PYTHON, "manage.py", "migrate", "--verbosity", "0")
    run(PYTHON, "manage.py", "builtinbots", stdout=subprocess.DEVNULL)
    print("\n== a Swiss tournament of 8 built-in Trap the Wizard bots (one-round matches) ==", flush=True)
    run(PYTHON, "manage.py", "tournament", "--game", "trap-the-wizard", "--format", "swiss",
        "--entrants", "8", "--options", '{"rounds": 1}')
    print("\n== the Sorcado ladder: six ladder matches of its built-in bots, then its leaderboard ==", flush=True)
    run(PYTHON, "manage.py", "ladder", "sorcado", "--matches", "6")
    print("\n== one short match of each of the five games, validated ==", flush=True)
    run(PYTHON, "manage.py", "showcase")
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
    ensure_runtimes(build_tools=True)
    ensure_chromium()
    ensure_npm_packages()
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
    elif command == "lock":
        lock()
    else:
        print(__doc__)
        sys.exit(2)
