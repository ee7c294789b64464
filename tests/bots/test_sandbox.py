"""The sandboxed runner (bots/sandbox/) against hostile bots, in real offline matches.

Each hostile bot (tests/bots/hostile/, one per file) sits in seat 0 of a one-round
trap-the-wizard match against the built-in RandomBot. ``play_with_faults`` records a BotFault as a
forfeit, as the production match driver does. For every bot: the match completes and its log
validates, the fault is recorded with the expected reason (or the attempt is contained inside the
sandbox), and no process of the bot survives the match.

Without bubblewrap these tests skip, unless ARENA_REQUIRE_SANDBOX=1 (CI), which makes them fail.
"""
from __future__ import annotations

import json
import os
import shutil
import socket
import tempfile
import time
import uuid
from pathlib import Path

import pytest

from bots import sandbox
from bots.sandbox import (BotFault, Limits, SandboxedBot, SandboxUnavailable, TimeControl, jail,
                          processes)
from games.engine import registry
from games.engine.bots import RandomBot
from games.engine.log import validate
from games.engine.runner import MatchRunner, playout

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = Path(__file__).resolve().parent / "hostile"
EXAMPLE = ROOT / "examples" / "bots" / "random_bot.py"
GAME, OPTIONS = "trap-the-wizard", {"rounds": 1}
CLOCK = TimeControl(move_ms=200, bank_ms=500)
LIMITS = Limits(memory_mb=256, cpu_seconds=10, processes=16, file_size_mb=1,
                message_bytes=64_000, startup_ms=500)


@pytest.fixture
def bot_dirs():
    """Makes bot directories as an upload would be stored: world-readable (the bot runs as an
    unprivileged uid), under a world-traversable base, removed afterwards."""
    base = Path(tempfile.mkdtemp(prefix="arena-test-bots-"))
    base.chmod(0o755)

    def make(source: Path, **files: str) -> Path:
        code = base / f"{source.stem}-{uuid.uuid4().hex[:8]}"
        code.mkdir(mode=0o755)
        code.chmod(0o755)
        (code / "main.py").write_text(source.read_text())
        (code / "marker.txt").write_text(f"marker-{uuid.uuid4().hex}\n")
        for name, text in files.items():
            (code / name).write_text(text)
        for path in code.iterdir():
            path.chmod(0o644)
        return code

    yield make
    shutil.rmtree(base, ignore_errors=True)


class FaultTolerantRunner(MatchRunner):
    """A BotFault becomes a recorded forfeit with the evidence, as the match driver does."""

    def _decide(self, seat: int) -> tuple[str, int, dict]:
        try:
            return super()._decide(seat)
        except BotFault as fault:
            return "forfeit", seat, {"reason": fault.reason, **fault.evidence}


def play_with_faults(bot, *, seed: bytes = b"\x07" * 32) -> list[dict]:
    """A one-round match: ``bot`` in seat 0, RandomBot in seat 1; returns the sealed log after
    checking that no process of ``bot`` survived it (before the driver's own close())."""
    ruleset = registry.get(GAME)
    try:
        records = playout(ruleset, 2, seed=seed, bots={0: bot, 1: RandomBot(ruleset, 1)},
                          options=OPTIONS, runner=FaultTolerantRunner, max_events=100_000)
    finally:
        survivors_at_end = survivors(bot)
        bot.close()  # what the driver does in its finally
    assert not survivors_at_end, f"processes of the bot survived the match: {survivors_at_end}"
    return records


def survivors(bot: SandboxedBot) -> list[str]:
    """Live processes of the bot, found from outside: its uid, its marker (marker.txt, which
    leave_child puts in its daemon's command line), its code path (unique per test: bot_dirs) in
    a command line, or the development runner's environment marker."""
    needles = [str(bot.code).encode()]
    marker = bot.code / "marker.txt"
    if marker.exists():
        needles.append(marker.read_text().strip().encode())
    found = set(sandbox.processes_of_uid(bot.uid)) if bot.uid and os.geteuid() == 0 else set()
    for pid in processes._pids():
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if pid == os.getpid() or processes._state(pid) == "Z":
            continue
        if any(n in cmdline for n in needles) or processes._has_marker(pid, bot.marker.encode()):
            found.add(pid)
    return [f"{pid}: {Path(f'/proc/{pid}/cmdline').read_bytes()[:200]!r}" for pid in sorted(found)
            if Path(f"/proc/{pid}").exists()]


def forfeits(records: list[dict]) -> list[dict]:
    return [r for r in records if r["kind"] == "forfeit"]


def assert_completed(records: list[dict]) -> None:
    assert records[-1]["kind"] == "match_ended"
    report = validate(records)
    assert report.ok, report.to_json()


def hostile(bot_dirs, name: str, *, clock=CLOCK, limits=LIMITS, **files) -> SandboxedBot:
    return SandboxedBot(bot_dirs(HOSTILE / f"{name}.py", **files), time_control=clock, limits=limits)


def assert_faulted(records: list[dict], reason: str) -> dict:
    """Seat 0 forfeited once with ``reason`` and full evidence; returns the payload."""
    assert_completed(records)
    [forfeit] = forfeits(records)
    assert forfeit["seat"] == 0
    payload = forfeit["payload"]
    assert payload["reason"] == reason, payload
    if reason != "illegal_action":
        assert {"sent", "elapsed_ms", "exit_code", "stderr", "detail"} <= set(payload)
    return payload


# -- the example bot ---------------------------------------------------------------------------

def test_example_bot_plays_a_whole_match_without_faults(sandbox_required, bot_dirs):
    bot = SandboxedBot(bot_dirs(EXAMPLE), time_control=CLOCK, limits=LIMITS)
    records = play_with_faults(bot)
    assert_completed(records)
    assert not forfeits(records)
    assert sum(r["kind"] == "action" and r["seat"] == 0 for r in records) > 3
    assert bot.last_clock["bank_ms"] == CLOCK.bank_ms  # random answers in well under move_ms
    version = registry.get("trap-the-wizard").spec.version
    assert f"playing trap-the-wizard v{version} as seat 0 of 2" in bot.stderr_text
    assert "'move_ms': 200" in bot.stderr_text  # the hello carries the time control


def test_example_bot_in_the_development_runner(bot_dirs):
    """sandbox=False: no bwrap needed; same protocol, clock and process cleanup."""
    bot = SandboxedBot(bot_dirs(EXAMPLE), time_control=CLOCK, limits=LIMITS, sandbox=False)
    records = play_with_faults(bot)
    assert_completed(records)
    assert not forfeits(records)


def test_development_runner_kills_a_daemonized_child(bot_dirs):
    bot = SandboxedBot(bot_dirs(HOSTILE / "leave_child.py"), time_control=CLOCK, limits=LIMITS,
                       sandbox=False)
    assert_completed(play_with_faults(bot))  # play_with_faults asserts no survivor


# -- contained: the attempt fails inside, the bot plays on -------------------------------------

def test_memory_no_process_owns_is_refused(sandbox_required, bot_dirs):
    """RLIMIT_AS counts a process's mappings only: SysV shared memory, memfd and POSIX message
    queues could hold gigabytes past the memory limit, owned by no process the OOM killer sees."""
    bot = hostile(bot_dirs, "uncounted_memory")
    records = play_with_faults(bot)
    assert_completed(records)
    assert not forfeits(records)
    log = bot.stderr_text
    for name in ("shmget", "memfd", "mq_open"):
        assert f"MEMORY {name}: refused" in log, log


def test_network_is_unreachable(sandbox_required, bot_dirs):
    host_reaches_redis = _redis_up()  # then the failure inside is the sandbox's doing
    bot = hostile(bot_dirs, "network")
    records = play_with_faults(bot)
    assert_completed(records)
    assert not forfeits(records)
    log = bot.stderr_text
    for name in ("redis", "public", "dns"):
        assert f"NETWORK {name}: failed" in log, (host_reaches_redis, log)
    assert "CONNECTED" not in log


def test_writes_outside_tmp_fail(sandbox_required, bot_dirs):
    host_path = outside_the_sandbox()
    bot = hostile(bot_dirs, "write_outside_tmp", **{"target.txt": str(host_path)})
    records = play_with_faults(bot)
    assert_completed(records)
    assert not forfeits(records)
    log = bot.stderr_text
    assert "WRITE /tmp/ok: WROTE" in log  # the private /tmp is writable
    assert log.count("WROTE") == 1, log
    assert not host_path.exists()
    assert sorted(p.name for p in bot.code.iterdir()) == ["main.py", "marker.txt", "target.txt"]


def test_another_bots_files_are_not_readable(sandbox_required, bot_dirs):
    secret = f"secret-{uuid.uuid4().hex}"
    other = bot_dirs(EXAMPLE, **{"secret.txt": secret})
    bot = hostile(bot_dirs, "read_other_bot", **{"target.txt": str(other / "secret.txt")})
    records = play_with_faults(bot)
    assert_completed(records)
    assert not forfeits(records)
    assert secret not in bot.stderr_text
    assert secret not in str(records)
    assert bot.stderr_text.count(": failed (") == 4, bot.stderr_text


def test_no_nested_user_namespace(sandbox_required, bot_dirs):
    """In a user namespace of its own a bot could mount a tmpfs that no rlimit counts."""
    bot = hostile(bot_dirs, "user_namespace")
    records = play_with_faults(bot)
    assert_completed(records)
    assert not forfeits(records)
    assert "USERNS unshare: refused" in bot.stderr_text, bot.stderr_text
    assert "CREATED" not in bot.stderr_text


# -- faults: recorded as forfeits, the match completes -----------------------------------------

def test_fork_bomb_is_held_to_the_process_limit(sandbox_required, bot_dirs):
    bot = hostile(bot_dirs, "fork_bomb", clock=TimeControl(move_ms=1500, bank_ms=0))
    payload = assert_faulted(play_with_faults(bot), "timeout")
    assert_fork_bomb_held(payload["stderr"])


def assert_fork_bomb_held(stderr: str) -> None:
    """The bomb's own count (its processes in its pid namespace, once forks were refused)."""
    report = next(line for line in stderr.splitlines() if line.startswith("FORKBOMB"))
    fields = {key: int(value) for key, value in (part.split("=") for part in report.split()[1:])}
    assert fields["refused"] > 0  # the kernel refused forks...
    assert fields["processes"] <= LIMITS.processes  # ...at the limit


def test_memory_past_the_limit_crashes_the_bot(sandbox_required, bot_dirs):
    # A clock far longer than the allocation needs: on a busy machine touching 256 MiB can take
    # longer than CLOCK allows, and then the bot would time out before it hit the limit.
    roomy = TimeControl(move_ms=CLOCK.move_ms, bank_ms=30_000)
    payload = assert_faulted(play_with_faults(hostile(bot_dirs, "memory_hog", clock=roomy)), "crash")
    assert "MemoryError" in payload["stderr"]
    assert f"holding {LIMITS.memory_mb} MiB" not in payload["stderr"]
    assert payload["exit_code"] == 1


def test_infinite_loop_times_out(sandbox_required, bot_dirs):
    payload = assert_faulted(play_with_faults(hostile(bot_dirs, "infinite_loop")), "timeout")
    assert CLOCK.move_ms + CLOCK.bank_ms <= payload["elapsed_ms"] < 3000


def test_sleeping_past_the_clock_times_out(sandbox_required, bot_dirs):
    bot = hostile(bot_dirs, "sleeper")
    payload = assert_faulted(play_with_faults(bot), "timeout")
    assert CLOCK.move_ms + CLOCK.bank_ms <= payload["elapsed_ms"] < 3000
    assert bot.last_clock["bank_ms"] == 0


def test_flooding_stdout_hits_the_output_limit(sandbox_required, bot_dirs):
    payload = assert_faulted(play_with_faults(hostile(bot_dirs, "flood_stdout")), "output_limit")
    assert payload["sent"] == "A" * 500


def test_garbage_is_recorded_as_garbage(sandbox_required, bot_dirs):
    payload = assert_faulted(play_with_faults(hostile(bot_dirs, "garbage")), "garbage")
    assert payload["sent"].startswith("move the blue wizard please")


def test_illegal_action_is_an_illegal_action_forfeit(sandbox_required, bot_dirs):
    payload = assert_faulted(play_with_faults(hostile(bot_dirs, "illegal_action")), "illegal_action")
    assert json.loads(payload["sent"]) == {"type": "teleport", "wizard": 0, "to": "the moon"}


def test_exit_at_start_is_a_crash(sandbox_required, bot_dirs):
    payload = assert_faulted(play_with_faults(hostile(bot_dirs, "exit_at_start")), "crash")
    assert payload["exit_code"] == 3
    assert "EXIT leaving at once" in payload["stderr"]


def test_daemonized_child_does_not_survive_the_match(sandbox_required, bot_dirs):
    bot = hostile(bot_dirs, "leave_child")
    records = play_with_faults(bot)  # asserts no survivor: the daemon carries the marker
    assert_completed(records)
    assert not forfeits(records)
    assert "CHILD daemon started" in bot.stderr_text


# -- the other way to a uid of its own: bwrap in a user namespace (the Docker worker) -----------

@pytest.fixture
def userns_mode(sandbox_required, monkeypatch):
    """Force the ``userns`` mode with an interpreter every uid can reach (the service's own lives
    under /root here); skip where the host cannot do it, fail where CI requires the sandbox
    (ARENA_REQUIRE_SANDBOX=1: its hosts can; a checkout under a private directory once skipped
    here because bwrap could not reach the `games` package, which is now staged for it)."""
    monkeypatch.setattr(jail, "MODES", ("userns",))
    reasons = []
    for python in dict.fromkeys([jail.BOT_PYTHON, "/usr/bin/python3", "/usr/local/bin/python3"]):
        if os.path.exists(python):
            monkeypatch.setattr(jail, "BOT_PYTHON", python)
            try:
                if sandbox.sandbox_mode() == "userns":
                    return
            except SandboxUnavailable as exc:
                reasons.append(f"{python}: {exc}")
    why = "no Python that bwrap can run in an unprivileged user namespace here: " + "; ".join(reasons)
    if os.environ.get("ARENA_REQUIRE_SANDBOX") == "1":
        pytest.fail(f"ARENA_REQUIRE_SANDBOX=1 but {why}")
    pytest.skip(why)


def test_a_package_under_a_private_directory_is_staged_where_the_bot_s_uid_reaches_it(tmp_path, monkeypatch):
    """A checkout under a directory of mode 0700 (``mktemp -d``, a private home): in ``userns``
    mode bwrap runs as the bot's uid and could not reach the `games` package to bind it, so every
    bot was refused. The jail binds a world-readable copy of the same files instead."""
    private = tmp_path / "private"
    (private / "games" / "engine").mkdir(parents=True)
    (private / "games" / "__init__.py").write_text("VERSION = 'this checkout'\n")
    (private / "games" / "engine" / "rules.py").write_text("RULE = 1\n")
    (private / "games" / "engine" / "rules.py").chmod(0o600)
    private.chmod(0o700)
    monkeypatch.setattr(jail, "library_source", lambda: private / "games")
    monkeypatch.setattr(jail, "_STAGED", {})
    staged = jail.library_for_bots()
    assert staged != private / "games" and staged.name == "games"
    assert (staged / "__init__.py").read_text() == "VERSION = 'this checkout'\n"
    assert (staged / "engine" / "rules.py").read_text() == "RULE = 1\n"
    assert jail._world_readable(staged) and not jail._world_readable(private / "games")
    assert jail.library_for_bots() == staged  # staged once


def test_the_copy_goes_to_a_temporary_directory_every_uid_reaches(tmp_path, monkeypatch):
    """TMPDIR may be private too (a per-user temporary directory): the copy then goes to /tmp."""
    private = tmp_path / "checkout"
    (private / "games").mkdir(parents=True)
    (private / "games" / "__init__.py").write_text("")
    private.chmod(0o700)
    own_tmp = tmp_path / "own-tmp"
    own_tmp.mkdir(mode=0o700)
    monkeypatch.setattr(tempfile, "tempdir", str(own_tmp))
    monkeypatch.setattr(jail, "library_source", lambda: private / "games")
    monkeypatch.setattr(jail, "_STAGED", {})
    staged = jail.library_for_bots()
    assert not str(staged).startswith(str(own_tmp)) and jail._world_readable(staged), staged


def test_a_world_readable_package_is_bound_as_it_is(monkeypatch):
    """A deployment (the Docker image's /app) binds the server's own directory, no copy."""
    with tempfile.TemporaryDirectory(dir="/tmp") as shared:  # /tmp: searchable by every uid
        os.chmod(shared, 0o755)
        package = Path(shared) / "games"
        package.mkdir(mode=0o755)
        (package / "__init__.py").write_text("")
        (package / "__init__.py").chmod(0o644)
        monkeypatch.setattr(jail, "library_source", lambda: package)
        monkeypatch.setattr(jail, "_STAGED", {})
        assert jail._world_readable(package) and jail.library_for_bots() == package


@pytest.mark.parametrize("name, reason", [("random_bot", None), ("fork_bomb", "timeout"),
                                          ("leave_child", None), ("write_outside_tmp", None)])
def test_userns_mode_contains_the_bot_too(userns_mode, bot_dirs, name, reason):
    source = EXAMPLE if name == "random_bot" else HOSTILE / f"{name}.py"
    host_path = outside_the_sandbox()
    bot = SandboxedBot(bot_dirs(source, **{"target.txt": str(host_path)}),
                       time_control=TimeControl(move_ms=1500, bank_ms=0), limits=LIMITS)
    assert bot.mode == "userns"
    records = play_with_faults(bot)
    assert_completed(records)
    assert [f["payload"]["reason"] for f in forfeits(records)] == ([reason] if reason else [])
    assert not host_path.exists()
    if name == "fork_bomb":
        assert_fork_bomb_held(bot.stderr_text)
    if name == "write_outside_tmp":
        assert bot.stderr_text.count("WROTE") == 1, bot.stderr_text


# -- the protocol layer ------------------------------------------------------------------------

def test_after_a_fault_the_next_act_restarts_the_bot(sandbox_required, bot_dirs):
    """The fault policy may ask a faulted seat again: a fresh process gets the hello with
    "restarts", and the killed process's late answer is never taken for a new one."""
    source = bot_dirs(EXAMPLE)
    (source / "main.py").write_text(
        "import json, sys, time\nrestarts = 0\nfor line in sys.stdin:\n"
        "    message = json.loads(line)\n"
        "    if message['type'] == 'hello': restarts = message.get('restarts', 0)\n"
        "    if message['type'] == 'act':\n"
        "        if not restarts: time.sleep(3)\n"
        "        print(json.dumps({'action': 'late' if not restarts else restarts}), flush=True)\n")
    act = {"type": "act", "seat": 0, "view": {}, "legal_actions": [1]}
    bot = SandboxedBot(source, time_control=TimeControl(move_ms=1000, bank_ms=0),
                       limits=Limits(startup_ms=0))
    bot.hello({"type": "hello", "seat": 0})
    with pytest.raises(BotFault) as fault:
        bot.act(act)
    assert fault.value.reason == "timeout"
    assert survivors(bot) == []  # the fault killed the process tree at once
    assert bot.act(act) == 1 and bot.restarts == 1  # a new process, greeted again
    bot.close()
    bot.close()  # idempotent
    assert survivors(bot) == []
    with pytest.raises(BotFault, match="not running"):
        bot.act(act)


@pytest.mark.parametrize("answer, reason", [
    ('{"action": NaN}', "garbage"),
    ('[1]', "garbage"),
    ('{"move": 1}', "garbage"),
    ('{"action": 1}\n{"action": 1}', "garbage"),  # the second line is unsolicited at the next act
    ('{"action": "' + "x" * 70_000 + '"}', "output_limit"),
], ids=["nan", "not-an-object", "no-action", "two-lines", "too-long"])
def test_answer_envelope(sandbox_required, bot_dirs, answer, reason):
    source = bot_dirs(EXAMPLE)
    (source / "main.py").write_text(
        "import sys\nfor line in sys.stdin:\n"
        f"    if '\"act\"' in line: print({answer!r}, flush=True)\n")
    with SandboxedBot(source, time_control=CLOCK, limits=LIMITS) as bot:
        bot.hello({"type": "hello", "seat": 0})
        message = {"type": "act", "seat": 0, "view": {}, "legal_actions": [1]}
        with pytest.raises(BotFault) as fault:
            assert bot.act(message) == 1
            time.sleep(0.1)
            bot.act(message)
        assert fault.value.reason == reason


def test_a_bot_does_not_run_while_other_seats_think(sandbox_required, bot_dirs):
    """RLIMIT_CPU counts per process: a background process (or a chain of them) could otherwise
    burn CPU the whole match, slowing the opponents whose clocks run on wall time."""
    act = {"type": "act", "seat": 0, "view": {}, "legal_actions": [1]}
    # Each act waits (up to 2 s, within this clock) for the worker to tick again, so the test
    # holds on a busy machine: the worker's progress is read only once it has run.
    with SandboxedBot(hostile(bot_dirs, "background_worker").code,
                      time_control=TimeControl(move_ms=3000, bank_ms=0), limits=LIMITS) as bot:
        bot.hello({"type": "hello", "seat": 0})
        bot.act(act)
        bot.act(act)
        time.sleep(1.0)  # another seat thinks: 200 ticks if the worker were let run
        bot.act(act)
        ticks = [int(line.split()[1]) for line in bot.stderr_text.splitlines() if line.startswith("TICKS")]
    assert len(ticks) == 3 and 0 < ticks[0] < ticks[1] < ticks[2], bot.stderr_text
    assert ticks[2] - ticks[1] < 40, ticks


def test_clock_draws_on_the_bank_beyond_move_time(sandbox_required, bot_dirs):
    source = bot_dirs(EXAMPLE)
    (source / "main.py").write_text(
        "import sys, time\nfor line in sys.stdin:\n"
        "    if '\"act\"' in line: time.sleep(0.3); print('{\"action\": 1}', flush=True)\n")
    clock = TimeControl(move_ms=100, bank_ms=1000, increment_ms=50)
    with SandboxedBot(source, time_control=clock, limits=Limits(startup_ms=0)) as bot:
        bot.hello({"type": "hello", "seat": 0})
        bot.act({"type": "act", "seat": 0, "view": {}, "legal_actions": [1]})
        first = bot.last_clock
        bot.act({"type": "act", "seat": 0, "view": {}, "legal_actions": [1]})
    assert first["elapsed_ms"] >= 300
    # 1000 - (elapsed - 100) + 50, twice; scheduling noise only lowers the bank
    assert 1000 - 2 * 150 - 300 <= bot.last_clock["bank_ms"] <= 1000 - 2 * 150
    assert bot.last_clock["bank_ms"] < first["bank_ms"] < 1000


@pytest.mark.skipif(os.geteuid() != 0, reason="as root only: otherwise bots run as the caller")
def test_privately_stored_code_is_refused_not_blamed_on_the_bot(sandbox_required, bot_dirs):
    code = bot_dirs(EXAMPLE)
    code.chmod(0o700)  # the bot's uid could not read it: a crash would wrongly cost it the seat
    with pytest.raises(SandboxUnavailable, match="out of reach of the bot's unprivileged uid"):
        SandboxedBot(code)


# -- no sandbox: uploaded bots are refused with a clear message --------------------------------

def test_missing_bwrap_refuses_uploaded_bots(monkeypatch, tmp_path):
    monkeypatch.setattr(jail, "BWRAP", str(tmp_path / "no-such-bwrap"))
    with pytest.raises(SandboxUnavailable,
                       match="bubblewrap .*not installed.*apt-get install bubblewrap"):
        sandbox.sandbox_check()
    with pytest.raises(SandboxUnavailable, match="refused"):
        SandboxedBot(EXAMPLE)


# -- helpers -----------------------------------------------------------------------------------

def outside_the_sandbox() -> Path:
    """A host path a bot must not be able to create: in the checkout's var/, a writable host
    directory the sandbox does not show. Not the checkout's parent: a clone under /tmp would put
    it in /tmp, where the bot's own private /tmp lets it write (to its copy, not the host's)."""
    (ROOT / "var").mkdir(exist_ok=True)
    return ROOT / "var" / f"pwned-{uuid.uuid4().hex}"


def _redis_up() -> bool:
    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=0.5).close()
        return True
    except OSError:
        return False


# -- Issue 15.3: "an uploaded Python bot can import [the games package] inside the sandbox
#    (read-only, the version the match runs)". -----------------------------------------------------

def test_a_bot_imports_the_rules_read_only_in_the_sandbox(sandbox_required, bot_dirs):
    """The bot rebuilds the state from its view with the mounted engine, checks the engine's legal
    actions against the message's and answers with one; it answers garbage if it could write into
    the library. No fault means both held on every move."""
    bot = SandboxedBot(bot_dirs(Path(__file__).resolve().parent / "library" / "rules_bot.py"),
                       time_control=TimeControl(move_ms=2000, bank_ms=10_000), limits=LIMITS)
    records = play_with_faults(bot)
    assert_completed(records)
    assert not forfeits(records) and not [r for r in records if "fault" in r["payload"]]
    assert sum(1 for r in records if r["kind"] == "action" and r["seat"] == 0) > 0
    assert "writable: False" in bot.stderr_text
    assert f"library at {jail.LIBRARY}" in bot.stderr_text

