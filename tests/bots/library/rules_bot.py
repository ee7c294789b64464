"""A bot that imports the rules (the `games` package the arena mounts read-only on its
PYTHONPATH): it rebuilds Trap the Wizard's state from its view and asks the engine for the legal
actions, as a search bot would before simulating. It answers with one of them only if they are
the message's own, and only if the library is read-only (a write into it must fail)."""
import json
import os
import sys

from games.engine import registry

library = os.path.dirname(os.path.dirname(os.path.abspath(registry.__file__)))
try:
    with open(os.path.join(library, "written-by-a-bot"), "w") as f:
        f.write("x")
    writable = True
except OSError:
    writable = False
print(f"library at {library}, writable: {writable}", file=sys.stderr, flush=True)

ruleset = None
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        ruleset = registry.get(message["game"], message["version"])
    elif message["type"] == "act":
        if writable:
            print("the library was writable", flush=True)  # garbage: a fault
            continue
        state = ruleset.decode(message["view"]["state"])
        mine = ruleset.legal_actions(state, message["seat"])
        answer = mine[-1] if mine == message["legal_actions"] else {"type": "not-the-rules"}
        print(json.dumps({"action": answer}), flush=True)
