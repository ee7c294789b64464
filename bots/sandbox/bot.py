"""``SandboxedBot``: an uploaded bot in its sandbox, with the interface of
``games.engine.bots.Bot``; starts, asks, restarts and kills the bot's process."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

from .channel import _Clock, _Pipes, _decode_answer, _sent
from .config import ENTRY, STDERR_CHARS, Limits, TimeControl, limits_for_match
from .errors import BotFault
from .jail import (_bot_env, _bwrap_argv, _check_reachable, _rlimits, _seccomp_fd, _spawn, _with_rlimits,
                   launch_for, runtime_check, sandbox_mode)
from .processes import _UidLease, _descendants, _has_marker, _pids, _ppid, _state, processes_of_uid
from .runtimes import ManifestError, manifest_of

STOPPED_STATES = ("T", "t", "Z", "X", None)  # stopped, traced, dead or gone


# -- the bot -----------------------------------------------------------------------------------

class SandboxedBot:
    """An uploaded bot in its sandbox; the interface of games.engine.bots.Bot.

    The process starts at ``hello``. Every fault kills it (the evidence is in the BotFault); if
    the driver's fault policy asks the seat again, ``act`` starts a fresh process and greets it
    with the same hello plus ``"restarts": n`` first, so a late answer or a half-written flood of
    the old process can never be read as a new answer. ``result`` and ``close`` end it for good.
    Between its answer and the next question every process of the bot is stopped (SIGSTOP).
    """

    name = "sandboxed"

    @property
    def bank_ms(self) -> int:
        """What is left of the time bank."""
        return self._clock.bank_ms

    def __init__(self, code_dir: Path, *, time_control: TimeControl = TimeControl(),
                 limits: Limits = Limits(), sandbox: bool = True, bank_ms: int | None = None,
                 decisions: int | None = None):
        """``bank_ms``: what is left of the bank when a match resumes (the driver reads it from
        the log's last clock of this seat); a fresh match starts with the full bank.
        ``decisions``: the most times the bot can be asked in its match (the game's bound on
        its events); the CPU limit then grows to all the time the clock can give
        (config.cpu_allowance), so a bot that keeps to its clock is never killed by it."""
        self.code = Path(code_dir).resolve()
        try:
            # The runtime is the upload's arena.json (runtimes.py); none: Python with main.py.
            self.manifest = manifest_of(self.code)
        except (ManifestError, OSError) as exc:
            raise FileNotFoundError(f"{self.code}: {exc}") from None
        self.runtime = self.manifest.runtime
        if not (self.code.is_file() or (self.code / self.manifest.entry).is_file()):
            raise FileNotFoundError(f"{self.code}: a bot is a .py file or a directory with its entry "
                                    f"point ({self.manifest.entry}, {self.runtime.name} runtime)")
        self.time_control = time_control
        self.limits = limits_for_match(limits, time_control, decisions)
        self.mode = sandbox_mode() if sandbox else None  # refuses here: SandboxUnavailable
        runtime_check(self.runtime, self.mode)  # node not installed, python-numeric missing: SandboxUnavailable
        if self.mode is not None and os.geteuid() == 0:
            _check_reachable(self.code, parents=self.mode == "userns", entry_name=self.manifest.entry)
        self.marker = f"arena-bot-{uuid.uuid4().hex}"
        self.last_clock: dict | None = None
        self.seat: int | None = None
        self.uid: int | None = None
        self.restarts = 0
        self._clock = _Clock(time_control, limits.startup_ms)
        if bank_ms is not None:
            self._clock.bank_ms = max(0, int(bank_ms))
        self._hello: dict | None = None
        self._proc: subprocess.Popen | None = None
        self._pipes: _Pipes | None = None
        self._lease = _UidLease(self.mode)
        self._leased = False
        self._info_fd: int | None = None
        self._tmp: str | None = None
        self._answered = 0  # answers of the current process: none yet means it is starting up
        self._fault: BotFault | None = None  # the last fault: no process runs until a restart
        self._pending: BotFault | None = None  # a fault at start, raised at the first act
        self._closed = False

    # the Bot interface ------------------------------------------------------------------------

    def hello(self, message: dict) -> None:
        """Start the process and send the hello; a failure here is raised at the first act."""
        self.seat = message.get("seat")
        self._hello = dict(message, time_control=self.time_control.to_json(),
                           limits=self.limits.to_json(), runtime=self.runtime_json())
        try:
            self._launch()
        except BotFault as fault:
            self._pending = self._fail(fault, 0)

    def act(self, message: dict):
        """Send ``message`` (with the clock) and return the decoded action, or raise BotFault."""
        if self._pending is not None:
            fault, self._pending = self._pending, None
            raise fault
        if self._closed or self._hello is None:
            raise BotFault("crash", {"detail": "the bot is not running (closed, or no hello)",
                                     "sent": "", "elapsed_ms": 0, "exit_code": None, "stderr": ""})
        start = time.monotonic()
        try:
            if self._fault is not None:
                self._restart()
                start = time.monotonic()
            action = self._ask(message, start)
            self._pause()
            return action
        except BotFault as fault:
            elapsed = time.monotonic() - start
            if fault.reason == "timeout":
                self._clock.bank_ms = 0
            self.last_clock = {"elapsed_ms": int(elapsed * 1000), "bank_ms": self._clock.bank_ms}
            raise self._fail(fault, elapsed) from None

    def result(self, message: dict) -> None:
        """Send the result, give the bot a moment to exit by itself, then close."""
        if self._fault is None and self._proc is not None and not self._closed:
            try:
                self._resume()
                self._send(message, time.monotonic() + 1.0)
                self._proc.stdin.close()
                self._pipes.drain_stderr(0.2)
            except (BotFault, OSError):
                pass
        self.close()

    def close(self) -> None:
        """Kill every process of the bot and release its uid; idempotent."""
        if self._closed:
            return
        self._closed = True
        self._kill_all()
        self._discard_process()
        self._lease.release()
        if self._tmp:
            shutil.rmtree(self._tmp, ignore_errors=True)

    def __enter__(self) -> "SandboxedBot":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def runtime_json(self) -> dict:
        """The hello's ``runtime``: its name and version string (docs/protocol.md, "Runtimes")."""
        return {"name": self.runtime.name, "version": self._launch_spec(sandboxed=False).version}

    def _launch_spec(self, *, sandboxed: bool):
        entry = ENTRY if self.code.is_file() and sandboxed else (
            str(self.code) if self.code.is_file() else self.manifest.entry)
        return launch_for(self.runtime, entry, sandboxed=sandboxed, memory_mb=self.limits.memory_mb)

    @property
    def stderr_text(self) -> str:
        """The last 16 KiB the current (or last) process wrote to stderr: its log."""
        return self._pipes.stderr_text() if self._pipes else ""

    @property
    def pid(self) -> int | None:
        """The pid of the outermost process (bwrap, or the bot itself without the sandbox)."""
        return self._proc.pid if self._proc else None

    # one move ---------------------------------------------------------------------------------

    def _ask(self, message: dict, start: float):
        """One act on a running process; the clock is charged for an answer."""
        grace, window = self._clock.window(start)
        deadline = start + window
        self._check_unsolicited()
        self._resume()
        self._send(dict(message, clock={"move_ms": self.time_control.move_ms,
                                        "bank_ms": self._clock.bank_ms}), deadline)
        line = self._pipes.read_line(deadline, self.limits.message_bytes)
        try:
            action = _decode_answer(line)
        except BotFault as fault:
            if not self._answered:  # a line printed at start-up reads as the first answer
                fault.evidence["detail"] += (
                    "; it is the first line this process wrote: output at start-up, before the first act, "
                    "counts as that answer (stdout carries only answers; write logs to stderr)")
            raise
        self._answered += 1
        elapsed = time.monotonic() - start
        bank = self._clock.charge(elapsed, grace)
        self.last_clock = {"elapsed_ms": int(elapsed * 1000), "bank_ms": bank}
        return action

    def _pause(self) -> None:
        """Stop every process of the bot until it is asked again: no thinking on another seat's
        time, and no CPU taken from it (RLIMIT_CPU counts per process, so a bot that keeps
        forking could otherwise burn CPU all match long). Repeated until nothing of it runs, so
        a process forked meanwhile is stopped too."""
        for _ in range(20):
            running = [pid for pid in self._processes() if _state(pid) not in STOPPED_STATES]
            if not running:
                return
            for pid in running:
                _signal(pid, signal.SIGSTOP)
            time.sleep(0)

    def _resume(self) -> None:
        """SIGCONT to every process of the bot, stopped by ``_pause``."""
        for pid in self._processes():
            _signal(pid, signal.SIGCONT)

    def _processes(self) -> list[int]:
        """The bot's processes: everything below bwrap (its pid-namespace init, to which orphans
        go, and all inside), or without the sandbox the bot and its descendants."""
        if self._proc is None or self._proc.poll() is not None:
            return []
        below = _descendants(self._proc.pid)
        return below if self.mode is not None else [self._proc.pid, *below]

    def _send(self, message: dict, deadline: float) -> None:
        if self._pipes is None:
            raise BotFault("crash", {"detail": "the bot is not running"})
        data = (json.dumps(message, separators=(",", ":"), ensure_ascii=False) + "\n").encode()
        self._pipes.write(data, deadline)

    def _check_unsolicited(self) -> None:
        """Anything on stdout before we ask is a protocol fault (or too much of it, a flood)."""
        pending = self._pipes.unsolicited(self.limits.message_bytes)
        if self._pipes.stdout_eof and not pending:
            raise BotFault("crash", {"detail": "the bot exited before it was asked to act"})
        if len(pending) > self.limits.message_bytes:
            raise BotFault("output_limit", {"detail": "the bot flooded its output unasked",
                                            "sent": _sent(pending)})
        if pending and not self._answered:
            raise BotFault("garbage", {
                "detail": "the bot wrote output nobody asked for: output at start-up, before the first act, "
                          "is not an answer (stdout carries only answers; write logs to stderr)",
                "sent": _sent(pending)})
        if pending:
            raise BotFault("garbage", {"detail": "the bot wrote output nobody asked for, between two acts: "
                                                 "stdout carries only answers; write logs to stderr",
                                       "sent": _sent(pending)})

    # starting ---------------------------------------------------------------------------------

    def _launch(self) -> None:
        """Start a process and greet it (after a restart the hello says how many)."""
        self._start()
        hello = dict(self._hello, restarts=self.restarts) if self.restarts else self._hello
        self._send(hello, time.monotonic() + self.limits.startup_ms / 1000)

    def _restart(self) -> None:
        """A fresh process after a fault (the old one was killed with its whole tree)."""
        self._discard_process()
        self._fault = None
        self.restarts += 1
        self._launch()

    def _start(self) -> None:
        """Lease a uid (once) and spawn the process; spawn errors are a crash at start."""
        if not self._leased:
            self._lease.__enter__()
            self._leased = True
            self.uid = self._lease.uid if self.mode else None
        argv, kwargs = self._command()
        try:
            self._proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                          **kwargs)
        except OSError as exc:
            raise BotFault("crash", {"detail": f"the bot could not be started: {exc}"}) from None
        finally:
            for fd in kwargs.get("pass_fds", ()):
                os.close(fd)
        self._clock.started(time.monotonic())
        self._pipes = _Pipes(self._proc)
        self._answered = 0

    def _command(self) -> tuple[list[str], dict]:
        if self.mode is None:
            return self._unsandboxed_command()
        info_read, info_write = os.pipe()
        self._info_fd = info_read
        os.set_blocking(info_read, False)
        seccomp = _seccomp_fd()
        argv = _bwrap_argv(self.mode, self._launch_spec(sandboxed=True), self.code, self.uid, self.limits,
                           info_write, seccomp)
        argv, kwargs = _spawn(argv, self.mode, self.uid, self.limits, self._lease.nproc_base,
                              self.runtime.address_space_mb)
        kwargs["pass_fds"] = (info_write,) if seccomp is None else (info_write, seccomp)
        return argv, kwargs

    def _unsandboxed_command(self) -> tuple[list[str], dict]:
        """Development only: the bot runs as we do, in its code directory, with a private TMPDIR
        and an environment marker by which close() finds its processes."""
        self._tmp = self._tmp or tempfile.mkdtemp(prefix="arena-bot-")
        launch = self._launch_spec(sandboxed=False)
        argv, kwargs = _with_rlimits(launch.argv, _rlimits(self.limits, None, self.runtime.address_space_mb))
        kwargs.update(cwd=self.code.parent if self.code.is_file() else self.code,
                      env=_bot_env(self._tmp, self.marker, env=launch.env),
                      start_new_session=True,
                      stdin=subprocess.PIPE)
        return argv, kwargs

    # faults and the end -----------------------------------------------------------------------

    def _fail(self, fault: BotFault, elapsed: float) -> BotFault:
        """Complete the evidence, kill the process tree, remember the fault; returns it."""
        exit_code = self._exit_code(wait=0.5 if fault.reason == "crash" else 0.0)
        self._kill_all()
        if self._pipes is not None:
            self._pipes.drain_stderr(0.2)
        fault.evidence = {"sent": "", **fault.evidence, "elapsed_ms": int(elapsed * 1000),
                          "exit_code": exit_code,
                          "stderr": self._pipes.stderr_text(STDERR_CHARS) if self._pipes else ""}
        self._fault = fault
        return fault

    def _exit_code(self, wait: float) -> int | None:
        """The bot's exit status (128 + signal for a signal, as a shell says), if it ended."""
        if self._proc is None:
            return None
        try:
            code = self._proc.wait(timeout=wait) if wait else self._proc.poll()
        except subprocess.TimeoutExpired:
            return None
        return 128 - code if code is not None and code < 0 else code

    def _discard_process(self) -> None:
        """Close our ends of a process that is gone (its stderr tail stays readable)."""
        if self._proc is not None:
            for stream in (self._proc.stdin, self._proc.stdout, self._proc.stderr):
                try:
                    stream.close()
                except OSError:
                    pass
        if self._info_fd is not None:
            os.close(self._info_fd)
            self._info_fd = None

    def _kill_all(self) -> None:
        """SIGKILL the sandbox's pid-namespace init (the kernel then kills everything inside) and
        the process group of bwrap; then every process left with the bot's uid or marker."""
        proc = self._proc
        if proc is None:
            return
        self._kill_namespace_init()
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        self._sweep()

    def _kill_namespace_init(self) -> None:
        """bwrap tells its child's pid on --info-fd; a pidfd pins that process before we check it
        is still bwrap's child, so a recycled pid is never signalled."""
        child = _read_info(self._info_fd)
        if child is None:
            return
        try:
            pidfd = os.pidfd_open(child)
        except OSError:
            return
        try:
            if _ppid(child) == self._proc.pid:
                signal.pidfd_send_signal(pidfd, signal.SIGKILL)
        except OSError:
            pass
        finally:
            os.close(pidfd)

    def _sweep(self) -> None:
        """Belt and braces after the namespace is gone: kill whatever still runs as the bot's
        leased uid (sandbox) or carries its environment marker (development runner)."""
        if self.mode is not None and (os.geteuid() != 0 or self.uid is None):
            return  # the bot runs as the caller: the pid namespace is the boundary
        for _ in range(50):
            if self.mode is not None:
                pids = processes_of_uid(self.uid)
            else:
                pids = [pid for pid in _pids() if _has_marker(pid, self.marker.encode())]
            if not pids:
                return
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            time.sleep(0.02)


def _signal(pid: int, number: int) -> None:
    try:
        os.kill(pid, number)
    except (ProcessLookupError, PermissionError):
        pass


def _read_info(fd: int | None) -> int | None:
    """The ``child-pid`` from bwrap's --info-fd, if it has been written."""
    if fd is None:
        return None
    try:
        data = os.read(fd, 4096)
    except OSError:
        return None
    try:
        return int(json.loads(data.decode())["child-pid"])
    except (ValueError, KeyError, TypeError):
        return None
