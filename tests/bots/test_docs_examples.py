"""Issue 44.1-44.3 and 44.5: every example of docs/library.md and every starter bot of
docs/protocol.md's runtimes runs as written, and the clock and the CPU limit agree.

"Every example in the docs runs, uploaded, through a whole match of every game ... as a test
under the sandbox": the two bots docs/library.md prints are uploaded as printed and play a whole
match of every registered game in the sandbox, against the game's random bot, through the
referee that the service and ``botcheck`` use (a fault would be a recorded forfeit or a
defaulted move; none may occur). "A bot that keeps to its clock must never be killed by a CPU
limit": the CPU allowance is all the time the clock can give (bots.sandbox.cpu_allowance), shown
here by a bot that burns most of every move under a CPU limit far below its match's total.

These tests need no database or broker: .ci/run runs them once, in its first pass
(``no_services``, tests/conftest.py).
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from bots.driver import decision_bound
from bots.referee import FaultPolicy, RefereeRunner
from bots.sandbox import Limits, SandboxedBot, TimeControl, cpu_allowance, limits_for_match
from games.engine import chance, registry
from games.engine.bots import RandomBot
from games.engine.log import validate
from games.engine.runner import playout

from .runtimes import starter_folder, uploaded
from .test_sandbox import bot_dirs, survivors  # noqa: F401  (bot_dirs is a fixture)

pytestmark = pytest.mark.no_services

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = (ROOT / "docs" / "library.md").read_text()
BLOCKS = re.findall(r"```python\n(.*?)```", LIBRARY, re.S)
# The bots of the page: the blocks that read the protocol from stdin, named by what they use.
EXAMPLES = {"rollout bot": next(b for b in BLOCKS if "def rollout" in b),
            "search bot": next(b for b in BLOCKS if "SearchBot(" in b)}
# A quick clock, so that whole matches of every game stay short (a Trap the Wizard match asks a
# seat some 400 times): both bots think a share of it (half of move_ms and a fiftieth of the
# bank, less 30 ms), as they would of the default clock: 105 ms of each 150 ms move here, the
# rest and the bank to spare on a busy machine.
CLOCK = TimeControl(move_ms=150, bank_ms=3000)


def test_the_library_pages_contract_block_runs_as_written(tmp_path):
    """The first block of docs/library.md ("The contract"), run as printed by an interpreter
    that finds the games package on its path."""
    [contract] = [b for b in BLOCKS if "rules.setup(" in b and "sys.stdin" not in b]
    script = tmp_path / "contract.py"
    script.write_text(contract)
    ran = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, timeout=120)
    assert ran.returncode == 0, ran.stderr



def _a_whole_match_in_seat_0(code, game: str) -> tuple[list[dict], SandboxedBot]:
    """The uploaded ``code`` in the sandbox, seat 0 of a whole match of ``game`` at its fewest
    players against its random bot; no process of it outlives the match. The log's records and the bot
    (closed: its stderr and runtime stay readable)."""
    ruleset = registry.get(game)
    players = ruleset.spec.min_players
    bot = SandboxedBot(code, time_control=CLOCK, decisions=decision_bound(ruleset, players, {}))
    bots = {seat: bot if seat == 0 else RandomBot(ruleset, seat) for seat in range(players)}
    try:
        records = playout(ruleset, players, seed=bytes(range(32)), bots=bots, runner=RefereeRunner,
                          policy=FaultPolicy())
    finally:
        left = survivors(bot)
        bot.close()
    assert not left, left
    return records, bot

@pytest.mark.parametrize("game", registry.names())
@pytest.mark.parametrize("example", sorted(EXAMPLES))
def test_each_bot_of_the_library_page_plays_a_whole_match_of_every_game_uploaded(
        sandbox_required, bot_dirs, tmp_path, example, game):  # noqa: F811
    source = tmp_path / f"{example.replace(' ', '_')}.py"
    source.write_text(EXAMPLES[example])
    records, bot = _a_whole_match_in_seat_0(bot_dirs(source), game)
    assert records[-1]["kind"] == "match_ended"
    assert validate(records).ok
    mine = [r for r in records if r["kind"] == "action" and r["seat"] == 0]
    assert mine, "the uploaded bot never acted"
    faults = [r["payload"] for r in records if r["kind"] == "forfeit" or "fault" in r["payload"]]
    assert not faults, (faults[:1], bot.stderr_text[-2000:])


STARTERS = ("python", "python-numeric", "node", "native")


@pytest.fixture(scope="module")
def starters(tmp_path_factory):
    """The starter bots of examples/bots/<runtime>/, built as docs/protocol.md says (the native
    one with its gcc command) and uploaded: zipped, checked and unpacked as the service does.
    Made once per module, when a test first asks for a runtime."""
    where = tmp_path_factory.mktemp("starters")
    made: dict[str, Path] = {}

    def get(name: str) -> Path:
        if name not in made:
            made[name] = uploaded(starter_folder(name, where), where)
        return made[name]

    return get


@pytest.mark.parametrize("game", registry.names())
@pytest.mark.parametrize("runtime", STARTERS)
def test_each_runtime_s_starter_bot_plays_a_whole_match_of_every_game_uploaded(
        sandbox_required, starters, runtime, game):
    """44.5: "a starter bot in examples/bots/<runtime>/ that plays every game legally from the
    documented messages alone": uploaded, in the sandbox, a whole match at the game's default
    options against its random bot, every answer legal (an illegal one would be a forfeit), and
    the hello told it its runtime (its first stderr line names it)."""
    records, bot = _a_whole_match_in_seat_0(starters(runtime), game)
    assert records[-1]["kind"] == "match_ended" and validate(records).ok
    faults = [r["payload"] for r in records if r["kind"] == "forfeit" or "fault" in r["payload"]]
    assert not faults, (faults[:1], bot.stderr_text[-2000:])
    assert [r for r in records if r["kind"] == "action" and r["seat"] == 0], "the starter never acted"
    assert bot.runtime.name == runtime and runtime in bot.stderr_text.splitlines()[0], bot.stderr_text[:500]


def test_chance_sample_draws_every_kind_of_spec_in_the_shape_the_rules_take():
    """44.3: one public function samples any chance spec with the caller's generator; each
    outcome is one the match's own derivation could give (chance.check_outcome)."""
    import random

    rng = random.Random(3)
    specs = [{"kind": "dice", "count": 3, "sides": 6}, {"kind": "shuffle", "n": 7},
             {"kind": "choice", "n": 9, "k": 4}]
    for spec in specs:
        outcomes = [chance.sample(spec, rng) for _ in range(40)]
        for outcome in outcomes:
            chance.check_outcome(spec, outcome)
        assert len({tuple(o) for o in outcomes}) > 1  # drawn, not fixed
    assert chance.sample(specs[1], random.Random(5)) == chance.sample(specs[1], random.Random(5))
    with pytest.raises(chance.IllegalAction, match="unknown chance spec"):
        chance.sample({"kind": "coin"}, rng)


def test_the_cpu_allowance_is_all_the_time_the_clock_can_give():
    """docs/protocol.md, Limits: start-up grace + decisions x (move_ms + increment_ms) + bank,
    rounded up, plus a second; the configured cpu_seconds is the floor."""
    tc = TimeControl(move_ms=1000, bank_ms=10_000, increment_ms=100)
    assert cpu_allowance(tc, decisions=300, startup_ms=5000) == 5 + 300 * 1.1 + 10 + 1 == 346
    assert limits_for_match(Limits(), tc, 300).cpu_seconds == 346
    assert limits_for_match(Limits(), tc, 2).cpu_seconds == Limits().cpu_seconds  # 30 s floor
    assert limits_for_match(Limits(), tc, None) == Limits()
    # The driver's bound is the game's bound on a match's events.
    ruleset = registry.get("trap-the-wizard")
    assert decision_bound(ruleset, 2, {}) == ruleset.max_events(2, ruleset.options({}))


BURNER = '''import json, sys, time
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps(message["limits"]), file=sys.stderr, flush=True)
    elif message["type"] == "act":
        end = time.process_time() + 0.25 * message["clock"]["move_ms"] / 1000
        while time.process_time() < end:
            pass
        print(json.dumps({"action": message["legal_actions"][-1]}), flush=True)
'''


def test_a_bot_that_keeps_to_its_clock_is_never_killed_by_the_cpu_limit(
        sandbox_required, bot_dirs, tmp_path):  # noqa: F811
    """44.2: the bot burns 100 ms of CPU on every move of 400 ms (a quarter: on a busy machine
    the wall time it takes is more) through a Sorcado match (some 35 moves a seat), under a
    configured CPU limit of 1 s: without the allowance the kernel kills it (SIGXCPU) after some
    ten moves; with it the whole match is played, and the hello tells the bot its allowance."""
    source = tmp_path / "burner.py"
    source.write_text(BURNER)
    ruleset = registry.get("sorcado")
    clock = TimeControl(move_ms=400, bank_ms=10_000)
    decisions = decision_bound(ruleset, 2, {})
    bot = SandboxedBot(bot_dirs(source), time_control=clock, decisions=decisions,
                       limits=Limits(cpu_seconds=1))
    try:
        records = playout(ruleset, 2, seed=bytes(32), bots={0: bot, 1: RandomBot(ruleset, 1)},
                          runner=RefereeRunner, policy=FaultPolicy())
    finally:
        bot.close()
    mine = [r for r in records if r["kind"] == "action" and r["seat"] == 0]
    assert len(mine) > 25, len(mine)  # 25 x 100 ms: past the configured 1 s (and its hard 2 s)
    faults = [r["payload"] for r in records if r["kind"] == "forfeit" or "fault" in r["payload"]]
    assert not faults, (faults[:1], bot.stderr_text[-1000:])
    allowance = cpu_allowance(clock, decisions=decisions, startup_ms=Limits().startup_ms)
    assert f'"cpu_seconds": {allowance}' in bot.stderr_text
