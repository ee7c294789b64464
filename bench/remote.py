"""Remote seats: how fairly the server's clock charges a remote bot, on the loopback (issue 41,
"Measured": clock fairness; docs/remote.md, "The clock").

A remote bot plays Trap the Wizard against the built-in random bot until it has made N moves
(1,000; 100 with --quick). The server is gunicorn as the Dockerfile runs it (processes,
threads), DEBUG off, on PostgreSQL with the bell in Redis; the driver runs in this process, as a
worker's does, waiting through Redis; the client is a thread of this process reading the stream
(GET /api/remote/stream/) and answering each act by POST over HTTP/1.1, as the reference client
does. The client "thinks" 0, 0, 5 and 20 ms in turn, and measures its own thinking: from the act
line read to the answer's POST about to be sent.

Figures, per move: the time the server charged (answered_at - published_at, both stamped by the
server), and the charge minus the client's thinking: the delivery of the act to the client and of
the answer back (p50, p95, max); the goal is p95 at most 50 ms. The reference, measured in the
same run: an uploaded bot's move, the same game against the same opponent, the example bot
bench/bots/first_legal.py as a subprocess speaking JSON Lines (in bubblewrap where the sandbox
runs, as a bare subprocess otherwise): the time its clock records per move. The ratio is the
remote move's charge at zero thinking over that.

Run alone: ``.venv/bin/python bench/remote.py [--quick]``: the report on stderr, the figures as
JSON on the last line of stdout (bench/run.py runs it in a subprocess). BENCH_REMOTE_DATABASE_URL
and BENCH_REMOTE_BROKER_URL name the database (created if missing, emptied) and the Redis.
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

DATABASE_URL = os.environ.get("BENCH_REMOTE_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/arena_bench_remote")
BROKER_URL = os.environ.get("BENCH_REMOTE_BROKER_URL", "redis://127.0.0.1:6379/12")
GAME, OPTIONS = "trap-the-wizard", {"rounds": 5}
TIME_CONTROL = {"move_ms": 5000, "bank_ms": 60000}
THINK_MS = (0, 0, 5, 20)  # the client's thinking, move by move in turn
MOVES = {"full": 1000, "quick": 100}
GOAL_MS = 50


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class MeasuringClient(threading.Thread):
    """The stream and the answers over HTTP; for each act, its thinking in seconds by turn."""

    def __init__(self, base: str, token: str, think_ms: tuple = THINK_MS):
        super().__init__(daemon=True)
        self.base, self.token, self.think_ms = base, token, think_ms
        self.thinking: dict[tuple[str, int], float] = {}
        self.walls: dict[tuple[str, int], tuple[float, float]] = {}  # (read, posted) on the wall clock
        self.stop = threading.Event()
        self.connected = threading.Event()
        self.moves = 0
        self.refused = 0

    def _post(self, act: dict, action) -> None:
        body = json.dumps({"turn": act["turn"], "action": action}).encode()
        request = urllib.request.Request(
            f"{self.base}/api/matches/{act['match']}/seats/{act['seat']}/act/", data=body,
            headers={"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as response:
            json.load(response)

    def run(self) -> None:
        request = urllib.request.Request(f"{self.base}/api/remote/stream/?seconds=3600",
                                         headers={"Authorization": f"Bearer {self.token}"})
        with urllib.request.urlopen(request, timeout=60) as stream:
            for line in stream:
                received, received_wall = time.perf_counter(), time.time()
                message = json.loads(line)
                self.connected.set()
                if message["type"] != "act":
                    if self.stop.is_set():
                        return
                    continue
                key = (message["match"], message["turn"])
                if key in self.thinking:  # sent again (a stream sends each publication once)
                    continue
                think = self.think_ms[self.moves % len(self.think_ms)] / 1000
                if think:
                    time.sleep(think)
                action = message["legal_actions"][0]
                self.thinking[(message["match"], message["turn"])] = time.perf_counter() - received
                self.walls[(message["match"], message["turn"])] = (received_wall, time.time())
                try:
                    self._post(message, action)
                except urllib.error.HTTPError as exc:  # refused (late, ...): counted, the run goes on
                    self.refused += 1
                    print(f"remote bench: an answer refused: {exc.read()[:200]!r}", file=sys.stderr)
                self.moves += 1


# -- 100 remote bots connected at once ------------------------------------------------------------

SWARM = 100  # remote bots, each its owner's, each with its stream open
SWARM_SEATS = 5  # seats a match in the playing phase: 20 matches, 20 drivers
SWARM_SECONDS = {"full": {"idle": 30, "play": 60}, "quick": {"idle": 5, "play": 10}}


def _swarm_clients() -> int:
    """``bench/remote.py --swarm-clients``: the 100 clients, in a process of their own (the
    bench's drivers do not share its interpreter with them). Reads {"base", "tokens"} from stdin,
    says "connected" once every stream is open, answers every act at once with its first legal
    action until stdin closes; then prints each answer's thinking as JSON."""
    config = json.loads(sys.stdin.readline())
    clients = [MeasuringClient(config["base"], token, think_ms=(0,)) for token in config["tokens"]]
    for client in clients:
        client.start()
    for client in clients:
        if not client.connected.wait(120):
            print("not connected", flush=True)
            return 1
    print("connected", flush=True)
    sys.stdin.read()  # until the bench closes it
    thinking = [[match, turn, think * 1000] for client in clients for (match, turn), think in client.thinking.items()]
    print(json.dumps({"thinking": thinking, "refused": sum(client.refused for client in clients)}), flush=True)
    return 0


def _cpu_seconds(pid: int) -> float:
    """CPU time (user + system) of the process ``pid`` and its children that are alive: the
    gunicorn master and its workers."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(entry.name) == pid or int(fields[1]) == pid:  # fields[1]: the parent's pid
            total += (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
    return total


def _health_ms(base: str, count: int = 100) -> float:
    """The median of ``count`` GET /api/health/ in a row, in ms (the site's answer meanwhile)."""
    times = []
    for _ in range(count):
        started = time.perf_counter()
        with urllib.request.urlopen(f"{base}/api/health/", timeout=30) as answer:
            answer.read()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def _swarm(seconds: dict, var_dir: str) -> dict:
    """100 connected remote bots through gunicorn as deployed: the server's CPU with none and with
    100 idle streams open (per idle bot); then all playing, 20 matches of 5 remote bots with
    their drivers in this process: moves per second, the server's CPU, and the charge minus the
    client's thinking."""
    from django.contrib.auth import get_user_model

    from api.services import token_create
    from bots.driver import match_drive
    from bots.models import Bot, RemoteAct
    from bots.services import bot_create, match_start
    from replays.models import Match
    from replays.services import match_abort

    versions, tokens = [], []
    for number in range(SWARM):
        user, _ = get_user_model().objects.get_or_create(username=f"bench-swarm-{number}")
        bot = Bot.objects.filter(owner=user, name="swarm", game=GAME).first() or \
            bot_create(owner=user, name="swarm", game=GAME, remote=True)
        versions.append(bot.versions.get())
        tokens.append(token_create(user=user, name="bench")[1])
    port = _free_port_here()
    base = f"http://127.0.0.1:{port}"
    server = _server(port, var_dir)
    clients = None
    try:
        time.sleep(2)
        health_alone = _health_ms(base)
        cpu, wall = _cpu_seconds(server.pid), time.perf_counter()
        time.sleep(seconds["idle"])
        cpu_alone = (_cpu_seconds(server.pid) - cpu) / (time.perf_counter() - wall)

        clients = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--swarm-clients"],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)
        clients.stdin.write(json.dumps({"base": base, "tokens": tokens}) + "\n")
        clients.stdin.flush()
        if clients.stdout.readline().strip() != "connected":
            raise SystemExit("remote bench: the 100 clients did not connect")
        time.sleep(2)
        health_connected = _health_ms(base)
        cpu, wall = _cpu_seconds(server.pid), time.perf_counter()
        time.sleep(seconds["idle"])
        cpu_idle = (_cpu_seconds(server.pid) - cpu) / (time.perf_counter() - wall)

        stop, matches, lock = threading.Event(), [], threading.Lock()

        def drive(seats):
            from django.db import connection

            try:
                while not stop.is_set():
                    match = match_start(ruleset=GAME, versions=seats, options=OPTIONS, queue=False,
                                        time_control=TIME_CONTROL)
                    with lock:
                        matches.append(match.pk)
                    match_drive(match_id=match.pk)
            finally:
                connection.close()

        drivers = [threading.Thread(target=drive, args=(versions[i:i + SWARM_SEATS],), daemon=True)
                   for i in range(0, SWARM, SWARM_SEATS)]
        started_at = time.time()
        cpu, wall = _cpu_seconds(server.pid), time.perf_counter()
        for driver in drivers:
            driver.start()
        time.sleep(seconds["play"])
        cpu_play = (_cpu_seconds(server.pid) - cpu) / (time.perf_counter() - wall)
        ended_at = time.time()
        stop.set()
        for match in Match.objects.filter(pk__in=matches, status=Match.Status.RUNNING):
            try:
                match_abort(match=match, reason="the bench's playing phase is over")
            except Exception:  # ended meanwhile
                pass
        for driver in drivers:
            driver.join(timeout=30)
        clients.stdin.close()
        report = json.loads(clients.stdout.readline())
        clients.wait(timeout=30)
    finally:
        if clients is not None and clients.poll() is None:
            clients.kill()
        _server_stop(server)
    thinking = {(match, turn): ms for match, turn, ms in report["thinking"]}
    import datetime as dt

    window = (dt.datetime.fromtimestamp(started_at, dt.timezone.utc), dt.datetime.fromtimestamp(ended_at, dt.timezone.utc))
    answered = list(RemoteAct.objects.filter(match__in=matches, status="answered", answered_at__range=window)
                    .values_list("match_id", "turn", "published_at", "answered_at"))
    overhead = [(answered_at - published_at).total_seconds() * 1000 - thinking[(str(match), turn)]
                for match, turn, published_at, answered_at in answered if (str(match), turn) in thinking]
    timed_out = RemoteAct.objects.filter(match__in=matches, status="timed_out").count()
    return {"bots": SWARM, "seats": SWARM_SEATS, "drivers": len(drivers), "idle_seconds": seconds["idle"],
            "play_seconds": ended_at - started_at,
            "cpu_alone": cpu_alone, "cpu_idle": cpu_idle, "cpu_play": cpu_play,
            "cpu_per_idle_bot_ms_per_s": (cpu_idle - cpu_alone) / SWARM * 1000,
            "health_ms": {"alone": health_alone, "connected": health_connected},
            "moves": len(answered), "moves_per_second": len(answered) / (ended_at - started_at),
            "overhead_ms": {"p50": _percentile(overhead, 0.5), "p95": _percentile(overhead, 0.95)} if overhead else None,
            "timed_out": timed_out, "refused": report["refused"], "matches": len(matches)}


def _free_port_here() -> int:
    from bench.load import _free_port

    return _free_port()


def _server_stop(server: subprocess.Popen) -> None:
    server.terminate()
    try:
        server.wait(timeout=40)  # gunicorn's graceful 30 s, which an open stream may use up
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def _server(port: int, var_dir: str) -> subprocess.Popen:
    """gunicorn as deployed (bench/load.py's server_start), with the broker whose Redis rings the
    remote seats' bell."""
    from bench.load import server_start

    return server_start(DATABASE_URL, port, var_dir, CELERY_BROKER_URL=BROKER_URL,
                        CELERY_QUEUE="arena-bench-remote")


def _remote_moves(moves: int, base: str, token: str, version, opponent) -> tuple[list[dict], float]:
    """Matches of the remote bot until it made ``moves`` moves: per move the charge and the
    thinking; and the driver's wall seconds per remote move."""
    from bots.driver import match_drive
    from bots.models import RemoteAct
    from bots.services import match_start

    client = MeasuringClient(base, token)
    client.start()
    heard = _RingListener(version.bot.owner_id)
    heard.start()
    rows, started, matches = [], time.perf_counter(), []
    while client.moves < moves:
        if not client.is_alive():
            raise SystemExit("remote bench: the measuring client stopped")
        match = match_start(ruleset=GAME, versions=[version, opponent], options=OPTIONS, queue=False,
                            time_control=TIME_CONTROL)
        matches.append(match.pk)
        assert match_drive(match_id=match.pk) == "ended"
    wall = time.perf_counter() - started
    client.stop.set()
    if client.refused or not client.is_alive():
        print(f"remote bench: {client.refused} answers refused; client alive: {client.is_alive()}", file=sys.stderr)
    for act in RemoteAct.objects.filter(match__in=matches, status="answered").order_by("published_at"):
        thinking = client.thinking.get((str(act.match_id), act.turn))
        if thinking is None:
            continue
        charged = (act.answered_at - act.published_at).total_seconds()
        read, posted = client.walls[(str(act.match_id), act.turn)]
        rung = heard.times.get(act.pk)
        rows.append({"charged_ms": charged * 1000, "thinking_ms": thinking * 1000,
                     "delivery_ms": (read - act.published_at.timestamp()) * 1000,
                     "rung_ms": None if rung is None else (rung - act.published_at.timestamp()) * 1000,
                     "return_ms": (act.answered_at.timestamp() - posted) * 1000})
    timed_out = RemoteAct.objects.filter(match__in=matches, status="timed_out").count()
    if timed_out:
        print(f"remote bench: {timed_out} acts timed out", file=sys.stderr)
    return rows, wall / max(1, len(rows))


class _RingListener(threading.Thread):
    """The owner's bell heard from Redis by a listener of the bench's own: when each act's ring
    (its payload) arrived, on the wall clock, to split the act's way out in two: the driver's
    commit and the publish, then the stream's process and the client."""

    def __init__(self, owner_id):
        super().__init__(daemon=True)
        import redis

        from bots.remote import owner_channel

        self.times: dict = {}
        self.pubsub = redis.Redis.from_url(BROKER_URL).pubsub(ignore_subscribe_messages=True)
        self.pubsub.subscribe(owner_channel(owner_id))

    def run(self) -> None:
        from bots.remote import act_from_payload

        for message in self.pubsub.listen():
            found = act_from_payload(message["data"])
            if found is not None:
                self.times.setdefault(found[0][0], time.time())


def _uploaded_moves(moves: int, opponent) -> tuple[list[float], str, float]:
    """An uploaded bot's moves against the same opponent: the ms its clock recorded per move."""
    from bots.driver import match_drive
    from bots.models import Bot
    from bots.sandbox import SandboxUnavailable, sandbox_check
    from bots.services import bot_create, bot_version_upload, match_start
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from replays.models import Event

    try:
        sandbox_check()
        how = "in bubblewrap"
    except SandboxUnavailable:
        settings.ARENA_ALLOW_UNSANDBOXED_BOTS = True
        how = "bare subprocess"
    owner, _ = get_user_model().objects.get_or_create(username="bench-uploader")
    bot = Bot.objects.filter(owner=owner, name="first-legal", game=GAME).first() or \
        bot_create(owner=owner, name="first-legal", game=GAME)
    version = bot_version_upload(bot=bot, filename="main.py",
                                 content=(ROOT / "bench" / "bots" / "first_legal.py").read_bytes())
    elapsed, started = [], time.perf_counter()
    while len(elapsed) < moves:
        match = match_start(ruleset=GAME, versions=[version, opponent], options=OPTIONS, queue=False,
                            time_control=TIME_CONTROL)
        assert match_drive(match_id=match.pk) == "ended"
        elapsed += [p["clock"]["elapsed_ms"] for p in Event.objects.filter(match=match, kind="action", seat=0)
                    .values_list("payload", flat=True)]
    return elapsed, how, (time.perf_counter() - started) / len(elapsed)


def run(quick: bool = False) -> dict:
    from bench.append import database_create, database_reset, django_setup
    from bench.load import _free_port

    os.environ.update(CELERY_BROKER_URL=BROKER_URL, CELERY_QUEUE="arena-bench-remote")
    database_create(DATABASE_URL)
    django_setup(DATABASE_URL)
    database_reset()
    from django.contrib.auth import get_user_model

    from api.services import token_create
    from bots.models import Bot
    from bots.services import bot_create, builtin_bot_versions

    moves = MOVES["quick" if quick else "full"]
    load_start = os.getloadavg()[0]
    user, _ = get_user_model().objects.get_or_create(username="bench-remote")
    bot = Bot.objects.filter(owner=user, name="far-away", game=GAME).first() or \
        bot_create(owner=user, name="far-away", game=GAME, remote=True)
    _, token = token_create(user=user, name="bench")
    opponent = builtin_bot_versions(game=GAME)["random"]
    port = _free_port()
    server = _server(port, tempfile.mkdtemp(prefix="arena-bench-remote-"))
    try:
        rows, remote_wall = _remote_moves(moves, f"http://127.0.0.1:{port}", token, bot.versions.get(), opponent)
    finally:
        _server_stop(server)
    load_fairness = round(os.getloadavg()[0], 2)
    uploaded, how, uploaded_wall = _uploaded_moves(moves, opponent)
    swarm = None if "--no-swarm" in sys.argv else \
        _swarm(SWARM_SECONDS["quick" if quick else "full"], tempfile.mkdtemp(prefix="arena-bench-remote-"))
    overhead = [r["charged_ms"] - r["thinking_ms"] for r in rows]
    at_zero = [r["charged_ms"] for r, think in zip(rows, [THINK_MS[i % len(THINK_MS)] for i in range(len(rows))])
               if think == 0]
    return {"moves": len(rows), "server": " ".join(_gunicorn_words(port)),
            "overhead_ms": {"p50": _percentile(overhead, 0.5), "p95": _percentile(overhead, 0.95),
                            "max": max(overhead), "mean": statistics.fmean(overhead)},
            "delivery_ms": {"p50": _percentile([r["delivery_ms"] for r in rows], 0.5),
                            "p95": _percentile([r["delivery_ms"] for r in rows], 0.95)},
            "rung_ms": {"p50": _percentile([r["rung_ms"] for r in rows if r["rung_ms"] is not None], 0.5),
                        "p95": _percentile([r["rung_ms"] for r in rows if r["rung_ms"] is not None], 0.95)},
            "return_ms": {"p50": _percentile([r["return_ms"] for r in rows], 0.5),
                          "p95": _percentile([r["return_ms"] for r in rows], 0.95)},
            "charged_at_zero_ms": {"p50": _percentile(at_zero, 0.5), "p95": _percentile(at_zero, 0.95),
                                   "mean": statistics.fmean(at_zero)},
            "uploaded": {"how": how, "moves": len(uploaded), "p50": _percentile(uploaded, 0.5),
                         "p95": _percentile(uploaded, 0.95), "mean": statistics.fmean(uploaded)},
            "wall_ms_per_move": {"remote": remote_wall * 1000, "uploaded": uploaded_wall * 1000},
            "load": [round(load_start, 2), load_fairness, round(os.getloadavg()[0], 2)], "cpus": os.cpu_count(),
            "goal_ms": GOAL_MS, "swarm": swarm}


def _gunicorn_words(port: int) -> list[str]:
    from bench.load import gunicorn_command

    return gunicorn_command(port)[2:]


def report(figures: dict) -> list[str]:
    o, z, u, w = figures["overhead_ms"], figures["charged_at_zero_ms"], figures["uploaded"], figures["wall_ms_per_move"]
    ratio = z["mean"] / u["mean"] if u["mean"] else float("inf")
    lines = [
        f"{figures['moves']} remote moves of Trap the Wizard against the built-in random bot, on the loopback: "
        f"`{figures['server']}` (DEBUG off, PostgreSQL, the bell in Redis), the driver in the bench's process, "
        "the client a thread reading the stream and answering by POST, thinking 0, 0, 5 and 20 ms in turn. "
        f"Load {figures['load'][0]} at the start, {figures['load'][1]} after the remote moves, {figures['load'][-1]} "
        f"at the end ({figures['cpus']} CPUs).",
        "",
        "| figure | p50 ms | p95 ms | mean ms | max ms |",
        "| --- | ---: | ---: | ---: | ---: |",
        f"| charged minus the client's thinking (goal: p95 <= {figures['goal_ms']}) | {o['p50']:.1f} | {o['p95']:.1f} "
        f"| {o['mean']:.1f} | {o['max']:.1f} |",
        f"| of which the act's way to the client (published to read) | {figures['delivery_ms']['p50']:.1f} "
        f"| {figures['delivery_ms']['p95']:.1f} | | |",
        f"| ... of that, published to the bell heard by a listener in Redis (the driver's commit, the publish) "
        f"| {figures['rung_ms']['p50']:.1f} | {figures['rung_ms']['p95']:.1f} | | |",
        f"| of which the answer's way back (POST sent to taken) | {figures['return_ms']['p50']:.1f} "
        f"| {figures['return_ms']['p95']:.1f} | | |",
        f"| charged, moves the client answered at once | {z['p50']:.1f} | {z['p95']:.1f} | {z['mean']:.1f} | |",
        f"| an uploaded bot's move, its clock ({u['how']}, {u['moves']} moves, bench/bots/first_legal.py) "
        f"| {u['p50']:.1f} | {u['p95']:.1f} | {u['mean']:.1f} | |",
        "",
        f"A remote move answered at once is charged {ratio:.1f}x an uploaded bot's move (means). "
        f"The driver's wall time per move: remote {w['remote']:.1f} ms, uploaded {w['uploaded']:.1f} ms "
        f"({w['remote'] / w['uploaded']:.1f}x; both include the opponent's moves and every append).",
    ]
    return lines + (_swarm_report(figures["swarm"]) if figures.get("swarm") else [])


def _swarm_report(w: dict) -> list[str]:
    health = w["health_ms"]
    overhead = w["overhead_ms"] or {"p50": float("nan"), "p95": float("nan")}
    return [
        "",
        f"**{w['bots']} remote bots connected at once** (each its owner's, each with its stream open; the "
        "clients in a process of their own, answering every act at once with its first legal action):",
        "",
        "| figure | value |",
        "| --- | ---: |",
        f"| server CPU, no stream open ({w['idle_seconds']} s) | {w['cpu_alone'] * 100:.2f} % of a core |",
        f"| server CPU, {w['bots']} idle streams open ({w['idle_seconds']} s) | {w['cpu_idle'] * 100:.2f} % of a core |",
        f"| server CPU per connected idle bot | {w['cpu_per_idle_bot_ms_per_s']:.3f} ms a second |",
        f"| GET /api/health/, median of 100 in a row: no stream / {w['bots']} open | {health['alone']:.1f} / "
        f"{health['connected']:.1f} ms ({health['connected'] / health['alone']:.2f}x) |",
        f"| all {w['bots']} playing ({w['matches']} matches of {w['seats']} remote bots, {w['drivers']} drivers in the "
        f"bench's process, {w['play_seconds']:.0f} s): remote moves per second | {w['moves_per_second']:.1f} "
        f"({w['moves']:,} moves) |",
        f"| server CPU while they play | {w['cpu_play'] * 100:.1f} % of a core |",
        f"| charged minus the client's thinking while they play, p50 / p95 | {overhead['p50']:.1f} / "
        f"{overhead['p95']:.1f} ms |",
        f"| acts timed out / answers refused | {w['timed_out']} / {w['refused']} |",
    ]


def main(argv: list[str]) -> int:
    if "--swarm-clients" in argv:
        return _swarm_clients()
    figures = run(quick="--quick" in argv)
    print("\n".join(report(figures)), file=sys.stderr)
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
