"""The sandboxed runner of uploaded bots: one subprocess per bot and match, speaking the bot
protocol (docs/protocol.md, JSON Lines over stdin/stdout) under bubblewrap.

Plain Python, no Django: the match driver, ``manage.py botcheck`` and the tests use it alike.
``SandboxedBot`` has the interface of ``games.engine.bots.Bot`` so ``MatchRunner`` drives it as it
drives a built-in bot; whatever the bot does wrong becomes a ``BotFault`` the driver records as a
forfeit, and the match goes on.

What contains a bot, and why each piece is there:

* **namespaces** (bwrap): a private network namespace (only a loopback of its own: no network),
  a private pid namespace (the bot sees only its own processes, and killing the namespace's init
  kills every process in it, daemons and double forks included), private IPC and UTS.
* **filesystem**: a fresh root with /usr (and the /lib, /bin links), the Python installation and
  the bot's code at /bot, all read-only; a size-limited private tmpfs at /tmp; no /etc, no /home,
  no /work, so another bot's files and the service's settings do not exist in there.
* **an unprivileged uid of its own** (leased per bot from a range no account uses): rlimits on
  processes count per uid, and a fork bomb is contained only if the bot's uid is not root's and
  is shared with nobody. The same uid lets ``close()`` find every process of the bot.
* **rlimits**: address space (memory), CPU seconds, processes, file size, no core files, open
  files; set by util-linux ``prlimit`` in front of bwrap.
* **seccomp** (a small BPF filter): no new user namespaces, in which a bot could mount a tmpfs
  that no rlimit counts.
* **the protocol layer** (here): a per-move clock with a time bank, a byte limit per message,
  no unsolicited output, and a bounded stderr buffer that the bot cannot block on while it is
  being asked.

Two ways to get an unprivileged uid, chosen once per process by ``sandbox_check()``:

* ``setpriv``: bwrap runs as root (it needs CAP_SYS_ADMIN, as on a plain Debian host) and the
  bot is started through ``setpriv`` (util-linux) as the leased uid with no capabilities and
  no_new_privs. Root-owned paths such as /root/.pyenv can be bound.
* ``userns``: bwrap itself runs as the leased uid (or as the caller when it is not root) and uses an
  unprivileged user namespace (Docker workers with the compose file's security options). Every
  bound path must then be traversable by that uid.

``sandbox=False`` is the local-development runner: no namespaces, same rlimits (except processes:
they would count the developer's own processes), clock and output limits; ``close()`` kills the
process group and every process that still carries the bot's private environment marker.
"""
from __future__ import annotations

import errno
import fcntl
import json
import os
import platform
import random
import resource
import selectors
import shutil
import signal
import stat
import struct
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import asdict, dataclass
from pathlib import Path

ENTRY = "main.py"  # an upload is a directory with main.py at its root (or a single .py file)

# Overridable for tests and unusual hosts (documented in docs/protocol.md, "Running the sandbox").
BWRAP = os.environ.get("ARENA_BWRAP") or shutil.which("bwrap")
SETPRIV = shutil.which("setpriv") or "/usr/bin/setpriv"
PRLIMIT = shutil.which("prlimit")
# The base interpreter, not a venv's: a venv may hold a copy of the binary inside the project
# directory, which the bot's uid cannot (and should not) read. Bots use the standard library only.
BOT_PYTHON = os.environ.get("ARENA_BOT_PYTHON") or getattr(sys, "_base_executable", "") or sys.executable
UID_BASE = int(os.environ.get("ARENA_SANDBOX_UID_BASE", "1500000000"))
UID_COUNT = 65536
LEASE_DIR = Path(os.environ.get("ARENA_SANDBOX_LEASE_DIR")
                 or Path(tempfile.gettempdir()) / "arena-sandbox-uids")
MODES = ("setpriv", "userns")

SENT_CHARS, STDERR_CHARS, STDERR_KEEP = 500, 1000, 16_384
FAULT_REASONS = ("timeout", "crash", "garbage", "output_limit")
INSTALL_HINT = "install it with `apt-get install bubblewrap` (Debian/Ubuntu)"


class BotFault(Exception):
    """The bot broke the protocol or a limit. ``reason`` is a forfeit reason of the event log;
    ``evidence`` is JSON-able (sent, elapsed_ms, exit_code, stderr, detail) and goes into the
    forfeit event as it is."""

    def __init__(self, reason: str, evidence: dict | None = None):
        if reason not in FAULT_REASONS:
            raise ValueError(f"a bot fault is one of {FAULT_REASONS}, not {reason!r}")
        self.reason = reason
        self.evidence = dict(evidence or {})
        super().__init__(f"{reason}: {self.evidence.get('detail', '')}".rstrip(": "))


class SandboxUnavailable(Exception):
    """The sandbox cannot run here; the message says why and what to do. Uploaded bots are
    refused rather than run without it."""


@dataclass(frozen=True)
class TimeControl:
    """Each move may use ``move_ms`` for free; beyond that it draws on the bank, which
    ``increment_ms`` refills after every answered move. An empty bank is a timeout."""

    move_ms: int = 1000
    bank_ms: int = 10000
    increment_ms: int = 0

    def to_json(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class Limits:
    """Per bot process tree. ``processes`` counts the bot's processes and threads;
    ``message_bytes`` is the longest answer line (newline included); ``startup_ms`` is extra
    time for the first answer, counted from the start of the process."""

    memory_mb: int = 256
    cpu_seconds: int = 30
    processes: int = 16
    file_size_mb: int = 4
    message_bytes: int = 256_000
    startup_ms: int = 5000

    def to_json(self) -> dict:
        return asdict(self)

    @property
    def tmp_bytes(self) -> int:
        """The private /tmp holds a few files of the largest size (tmpfs is memory)."""
        return 4 * self.file_size_mb << 20


# -- where the bot's Python lives ------------------------------------------------------------

@dataclass(frozen=True)
class Runtime:
    """The real interpreter (a venv's python is a symlink) and its installation prefix: bound
    read-only at the same paths, because the interpreter finds libpython by absolute RUNPATH."""

    interpreter: str
    prefix: str

    @classmethod
    def current(cls) -> "Runtime":
        interpreter = os.path.realpath(BOT_PYTHON)
        prefix = Path(interpreter).parent.parent
        if not (prefix / "lib").is_dir():
            prefix = Path(os.path.realpath(sys.base_prefix))
        return cls(interpreter, str(prefix))

    def argv(self, entry: str) -> list[str]:
        """-S: no site-packages (stdlib only); -B: no bytecode writes; -u: unbuffered stdout, so a
        bot that forgets to flush still answers."""
        return [self.interpreter, "-B", "-S", "-u", entry]


# -- is the sandbox usable here -----------------------------------------------------------------

_CHECKED: dict[tuple, tuple[str | None, str]] = {}


def sandbox_check() -> None:
    """Raise SandboxUnavailable with the reason unless bwrap can sandbox a bot here."""
    sandbox_mode()


def sandbox_mode() -> str:
    """The way this host gives a bot its own uid (see the module docstring), probed once per
    bwrap path by starting the bot's Python in a real sandbox; raises SandboxUnavailable."""
    key = (BWRAP, BOT_PYTHON, os.geteuid(), MODES)
    if key not in _CHECKED:
        _CHECKED[key] = _probe_modes()
    mode, reason = _CHECKED[key]
    if mode is None:
        raise SandboxUnavailable(reason)
    return mode


def _probe_modes() -> tuple[str | None, str]:
    if not BWRAP or not os.access(BWRAP, os.X_OK):
        where = f" at {BWRAP}" if BWRAP else " on PATH"
        return None, (f"bubblewrap (bwrap) is not installed{where}: uploaded bots cannot be "
                      f"sandboxed and are refused; {INSTALL_HINT}")
    candidates = MODES if os.geteuid() == 0 else ("userns",)
    failures = []
    for mode in candidates:
        if mode == "setpriv" and not os.access(SETPRIV, os.X_OK):
            failures.append(f"setpriv: {SETPRIV} not found (apt-get install util-linux)")
            continue
        error = _probe(mode)
        if error is None:
            return mode, ""
        failures.append(f"{mode}: {error}")
    return None, ("bwrap cannot create the bot sandbox here (no namespaces?): "
                  + "; ".join(failures) + ". On a host, bwrap must run as root or unprivileged "
                  "user namespaces must be enabled (sysctl kernel.unprivileged_userns_clone=1); "
                  "in Docker, run the worker with security_opt seccomp=unconfined and "
                  "apparmor=unconfined. Uploaded bots are refused.")


def _probe(mode: str) -> str | None:
    """Start the bot's Python in the sandbox and have it print a word; None if that worked."""
    runtime = Runtime.current()
    with _UidLease(mode) as lease:
        seccomp = _seccomp_fd()
        argv = _bwrap_argv(mode, runtime, None, lease.uid, Limits(), None, seccomp)
        argv[argv.index(ENTRY)] = "-c"
        argv.append("print('ok')")
        argv, kwargs = _spawn(argv, mode, lease.uid, Limits(), lease.nproc_base)
        try:
            done = subprocess.run(argv, capture_output=True, timeout=20,
                                  pass_fds=() if seccomp is None else (seccomp,), **kwargs)
        except (OSError, subprocess.SubprocessError) as exc:
            return str(exc)
        finally:
            if seccomp is not None:
                os.close(seccomp)
    if done.returncode == 0 and done.stdout.strip() == b"ok":
        return None
    return (done.stderr.decode(errors="replace").strip()[-500:]
            or f"exit code {done.returncode}")


# -- the command line ---------------------------------------------------------------------------

def _bwrap_argv(mode: str, runtime: Runtime, code: Path | None, uid: int, limits: Limits,
                info_fd: int | None, seccomp_fd: int | None) -> list[str]:
    """bwrap with its namespaces, mounts and environment, then the bot's command."""
    argv = [BWRAP, "--die-with-parent", "--new-session"]
    if mode == "setpriv":
        # No user namespace: bwrap runs as root and setpriv drops to the bot's uid.
        argv += ["--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts",
                 "--unshare-cgroup-try", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    else:
        # A user namespace owned by the bot's uid; the bot may not nest another one.
        argv += ["--unshare-all", "--unshare-user", "--disable-userns"]
    if info_fd is not None:
        argv += ["--info-fd", str(info_fd)]
    if seccomp_fd is not None:
        argv += ["--seccomp", str(seccomp_fd)]
    argv += _mounts(runtime, code, limits)
    argv += ["--chdir", "/bot", "--clearenv"]
    for name, value in _bot_env("/tmp").items():
        argv += ["--setenv", name, value]
    argv.append("--")
    if mode == "setpriv":
        argv += [SETPRIV, f"--reuid={uid}", f"--regid={uid}", "--clear-groups",
                 "--no-new-privs", "--inh-caps=-all", "--bounding-set=-all", "--"]
    return argv + runtime.argv(ENTRY)


# A classic-BPF seccomp filter (bwrap --seccomp) that refuses new user namespaces: in one, a bot
# would own a mount namespace and could mount a tmpfs whose memory no rlimit counts. clone3
# passes its flags in memory a filter cannot read, so it answers ENOSYS and the C library falls
# back to clone. Syscalls of another ABI (i386, x32) are refused outright.
_SECCOMP_ARCH = {  # machine: (AUDIT_ARCH, clone, unshare, clone3, x32 bit)
    "x86_64": (0xC000003E, 56, 272, 435, 0x40000000),
    "aarch64": (0xC00000B7, 220, 97, 435, None),
}
_CLONE_NEWUSER = 0x10000000


def _seccomp_program() -> bytes | None:
    """The filter for this machine, as struct sock_filter[]; None where we have no table."""
    spec = _SECCOMP_ARCH.get(platform.machine())
    if spec is None:
        return None
    arch, clone, unshare, clone3, x32 = spec
    ld, jeq, jge, jset, ret = 0x20, 0x15, 0x35, 0x45, 0x06
    allow, eperm, enosys = 0x7FFF0000, 0x00050000 | errno.EPERM, 0x00050000 | errno.ENOSYS
    # (code, jump if true, jump if false, k); jumps are counted in instructions from the next
    prog = [(ld, 0, 0, 4), (jeq, 1, 0, arch), (ret, 0, 0, enosys), (ld, 0, 0, 0),
            (jge, 0, 1, x32 if x32 else 0xFFFFFFFF), (ret, 0, 0, enosys),
            (jeq, 0, 1, clone3), (ret, 0, 0, enosys),
            (jeq, 1, 0, clone), (jeq, 0, 3, unshare),
            (ld, 0, 0, 16), (jset, 0, 1, _CLONE_NEWUSER), (ret, 0, 0, eperm),
            (ret, 0, 0, allow)]
    return b"".join(struct.pack("=HBBI", *op) for op in prog)


def _seccomp_fd() -> int | None:
    """A memfd holding the filter, for bwrap to read (None: no filter on this machine)."""
    program = _seccomp_program()
    if program is None:
        return None
    fd = os.memfd_create("arena-seccomp", os.MFD_CLOEXEC)
    os.write(fd, program)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


def _mounts(runtime: Runtime, code: Path | None, limits: Limits) -> list[str]:
    """A read-only system (/usr and its merged-/usr links), the Python prefix, the code at /bot,
    a private size-limited /tmp; /etc and everything else of the host stay out of sight. /dev
    is read-only too: in a user namespace its tmpfs belongs to the bot, and has no size limit."""
    args = ["--ro-bind", "/usr", "/usr", "--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache"]
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        if os.path.islink(top):
            args += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            args += ["--ro-bind", top, top]
    for path in _runtime_binds(runtime):
        args += _bind_with_parents(path)
    if code is None:
        args += ["--dir", "/bot"]
    elif code.is_file():
        args += ["--dir", "/bot", "--ro-bind", str(code), f"/bot/{ENTRY}"]
    else:
        args += ["--ro-bind", str(code), "/bot"]
    return args + ["--perms", "1777", "--size", str(limits.tmp_bytes), "--tmpfs", "/tmp",
                   "--proc", "/proc", "--dev", "/dev", "--remount-ro", "/dev", "--remount-ro", "/"]


def _runtime_binds(runtime: Runtime) -> list[str]:
    """The Python prefix unless /usr has it already; the interpreter too if it lives elsewhere
    (a venv made with --copies)."""
    binds = [] if _under(runtime.prefix, ("/usr",)) else [runtime.prefix]
    if not _under(runtime.interpreter, ("/usr", runtime.prefix)):
        binds.append(runtime.interpreter)
    return binds


def _bind_with_parents(path: str) -> list[str]:
    """bwrap creates missing parents with the host's modes (/root is 0700): make them 0755 so
    the bot's uid can reach the bound path."""
    args = []
    parents = list(Path(path).parents)[::-1][1:]  # without "/"
    for parent in parents:
        args += ["--perms", "0755", "--dir", str(parent)]
    return args + ["--ro-bind", path, path]


def _under(path: str, roots: tuple[str, ...]) -> bool:
    return any(path == root or path.startswith(root.rstrip("/") + "/") for root in roots)


def _bot_env(tmp: str, marker: str | None = None) -> dict[str, str]:
    env = {"PATH": "/usr/bin:/bin", "HOME": tmp, "TMPDIR": tmp, "LANG": "C.UTF-8",
           "PYTHONDONTWRITEBYTECODE": "1", "PYTHONUNBUFFERED": "1"}
    if marker:
        env["ARENA_BOT_MARKER"] = marker
    return env


def _rlimits(limits: Limits, nproc: int | None) -> dict[str, tuple[int, int, int]]:
    """{prlimit name: (resource, soft, hard)}, clipped to our own hard limits (which nobody
    unprivileged may raise). RLIMIT_CPU's hard limit is a second above the soft one: the kernel
    sends SIGXCPU, then SIGKILL."""
    mb = 1 << 20
    wanted = {"as": (resource.RLIMIT_AS, limits.memory_mb * mb, limits.memory_mb * mb),
              "cpu": (resource.RLIMIT_CPU, limits.cpu_seconds, limits.cpu_seconds + 1),
              "fsize": (resource.RLIMIT_FSIZE, limits.file_size_mb * mb, limits.file_size_mb * mb),
              "core": (resource.RLIMIT_CORE, 0, 0), "nofile": (resource.RLIMIT_NOFILE, 256, 256)}
    if nproc is not None:
        wanted["nproc"] = (resource.RLIMIT_NPROC, nproc, nproc)
    clipped = {}
    for name, (which, soft, hard) in wanted.items():
        ceiling = resource.getrlimit(which)[1]
        if ceiling != resource.RLIM_INFINITY:
            soft, hard = min(soft, ceiling), min(hard, ceiling)
        clipped[name] = (which, soft, hard)
    return clipped


def _with_rlimits(argv: list[str], limits: dict[str, tuple[int, int, int]]) -> tuple[list[str], dict]:
    """Apply the limits through util-linux ``prlimit`` (it sets them on itself and execs the
    command), not a preexec_fn, which is unsafe when the referee starts bots from threads. The
    preexec_fn remains as a fallback where prlimit is missing."""
    if PRLIMIT:
        options = [f"--{name}={soft}:{hard}" for name, (_, soft, hard) in limits.items()]
        return [PRLIMIT, *options, "--", *argv], {}
    return argv, {"preexec_fn": lambda: [resource.setrlimit(which, (soft, hard))
                                         for which, soft, hard in limits.values()]}


def _spawn(argv: list[str], mode: str, uid: int, limits: Limits,
           nproc_base: int) -> tuple[list[str], dict]:
    """The command and Popen arguments for bwrap: its own session (one killpg reaches it), the
    rlimits, and in ``userns`` mode as root, bwrap itself started as the leased uid."""
    argv, kwargs = _with_rlimits(argv, _rlimits(limits, nproc_base + limits.processes))
    kwargs.update(start_new_session=True, stdin=subprocess.PIPE, env={"PATH": "/usr/bin:/bin"})
    if mode == "userns" and os.geteuid() == 0:
        kwargs.update(user=uid, group=uid, extra_groups=[])
    return argv, kwargs


def _check_reachable(code: Path, *, parents: bool) -> None:
    """The bot runs as a uid of its own, so its code must be readable by others (and, where bwrap
    itself runs as that uid, reachable through its parents). A host that stores code privately
    is misconfigured: that is SandboxUnavailable, never a crash blamed on the bot."""
    entry = code if code.is_file() else code / ENTRY
    wanted = [(entry, stat.S_IROTH)]
    if not code.is_file():
        wanted.append((code, stat.S_IROTH | stat.S_IXOTH))
    if parents:
        wanted += [(parent, stat.S_IXOTH) for parent in code.parents]
    for path, bits in wanted:
        if os.stat(path).st_mode & bits != bits:
            raise SandboxUnavailable(
                f"{path} (mode {stat.S_IMODE(os.stat(path).st_mode):o}) is out of reach of the "
                f"bot's unprivileged uid: store bot code world-readable (files 0644, directories "
                f"0755, and directories above them searchable)")


# -- one uid per running bot -------------------------------------------------------------------

class _UidLease:
    """An exclusive uid from [UID_BASE, UID_BASE + UID_COUNT), held by an flock on a file in
    LEASE_DIR while the bot runs, so concurrent bots (any worker on this host) never share a
    process count. Not root: the caller's own uid, and the process limit is set above the
    processes it already has (``nproc_base``)."""

    def __init__(self, mode: str | None):
        self.mode, self.uid, self.nproc_base, self._fd = mode, os.getuid(), 0, None

    def __enter__(self) -> "_UidLease":
        if self.mode is None:
            return self
        if os.geteuid() != 0:
            self.nproc_base = _tasks_of_uid(self.uid) + 2  # bwrap's two processes are ours too
            return self
        self.nproc_base = 2 if self.mode == "userns" else 0  # setpriv: bwrap runs as root
        LEASE_DIR.mkdir(mode=0o700, parents=True, exist_ok=True)
        for _ in range(200):
            uid = UID_BASE + random.randrange(UID_COUNT)
            fd = os.open(LEASE_DIR / f"{uid}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            self.uid, self._fd = uid, fd
            return self
        raise SandboxUnavailable(f"no free sandbox uid in {LEASE_DIR}")

    def __exit__(self, *exc) -> None:
        self.release()

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _tasks_of_uid(uid: int) -> int:
    """Tasks (threads count for RLIMIT_NPROC) whose real uid is ``uid``."""
    return sum(len(os.listdir(f"/proc/{pid}/task")) for pid in _pids() if _real_uid(pid) == uid)


def _pids() -> list[int]:
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def _real_uid(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status", "rb") as fh:
            for line in fh:
                if line.startswith(b"Uid:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return None


def processes_of_uid(uid: int) -> list[int]:
    """Live (non-zombie) processes whose real uid is ``uid``."""
    found = []
    for pid in _pids():
        if _real_uid(pid) == uid and _state(pid) not in ("Z", "X", None):
            found.append(pid)
    return found


def _state(pid: int) -> str | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().rsplit(b")", 1)[1].split()[0].decode()
    except (OSError, IndexError):
        return None


def _ppid(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return int(fh.read().rsplit(b")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def _has_marker(pid: int, marker: bytes) -> bool:
    try:
        with open(f"/proc/{pid}/environ", "rb") as fh:
            return marker in fh.read()
    except OSError:
        return False


# -- the pipes ---------------------------------------------------------------------------------

class _Pipes:
    """Non-blocking stdin/stdout/stderr of the bot with deadlines. stdout is read only when an
    answer is due; stderr is drained into a bounded tail whenever we wait on the bot."""

    def __init__(self, proc: subprocess.Popen):
        self.proc = proc
        self.out = bytearray()
        self.err = bytearray()
        self.stdout_eof = self.stderr_eof = False
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            os.set_blocking(stream.fileno(), False)

    def write(self, data: bytes, deadline: float) -> None:
        """All of ``data`` to the bot's stdin before ``deadline``."""
        view = memoryview(data)
        fd = self.proc.stdin.fileno()
        while view:
            try:
                view = view[os.write(fd, view):]
                continue
            except BlockingIOError:
                pass
            except (BrokenPipeError, ValueError):
                raise BotFault("crash", {"detail": "the bot closed its input (exited?)"})
            if not self._wait(deadline, write=True):
                raise BotFault("timeout", {"detail": "the bot did not read its input in time"})

    def read_line(self, deadline: float, max_bytes: int) -> bytes:
        """One line (without its newline) before ``deadline``, at most ``max_bytes`` long."""
        while True:
            end = self.out.find(b"\n")
            if end >= 0:
                line = bytes(self.out[:end])
                del self.out[:end + 1]
                if end + 1 > max_bytes:
                    raise self._too_long(max_bytes, line)
                return line
            if len(self.out) >= max_bytes:
                raise self._too_long(max_bytes, bytes(self.out))
            if self.stdout_eof:
                raise BotFault("crash", {"detail": "the bot's output ended (it exited)"})
            if not self._wait(deadline):
                raise BotFault("timeout", {"detail": "no answer before the clock ran out"})

    @staticmethod
    def _too_long(max_bytes: int, data: bytes) -> BotFault:
        return BotFault("output_limit", {"detail": f"an answer line is longer than {max_bytes} bytes",
                                         "sent": _sent(data)})

    def unsolicited(self, max_bytes: int) -> bytes:
        """What the bot wrote when nobody asked (up to ``max_bytes`` + 1), without waiting."""
        self._wait(time.monotonic(), idle_stdout=False)
        while len(self.out) <= max_bytes and self._read(self.proc.stdout, self.out):
            pass
        return bytes(self.out)

    def _wait(self, deadline: float, write: bool = False, idle_stdout: bool = True) -> bool:
        """Wait for progress until ``deadline``, draining stderr meanwhile; False on timeout."""
        with selectors.DefaultSelector() as sel:
            if write:
                sel.register(self.proc.stdin, selectors.EVENT_WRITE)
            elif idle_stdout and not self.stdout_eof:
                sel.register(self.proc.stdout, selectors.EVENT_READ)
            if not self.stderr_eof:
                sel.register(self.proc.stderr, selectors.EVENT_READ)
            ready = sel.select(max(0.0, deadline - time.monotonic()))
        progress = False
        for key, _ in ready:
            if key.fileobj is self.proc.stderr:
                self._read(self.proc.stderr, self.err)
                del self.err[:-STDERR_KEEP]
            else:  # stdin writable, or stdout data or EOF: the caller's loop looks again
                progress = True
                if key.fileobj is self.proc.stdout:
                    self._read(self.proc.stdout, self.out)
        return progress or time.monotonic() < deadline

    def _read(self, stream, buffer: bytearray) -> bool:
        """Append what is there; True if something came. Sets the EOF flags."""
        try:
            chunk = os.read(stream.fileno(), 65536)
        except BlockingIOError:
            return False
        except (OSError, ValueError):
            chunk = b""
        if not chunk:
            if stream is self.proc.stdout:
                self.stdout_eof = True
            else:
                self.stderr_eof = True
            return False
        buffer += chunk
        return True

    def drain_stderr(self, seconds: float) -> None:
        """Collect stderr until EOF or ``seconds`` pass (after the bot exited or was killed)."""
        deadline = time.monotonic() + seconds
        while not self.stderr_eof and time.monotonic() < deadline:
            self._wait(deadline, idle_stdout=False)

    def stderr_text(self, chars: int = STDERR_KEEP) -> str:
        return _text(bytes(self.err))[-chars:]


def _text(data: bytes) -> str:
    """Bot bytes as JSON-safe text for evidence (invalid UTF-8 replaced)."""
    return data.decode("utf-8", errors="replace")


def _sent(data: bytes) -> str:
    """The evidence of what the bot wrote: its first SENT_CHARS characters."""
    return _text(data[:SENT_CHARS * 4])[:SENT_CHARS]


def _decode_answer(line: bytes):
    """The action in an answer line ``{"action": ...}``; garbage raises BotFault."""
    def refuse(detail: str) -> BotFault:
        return BotFault("garbage", {"detail": detail, "sent": _sent(line)})

    try:
        answer = json.loads(line.decode("utf-8"), parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:  # UnicodeDecodeError and JSONDecodeError too
        raise refuse(f"the answer is not a JSON line: {str(exc)[:200]}") from None
    if not isinstance(answer, dict) or "action" not in answer:
        raise refuse('the answer must be a JSON object {"action": ...}')
    return answer["action"]


def _no_constant(name: str):
    raise ValueError(f"{name} is not JSON (the event log refuses it)")


# -- the clock ---------------------------------------------------------------------------------

class _Clock:
    """Move time and bank. The first answer of each process also gets what is left of
    ``startup_ms`` since the process started, uncharged."""

    def __init__(self, tc: TimeControl, startup_ms: int):
        self.tc, self.bank_ms, self.startup_ms = tc, tc.bank_ms, startup_ms
        self.started_at: float | None = None
        self.first = True

    def started(self, now: float) -> None:
        self.started_at, self.first = now, True

    def window(self, now: float) -> tuple[float, float]:
        """(grace seconds, total seconds) the bot has for the answer it is asked for now."""
        grace = 0.0
        if self.first and self.started_at is not None:
            grace = max(0.0, self.started_at + self.startup_ms / 1000 - now)
        self.first = False
        return grace, grace + (self.tc.move_ms + self.bank_ms) / 1000

    def charge(self, elapsed: float, grace: float) -> int:
        """Debit the bank for an answered move; the bank after it."""
        over = int((elapsed - grace) * 1000) - self.tc.move_ms
        self.bank_ms = max(0, self.bank_ms - max(0, over)) + self.tc.increment_ms
        return self.bank_ms


# -- the bot -----------------------------------------------------------------------------------

class SandboxedBot:
    """An uploaded bot in its sandbox; the interface of games.engine.bots.Bot.

    The process starts at ``hello``. Every fault kills it (the evidence is in the BotFault); if
    the driver's fault policy asks the seat again, ``act`` starts a fresh process and greets it
    with the same hello plus ``"restarts": n`` first, so a late answer or a half-written flood of
    the old process can never be read as a new answer. ``result`` and ``close`` end it for good.
    """

    name = "sandboxed"

    @property
    def bank_ms(self) -> int:
        """What is left of the time bank."""
        return self._clock.bank_ms

    def __init__(self, code_dir: Path, *, time_control: TimeControl = TimeControl(),
                 limits: Limits = Limits(), sandbox: bool = True, bank_ms: int | None = None):
        """``bank_ms``: what is left of the bank when a match resumes (the driver reads it from
        the log's last clock of this seat); a fresh match starts with the full bank."""
        self.code = Path(code_dir).resolve()
        if not (self.code.is_file() or (self.code / ENTRY).is_file()):
            raise FileNotFoundError(f"{self.code}: a bot is a .py file or a directory with {ENTRY}")
        self.time_control, self.limits = time_control, limits
        self.mode = sandbox_mode() if sandbox else None  # refuses here: SandboxUnavailable
        if self.mode is not None and os.geteuid() == 0:
            _check_reachable(self.code, parents=self.mode == "userns")
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
        self._fault: BotFault | None = None  # the last fault: no process runs until a restart
        self._pending: BotFault | None = None  # a fault at start, raised at the first act
        self._closed = False

    # the Bot interface ------------------------------------------------------------------------

    def hello(self, message: dict) -> None:
        """Start the process and send the hello; a failure here is raised at the first act."""
        self.seat = message.get("seat")
        self._hello = dict(message, time_control=self.time_control.to_json(),
                           limits=self.limits.to_json())
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
            return self._ask(message, start)
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
        self._send(dict(message, clock={"move_ms": self.time_control.move_ms,
                                        "bank_ms": self._clock.bank_ms}), deadline)
        action = _decode_answer(self._pipes.read_line(deadline, self.limits.message_bytes))
        elapsed = time.monotonic() - start
        bank = self._clock.charge(elapsed, grace)
        self.last_clock = {"elapsed_ms": int(elapsed * 1000), "bank_ms": bank}
        return action

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
        if pending:
            raise BotFault("garbage", {"detail": "the bot wrote output nobody asked for",
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

    def _command(self) -> tuple[list[str], dict]:
        runtime = Runtime.current()
        if self.mode is None:
            return self._unsandboxed_command(runtime)
        info_read, info_write = os.pipe()
        self._info_fd = info_read
        os.set_blocking(info_read, False)
        seccomp = _seccomp_fd()
        argv = _bwrap_argv(self.mode, runtime, self.code, self.uid, self.limits, info_write, seccomp)
        argv, kwargs = _spawn(argv, self.mode, self.uid, self.limits, self._lease.nproc_base)
        kwargs["pass_fds"] = (info_write,) if seccomp is None else (info_write, seccomp)
        return argv, kwargs

    def _unsandboxed_command(self, runtime: Runtime) -> tuple[list[str], dict]:
        """Development only: the bot runs as we do, in its code directory, with a private TMPDIR
        and an environment marker by which close() finds its processes."""
        self._tmp = self._tmp or tempfile.mkdtemp(prefix="arena-bot-")
        entry = str(self.code) if self.code.is_file() else ENTRY
        argv, kwargs = _with_rlimits(runtime.argv(entry), _rlimits(self.limits, None))
        kwargs.update(cwd=self.code.parent if self.code.is_file() else self.code,
                      env=_bot_env(self._tmp, self.marker), start_new_session=True,
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
