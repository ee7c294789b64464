"""The bot's processes on the host: the uid leased to each running bot, and /proc scans that
find every process of a bot (by uid, or by environment marker without the sandbox)."""
from __future__ import annotations

import fcntl
import os
import random
import tempfile
from pathlib import Path

from .errors import SandboxUnavailable

# Overridable for unusual hosts (documented in docs/protocol.md, "Running the sandbox").
UID_BASE = int(os.environ.get("ARENA_SANDBOX_UID_BASE", "1500000000"))
UID_COUNT = 65536
LEASE_DIR = Path(os.environ.get("ARENA_SANDBOX_LEASE_DIR")
                 or Path(tempfile.gettempdir()) / "arena-sandbox-uids")


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


def _descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (children of all its threads, recursively), parents first."""
    found, queue = [], [pid]
    while queue:
        parent = queue.pop(0)
        try:
            tasks = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{parent}/task/{task}/children", "rb") as fh:
                    children = [int(child) for child in fh.read().split()]
            except (OSError, ValueError):
                continue
            found += children
            queue += children
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
