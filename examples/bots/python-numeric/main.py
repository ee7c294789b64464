"""Starter bot of the python-numeric runtime (docs/protocol.md, "Runtimes"): the python runtime
plus numpy (requirements-numeric.txt), named by the arena.json beside this file.

Each `act` carries the legal actions; it scores them with numpy (random scores here: your
evaluation goes in `scores`) and answers the best one as one line {"action": ...} on stdout.
Logs go to stderr.

    .venv/bin/python manage.py botcheck examples/bots/python-numeric --game warlock
"""
import json
import sys

import numpy as np


def main() -> None:
    rng = np.random.default_rng()
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            runtime = message["runtime"]
            print(f"playing {message['game']} as seat {message['seat']} on {runtime['name']} "
                  f"({runtime['version']})", file=sys.stderr, flush=True)
        elif message["type"] == "act":
            legal = message["legal_actions"]
            scores = rng.random(len(legal))  # replace with an evaluation of each action
            print(json.dumps({"action": legal[int(np.argmax(scores))]}), flush=True)
        elif message["type"] == "result":
            print("result:", message["result"], file=sys.stderr, flush=True)
            return


if __name__ == "__main__":
    main()
