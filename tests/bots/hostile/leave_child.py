"""Hostile bot: leaves a daemon behind (double fork, new session, stdio closed), whose command
line carries the marker from marker.txt so the test can look for it; then plays legal moves."""
import json
import os
import random
import sys

marker = open("marker.txt").read().strip()
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        devnull = os.open("/dev/null", os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        os.execv(sys.executable, [sys.executable, "-S", "-c", "import time; time.sleep(3600)", marker])
    os._exit(0)
os.wait()
print(f"CHILD daemon started with marker {marker}", file=sys.stderr, flush=True)
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "act":
        print(json.dumps({"action": random.choice(message["legal_actions"])}), flush=True)
