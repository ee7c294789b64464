"""Issue 44.4: "the same limits (memory, processes, files, network none, time/CPU) hold for every
runtime, and the hostile-bot suite (network, file system, fork bomb, memory, output flood,
orphans, reading other bots or the service's settings) runs against each runtime".

The python runtime's suite is test_sandbox.py; here the same hostile programs run on
python-numeric (tests/bots/hostile/*.py with an arena.json), and their ports run on node
(hostile/js/, JavaScript) and native (hostile/c/, C compiled statically here with the documented
gcc command's flags, on examples/bots/native/arena.h). Each sits in seat 0 of a one-round Trap
the Wizard match against the random bot (test_sandbox.play_with_faults: the match completes, its
log validates, no process of the bot survives it) and must be contained or faulted exactly as
the python runtime's. Skips without the sandbox or a runtime, fails under ARENA_REQUIRE_SANDBOX=1.

No database or broker: .ci/run runs them once, in its first pass (``no_services``).
"""
from __future__ import annotations

import json
import shutil
import tempfile
import uuid
from pathlib import Path

import pytest

from bots.sandbox import SandboxedBot, TimeControl
from bots.sandbox.runtimes import MANIFEST

from .runtimes import EXAMPLES, ROOT, compile_static, require_runtime, starter_folder, uploaded
from .test_sandbox import (CLOCK, LIMITS, assert_completed, assert_faulted, assert_fork_bomb_held, forfeits,
                           outside_the_sandbox, play_with_faults, userns_mode)  # noqa: F401 (a fixture)

HOSTILE = Path(__file__).resolve().parent / "hostile"
RUNTIMES = ("python-numeric", "node", "native")
SOURCES = {"python-numeric": (HOSTILE, ".py"), "node": (HOSTILE / "js", ".js"), "native": (HOSTILE / "c", ".c")}
SETTINGS = ROOT / "config" / "settings.py"  # the service's settings, world-readable on the host

pytestmark = pytest.mark.no_services


@pytest.fixture
def hostile(sandbox_required):
    """hostile(runtime, name, clock=..., **files): the hostile program ``name`` of ``runtime`` as an
    uploaded bot of that runtime (arena.json, its entry, a marker.txt for survivors(), and
    ``files``), world-readable under a world-traversable base, in a SandboxedBot."""
    base = Path(tempfile.mkdtemp(prefix="arena-test-runtimes-"))
    base.chmod(0o755)

    def make(runtime: str, name: str, *, clock: TimeControl = CLOCK, **files: str) -> SandboxedBot:
        require_runtime(runtime)
        folder = SOURCES[runtime][0]
        code = base / f"{runtime}-{name}-{uuid.uuid4().hex[:8]}"
        code.mkdir(mode=0o755)
        code.chmod(0o755)
        (code / MANIFEST).write_text(json.dumps({"runtime": runtime}))
        if runtime == "native":
            compile_static(code, [str(folder / f"{name}.c"), "-I", str(folder)])
        elif runtime == "node":
            shutil.copy(folder / f"{name}.js", code / "main.js")
            shutil.copy(folder / "play.js", code / "play.js")
        else:
            shutil.copy(folder / f"{name}.py", code / "main.py")
        (code / "marker.txt").write_text(f"marker-{uuid.uuid4().hex}\n")
        for filename, text in files.items():
            (code / filename).write_text(text)
        for path in code.iterdir():
            path.chmod(0o755 if path.name == "main" else 0o644)
        return SandboxedBot(code, time_control=clock, limits=LIMITS)

    make.base = base  # world-traversable, for other bots of a test
    yield make
    shutil.rmtree(base, ignore_errors=True)


def _sources(name: str) -> None:
    for runtime, (folder, suffix) in SOURCES.items():
        assert (folder / f"{name}{suffix}").is_file(), f"no hostile {name} for {runtime}"


# -- contained: the attempt fails inside, the bot plays on -------------------------------------------

@pytest.mark.parametrize("runtime", RUNTIMES)
def test_the_network_is_unreachable_on_every_runtime(hostile, runtime):
    bot = hostile(runtime, "network")
    records = play_with_faults(bot)
    assert_completed(records)
    assert not forfeits(records), forfeits(records)
    for name in ("redis", "public", "dns"):
        assert f"NETWORK {name}: failed" in bot.stderr_text, bot.stderr_text
    assert "CONNECTED" not in bot.stderr_text


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_writes_outside_tmp_fail_on_every_runtime(hostile, runtime):
    host_path = outside_the_sandbox()
    bot = hostile(runtime, "write_outside_tmp", **{"target.txt": str(host_path)})
    before = sorted(p.name for p in bot.code.iterdir())
    records = play_with_faults(bot)
    assert_completed(records)
    assert not forfeits(records), forfeits(records)
    assert "WRITE /tmp/ok: WROTE" in bot.stderr_text  # the private /tmp is writable
    assert bot.stderr_text.count("WROTE") == 1, bot.stderr_text
    assert not host_path.exists()
    assert sorted(p.name for p in bot.code.iterdir()) == before


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_another_bots_files_and_the_service_s_settings_are_not_readable_on_every_runtime(hostile, runtime):
    secret = f"secret-{uuid.uuid4().hex}"
    other = hostile(runtime, "network").code  # any other bot's folder, with a secret in it
    (other / "secret.txt").write_text(secret)
    (other / "secret.txt").chmod(0o644)
    assert SETTINGS.is_file() and "SECRET_KEY" in SETTINGS.read_text()
    bot = hostile(runtime, "read_other_bot", **{"target.txt": f"{other / 'secret.txt'}\n{SETTINGS}\n"})
    records = play_with_faults(bot)
    assert_completed(records)
    assert not forfeits(records), forfeits(records)
    for leaked in (secret, "SECRET_KEY"):
        assert leaked not in bot.stderr_text and leaked not in str(records)
    assert bot.stderr_text.count(": failed (") == 8, bot.stderr_text  # 2 files x 4 ways


@pytest.mark.parametrize("runtime", ("python-numeric", "native"))
def test_memory_no_process_owns_is_refused(hostile, runtime):
    """Node.js cannot call shmget, memfd_create or mq_open; C calls them directly."""
    bot = hostile(runtime, "uncounted_memory")
    records = play_with_faults(bot)
    assert_completed(records)
    assert not forfeits(records), forfeits(records)
    for name in ("shmget", "memfd", "mq_open"):
        assert f"MEMORY {name}: refused" in bot.stderr_text, bot.stderr_text


def test_io_uring_is_refused(hostile):
    """A native bot makes any system call it likes: io_uring (Docker's default profile refuses
    it too) is refused by the seccomp filter; Node.js's libuv falls back to its threads without
    it (the node runtime's tests play on)."""
    bot = hostile("native", "io_uring")
    records = play_with_faults(bot)
    assert_completed(records)
    assert not forfeits(records), forfeits(records)
    assert "IO_URING setup: refused (Operation not permitted)" in bot.stderr_text, bot.stderr_text
    assert "CREATED" not in bot.stderr_text


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_a_daemonized_child_does_not_survive_the_match_on_every_runtime(hostile, runtime):
    bot = hostile(runtime, "leave_child")
    records = play_with_faults(bot)  # asserts no survivor: the daemon carries the marker
    assert_completed(records)
    assert not forfeits(records), forfeits(records)
    assert "CHILD daemon started" in bot.stderr_text, bot.stderr_text


# -- faults: recorded as forfeits, the match completes -----------------------------------------------

@pytest.mark.parametrize("runtime", RUNTIMES)
def test_a_fork_bomb_is_held_to_the_process_limit_on_every_runtime(hostile, runtime):
    bot = hostile(runtime, "fork_bomb", clock=TimeControl(move_ms=1500, bank_ms=0))
    payload = assert_faulted(play_with_faults(bot), "timeout")
    assert_fork_bomb_held(payload["stderr"])


MEMORY_ERROR = {"python-numeric": "MemoryError", "node": "MEMORY refused: RangeError",
                "native": "MEMORY refused: malloc failed"}


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_memory_past_the_limit_crashes_the_bot_on_every_runtime(hostile, runtime):
    """The same memory_mb on every runtime: 64 MiB blocks, touched, are refused before the bot
    holds memory_mb of them (Node.js's address-space allowance covers only what V8 reserves and
    never touches: docs/protocol.md, "Limits")."""
    roomy = TimeControl(move_ms=CLOCK.move_ms, bank_ms=30_000)
    payload = assert_faulted(play_with_faults(hostile(runtime, "memory_hog", clock=roomy)), "crash")
    assert MEMORY_ERROR[runtime] in payload["stderr"], payload["stderr"]
    assert "MEMORY holding 64 MiB" in payload["stderr"] or runtime == "python-numeric"
    assert f"holding {LIMITS.memory_mb} MiB" not in payload["stderr"]
    assert payload["exit_code"] == 1


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_flooding_stdout_hits_the_output_limit_on_every_runtime(hostile, runtime):
    payload = assert_faulted(play_with_faults(hostile(runtime, "flood_stdout")), "output_limit")
    assert payload["sent"] == "A" * 500


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_an_infinite_loop_times_out_on_every_runtime(hostile, runtime):
    payload = assert_faulted(play_with_faults(hostile(runtime, "infinite_loop")), "timeout")
    assert CLOCK.move_ms + CLOCK.bank_ms <= payload["elapsed_ms"] < 3000


# -- the other way to a uid of its own: bwrap in a user namespace (the Docker worker) ------------------

@pytest.mark.parametrize("runtime, name", [("python-numeric", "starter"), ("node", "starter"), ("native", "starter"),
                                           ("node", "fork_bomb"), ("native", "fork_bomb")])
def test_userns_mode_runs_and_contains_every_runtime(userns_mode, hostile, runtime, name):  # noqa: F811
    """In ``userns`` mode bwrap itself runs as the bot's uid: every bind of a runtime (Node.js,
    python-numeric's environment) must be reachable by it, and the limits hold the same."""
    if name == "starter":
        code = uploaded(starter_folder(runtime, hostile.base), hostile.base)
        bot = SandboxedBot(code, time_control=CLOCK, limits=LIMITS)
    else:
        bot = hostile(runtime, name, clock=TimeControl(move_ms=1500, bank_ms=0))
    assert bot.mode == "userns"
    records = play_with_faults(bot)
    assert_completed(records)
    if name == "starter":
        assert not forfeits(records), (forfeits(records), bot.stderr_text[-1000:])
        assert f"on {runtime}" in bot.stderr_text
    else:
        assert_fork_bomb_held(assert_faulted(records, "timeout")["stderr"])


def test_every_hostile_program_has_its_port_to_every_runtime():
    for name in ("network", "write_outside_tmp", "read_other_bot", "fork_bomb", "memory_hog",
                 "flood_stdout", "leave_child", "infinite_loop"):
        _sources(name)
    assert (EXAMPLES / "native" / "arena.h").is_file()  # the C programs' JSON helper
