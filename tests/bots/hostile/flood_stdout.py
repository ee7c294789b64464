"""Hostile bot: floods stdout (no newline, without end) at its first move."""
import json
import sys

for line in sys.stdin:
    if json.loads(line)["type"] == "act":
        chunk = "A" * 65536
        while True:
            sys.stdout.write(chunk)
