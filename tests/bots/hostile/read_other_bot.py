"""Hostile bot: tries to read each host path of target.txt (another bot's secret file, the
service's settings) directly, through /proc/1/root, by walking up from its own directory and
through /proc/self/root; writes whatever it read to stderr and into its first answer, so the test
can see a leak. Then plays legal moves."""
import json
import os
import random
import sys

leaked = []
for target in open("target.txt").read().split():
    for path in (target, "/proc/1/root" + target, "../.." + target, "/proc/self/root" + target):
        try:
            with open(path) as fh:
                leaked.append(fh.read())
            print(f"READ {path}: READ {leaked[-1]!r}", file=sys.stderr, flush=True)
        except OSError as exc:
            print(f"READ {path}: failed ({exc})", file=sys.stderr, flush=True)
print(f"SEE / = {sorted(os.listdir('/'))}", file=sys.stderr, flush=True)
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "act":
        action = random.choice(message["legal_actions"])
        if leaked:  # an answer that carries the secret out, as a garbage forfeit would record it
            print(json.dumps({"action": action, "leak": leaked}), flush=True)
        else:
            print(json.dumps({"action": action}), flush=True)
