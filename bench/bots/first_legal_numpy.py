"""Benchmark bot (protocol v1), python-numeric runtime: imports numpy, as a numeric bot does, and
always answers the first legal action."""
import json
import sys

import numpy  # noqa: F401  (the import is what this runtime costs more)

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "act":
        sys.stdout.write(json.dumps({"action": message["legal_actions"][0]}) + "\n")
        sys.stdout.flush()
    elif message["type"] == "result":
        break
