"""Load: 200 concurrent clients against the production server, on PostgreSQL and Redis.

The server is gunicorn exactly as the Dockerfile runs it (its command line is read from the
Dockerfile: processes, threads, timeout), DEBUG off, the cache (and so the rate limits) in Redis,
the dataset of bench/dataset.py in a database of its own (BENCH_DATASET_URL, default
``arena_bench_dataset``; built on the first run and kept, since building it takes minutes):
over a million events of 1,350 finished matches of all five games, 200 bots, 20 tournaments
and the five games' leaderboards. The clients are asyncio HTTP/1.1 keep-alive connections in
this process, on the same machine (they take their share of its cores: the figures are for the
pair, and the ratios are what compares).

Phases, one after the other against the same server, each with every client busy:
1. ``health``: GET /api/health/, the trivial JSON endpoint (the request path alone);
2. ``mix``: the reads people make, for 60 s: replay steps (50 %), a tournament's standings
   (15 %), a game's leaderboard (15 %), the replay viewer's page (10 %) and a page of its
   frames.json (10 %). The replay reads are viewers' (``Viewers``): each client watches one
   match at a time, chosen by popularity (Zipf's law over the matches, exponent
   POPULARITY_EXPONENT: the first match in a shuffled order is watched twice as often as the
   second, three times as often as the third), in one perspective (public half the time, else a
   seat), from the start or from a step picked at random (half and half), one step after
   another, for a geometric number of steps (mean SESSION_STEPS) or to the end; its viewer page
   and frames.json page are at that match, step and perspective;
   ``mix, uniform``: the same mix with every replay read at a random step and perspective of a
   random match (no two viewers alike: the reads of a crawler, the worst case for any cache);
3. ``steps``: replay steps alone, each read new (no validator);
4. ``steps, revalidated``: the same reads sent with the ETag a first read gave
   (If-None-Match), which a finished match's reads answer 304 without folding;
5. ``live``: the public steps of a match being played meanwhile (a built-in bot's event every
   LIVE_EVENT_SECONDS, appended by a thread of this process through the match driver), each
   read new, as anonymous spectators read them;
6. ``live, revalidated``: the same, each client sending the ETag its last read of that step
   gave (a 304 until the next event changes the step count).

Per phase: requests, throughput, latency percentiles, 5xx and other failures. The limits of the
API's throttles are raised for the run (one address sends everything), nothing else changes.
The ``health`` and ``mix`` phases also run, each right after the deployed server's, against a
reference started beside it: the same gunicorn with the WSGI application in gunicorn's own
thread workers (THREADS_REFERENCE), as deployed before the remote seats' streams moved to an
event loop; the ratio says what uvicorn's worker and its threads cost or gain.

Run alone: ``.venv/bin/python bench/load.py [--quick]``: the report on stderr, the figures as
JSON on the last line of stdout (bench/run.py runs it in a subprocess).
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import random
import re
import secrets
import shlex
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

CLIENTS = 200
SECONDS = {"full": {"health": 20, "mix": 60, "mix, uniform": 30, "steps": 20, "revalidated": 20, "live": 20,
                    "live revalidated": 20},
           "quick": {"health": 3, "mix": 5, "mix, uniform": 3, "steps": 3, "revalidated": 3, "live": 3,
                     "live revalidated": 3}}
LIVE_EVENT_SECONDS = 0.2  # a bot's move every 200 ms: a match that lasts the two live phases
LIVE_GAME = "trap-the-wizard"  # the live match's game (about a thousand events in 3 rounds)
LIVE_STEPS = 40  # the live phases read steps 0-39 (there from the start: the phases may begin early)
WARM_UP_SECONDS = 3
POPULARITY_EXPONENT = 1.0  # Zipf's law of the matches' popularity (the mix's viewers)
SESSION_STEPS = 30  # the mean number of steps a viewer reads of a match before opening another
CACHE_URL = os.environ.get("BENCH_CACHE_URL", "redis://127.0.0.1:6379/8")


# The reference server of the throughput phases: the same gunicorn, processes and threads with
# the WSGI application in gunicorn's thread workers (gthread), as deployed before the remote
# seats' streams moved to an event loop (config/asgi.py).
THREADS_REFERENCE = ["--worker-class", "gthread", "--threads", "4", "config.wsgi:application"]


def gunicorn_command(port: int, reference: bool = False) -> list[str]:
    """The Dockerfile's gunicorn command line, bound to ``port`` on the loopback (server_start
    turns the access log off: ARENA_ACCESS_LOG, deploy/gunicorn.conf.py); with ``reference`` the
    threads reference (THREADS_REFERENCE: its options override the configuration file's)."""
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    found = re.search(r"exec (gunicorn [^\"]+)", dockerfile)
    if not found:
        raise SystemExit("no gunicorn command in the Dockerfile")
    words = shlex.split(found.group(1))
    command, skip = [], False
    for word in words:
        if skip:
            skip = False
            continue
        if word in ("--bind", "--access-logfile"):
            skip = True
            continue
        command.append(word)
    return [sys.executable, "-m", *command, "--bind", f"127.0.0.1:{port}", *(THREADS_REFERENCE if reference else [])]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


DATASET_URL = os.environ.get("BENCH_DATASET_URL", "postgres://postgres@127.0.0.1:5432/arena_bench_dataset")


def seed_database(url: str, quick: bool = False) -> dict:
    """bench/dataset.py's dataset (built if the database does not hold it yet); returns what the
    clients will read: matches (id, players, events), tournaments, games."""
    from bench import dataset

    facts = dataset.build(url, quick=quick)
    targets = dataset.read_targets()
    return {**targets, "tournament": targets["tournaments"][0], "facts": facts,
            "live": live_match_start()}


def live_match_start() -> str:
    """A match of two built-in bots (3 rounds: about a thousand events), played LIVE_STEPS
    events far; live_match_play goes on with it."""
    from bots.driver import match_drive
    from bots.services import builtin_bot_versions, match_start

    versions = [builtin_bot_versions(game=LIVE_GAME)["random"]] * 2
    match = match_start(ruleset=LIVE_GAME, versions=versions, options={"rounds": 3}, queue=False)
    match_drive(match_id=match.pk, max_events=LIVE_STEPS)
    return str(match.pk)


def live_match_play(match_id: str, stop) -> int:
    """One event every LIVE_EVENT_SECONDS until ``stop`` is set or the match ends; returns the
    events appended."""
    from django.db import connection

    from bots.driver import match_drive

    played = 0
    try:
        while not stop.wait(LIVE_EVENT_SECONDS):
            if match_drive(match_id=match_id, max_events=1) != "paused":
                break
            played += 1
    finally:
        connection.close()
    return played


def server_start(url: str, port: int, var_dir: str, reference: bool = False, **env_extra: str) -> subprocess.Popen:
    """gunicorn as the Dockerfile starts it (or the threads reference), on the database ``url``,
    the throttles' limits raised (one address sends everything), answering its health probe;
    ``env_extra`` e.g. a broker."""
    env = dict(os.environ, DATABASE_URL=url, CACHE_URL=CACHE_URL, DEBUG="0",
               SECRET_KEY=secrets.token_urlsafe(48), ALLOWED_HOSTS="127.0.0.1",
               # Plain HTTP on the loopback: in production the proxy in front holds TLS.
               SECURE_SSL_REDIRECT="0", ARENA_VAR_DIR=var_dir, ARENA_ACCESS_LOG="",
               API_THROTTLE_ANON="100000000/minute", API_THROTTLE_USER="100000000/minute",
               CACHE_KEY_PREFIX=f"bench-load-{secrets.token_hex(4)}", **env_extra)
    env.pop("DJANGO_SETTINGS_MODULE", None)
    server = subprocess.Popen(gunicorn_command(port, reference), cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
    # collectstatic runs first (deploy/gunicorn.conf.py): minutes on a loaded machine
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"gunicorn exited: {server.stderr.read()[-2000:]}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health/", timeout=2) as answer:
                if answer.status == 200:
                    return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("gunicorn did not answer within 300 s")


class Tally:
    """What one phase's clients saw."""

    def __init__(self):
        self.latencies: list[float] = []
        self.statuses: dict[int, int] = {}
        self.failures = 0  # no answer at all (connection refused, reset, timeout)
        self.kinds: dict[str, list[float]] = {}

    def add(self, kind: str, status: int, seconds: float) -> None:
        self.latencies.append(seconds)
        self.statuses[status] = self.statuses.get(status, 0) + 1
        self.kinds.setdefault(kind, []).append(seconds)


async def _request(reader, writer, port: int, path: str, headers: dict) -> tuple[int, dict]:
    headers = {"Accept": "application/json", **headers}  # a page's request asks for HTML
    lines = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{port}",
             *(f"{k}: {v}" for k, v in headers.items()), "", ""]
    writer.write("\r\n".join(lines).encode())
    await writer.drain()
    status_line = await reader.readline()
    if not status_line:
        raise ConnectionError("closed")
    status = int(status_line.split()[1])
    answer = {}
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode("latin-1").partition(":")
        answer[name.strip().lower()] = value.strip()
    length = int(answer.get("content-length", "0"))
    if length:
        await reader.readexactly(length)
    if answer.get("connection", "").lower() == "close":
        raise EOFError("server closes")
    return status, answer


async def _client(port: int, pick, deadline: float, tally: Tally | None, rng: random.Random,
                  etags: dict | None = None) -> None:
    connection = None
    while time.perf_counter() < deadline:
        kind, path, headers = pick(rng)
        started = time.perf_counter()
        try:
            if connection is None:
                connection = await asyncio.open_connection("127.0.0.1", port)
            status, answer = await asyncio.wait_for(_request(*connection, port, path, headers), timeout=30)
        except EOFError:
            connection = None  # answered, then the server ended the keep-alive: open another
            continue
        except (OSError, ConnectionError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError):
            if connection is not None:
                connection[1].close()
            connection = None
            if tally is not None:
                tally.failures += 1
            await asyncio.sleep(0.05)
            continue
        if etags is not None and "etag" in answer:
            etags[path] = answer["etag"]  # sent back by the next read of the path (live revalidated)
        if tally is not None:
            tally.add(kind, status, time.perf_counter() - started)
    if connection is not None:
        connection[1].close()


async def _phase(port: int, pick, seconds: float, *, warm_up: float = 0,
                 etags: dict | None = None) -> tuple[Tally, float]:
    if warm_up:
        deadline = time.perf_counter() + warm_up
        await asyncio.gather(*(_client(port, pick, deadline, None, random.Random(i))
                               for i in range(CLIENTS)))
    tally = Tally()
    started = time.perf_counter()
    deadline = started + seconds
    await asyncio.gather(*(_client(port, pick, deadline, tally, random.Random(1000 + i), etags)
                           for i in range(CLIENTS)))
    return tally, time.perf_counter() - started


def _percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def summary(tally: Tally, elapsed: float) -> dict:
    served = len(tally.latencies)
    return {"requests": served, "seconds": elapsed, "per_second": served / elapsed,
            "p50_ms": 1000 * _percentile(tally.latencies, 0.50),
            "p95_ms": 1000 * _percentile(tally.latencies, 0.95),
            "p99_ms": 1000 * _percentile(tally.latencies, 0.99),
            "statuses": {str(k): v for k, v in sorted(tally.statuses.items())},
            "server_errors": sum(v for k, v in tally.statuses.items() if k >= 500),
            "failures": tally.failures,
            "kinds": {kind: {"requests": len(values), "p95_ms": 1000 * _percentile(values, 0.95),
                             "median_ms": 1000 * statistics.median(values)}
                      for kind, values in sorted(tally.kinds.items())}}


def _step_path(seeded: dict, rng: random.Random) -> str:
    match, players, events = rng.choice(seeded["matches"])
    seat = rng.choice([None, *range(players)])
    return f"/api/matches/{match}/steps/{rng.randrange(events)}/" + ("" if seat is None else f"?seat={seat}")


def _viewer_path(seeded: dict, rng: random.Random) -> str:
    """The replay viewer's page of a random match at a random step (public)."""
    match, _, events = rng.choice(seeded["matches"])
    return f"/matches/{match}/?step={rng.randrange(events)}"


def _frames_path(seeded: dict, rng: random.Random) -> str:
    """A page of frames.json, as the viewer's script fetches it (PAGE_FRAMES steps around a step)."""
    match, players, events = rng.choice(seeded["matches"])
    seat = rng.choice(["public", *map(str, range(players))])
    return f"/matches/{match}/frames.json?seat={seat}&from={100 * rng.randrange(events // 100 + 1)}&count=100"


class Viewers:
    """Where each client of the mix stands in the replay it watches (see the module's docstring):
    ``step`` gives a client's next step read and moves it on; ``viewer`` and ``frames`` give its
    viewer page and frames.json page where it stands. A client is known by its random source."""

    def __init__(self, matches: list[tuple[str, int, int]], *, seed: int = 11,
                 exponent: float = POPULARITY_EXPONENT, mean_steps: float = SESSION_STEPS):
        self.matches = list(matches)
        random.Random(seed).shuffle(self.matches)  # popularity does not follow the game
        self.weights = [1 / rank ** exponent for rank in range(1, len(self.matches) + 1)]
        self.stop = 1 / mean_steps
        self.sessions: dict[int, list] = {}  # id(rng) -> [match, players, events, seat, next step]

    def _session(self, rng: random.Random) -> list:
        session = self.sessions.get(id(rng))
        if session is None or session[4] >= session[2] or rng.random() < self.stop:
            match, players, events = rng.choices(self.matches, weights=self.weights)[0]
            seat = None if rng.random() < 0.5 else rng.randrange(players)
            start = 0 if rng.random() < 0.5 else rng.randrange(events)
            session = self.sessions[id(rng)] = [match, players, events, seat, start]
        return session

    def step(self, rng: random.Random) -> str:
        match, _, _, seat, n = session = self._session(rng)
        session[4] = n + 1
        return f"/api/matches/{match}/steps/{n}/" + ("" if seat is None else f"?seat={seat}")

    def viewer(self, rng: random.Random) -> str:
        match, _, _, _, n = self._session(rng)
        return f"/matches/{match}/?step={n}"

    def frames(self, rng: random.Random) -> str:
        match, _, _, seat, n = self._session(rng)
        return (f"/matches/{match}/frames.json?seat={'public' if seat is None else seat}"
                f"&from={100 * (n // 100)}&count=100")


def run(quick: bool = False) -> dict:
    url = DATASET_URL
    seeded = seed_database(url, quick=quick)
    seconds = SECONDS["quick" if quick else "full"]
    port = int(os.environ.get("BENCH_LOAD_PORT", "0")) or _free_port()  # a port of one's own

    def health(rng):
        return "health", "/api/health/", {}

    viewers = Viewers(seeded["matches"])

    def mixed(step_path, viewer_path, frames_path):
        def mix(rng):
            roll = rng.random()
            if roll < 0.5:
                return "steps", step_path(rng), {}
            if roll < 0.65:
                return "standings", f"/api/tournaments/{rng.choice(seeded['tournaments'])}/standings/", {}
            if roll < 0.8:
                return "leaderboard", f"/api/leaderboards/{rng.choice(seeded['games'])}/", {}
            if roll < 0.9:
                return "viewer page", viewer_path(rng), {"Accept": "text/html"}
            return "frames.json", frames_path(rng), {}
        return mix

    mix = mixed(viewers.step, viewers.viewer, viewers.frames)
    mix_uniform = mixed(lambda rng: _step_path(seeded, rng), lambda rng: _viewer_path(seeded, rng),
                        lambda rng: _frames_path(seeded, rng))

    def steps(rng):
        return "steps", _step_path(seeded, rng), {}

    # Validators for a fixed set of step reads, learned by one plain read each (as a browser's
    # or a proxy's cache holds them); the revalidation phase sends them back.
    rng = random.Random(5)
    known: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="arena-bench-load-") as var_dir:
        server = server_start(url, port, var_dir)
        reference_port = _free_port()
        reference_server = server_start(url, reference_port, var_dir, reference=True)
        stop = threading.Event()  # set: the live match's player stops
        try:
            for _ in range(500):
                path = _step_path(seeded, rng)
                request = urllib.request.Request(f"http://127.0.0.1:{port}{path}",
                                                 headers={"Accept": "application/json"})
                with urllib.request.urlopen(request, timeout=30) as answer:
                    known[path] = answer.headers["ETag"]
            paths = sorted(known)

            def revalidated(rng):
                path = rng.choice(paths)
                return "steps, revalidated", path, {"If-None-Match": known[path]}

            def live(rng):
                return "live steps", f"/api/matches/{seeded['live']}/steps/{rng.randrange(LIVE_STEPS)}/", {}

            held: dict[str, str] = {}  # path -> the ETag of its last read (each response's)

            def live_revalidated(rng):
                path = f"/api/matches/{seeded['live']}/steps/{rng.randrange(LIVE_STEPS)}/"
                return "live steps, revalidated", path, ({"If-None-Match": held[path]} if path in held else {})

            phases, reference = {}, {}
            for name, pick, warm in (("health", health, WARM_UP_SECONDS), ("mix", mix, WARM_UP_SECONDS),
                                     ("mix, uniform", mix_uniform, 0), ("steps", steps, 0), ("revalidated", revalidated, 0),
                                     ("live", live, 0), ("live revalidated", live_revalidated, 0)):
                if name == "live":  # the match is played on from here to the end of the run
                    player = concurrent.futures.ThreadPoolExecutor(1).submit(live_match_play, seeded["live"], stop)
                print(f"load: {name} for {seconds[name]} s ...", file=sys.stderr, flush=True)
                tally, elapsed = asyncio.run(_phase(port, pick, seconds[name], warm_up=warm,
                                                    etags=held if name == "live revalidated" else None))
                phases[name] = summary(tally, elapsed)
                if name in ("health", "mix"):  # the same phase against the reference, right after
                    print(f"load: {name} against the threads reference ...", file=sys.stderr, flush=True)
                    tally, elapsed = asyncio.run(_phase(reference_port, pick, seconds[name], warm_up=warm))
                    reference[name] = summary(tally, elapsed)
            stop.set()
            live_events = player.result()
        finally:
            stop.set()
            for running in (server, reference_server):
                running.terminate()
                try:
                    running.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    running.kill()
    return {"clients": CLIENTS, "server": " ".join(gunicorn_command(port)[2:]), "phases": phases,
            "live_events": live_events, "load": os.getloadavg(),
            "reference": {"server": " ".join(gunicorn_command(reference_port, True)[2:]), "phases": reference},
            "matches": len(seeded["matches"]),
            "events": sum(events for _, _, events in seeded["matches"]), "dataset": seeded["facts"],
            "cpus": os.cpu_count(), "quick": quick}


def report(figures: dict) -> list[str]:
    phases = figures["phases"]
    base = phases["health"]
    data = figures["dataset"]
    lines = [f"{figures['clients']} concurrent keep-alive clients in one process on the same machine "
             f"({figures['cpus']} CPUs) against `{figures['server']}`, DEBUG off, PostgreSQL and the "
             f"Redis cache; the data (bench/dataset.py): {data['matches']:,} finished matches of all five "
             f"games ({data['events']:,} events), {data['bots']} bots, {len(data['tournaments'])} "
             f"tournaments, {data['ratings']} ratings; the clients read {figures['matches']} of the "
             f"matches ({figures['events']:,} events).", "",
             "| phase | seconds | requests | requests/s | vs health | p50 ms | p95 ms | p99 ms | 5xx | "
             "no answer |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    titles = {"health": "`/api/health/` (trivial JSON)", "mix": "mix: steps 50 %, standings 15 %, "
              "leaderboard 15 %, viewer page 10 %, frames.json 10 %; replays read by viewers",
              "mix, uniform": "the same mix, replays read at random (a crawler)", "steps": "steps alone, at random", "revalidated": "steps revalidated (ETag, 304)",
              "live": "a live match's public steps, while it is played",
              "live revalidated": "the same, revalidated (each client's last ETag)"}
    for name, phase in phases.items():
        lines.append(f"| {titles[name]} | {phase['seconds']:.0f} | {phase['requests']:,} | "
                     f"{phase['per_second']:,.0f} | {phase['per_second'] / base['per_second']:.2f}x | "
                     f"{phase['p50_ms']:.0f} | {phase['p95_ms']:.0f} | {phase['p99_ms']:.0f} | "
                     f"{phase['server_errors']} | {phase['failures']} |")
    reference = figures.get("reference")
    if reference and reference["phases"]:
        lines += ["", f"Against the threads reference `{reference['server']}` (the WSGI application in "
                  "gunicorn's thread workers), each phase run right after the deployed server's:", "",
                  "| phase | requests/s | deployed / reference | p50 ms | p95 ms | p99 ms | 5xx | no answer |",
                  "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
        for name, phase in reference["phases"].items():
            lines.append(f"| {titles[name]} | {phase['per_second']:,.0f} | "
                         f"{phases[name]['per_second'] / phase['per_second']:.2f}x | {phase['p50_ms']:.0f} | "
                         f"{phase['p95_ms']:.0f} | {phase['p99_ms']:.0f} | {phase['server_errors']} | "
                         f"{phase['failures']} |")
    mix = phases["mix"]
    lines += ["", "In the mix, per kind: " + "; ".join(
        f"{kind} {values['requests']:,} requests, median {values['median_ms']:.0f} ms, p95 "
        f"{values['p95_ms']:.0f} ms" for kind, values in mix["kinds"].items()) + ".",
        "", "Statuses: " + "; ".join(f"{name} {phase['statuses']}" for name, phase in phases.items()) + ".",
        "", f"What the validators gain: a revalidated step is answered at "
            f"{phases['revalidated']['per_second'] / phases['steps']['per_second']:.1f}x the rate of a new "
            f"read, p95 {phases['revalidated']['p95_ms']:.0f} ms against {phases['steps']['p95_ms']:.0f} ms; "
            "a cache in front (a browser, the proxy) that holds a finished match's step does not ask at "
            "all for a day (Cache-Control: public, max-age=86400)."]
    if "live_events" in figures:
        lines += ["", f"The live match: {figures['live_events']} events appended during the live phases "
                      f"(one every {LIVE_EVENT_SECONDS * 1000:.0f} ms). Load average at the end: "
                      + ", ".join(f"{x:.2f}" for x in figures["load"]) + "."]
    if figures["quick"]:
        lines.append("(--quick: short phases, to check that it runs.)")
    return lines


if __name__ == "__main__":
    result = run(quick="--quick" in sys.argv[1:])
    print("\n".join(report(result)), file=sys.stderr)
    print(json.dumps(result))
