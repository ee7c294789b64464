"""Hostile bot: allocates far past the memory limit at its first move (and touches the memory,
so overcommit cannot hide it)."""
import json
import sys

hoard = []
for line in sys.stdin:
    if json.loads(line)["type"] == "act":
        print("MEMORY allocating", file=sys.stderr, flush=True)
        while True:
            hoard.append(bytearray(b"x" * (64 << 20)))
            print(f"MEMORY holding {len(hoard) * 64} MiB", file=sys.stderr, flush=True)
