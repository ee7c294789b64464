"""A minimal Spellbound Arena bot (bot protocol version 1, docs/protocol.md).

Standard library only. It reads one JSON message per line on stdin and, each time it is asked to
act, answers one line {"action": ...} on stdout with a random legal action. Logs go to stderr:
stdout is for answers only.

Try it:  .venv/bin/python manage.py botcheck examples/bots/random_bot.py --game trap-the-wizard
"""
import json
import random
import sys


def log(*parts) -> None:
    print(*parts, file=sys.stderr, flush=True)


def main() -> None:
    rng = random.Random()
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            log(f"playing {message['game']} v{message['version']} as seat {message['seat']} "
                f"of {message['players']}, clock {message['time_control']}")
        elif kind == "act":
            action = rng.choice(message["legal_actions"])
            sys.stdout.write(json.dumps({"action": action}) + "\n")
            sys.stdout.flush()
        elif kind == "result":
            log("result:", message["result"])
            return
        # Unknown message types are ignored: later protocol versions may add some.


if __name__ == "__main__":
    main()
