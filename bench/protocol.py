"""The cost of the bot protocol: moves/s of the same match with bots in process and as
subprocesses speaking JSON Lines (unsandboxed, then under bubblewrap), all in one run.

Every bot answers the first legal action, so the three runs play exactly the same moves; the
time covers the whole match (starting and closing the bot processes included).
"""
from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

from bots.referee import FaultPolicy, RefereeRunner
from bots.sandbox import SandboxedBot, SandboxUnavailable, TimeControl, sandbox_check
from games.engine import registry
from games.engine.bots import Bot
from games.engine.runner import playout

GAME, OPTIONS, PLAYERS = "trap-the-wizard", {"rounds": 5}, 2
SEED = b"bench-protocol".ljust(32, b".")
BOT_SOURCE = Path(__file__).resolve().parent / "bots" / "first_legal.py"


class FirstLegalBot(Bot):
    name = "first-legal"

    def act(self, message):
        return message["legal_actions"][0]


def _play(make_bot) -> tuple[float, int, list]:
    """(seconds, actions, moves) of one match with ``make_bot(seat)`` at every seat."""
    ruleset = registry.get(GAME)
    bots = {seat: make_bot(ruleset, seat) for seat in range(PLAYERS)}
    started = time.perf_counter()
    try:
        records = playout(ruleset, PLAYERS, seed=SEED, bots=bots, options=OPTIONS,
                          runner=RefereeRunner, policy=FaultPolicy())
    finally:
        for bot in bots.values():
            getattr(bot, "close", lambda: None)()
    elapsed = time.perf_counter() - started
    moves = [(r["seat"], r["payload"]["action"]) for r in records if r["kind"] == "action"]
    faults = [r for r in records if r["kind"] == "forfeit"]
    if faults:
        raise RuntimeError(f"benchmark bot faulted: {faults[0]['payload']}")
    return elapsed, len(moves), moves


def run(*, repeats: int = 3) -> dict:
    code = Path(tempfile.mkdtemp(prefix="arena-bench-bot-"))
    code.chmod(0o755)
    shutil.copy(BOT_SOURCE, code / "main.py")
    (code / "main.py").chmod(0o644)
    clock = TimeControl(move_ms=5000, bank_ms=60000)
    kinds = {"in process": lambda ruleset, seat: FirstLegalBot(ruleset, seat),
             "subprocess, no sandbox": lambda ruleset, seat: SandboxedBot(code, time_control=clock,
                                                                          sandbox=False)}
    try:
        sandbox_check()
        kinds["subprocess in bubblewrap"] = lambda ruleset, seat: SandboxedBot(code, time_control=clock)
        skipped = None
    except SandboxUnavailable as exc:
        skipped = str(exc)
    rows, reference = [], None
    try:
        for name, make in kinds.items():
            best, actions, moves = min(_play(make) for _ in range(repeats))
            reference = reference or moves
            if moves != reference:
                raise RuntimeError(f"{name} played other moves than in process")
            rows.append({"name": name, "seconds": best, "actions": actions})
    finally:
        shutil.rmtree(code, ignore_errors=True)
    return {"rows": rows, "skipped": skipped, "repeats": repeats}


def report(result: dict) -> list[str]:
    base = result["rows"][0]
    lines = [f"One {GAME} match ({OPTIONS}, {PLAYERS} seats, {base['actions']} moves), every "
             f"seat the same first-legal bot; best of {result['repeats']}.", "",
             "| bots | match s | moves/s | vs in process |", "| --- | ---: | ---: | ---: |"]
    for row in result["rows"]:
        rate = row["actions"] / row["seconds"]
        lines.append(f"| {row['name']} | {row['seconds']:.3f} | {rate:,.0f} | "
                     f"{rate / (base['actions'] / base['seconds']):.3f}x |")
    if result["skipped"]:
        lines.append(f"\nbubblewrap not measured: {result['skipped']}")
    return lines
