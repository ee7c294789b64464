"""The runtimes an uploaded bot may run on, as rows of data, and the manifest that names one.

"A runtime is a row of data: what the sandbox binds read-only, how the program starts, its
version string. Adding a language adds a row and a starter bot, not a code path."
(docs/architecture.md). The jail reads a row and builds the bwrap command from it; the upload
checks read its ``entry_check``; nothing else knows a runtime by name.

A bot names its runtime in ``arena.json`` at the root of its upload (docs/protocol.md,
"Runtimes")::

    {"runtime": "node", "entry": "main.js"}

No manifest (a single ``.py`` file, or a zip with ``main.py`` and no ``arena.json``) is the
``python`` runtime with ``main.py``, as every bot was before runtimes existed.

Plain Python, no Django: the upload checks, the sandbox and the tests read it alike.
"""
from __future__ import annotations

import json
import os
import platform
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

MANIFEST = "arena.json"
MANIFEST_MAX_BYTES = 4096
MANIFEST_KEYS = ("runtime", "entry")
DEFAULT_RUNTIME = "python"

# Where the mounts' host directories are (overridable: docs/protocol.md, "Running the sandbox").
# python-numeric's environment is installed by the project's own files (dev.py, the Dockerfile)
# from requirements-numeric.txt, pinned with hashes, into this directory.
_ROOT = Path(__file__).resolve().parents[2]
PYTHON_NUMERIC_DIR = os.environ.get("ARENA_PYTHON_NUMERIC") or str(_ROOT / "var" / "runtimes" / "python-numeric")
NODE = os.environ.get("ARENA_NODE") or "/usr/bin/node"


@dataclass(frozen=True)
class Runtime:
    """One runtime. ``summary`` says what it is, for people (botcheck prints it). ``command`` is
    the program's argv: ``{python}`` is the bot's interpreter, ``{entry}`` the entry point
    (relative to /bot, the working directory), ``{memory_mb}`` the memory limit. ``mounts`` name
    what is bound read-only (``python``: the interpreter's installation; the others: entries of
    jail.MOUNTS); ``env`` values may name a mount as ``{mount}`` (its path inside the sandbox).
    ``version`` is a command printing the version string (run once per process on the host),
    or that string itself. ``entry_check`` names the upload check of the entry point
    (bots/uploads.py, ENTRY_CHECKS). ``address_space_mb``: address space the runtime reserves at
    start and never touches (V8's code range and heap reservations), added to RLIMIT_AS so the
    memory a bot can use is the same ``memory_mb`` on every runtime. ``executable``: the entry is
    unpacked with mode 0755. ``machines``: the host machines it runs on (None: any).
    ``install_hint``: what to install where it cannot run."""

    name: str
    summary: str
    entry: str
    command: tuple[str, ...]
    mounts: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    version: tuple[str, ...] | str = ""
    entry_check: str = "text"
    address_space_mb: int = 0
    executable: bool = False
    machines: tuple[str, ...] | None = None
    install_hint: str = ""


_PYTHON_ENV = {"PYTHONPATH": "{library}", "PYTHONDONTWRITEBYTECODE": "1", "PYTHONUNBUFFERED": "1"}
_PYTHON_VERSION = "import sys; print('Python ' + sys.version.split()[0])"

RUNTIMES: dict[str, Runtime] = {runtime.name: runtime for runtime in (
    Runtime(
        name="python", summary="Python 3.11, the standard library and the games package",
        entry="main.py",
        # -S: no site-packages; -B: no bytecode written; -u: unbuffered, so an unflushed answer still goes out
        command=("{python}", "-B", "-S", "-u", "{entry}"),
        mounts=("python", "library"), env=_PYTHON_ENV,
        version=("{python}", "-S", "-c", _PYTHON_VERSION), entry_check="python"),
    Runtime(
        name="python-numeric", summary="python, plus numpy (requirements-numeric.txt)",
        entry="main.py", command=("{python}", "-B", "-S", "-u", "{entry}"),
        mounts=("python", "library", "python-numeric"),
        # One BLAS thread: threads count against the process limit, and the clock pays wall time.
        env={**_PYTHON_ENV, "PYTHONPATH": "{library}:{python-numeric}", "OPENBLAS_NUM_THREADS": "1",
             "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"},
        version=("{python}", "-S", "-c", "import sys, numpy; print('Python ' + sys.version.split()[0]"
                 " + ', numpy ' + numpy.__version__)"),
        entry_check="python",
        install_hint="python3 dev.py test (or demo) installs it into var/runtimes/python-numeric; "
                     "the Docker image has it at /opt/arena/python-numeric"),
    Runtime(
        name="node", summary="Node.js (Debian's nodejs package), JavaScript with its built-in modules",
        entry="main.js",
        # The JavaScript heap is held to the memory limit; the address space V8 reserves and
        # never touches (its code range, heap reservations, helper threads' stacks: Node.js 20
        # does not start under 700 MB) is added to RLIMIT_AS. 928 MB, measured: a bot then holds
        # some 216 MB of 8 MB buffers under a memory_mb of 256, as a C bot holds 192-256 MB;
        # with 768 only some 100 MB. With 960 V8 sometimes reserved less than usual and a bot
        # held 256 MB of 64 MB buffers, the whole limit (1 run in 12, under load): past it.
        command=(NODE, "--max-old-space-size={memory_mb}", "{entry}"),
        # No /etc in the sandbox: OpenSSL would look for its configuration there and stop Node.js.
        env={"UV_THREADPOOL_SIZE": "2", "OPENSSL_CONF": "/dev/null"}, version=(NODE, "--version"),
        entry_check="text",
        address_space_mb=928, install_hint="apt-get install nodejs"),
    Runtime(
        name="native", summary="a statically linked x86_64 Linux executable (C, C++, Rust, Go...)",
        entry="main", command=("./{entry}",),
        version=f"static x86_64 Linux executable (kernel {platform.release()})",
        entry_check="static-elf-x86_64", executable=True, machines=("x86_64",),
        install_hint="native bots run on x86_64 hosts only"),
)}


# -- the manifest ---------------------------------------------------------------------------------

class ManifestError(ValueError):
    """The manifest is not one we accept; the message says why, for the uploader."""


@dataclass(frozen=True)
class Manifest:
    runtime: Runtime
    entry: str


def manifest_parse(content: bytes | None) -> Manifest:
    """The runtime and entry point ``arena.json`` declares (None: no manifest, a Python bot).
    Raises ManifestError with the reason."""
    if content is None:
        return Manifest(RUNTIMES[DEFAULT_RUNTIME], RUNTIMES[DEFAULT_RUNTIME].entry)
    if len(content) > MANIFEST_MAX_BYTES:
        raise ManifestError(f"{MANIFEST} is {len(content):,} bytes; the limit is {MANIFEST_MAX_BYTES:,}")
    try:
        data = json.loads(content.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ManifestError(f"{MANIFEST} is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ManifestError(f'{MANIFEST} must be a JSON object such as {{"runtime": "node"}}')
    unknown = sorted(set(data) - set(MANIFEST_KEYS))
    if unknown:
        raise ManifestError(f"{MANIFEST} has unknown key(s) {', '.join(map(repr, unknown))}; "
                            f"it takes {', '.join(MANIFEST_KEYS)}")
    name = data.get("runtime")
    if not isinstance(name, str):
        raise ManifestError(f"{MANIFEST} must name a runtime (\"runtime\": one of {', '.join(RUNTIMES)})")
    if name not in RUNTIMES:
        raise ManifestError(f"{MANIFEST} names the unknown runtime {name!r}; the runtimes are "
                            f"{', '.join(RUNTIMES)}")
    runtime = RUNTIMES[name]
    entry = data.get("entry", runtime.entry)
    if not isinstance(entry, str) or not _plain_relative(entry):
        raise ManifestError(f"{MANIFEST}: entry {entry!r} must be a relative path inside the upload "
                            f"(such as {runtime.entry!r})")
    return Manifest(runtime, entry)


def _plain_relative(path: str) -> bool:
    parts = path.split("/")
    return (0 < len(path) <= 255 and not path.startswith("/") and "\\" not in path
            and all(part not in ("", ".", "..") for part in parts)
            and not any(ord(ch) < 32 or ord(ch) == 127 for ch in path))


def manifest_of(code: Path) -> Manifest:
    """The manifest of an unpacked bot: ``code`` is a directory (its ``arena.json``, if any) or
    a single Python file. Raises ManifestError."""
    code = Path(code)
    if code.is_file():
        return manifest_parse(None)
    path = code / MANIFEST
    return manifest_parse(path.read_bytes() if path.is_file() else None)


# -- versions ---------------------------------------------------------------------------------------

_VERSIONS: dict[tuple, str] = {}


def runtime_version(runtime: Runtime, argv: list[str], env: dict[str, str]) -> str:
    """The version string of ``runtime`` (``argv``, ``env``: its version command resolved on this
    host), computed once per process."""
    if isinstance(runtime.version, str):
        return runtime.version
    key = (runtime.name, tuple(argv))
    if key not in _VERSIONS:
        try:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=30,
                                  env={"PATH": "/usr/bin:/bin", **env})
            text = done.stdout.strip() if done.returncode == 0 else ""
        except (OSError, subprocess.SubprocessError):
            text = ""
        _VERSIONS[key] = text or "unknown"
    return _VERSIONS[key]
