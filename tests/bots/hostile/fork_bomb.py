"""Hostile bot: a fork bomb at its first move. Every process forks as fast as it can; the first
one counts the bot's processes once forks are refused, reports on stderr and keeps the move
(a timeout)."""
import json
import os
import sys
import time


def my_processes():
    """Processes with my uid in my pid namespace, but pid 1 (the sandbox's init, not mine)."""
    uid, count = os.getuid(), 0
    for pid in filter(lambda name: name.isdigit() and name != "1", os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/status") as fh:
                count += any(line.split()[1:2] == [str(uid)] for line in fh if line.startswith("Uid:"))
        except OSError:
            pass
    return count


def bomb():
    refused = 0
    deadline = time.monotonic() + 1.0
    while time.monotonic() < deadline:
        try:
            if os.fork() == 0:
                deadline = time.monotonic() + 3600  # children never stop
        except OSError:
            refused += 1
            time.sleep(0.01)
    return refused


for line in sys.stdin:
    if json.loads(line)["type"] == "act":
        refused = bomb()
        print(f"FORKBOMB refused={refused} processes={my_processes()}", file=sys.stderr, flush=True)
        time.sleep(3600)
