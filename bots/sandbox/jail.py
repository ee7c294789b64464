"""The jail: which way this host gives a bot a uid of its own (probed once), and the command
that starts a bot in it: bwrap's namespaces and mounts, the seccomp filter, the rlimits."""
from __future__ import annotations

import errno
import os
import platform
import resource
import shutil
import stat
import struct
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from . import runtimes
from .config import ENTRY, Limits
from .errors import SandboxUnavailable
from .processes import _UidLease

# Overridable for tests and unusual hosts (documented in docs/protocol.md, "Running the sandbox").
BWRAP = os.environ.get("ARENA_BWRAP") or shutil.which("bwrap")
SETPRIV = shutil.which("setpriv") or "/usr/bin/setpriv"
PRLIMIT = shutil.which("prlimit")
# The base interpreter, not a venv's: a venv may hold a copy of the binary inside the project
# directory, which the bot's uid cannot (and should not) read. Bots use the standard library and
# the rules (LIBRARY below), nothing else of the host.
BOT_PYTHON = os.environ.get("ARENA_BOT_PYTHON") or getattr(sys, "_base_executable", "") or sys.executable
MODES = ("setpriv", "userns")
# The rules as a library (docs/protocol.md, "The rules as a library"): the server's own `games`
# package, bound read-only at LIBRARY/games and on the bot's PYTHONPATH, so a bot imports the
# very engines its match runs on. Plain Python without Django or third-party packages.
LIBRARY = "/opt/arena/lib"


def library_source() -> Path:
    """The directory of the `games` package this server runs."""
    import games

    return Path(games.__file__).resolve().parent


_STAGED: dict[Path, Path] = {}


def library_for_bots() -> Path:
    """The `games` package as the bot's uid can read it: the server's own directory where every
    file is world-readable and every directory above it searchable (a deployment), else a copy
    staged once per process in a fresh directory of the temporary directory, 0755/0644.

    In ``userns`` mode bwrap runs as the bot's uid and must reach the bind's source itself, so a
    checkout under a private directory (a home of mode 0700, ``mktemp -d``) would refuse every
    bot; in ``setpriv`` mode a package of 0600 files would be unreadable inside the sandbox. The
    copy is the same code the server imported (taken at the first sandboxed bot), read-only to
    the bot like the original."""
    return _reachable(library_source())


def _reachable(source: Path) -> Path:
    """``source`` where every uid reads it, else its copy staged once per process."""
    if source not in _STAGED:
        _STAGED[source] = source if _world_readable(source) else _stage_library(source)
    return _STAGED[source]


def _searchable(folder: Path) -> bool:
    """Can every uid reach into ``folder`` (it and each directory above it searchable)?"""
    return all(os.stat(path).st_mode & stat.S_IXOTH for path in (folder, *folder.parents))


def _world_readable(package: Path) -> bool:
    if not _searchable(package.parent):
        return False
    for folder, folders, files in os.walk(package):
        folders[:] = [name for name in folders if name != "__pycache__"]
        if os.stat(folder).st_mode & (stat.S_IROTH | stat.S_IXOTH) != stat.S_IROTH | stat.S_IXOTH:
            return False
        if any(not os.stat(os.path.join(folder, name)).st_mode & stat.S_IROTH for name in files):
            return False
    return True


def numeric_for_bots() -> Path:
    """python-numeric's environment as the bot's uid can read it, the way library_for_bots
    gives the `games` package: the directory itself where every uid reaches it (a deployment:
    the Docker image's /opt/arena/python-numeric), else a copy staged once per process (a
    checkout under a private directory, whose var/runtimes bwrap could not reach in ``userns``
    mode). A missing directory is returned as it is, for runtime_check to name."""
    source = Path(runtimes.PYTHON_NUMERIC_DIR)
    return _reachable(source) if source.is_dir() else source


def _stage_library(source: Path) -> Path:
    """A copy of the directory ``source`` (the `games` package, or python-numeric's
    environment) under a fresh directory every uid can search, with the same name."""
    import atexit
    import tempfile

    # In a temporary directory every uid can search (TMPDIR may itself be private), under a
    # mkdtemp name: nobody could have made it beforehand, and it is ours, 0700 until complete.
    where = next((folder for folder in (tempfile.gettempdir(), "/tmp", "/var/tmp")
                  if os.path.isdir(folder) and _searchable(Path(folder))), None)
    if where is None:
        raise SandboxUnavailable(f"{source} is out of reach of the bot's uid, and so is every "
                                 f"temporary directory to copy it to: make it world-readable")
    staged = Path(tempfile.mkdtemp(prefix=f"arena-{source.name}-", dir=where))
    target = staged / source.name
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for folder, _, files in os.walk(target):
        os.chmod(folder, 0o755)
        for name in files:
            path = os.path.join(folder, name)
            os.chmod(path, 0o755 if os.stat(path).st_mode & stat.S_IXUSR else 0o644)
    os.chmod(staged, 0o755)
    atexit.register(shutil.rmtree, staged, ignore_errors=True)
    return target


INSTALL_HINT = "install it with `apt-get install bubblewrap` (Debian/Ubuntu)"


# -- where the bot's Python lives ------------------------------------------------------------

@dataclass(frozen=True)
class PythonInstall:
    """The real interpreter (a venv's python is a symlink) and its installation prefix: bound
    read-only at the same paths, because the interpreter finds libpython by absolute RUNPATH."""

    interpreter: str
    prefix: str

    @classmethod
    def current(cls) -> "PythonInstall":
        interpreter = os.path.realpath(BOT_PYTHON)
        prefix = Path(interpreter).parent.parent
        if not (prefix / "lib").is_dir():
            prefix = Path(os.path.realpath(sys.base_prefix))
        return cls(interpreter, str(prefix))


# -- a runtime's row, resolved on this host ------------------------------------------------------

# What a runtime's ``mounts`` name: (the host directory, where the sandbox shows it). The Python
# installation is bound at its own path (see PythonInstall); the others at fixed paths, so a
# bot's PYTHONPATH is the same on every host.
MOUNTS = {
    "library": (lambda: str(library_for_bots()), f"{LIBRARY}/games"),
    "python-numeric": (lambda: str(numeric_for_bots()), "/opt/arena/python-numeric"),
}
_ENV_PATHS = {"library": (lambda: str(library_source().parent), LIBRARY),
              "python-numeric": (lambda: runtimes.PYTHON_NUMERIC_DIR, "/opt/arena/python-numeric")}


@dataclass(frozen=True)
class Launch:
    """A runtime's row resolved for one bot: its argv, its environment, its read-only binds
    (host path, sandbox path) and the Python installation it binds (None: no Python)."""

    runtime: runtimes.Runtime
    argv: list[str]
    env: dict[str, str]
    binds: list[tuple[str, str]]
    python: PythonInstall | None

    @property
    def version(self) -> str:
        """The runtime's version string (its version command run once, on the host)."""
        command = self.runtime.version
        if isinstance(command, str):
            return command
        values = _placeholders(self.runtime, "", sandboxed=False, memory_mb=0)
        env = {name: value.format(**values) for name, value in self.runtime.env.items()}
        return runtimes.runtime_version(self.runtime, [arg.format(**values) for arg in command], env)


def _placeholders(runtime: runtimes.Runtime, entry: str, *, sandboxed: bool, memory_mb: int) -> dict:
    python = PythonInstall.current().interpreter if "python" in runtime.mounts else ""
    paths = {name: (inside if sandboxed else host()) for name, (host, inside) in _ENV_PATHS.items()}
    return {"python": python, "entry": entry, "memory_mb": str(memory_mb), **paths}


def launch_for(runtime: runtimes.Runtime, entry: str, *, sandboxed: bool,
               memory_mb: int = 256) -> Launch:
    """The argv, environment and binds of ``runtime`` starting ``entry``: mounts at their sandbox
    paths when ``sandboxed``, at their host paths for the development runner."""
    values = _placeholders(runtime, entry, sandboxed=sandboxed, memory_mb=memory_mb)
    return Launch(runtime=runtime, argv=[arg.format(**values) for arg in runtime.command],
                  env={name: value.format(**values) for name, value in runtime.env.items()},
                  binds=[(host(), inside) for name, (host, inside) in MOUNTS.items()
                         if name in runtime.mounts],
                  python=PythonInstall.current() if "python" in runtime.mounts else None)


def runtime_check(runtime: runtimes.Runtime, mode: str | None = None) -> None:
    """Raise SandboxUnavailable unless this host can run ``runtime`` (its machine, its program
    and its mounts' directories; in ``userns`` mode, where bwrap runs as the bot's uid, those
    directories must be reachable by every uid), with what to install or fix. A misconfigured
    host is never a crash blamed on the bot."""
    problem = None
    if runtime.machines is not None and platform.machine() not in runtime.machines:
        problem = f"this host is {platform.machine()}, not {' or '.join(runtime.machines)}"
    else:
        program = runtime.command[0]
        if not program.startswith(("{", "./")) and not os.access(program, os.X_OK):
            problem = f"{program} is not installed"
        for name in runtime.mounts:
            if name not in MOUNTS:
                continue
            host = MOUNTS[name][0]()
            if not os.path.isdir(host):
                problem = f"{host} is missing"
            elif mode == "userns" and not _searchable(Path(host)):
                problem = (f"{host} is out of reach of the bot's uid (bwrap runs as that uid here): "
                           f"make it and every directory above it world-searchable")
    if problem:
        hint = f" ({runtime.install_hint})" if runtime.install_hint else ""
        raise SandboxUnavailable(f"the runtime {runtime.name!r} cannot run here: {problem}{hint}")


# -- is the sandbox usable here -----------------------------------------------------------------

_CHECKED: dict[tuple, tuple[str | None, str]] = {}


def sandbox_check() -> None:
    """Raise SandboxUnavailable with the reason unless bwrap can sandbox a bot here."""
    sandbox_mode()


def sandbox_mode() -> str:
    """The way this host gives a bot its own uid (see the package docstring), probed once per
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
    launch = launch_for(runtimes.RUNTIMES["python"], ENTRY, sandboxed=True)
    with _UidLease(mode) as lease:
        seccomp = _seccomp_fd()
        argv = _bwrap_argv(mode, launch, None, lease.uid, Limits(), None, seccomp)
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

def _bwrap_argv(mode: str, launch: Launch, code: Path | None, uid: int, limits: Limits,
                info_fd: int | None, seccomp_fd: int | None) -> list[str]:
    """bwrap with its namespaces, mounts and environment, then the runtime's command."""
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
    argv += _mounts(launch, code, limits)
    argv += ["--chdir", "/bot", "--clearenv"]
    for name, value in _bot_env("/tmp", env=launch.env).items():
        argv += ["--setenv", name, value]
    argv.append("--")
    if mode == "setpriv":
        argv += [SETPRIV, f"--reuid={uid}", f"--regid={uid}", "--clear-groups",
                 "--no-new-privs", "--inh-caps=-all", "--bounding-set=-all", "--"]
    return argv + launch.argv


# A classic-BPF seccomp filter (bwrap --seccomp) that refuses new user namespaces: in one, a bot
# would own a mount namespace and could mount a tmpfs whose memory no rlimit counts. clone3
# passes its flags in memory a filter cannot read, so it answers ENOSYS and the C library falls
# back to clone. Syscalls of another ABI (i386, x32) are refused outright.
_SECCOMP_ARCH = {  # machine: (AUDIT_ARCH, clone, unshare, clone3, x32 bit)
    "x86_64": (0xC000003E, 56, 272, 435, 0x40000000),
    "aarch64": (0xC00000B7, 220, 97, 435, None),
}
# Memory no process owns, so RLIMIT_AS never counts it and the OOM killer picks some other
# process: SysV shared memory (the private IPC namespace keeps the kernel's huge defaults),
# memfd (bounded only by RLIMIT_FSIZE per file) and POSIX message queues. Refused with EPERM.
_UNCOUNTED_MEMORY = {  # machine: shmget, memfd_create, mq_open, memfd_secret
    "x86_64": (29, 319, 240, 447),
    "aarch64": (194, 279, 180, 447),
}
# io_uring_setup, io_uring_enter, io_uring_register (the same numbers on both machines): a large
# kernel surface no bot needs (Docker's default profile refuses it too), within reach of any bot
# once native executables run; refused with EPERM, and libuv (Node.js) falls back to its threads.
_IO_URING = (425, 426, 427)
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
            (jeq, 0, 1, clone3), (ret, 0, 0, enosys)]
    for number in _UNCOUNTED_MEMORY[platform.machine()] + _IO_URING:
        prog += [(jeq, 0, 1, number), (ret, 0, 0, eperm)]
    prog += [(jeq, 1, 0, clone), (jeq, 0, 3, unshare),
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


def _mounts(launch: Launch, code: Path | None, limits: Limits) -> list[str]:
    """A read-only system (/usr and its merged-/usr links), the runtime's mounts (the Python
    prefix, the games package, python-numeric's environment), the code at /bot, a private
    size-limited /tmp; /etc and everything else of the host stay out of sight. /dev is read-only
    too: in a user namespace its tmpfs belongs to the bot, and has no size limit."""
    args = ["--ro-bind", "/usr", "/usr", "--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache"]
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        if os.path.islink(top):
            args += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            args += ["--ro-bind", top, top]
    if launch.python is not None:
        for path in _runtime_binds(launch.python):
            args += _bind_with_parents(path)
    for host, inside in launch.binds:
        for parent in list(Path(inside).parents)[::-1][1:]:
            args += ["--perms", "0755", "--dir", str(parent)]
        args += ["--ro-bind", host, inside]
    if code is None:
        args += ["--dir", "/bot"]
    elif code.is_file():
        args += ["--dir", "/bot", "--ro-bind", str(code), f"/bot/{ENTRY}"]
    else:
        args += ["--ro-bind", str(code), "/bot"]
    return args + ["--perms", "1777", "--size", str(limits.tmp_bytes), "--tmpfs", "/tmp",
                   "--proc", "/proc", "--dev", "/dev", "--remount-ro", "/dev", "--remount-ro", "/"]


def _runtime_binds(runtime: PythonInstall) -> list[str]:
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


def _bot_env(tmp: str, marker: str | None = None, env: dict[str, str] | None = None) -> dict[str, str]:
    """What every runtime gets, then the runtime's own variables (PYTHONPATH, ...)."""
    env = {"PATH": "/usr/bin:/bin", "HOME": tmp, "TMPDIR": tmp, "LANG": "C.UTF-8", **(env or {})}
    if marker:
        env["ARENA_BOT_MARKER"] = marker
    return env


def _rlimits(limits: Limits, nproc: int | None, reserved_mb: int = 0) -> dict[str, tuple[int, int, int]]:
    """{prlimit name: (resource, soft, hard)}, clipped to our own hard limits (which nobody
    unprivileged may raise). RLIMIT_CPU's hard limit is a second above the soft one: the kernel
    sends SIGXCPU, then SIGKILL. ``reserved_mb``: the address space the runtime reserves and
    never touches (Runtime.address_space_mb), on top of the memory limit."""
    mb = 1 << 20
    space = (limits.memory_mb + reserved_mb) * mb
    wanted = {"as": (resource.RLIMIT_AS, space, space),
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
           nproc_base: int, reserved_mb: int = 0) -> tuple[list[str], dict]:
    """The command and Popen arguments for bwrap: its own session (one killpg reaches it), the
    rlimits, and in ``userns`` mode as root, bwrap itself started as the leased uid."""
    argv, kwargs = _with_rlimits(argv, _rlimits(limits, nproc_base + limits.processes, reserved_mb))
    kwargs.update(start_new_session=True, stdin=subprocess.PIPE, env={"PATH": "/usr/bin:/bin"})
    if mode == "userns" and os.geteuid() == 0:
        kwargs.update(user=uid, group=uid, extra_groups=[])
    return argv, kwargs


def _check_reachable(code: Path, *, parents: bool, entry_name: str = ENTRY) -> None:
    """The bot runs as a uid of its own, so its code must be readable by others (and, where bwrap
    itself runs as that uid, reachable through its parents). A host that stores code privately
    is misconfigured: that is SandboxUnavailable, never a crash blamed on the bot."""
    entry = code if code.is_file() else code / entry_name
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
