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

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "act":
        # The worker may run while the bot itself thinks: wait (within the clock) until it has
        # ticked once, so a busy machine cannot leave it at 0 before the bot is first stopped.
        started = time.monotonic()
        while not os.path.exists(COUNTER) and time.monotonic() - started < 0.4:
            time.sleep(0.001)
        try:
            with open(COUNTER) as fh:
                print(f"TICKS {fh.read()}", file=sys.stderr, flush=True)
        except OSError:
            print("TICKS 0", file=sys.stderr, flush=True)
        print(json.dumps({"action": random.choice(message["legal_actions"])}), flush=True)
