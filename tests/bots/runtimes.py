"""Helpers of the runtime tests: the starter bots of examples/bots/<runtime>/ as an author builds
and uploads them, and whether this host can run a runtime (else skip, or fail under
ARENA_REQUIRE_SANDBOX=1, as CI sets: its hosts have every runtime)."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from bots.sandbox import RUNTIMES, SandboxUnavailable, runtime_check
from bots.uploads import inspect_upload, materialize, pack_directory

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "bots"
PROTOCOL = (ROOT / "docs" / "protocol.md").read_text()


def build_command() -> list[str]:
    """The native starter's build command exactly as docs/protocol.md prints it."""
    [line] = re.findall(r"^(gcc -static [^\n]*main\.c)$", PROTOCOL, re.M)
    return line.split()


def unavailable(why: str):
    """Skip, or fail where every runtime must work (CI: ARENA_REQUIRE_SANDBOX=1)."""
    if os.environ.get("ARENA_REQUIRE_SANDBOX") == "1":
        pytest.fail(f"ARENA_REQUIRE_SANDBOX=1 but {why}")
    pytest.skip(why)


def require_runtime(name: str) -> None:
    try:
        runtime_check(RUNTIMES[name])
    except SandboxUnavailable as exc:
        unavailable(str(exc))
    if name == "native" and not shutil.which("gcc"):
        unavailable("gcc is not installed (apt-get install gcc libc6-dev): the native bots are built here")


def compile_static(source_dir: Path, sources: list[str], output: str = "main") -> None:
    """``gcc -static -O2 -o OUTPUT SOURCES`` in ``source_dir`` (the documented command's flags)."""
    flags = [arg for arg in build_command() if arg not in ("main", "main.c", "-o")]
    done = subprocess.run([*flags, "-I", str(EXAMPLES / "native"), "-o", output, *sources],
                          cwd=source_dir, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def starter_folder(name: str, where: Path) -> Path:
    """A copy of examples/bots/<name>/ under ``where``, built as its docs say (native: the
    documented gcc command, run in the copy)."""
    require_runtime(name)
    folder = where / f"starter-{name}"
    shutil.copytree(EXAMPLES / name, folder, ignore=shutil.ignore_patterns("__pycache__", "main"))
    if name == "native":
        done = subprocess.run(build_command(), cwd=folder, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
    return folder


def uploaded(folder: Path, where: Path) -> Path:
    """The folder as the service stores and runs it: zipped, checked and unpacked (world-readable,
    as the bot's uid needs)."""
    filename, content = pack_directory(folder)
    info = inspect_upload(filename, content)
    where.chmod(0o755)
    return materialize(content, info.kind, where / f"code-{info.sha256[:12]}")
