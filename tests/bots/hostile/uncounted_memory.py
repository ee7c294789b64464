"""Hostile bot: tries to hold memory that no process owns (SysV shared memory, a memfd, a POSIX
message queue), which the address-space rlimit would not count, and reports each attempt on
stderr, then plays legal moves. Inside the sandbox every attempt is refused."""
import ctypes
import ctypes.util
import json
import os
import random
import sys

libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
IPC_PRIVATE, IPC_CREAT = 0, 0o1000
MB = 1 << 20


def attempt(name, call):
    try:
        call()
        print(f"MEMORY {name}: HELD", file=sys.stderr, flush=True)
    except OSError as exc:
        print(f"MEMORY {name}: refused ({exc.__class__.__name__}: {exc})", file=sys.stderr, flush=True)


def checked(result):
    if result == -1:
        errno = ctypes.get_errno()
        raise OSError(errno, os.strerror(errno))
    return result


def memfd():
    fd = os.memfd_create("hog")
    os.ftruncate(fd, MB)
    os.write(fd, b"x" * MB)


attempt("shmget", lambda: checked(libc.shmget(IPC_PRIVATE, ctypes.c_size_t(64 * MB), IPC_CREAT | 0o600)))
attempt("memfd", memfd)
attempt("mq_open", lambda: checked(libc.mq_open(b"/hog", os.O_CREAT | os.O_RDWR, 0o600, None)))
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "act":
        print(json.dumps({"action": random.choice(message["legal_actions"])}), flush=True)
