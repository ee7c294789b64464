"""Hostile bot: answers at once, but leaves a child process working in the background, to use
CPU while other seats think. Each act reports on stderr how far the child got (TICKS n)."""
import json
import os
import random
import sys
import time

COUNTER = "/tmp/ticks"

if os.fork() == 0:  # the worker: a tick every 5 ms of running, as long as it is let run
    ticks = 0
    while True:
        ticks += 1
        with open(COUNTER + ".new", "w") as fh:
            fh.write(str(ticks))
        os.replace(COUNTER + ".new", COUNTER)
        deadline = time.monotonic() + 0.005
        while time.monotonic() < deadline:
            pass

def ticks_so_far() -> int:
    try:
        with open(COUNTER) as fh:
            return int(fh.read() or 0)
    except (OSError, ValueError):
        return 0


reported = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "act":
        # The worker may run while the bot itself thinks: wait (within the clock) until it has
        # ticked again, so a busy machine that gives it no CPU for a while cannot make it look
        # stopped when it is not. While the bot is stopped, nothing of it runs, worker included.
        started = time.monotonic()
        while ticks_so_far() <= reported and time.monotonic() - started < 2.0:
            time.sleep(0.001)
        reported = ticks_so_far()
        print(f"TICKS {reported}", file=sys.stderr, flush=True)
        print(json.dumps({"action": random.choice(message["legal_actions"])}), flush=True)
