"""Hostile bot: tries to write outside /tmp (its own code, /etc, the root, /usr, /proc, /dev and
a host path named in target.txt) and inside /tmp, reports each attempt on stderr, then plays legal
moves. Only the /tmp write may succeed."""
import json
import random
import sys

host_path = open("target.txt").read().strip()
for path in ("/bot/pwned", "/etc/pwned", "/pwned", "/usr/pwned", "/proc/pwned", "/dev/pwned",
             "/dev/shm/pwned", host_path, "/tmp/ok"):
    try:
        with open(path, "w") as fh:
            fh.write("pwned")
        print(f"WRITE {path}: WROTE", file=sys.stderr, flush=True)
    except OSError as exc:
        print(f"WRITE {path}: failed ({exc})", file=sys.stderr, flush=True)
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "act":
        print(json.dumps({"action": random.choice(message["legal_actions"])}), flush=True)
