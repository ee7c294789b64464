"""Benchmark bot (protocol v1): always answers the first legal action, so the sandboxed match is
move for move the same as the in-process one."""
import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "act":
        sys.stdout.write(json.dumps({"action": message["legal_actions"][0]}) + "\n")
        sys.stdout.flush()
    elif message["type"] == "result":
        break
