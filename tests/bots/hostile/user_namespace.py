"""Hostile bot: tries to create a user namespace (in one it could mount a tmpfs no rlimit
counts), by unshare and by clone, reports on stderr, then plays legal moves."""
import ctypes
import json
import os
import random
import sys

CLONE_NEWUSER, CLONE_NEWNS = 0x10000000, 0x00020000
libc = ctypes.CDLL(None, use_errno=True)


def report(name, result):
    error = ctypes.get_errno()
    outcome = "CREATED" if result >= 0 else f"refused ({os.strerror(error)})"
    print(f"USERNS {name}: {outcome}", file=sys.stderr, flush=True)


if os.fork() == 0:  # try it in a child, so the player's own namespaces stay as they were
    report("unshare", libc.unshare(CLONE_NEWUSER | CLONE_NEWNS))
    # raw clone(2) (x86_64: 56, aarch64: 220) with CLONE_NEWUSER and SIGCHLD, child exits at once
    number = {"x86_64": 56, "aarch64": 220}.get(os.uname().machine)
    if number:
        pid = libc.syscall(number, CLONE_NEWUSER | 17, 0, 0, 0, 0)
        if pid == 0:
            os._exit(0)
        report("clone", pid)
    os._exit(0)
os.wait()
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "act":
        print(json.dumps({"action": random.choice(message["legal_actions"])}), flush=True)
