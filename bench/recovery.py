"""Recovery: a 16-entrant tournament on PostgreSQL and Redis while whole workers are killed.

As an operator runs the service (docker-compose): two match workers (queue ``arena``), one
control worker (``arena-control``: advances, validations, sweeps) and celery beat queuing the
sweeps; each worker is one process (``--pool=solo``), so ``kill -9`` of it is the whole worker.
While a 16-entrant Swiss of Trap the Wizard runs, a random worker (a match worker three times
in four, else the control worker) is killed with SIGKILL every few
seconds and started again at once, as a supervisor would. Then we wait for the tournament to
finish and every match to be validated.

Figures:
- per match-worker kill that interrupted a match: the seconds from the kill to the sweep queuing
  the match again (bounded by the lease plus one sweep interval), and to the match's next event
  (that also waits for a free worker, behind the matches already queued);
- the sweep's re-queues against the interrupted matches (a re-queue of a match that was merely
  waiting would show as more re-queues than interruptions), and the ``play_match`` runs that found
  nothing to do (a second delivery of the same match);
- the re-queues of matches that no driver claimed a while after they were queued (a message lost
  with a control worker killed between the commit of a round and the publish of its matches:
  before MATCH_QUEUE_WAIT_SECONDS, such a round waited for ever);
- after a restart of Redis without its data (the broker's queues lost), halfway through the
  kills: the seconds from the restart to each match that was waiting in the queue being queued
  again, and to its next event (the bench runs a Redis server of its own for this, on a free
  port, and restarts only that one);
- that every match ended once and validated, and the tournament finished.

The lease and the sweep interval are shorter than production's (MATCH_LEASE_SECONDS 30,
SWEEP_SECONDS 10) to keep the run short; the bound scales with them.

Run alone: ``.venv/bin/python bench/recovery.py [--quick]``: the report on stderr, the figures as
JSON on the last line of stdout (bench/run.py runs it in a subprocess).
"""
from __future__ import annotations

import datetime as dt
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

DATABASE_URL = os.environ.get("BENCH_RECOVERY_DATABASE_URL",
                              "postgres://postgres@127.0.0.1:5432/arena_bench_recovery")
BROKER_URL = ""  # the bench's own Redis server (BrokerServer), set by run()
LEASE_SECONDS, SWEEP_SECONDS = 6, 3
# A match queued this long ago that no driver has claimed lost its message (settings'
# MATCH_QUEUE_WAIT_SECONDS: production's 120 s is three visibility timeouts; so here)
QUEUE_WAIT_SECONDS = 3 * (LEASE_SECONDS + SWEEP_SECONDS)
GAME, RULES = "trap-the-wizard", {"rounds": 6}  # matches of a few seconds: kills land inside them
SIZES = {"full": {"entrants": 16, "rounds": 4, "kills": 12},
         "quick": {"entrants": 8, "rounds": 2, "kills": 3}}
LOG_TIME = re.compile(r"^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}): ")
WAIT_SECONDS = 900


def _env() -> dict:
    env = dict(os.environ, DATABASE_URL=DATABASE_URL, CELERY_BROKER_URL=BROKER_URL, DEBUG="0",
               SECRET_KEY="benchmark-only-not-a-secret", MATCH_LEASE_SECONDS=str(LEASE_SECONDS),
               SWEEP_SECONDS=str(SWEEP_SECONDS), MATCH_QUEUE_WAIT_SECONDS=str(QUEUE_WAIT_SECONDS),
               DJANGO_SETTINGS_MODULE="config.settings")
    return env


class BrokerServer:
    """A Redis server of the bench's own on a free port, without persistence, as .ci/run starts
    one: restarting it loses every queued message, as a broker restarted without its data does."""

    def __init__(self, logs: Path):
        import socket

        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = sock.getsockname()[1]
        self.logs, self.url, self.process = logs, f"redis://127.0.0.1:{self.port}/0", None
        self.start()

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.logs), "--logfile", str(self.logs / "redis.txt")], start_new_session=True)
        deadline = time.monotonic() + 30
        while subprocess.run(["redis-cli", "-p", str(self.port), "ping"], capture_output=True,
                             text=True).stdout.strip() != "PONG":
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("the bench's Redis server did not start")
            time.sleep(0.05)

    def restart(self) -> float:
        """SIGKILL and start again at once, empty; the moment of the kill."""
        restarted_at = time.time()
        self.process.kill()
        self.process.wait()
        self.start()
        return restarted_at

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


class Worker:
    """One Celery process (a worker of a queue, or beat) with its own log file."""

    def __init__(self, role: str, logs: Path, number: int):
        from django.conf import settings

        self.role, self.log = role, logs / f"{role}-{number}.log"
        if role == "beat":
            args = ["beat", "--loglevel=INFO", "-s", str(logs / "beat-schedule")]
        else:
            queue = settings.CELERY_CONTROL_QUEUE if role == "control" else settings.CELERY_TASK_DEFAULT_QUEUE
            args = ["worker", "--pool=solo", "--concurrency=1", "--without-gossip", "--without-mingle",
                    "--without-heartbeat", "--loglevel=INFO", "-n", f"{role}-{number}@%h", "-Q", queue]
        with open(self.log, "w") as out:
            self.process = subprocess.Popen([sys.executable, "-m", "celery", "-A", "config", *args], cwd=ROOT,
                                            env=_env(), stdout=out, stderr=subprocess.STDOUT,
                                            start_new_session=True)
        if role != "beat":
            deadline = time.monotonic() + 60
            while "ready." not in self.log.read_text():
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"the {role} worker did not start:\n{self.log.read_text()[-3000:]}")
                time.sleep(0.1)

    def kill(self) -> float:
        killed_at = time.time()
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        return killed_at

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()

    def interrupted_match(self) -> str | None:
        """The match this (dead) worker was driving: its last "driving" line with no outcome."""
        driving = None
        for line in self.log.read_text().splitlines():
            if found := re.search(r"match ([0-9a-f-]{36}): (\S+)", line):
                driving = found.group(1) if found.group(2) == "driving" else None
        return driving


def _log_times(logs: Path, pattern: str) -> list[tuple[float, str]]:
    """(epoch seconds, first group) of every log line matching ``pattern``, across all logs."""
    found = []
    for log in logs.glob("*.log"):
        for line in log.read_text().splitlines():
            stamp, match = LOG_TIME.match(line), re.search(pattern, line)
            if stamp and match:
                at = dt.datetime.strptime(stamp.group(1), "%Y-%m-%d %H:%M:%S,%f").timestamp()
                found.append((at, match.group(1)))
    return sorted(found)


def run(quick: bool = False) -> dict:
    global BROKER_URL
    with tempfile.TemporaryDirectory(prefix="arena-bench-recovery-") as directory:
        broker = BrokerServer(Path(directory))
        BROKER_URL = broker.url
        try:
            return _run(quick, Path(directory), broker)
        finally:
            broker.stop()


def _run(quick: bool, logs: Path, broker: BrokerServer) -> dict:
    os.environ.update(_env())
    from bench.append import database_create, database_reset, django_setup

    database_create(DATABASE_URL)
    django_setup(DATABASE_URL)
    database_reset()
    from django.conf import settings
    from django.core.management import call_command

    from bots.services import builtin_bot_versions
    from config.celery import app
    from replays.models import Event, Match, Validation
    from tournaments.models import Tournament
    from tournaments.services import tournament_create, tournament_start

    size = SIZES["quick" if quick else "full"]
    call_command("builtinbots", verbosity=0)
    with app.connection_for_write() as connection:
        for queue in (settings.CELERY_TASK_DEFAULT_QUEUE, settings.CELERY_CONTROL_QUEUE):
            connection.default_channel.queue_purge(queue)
    versions = builtin_bot_versions(game=GAME, thinking=False)  # not the search bot's clock
    names = sorted(versions)
    rng = random.Random(12)
    kills: list[dict] = []
    restart: dict = {}
    started_workers = 0

    def start(role: str) -> Worker:
        nonlocal started_workers
        started_workers += 1
        return Worker(role, logs, started_workers)

    workers = [start("match"), start("match"), start("control")]
    beat = start("beat")
    try:
        tournament = tournament_create(
            name="recovery", game=GAME, format="swiss", rules_options=RULES,
            format_settings={"rounds": size["rounds"]},
            entries=[versions[names[i % len(names)]] for i in range(size["entrants"])])
        began = time.time()
        tournament_start(tournament=tournament)
        while len(kills) < size["kills"]:
            time.sleep(rng.uniform(2, 6))
            if Tournament.objects.get(pk=tournament.pk).status != Tournament.Status.RUNNING:
                break
            if not restart and len(kills) >= size["kills"] // 2:
                # The matches waiting in the queue (running, no driver's lease) lose their
                # messages with the broker's data.
                waiting = [str(pk) for pk in Match.objects.filter(
                    pairing_game__pairing__tournament=tournament, status=Match.Status.RUNNING,
                    driver_lease_until__isnull=True).values_list("pk", flat=True)]
                restart = {"at": broker.restart(), "waiting": waiting}
                continue
            index = 2 if rng.random() < 0.25 else rng.choice([0, 1])  # match workers 3 in 4
            victim = workers[index]
            killed_at = victim.kill()
            interrupted = victim.interrupted_match()
            lease_until = (Match.objects.filter(pk=interrupted)
                           .values_list("driver_lease_until", flat=True).first() if interrupted else None)
            kills.append({"role": victim.role, "at": killed_at, "match": interrupted,
                          "lease_until": lease_until and lease_until.timestamp()})
            workers[index] = start(victim.role)
        deadline = time.monotonic() + WAIT_SECONDS
        while Tournament.objects.get(pk=tournament.pk).status != Tournament.Status.FINISHED:
            if time.monotonic() > deadline:
                raise SystemExit("the tournament did not finish")
            time.sleep(0.5)
        matches = list(Match.objects.filter(pairing_game__pairing__tournament=tournament))
        validated = Validation.objects.filter(match__in=matches).values("match").distinct()
        while validated.count() < len(matches):
            if time.monotonic() > deadline:
                raise SystemExit("a match was never validated")
            time.sleep(0.5)
        finished = time.time()
    finally:
        for worker in [*workers, beat]:
            worker.stop()
    requeued = _log_times(logs, r"match ([0-9a-f-]{36}): its driver stopped renewing")
    lost = _log_times(logs, r"match ([0-9a-f-]{36}): no driver claimed it")
    broker_lost = _log_times(logs, r"match ([0-9a-f-]{36}): the broker lost its queued messages")
    outcomes = [outcome for _, outcome in _log_times(logs, r"match [0-9a-f-]{36}: (\w[\w ]*)$")
                if outcome != "driving"]

    interrupted = []
    for kill in kills:
        if kill["role"] != "match" or kill["match"] is None:
            continue
        again = min((at for at, match in requeued if match == kill["match"] and at >= kill["at"]),
                    default=None)
        following = (Event.objects.filter(match_id=kill["match"], time__gt=dt.datetime.fromtimestamp(
            kill["at"], tz=dt.timezone.utc)).order_by("seq").values_list("time", flat=True).first())
        interrupted.append({"match": kill["match"],
                            "to_lease_end": (None if kill["lease_until"] is None
                                             else kill["lease_until"] - kill["at"]),
                            "lease_end_to_requeue": (None if again is None or kill["lease_until"] is None
                                                     else again - kill["lease_until"]),
                            "to_requeue": None if again is None else again - kill["at"],
                            "to_next_event": (None if following is None
                                              else following.timestamp() - kill["at"])})
    after_restart = []
    for match_id in restart.get("waiting", []):
        again = min((at for at, match in lost + broker_lost if match == match_id and at >= restart["at"]),
                    default=None)
        following = (Event.objects.filter(match_id=match_id, time__gt=dt.datetime.fromtimestamp(
            restart["at"], tz=dt.timezone.utc)).order_by("seq").values_list("time", flat=True).first())
        after_restart.append({"match": match_id, "to_requeue": None if again is None else again - restart["at"],
                              "to_next_event": None if following is None else following.timestamp() - restart["at"]})
    ends = Event.objects.filter(match__in=matches, kind__in=("match_ended", "match_aborted")).count()
    return {
        "entrants": size["entrants"], "rounds": size["rounds"], "matches": len(matches),
        "seconds": finished - began, "lease": LEASE_SECONDS, "sweep": SWEEP_SECONDS,
        "kills": len(kills), "match_worker_kills": sum(k["role"] == "match" for k in kills),
        "control_kills": sum(k["role"] == "control" for k in kills), "interrupted": interrupted,
        "requeues": len(requeued), "lost_requeues": len(lost), "queue_wait": QUEUE_WAIT_SECONDS,
        "broker_restart": {"done": bool(restart), "waiting": after_restart,
                           "requeues": len(broker_lost)},
        "noop_runs": sum(o in ("busy", "not running") for o in outcomes),
        "ended_once": ends == len(matches) and all(m.status == Match.Status.ENDED for m in matches),
        "validated_ok": all(v.ok for v in Validation.objects.filter(match__in=matches)),
        "time_control": {key: matches[0].time_control.get(key) for key in ("move_ms", "bank_ms")},
        "finished": True, "quick": quick}


def report(figures: dict) -> list[str]:
    interrupted = figures["interrupted"]
    requeue = [i["to_requeue"] for i in interrupted if i["to_requeue"] is not None]
    lease_left = [i["to_lease_end"] for i in interrupted if i["to_lease_end"] is not None]
    after_lease = [i["lease_end_to_requeue"] for i in interrupted if i["lease_end_to_requeue"] is not None]
    resumed = [i["to_next_event"] for i in interrupted if i["to_next_event"] is not None]
    time_control = figures["time_control"]

    def spread(values):
        return (f"median {statistics.median(values):.1f} s, longest {max(values):.1f} s" if values
                else "none measured")

    lines = [f"A {figures['entrants']}-entrant Swiss of {GAME} ({figures['rounds']} rounds, "
             f"{figures['matches']} matches) on PostgreSQL and Redis with two match workers, one control "
             f"worker and beat; lease {figures['lease']} s, sweep every {figures['sweep']} s; time control "
             f"move {time_control['move_ms']} ms + bank {time_control['bank_ms']} ms. A driver renews its "
             f"lease from a heartbeat thread one lease ahead at most, so a dead driver's lease ends at "
             f"most one lease after the kill; the sweep then queues the match within one interval. When "
             f"Redis lost its data, the next sweep queues every waiting match again. "
             f"{figures['kills']} SIGKILLs of whole workers "
             f"({figures['match_worker_kills']} match workers, {figures['control_kills']} the control "
             f"worker), each started again at once; the tournament finished in {figures['seconds']:.0f} s.",
             "",
             "| figure | value |", "| --- | --- |",
             f"| matches interrupted by a kill | {len(interrupted)} |",
             f"| kill to the end of the lease the dead driver held | {spread(lease_left)} |",
             f"| end of that lease to re-queued by the sweep | {spread(after_lease)} (bound: one sweep, "
             f"{figures['sweep']} s) |",
             f"| kill to re-queued | {spread(requeue)} |",
             f"| kill to the match's next event | {spread(resumed)} (also waits for a free worker) |",
             f"| re-queues by the sweep | {figures['requeues']} (interrupted matches: {len(interrupted)}) |",
             f"| re-queues of a match no driver claimed {figures['queue_wait']} s after it was queued "
             f"| {figures['lost_requeues']} (its message lost: a worker killed between the commit "
             f"that made the match and the publish after it; or, harmless, a match still waiting "
             f"behind the queue) |",
             f"| `play_match` runs that found nothing to do | {figures['noop_runs']} (a message the broker "
             f"gave again after its visibility timeout, lease + sweep, while its match still ran: it "
             f"finds the lease held and returns) |",
             f"| every match ended once / validated | {'yes' if figures['ended_once'] else 'NO'} / "
             f"{'yes' if figures['validated_ok'] else 'NO'} |"]
    restart = figures.get("broker_restart") or {}
    if restart.get("done"):
        waiting = restart["waiting"]
        lines[-1:-1] = [
            f"| Redis restarted without its data: matches whose queued message it lost | {len(waiting)} |",
            f"| restart to each of them queued again | "
            f"{spread([w['to_requeue'] for w in waiting if w['to_requeue'] is not None])} "
            f"(never: {sum(w['to_requeue'] is None for w in waiting)}) |",
            f"| restart to each one's next event | "
            f"{spread([w['to_next_event'] for w in waiting if w['to_next_event'] is not None])} "
            f"(also waits for a free worker) |",
            f"| re-queues for a broker that lost its data | {restart['requeues']} |"]
    bound = figures["lease"] + figures["sweep"]
    worst = [i["to_requeue"] for i in interrupted if i["to_requeue"] is not None]
    worst += [w["to_requeue"] for w in restart.get("waiting", []) if w["to_requeue"] is not None]
    if worst:
        lines.append(f"\nThe bound, one lease plus one sweep: {bound} s; the longest wait to a re-queue "
                     f"above: {max(worst):.1f} s ({max(worst) / bound:.2f}x the bound).")
    if figures["quick"]:
        lines.append("\n(--quick: a small tournament and few kills, to check that it runs.)")
    return lines


if __name__ == "__main__":
    result = run(quick="--quick" in sys.argv[1:])
    print("\n".join(report(result)), file=sys.stderr)
    print(json.dumps(result))
