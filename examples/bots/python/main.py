"""Starter bot of the python runtime (docs/protocol.md, "Runtimes"): Python 3.11, the standard
library and the `games` package. No arena.json is needed: a zip with main.py at its root, or the
single file, is a Python bot.

It reads one JSON message per line on stdin; each `act` carries the legal actions, and it
answers one of them, picked at random, as one line {"action": ...} on stdout. Logs go to stderr.

    .venv/bin/python manage.py botcheck examples/bots/python --game sorcado
"""
import json
import random
import sys


def main() -> None:
    rng = random.Random()
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            runtime = message.get("runtime", {})
            print(f"playing {message['game']} as seat {message['seat']} of {message['players']} "
                  f"on {runtime.get('name')} ({runtime.get('version')})", file=sys.stderr, flush=True)
        elif message["type"] == "act":
            print(json.dumps({"action": rng.choice(message["legal_actions"])}), flush=True)
        elif message["type"] == "result":
            print("result:", message["result"], file=sys.stderr, flush=True)
            return
        # Other message types may come in later versions of the protocol: ignore them.


if __name__ == "__main__":
    main()
