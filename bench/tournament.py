"""Matches per minute of a 64-entrant tournament on PostgreSQL and Redis with one and with two
real Celery worker processes, in one run (the same tournament each time).

Run alone: ``.venv/bin/python bench/tournament.py`` (bench/run.py runs it in a subprocess,
because the broker must be set before Django loads its settings). The bench database of
bench/append.py is used (BENCH_DATABASE_URL) and a Redis database and queue of its own.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

GAME, FORMAT, ENTRANTS, SETTINGS = "sorcado", "swiss", 64, {}  # Swiss: ceil(log2 64) = 6 rounds
BROKER = os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/14")
QUEUE = "arena-bench"


def start_workers(count: int, env: dict) -> list[subprocess.Popen]:
    """``count`` worker processes, each with one solo pool; returns once all are ready."""
    workers, logs = [], []
    for i in range(count):
        log = ROOT / "var" / f"bench-worker-{i}.log"
        log.parent.mkdir(exist_ok=True)
        with open(log, "w") as out:
            workers.append(subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
                 "--without-gossip", "--without-mingle", "--without-heartbeat", "-n", f"bench{i}@%h",
                 # both queues: each worker also runs the control tasks (advances, validations)
                 "-Q", f"{QUEUE},{QUEUE}-control",
                 "--loglevel=WARNING"], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT))
        logs.append(log)
    time.sleep(1)
    from config.celery import app
    deadline = time.monotonic() + 60
    while len(app.control.ping(timeout=1) or []) < count:
        if time.monotonic() > deadline:
            raise RuntimeError("workers did not start: " + " | ".join(l.read_text()[-500:] for l in logs))
    return workers


def stop_workers(workers: list[subprocess.Popen]) -> None:
    for worker in workers:
        worker.terminate()
    for worker in workers:
        try:
            worker.wait(timeout=30)
        except subprocess.TimeoutExpired:
            worker.kill()


def one_run(workers: int, env: dict) -> dict:
    """Create the tournament, queue its first round, and time it to the end."""
    from bots.services import builtin_bot_versions
    from config.celery import app
    from tournaments.models import PairingGame, Tournament
    from tournaments.services import tournament_create, tournament_start

    app.control.purge()
    procs = start_workers(workers, env)
    try:
        # the bots that answer at once: a bot that thinks for its whole clock (search) would
        # make this a measure of its clock, not of the workers
        versions = builtin_bot_versions(game=GAME, thinking=False)
        names = sorted(versions)
        entries = [versions[names[i % len(names)]] for i in range(ENTRANTS)]
        tournament = tournament_create(name=f"bench {workers}", game=GAME, format=FORMAT,
                                       entries=entries, format_settings=SETTINGS)
        started = time.perf_counter()
        tournament_start(tournament=tournament)
        deadline = time.monotonic() + 900
        while Tournament.objects.get(pk=tournament.pk).status != Tournament.Status.FINISHED:
            if time.monotonic() > deadline:
                raise RuntimeError("the tournament did not finish within 15 minutes")
            time.sleep(0.2)
        elapsed = time.perf_counter() - started
    finally:
        stop_workers(procs)
    matches = PairingGame.objects.filter(pairing__tournament=tournament).count()
    return {"workers": workers, "matches": matches, "seconds": elapsed,
            "per_minute": matches / elapsed * 60}


def run() -> dict:
    from bench.append import DEFAULT_URL, database_create, database_reset, django_setup

    url = os.environ.get("BENCH_DATABASE_URL") or DEFAULT_URL
    os.environ.update(CELERY_BROKER_URL=BROKER, CELERY_QUEUE=QUEUE)
    database_create(url)
    django_setup(url)
    database_reset()
    env = dict(os.environ, DATABASE_URL=url)
    return {"runs": [one_run(n, env) for n in (1, 2)], "cores": os.cpu_count()}


def report(result: dict) -> list[str]:
    base = result["runs"][0]["per_minute"]
    lines = [f"A {ENTRANTS}-entrant {FORMAT} tournament of {GAME} built-in bots (heuristic and random, "
             f"{result['runs'][0]['matches']} matches), queued on Redis and played by real worker "
             f"processes on PostgreSQL; each worker also validates the matches it ends. "
             f"Machine: {result['cores']} cores (the database and Redis share them).", "",
             "| workers | matches | seconds | matches/min | vs one worker |",
             "| ---: | ---: | ---: | ---: | ---: |"]
    for run_ in result["runs"]:
        lines.append(f"| {run_['workers']} | {run_['matches']} | {run_['seconds']:.1f} | "
                     f"{run_['per_minute']:,.0f} | {run_['per_minute'] / base:.2f}x |")
    return lines


if __name__ == "__main__":
    print(json.dumps(run()))
