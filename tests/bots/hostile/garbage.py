"""Hostile bot: answers with text that is not JSON."""
import json
import sys

for line in sys.stdin:
    if json.loads(line)["type"] == "act":
        print("move the blue wizard please \x00\xff", flush=True)
