"""Hostile bot: answers well-formed JSON naming an action the rules refuse."""
import json
import sys

for line in sys.stdin:
    if json.loads(line)["type"] == "act":
        print(json.dumps({"action": {"type": "teleport", "wizard": 0, "to": "the moon"}}), flush=True)
