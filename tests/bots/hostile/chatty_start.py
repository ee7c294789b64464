"""Hostile bot (by mistake): prints a progress line to stdout at start-up, then plays fairly."""
import json
import random
import sys

print("loading the opening book...", flush=True)  # belongs on stderr
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "act":
        print(json.dumps({"action": random.choice(message["legal_actions"])}), flush=True)
