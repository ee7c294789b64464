"""The cost of the bot protocol: the move round trip of the same match with bots in process and
as subprocesses speaking JSON Lines, for every runtime (docs/protocol.md, "Runtimes"): the bare
subprocess (no sandbox) and under bubblewrap, all in one run.

Every bot answers the first legal action (bench/bots/first_legal.*: Python, Python importing
numpy, JavaScript, static C), so every run plays exactly the same moves; the time covers the
whole match (starting and closing the bot processes included). The reference of the runtimes is
the bare Python subprocess; the goal of issue 44 is every sandboxed runtime within 1.5x of it.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from bots.referee import FaultPolicy, RefereeRunner
from bots.sandbox import SandboxedBot, SandboxUnavailable, TimeControl, runtime_check, sandbox_check
from bots.sandbox.runtimes import MANIFEST, RUNTIMES
from games.engine import registry
from games.engine.bots import Bot
from games.engine.runner import playout

GAME, OPTIONS, PLAYERS = "trap-the-wizard", {"rounds": 5}, 2
SEED = b"bench-protocol".ljust(32, b".")
BOTS = Path(__file__).resolve().parent / "bots"
BOT_SOURCE = BOTS / "first_legal.py"
# The benchmark bot of each runtime: (source, the name it has in the upload).
SOURCES = {"python": (BOT_SOURCE, "main.py"), "python-numeric": (BOTS / "first_legal_numpy.py", "main.py"),
           "node": (BOTS / "first_legal.js", "main.js"), "native": (BOTS / "first_legal.c", "main")}
ARENA_H = Path(__file__).resolve().parents[1] / "examples" / "bots" / "native"
GOAL = 1.5  # issue 44: every runtime's round trip within 1.5x of the bare subprocess


class FirstLegalBot(Bot):
    name = "first-legal"

    def act(self, message):
        return message["legal_actions"][0]


class Timed:
    """A bot with a stopwatch on its acts: the first act of a process waits for it to start (the
    interpreter, imports, bwrap's namespaces), every later one is a move's round trip."""

    def __init__(self, bot):
        self.bot, self.acts = bot, []

    def __getattr__(self, name):
        return getattr(self.bot, name)

    def hello(self, message):
        self.started = time.perf_counter()
        self.bot.hello(message)

    def act(self, message):
        begin = time.perf_counter()
        try:
            return self.bot.act(message)
        finally:
            self.acts.append(time.perf_counter() - (self.started if not self.acts else begin))

    def result(self, message):
        self.bot.result(message)


def _play(make_bot) -> dict:
    """One match with ``make_bot(seat)`` at every seat: its seconds, actions and moves, the mean
    start-up (hello to the first answer) and the mean round trip of every later move."""
    ruleset = registry.get(GAME)
    bots = {seat: Timed(make_bot(ruleset, seat)) for seat in range(PLAYERS)}
    started = time.perf_counter()
    try:
        records = playout(ruleset, PLAYERS, seed=SEED, bots=bots, options=OPTIONS,
                          runner=RefereeRunner, policy=FaultPolicy())
    finally:
        for bot in bots.values():
            getattr(bot.bot, "close", lambda: None)()
    elapsed = time.perf_counter() - started
    moves = [(r["seat"], r["payload"]["action"]) for r in records if r["kind"] == "action"]
    faults = [r for r in records if r["kind"] == "forfeit"]
    if faults:
        raise RuntimeError(f"benchmark bot faulted: {faults[0]['payload']}")
    firsts = [bot.acts[0] for bot in bots.values()]
    later = [seconds for bot in bots.values() for seconds in bot.acts[1:]]
    return {"seconds": elapsed, "actions": len(moves), "moves": moves,
            "startup": sum(firsts) / len(firsts), "round_trip": sum(later) / len(later)}


def _bot_folder(runtime: str, where: Path) -> Path:
    """An upload of ``runtime``'s benchmark bot, world-readable (the bot's uid reads it)."""
    source, entry = SOURCES[runtime]
    code = where / runtime
    code.mkdir(mode=0o755)
    code.chmod(0o755)
    if runtime == "native":
        done = subprocess.run(["gcc", "-static", "-O2", "-I", str(ARENA_H), "-o", str(code / entry), str(source)],
                              capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError(f"gcc: {done.stderr.strip()[-300:]}")
    else:
        shutil.copy(source, code / entry)
    if runtime != "python":
        (code / MANIFEST).write_text(json.dumps({"runtime": runtime}))
    for path in code.iterdir():
        path.chmod(0o755 if path.name == "main" else 0o644)
    return code


def run(*, repeats: int = 3) -> dict:
    where = Path(tempfile.mkdtemp(prefix="arena-bench-bot-"))
    where.chmod(0o755)
    clock = TimeControl(move_ms=5000, bank_ms=60000)
    kinds = {"in process": lambda ruleset, seat: FirstLegalBot(ruleset, seat)}
    try:
        sandbox_check()
        sandboxed = None
    except SandboxUnavailable as exc:
        sandboxed = str(exc)
    skipped = [f"bubblewrap: {sandboxed}"] if sandboxed else []
    for runtime in RUNTIMES:
        try:
            runtime_check(RUNTIMES[runtime])
            code = _bot_folder(runtime, where)
        except (SandboxUnavailable, RuntimeError, OSError) as exc:
            skipped.append(f"{runtime}: {exc}")
            continue
        kinds[f"{runtime}, bare subprocess"] = (
            lambda ruleset, seat, code=code: SandboxedBot(code, time_control=clock, sandbox=False))
        if not sandboxed:
            kinds[f"{runtime} in bubblewrap"] = (
                lambda ruleset, seat, code=code: SandboxedBot(code, time_control=clock))
    # Repeats outermost, every kind once per repeat: a machine whose load changes during the run
    # weighs on every kind alike; each figure is the best of its kind's runs.
    best: dict[str, dict] = {}
    reference = None
    try:
        for _ in range(repeats):
            for name, make in kinds.items():
                run_ = _play(make)
                reference = reference or run_["moves"]
                if run_["moves"] != reference:
                    raise RuntimeError(f"{name} played other moves than in process")
                kept = best.setdefault(name, run_)
                for key in ("seconds", "startup", "round_trip"):
                    kept[key] = min(kept[key], run_[key])
    finally:
        shutil.rmtree(where, ignore_errors=True)
    rows = [{"name": name, **{key: row[key] for key in ("seconds", "actions", "startup", "round_trip")}}
            for name, row in best.items()]
    return {"rows": rows, "skipped": "; ".join(skipped) or None, "repeats": repeats}


def report(result: dict) -> list[str]:
    base = result["rows"][0]
    bare = next((row for row in result["rows"] if row["name"] == "python, bare subprocess"), base)
    lines = [f"One {GAME} match ({OPTIONS}, {PLAYERS} seats, {base['actions']} moves), every "
             f"seat the same first-legal bot of one runtime (bench/bots/first_legal.*; the "
             f"python-numeric one imports numpy); best of {result['repeats']}, every kind once per "
             f"repeat. Round trip: the mean time of a move from the referee's question to the "
             f"answer, the first of each process left out; start-up: from the hello to that first "
             f"answer. The goal is every runtime's round trip in bubblewrap within {GOAL}x of the "
             f"bare Python subprocess's.", "",
             "| bots | match s | match vs in process | round trip ms | round trip vs bare subprocess | start-up ms |",
             "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for row in result["rows"]:
        lines.append(f"| {row['name']} | {row['seconds']:.3f} | {row['seconds'] / base['seconds']:.1f}x | "
                     f"{row['round_trip'] * 1000:.3f} | {row['round_trip'] / bare['round_trip']:.2f}x | "
                     f"{row['startup'] * 1000:.1f} |")
    if result["skipped"]:
        lines.append(f"\nnot measured: {result['skipped']}")
    return lines
