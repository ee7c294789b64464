"""Hostile bot: spins the CPU forever at its first move."""
import json
import sys

for line in sys.stdin:
    if json.loads(line)["type"] == "act":
        while True:
            pass
