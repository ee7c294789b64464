"""Hostile bot: sleeps far past the clock at its first move."""
import json
import sys
import time

for line in sys.stdin:
    if json.loads(line)["type"] == "act":
        time.sleep(3600)
