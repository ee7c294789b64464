"""The reference remote client (docs/remote.md): plays your remote bot's seats with any local
program that speaks the bot protocol (docs/protocol.md, JSON Lines on stdin/stdout), unchanged.

    python3 examples/remote/client.py --url http://127.0.0.1:8000 --token <prefix>.<secret> \\
        -- python3 examples/bots/random_bot.py

Standard library only. It reads the stream GET /api/remote/stream/ (one JSON message a line),
starts one copy of the program per match and seat at that seat's first act (greeting it with
the act's ``hello``), passes it each act as a sandboxed bot would get it, and POSTs its answer to
/api/matches/<match>/seats/<seat>/act/ with the act's turn. A ``result`` line goes to the program
and ends it. After an error (server away, stream ended, broken connection) it reconnects, waiting
a little longer each time (up to --max-backoff); the server sends the open acts again, and an act
already answered is not answered twice. The program's stderr passes through to this one's.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

ACT_KEYS = ("type", "seat", "view", "legal_actions", "clock")  # what a sandboxed bot is sent


def log(*parts) -> None:
    print("remote client:", *parts, file=sys.stderr, flush=True)


class Program:
    """One copy of the bot program, playing one seat of one match."""

    def __init__(self, argv: list[str], hello: dict):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.lock = threading.Lock()
        self.send(hello)

    def send(self, message: dict) -> None:
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def ask(self, act: dict):
        """The action the program answers to ``act``; ValueError if it answers none."""
        self.send({key: act[key] for key in ACT_KEYS if key in act})
        line = self.proc.stdout.readline()
        if not line:
            raise ValueError(f"the program exited (code {self.proc.poll()}) without answering")
        answer = json.loads(line)
        if not isinstance(answer, dict) or "action" not in answer:
            raise ValueError(f'the program answered {line.strip()[:200]!r}, not {{"action": ...}}')
        return answer["action"]

    def end(self, message: dict | None) -> None:
        try:
            if message is not None and self.proc.poll() is None:
                self.send(message)
            self.proc.stdin.close()
            self.proc.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


class Client:
    def __init__(self, url: str, token: str, argv: list[str], *, matches: int | None = None,
                 max_backoff: float = 10.0):
        self.url, self.token, self.argv = url.rstrip("/"), token, argv
        self.matches_left, self.max_backoff = matches, max_backoff
        self.programs: dict[tuple[str, int], Program] = {}
        self.taken: set[tuple[str, int, int]] = set()  # acts answered or being answered
        self.lock = threading.Lock()
        self.done = threading.Event()

    def request(self, path: str, body: dict | None = None, timeout: float | None = 30):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, method="POST" if data else "GET",
                                         headers={"Authorization": f"Bearer {self.token}",
                                                  "Content-Type": "application/json"})
        return urllib.request.urlopen(request, timeout=timeout)

    def run(self) -> None:
        """Read the stream until --matches results came (forever without it), reconnecting."""
        backoff = 0.5
        while not self.done.is_set():
            try:
                with self.request("/api/remote/stream/", timeout=60) as stream:
                    log("connected")
                    backoff = 0.5
                    for line in stream:
                        if line.strip():
                            self.on_message(json.loads(line))
                        if self.done.is_set():
                            return
                log("the server ended the stream; reconnecting")
            except urllib.error.HTTPError as exc:
                detail = exc.read().decode(errors="replace")[:300]
                if exc.code in (401, 403):
                    raise SystemExit(f"remote client: refused ({exc.code}): {detail}")
                log(f"HTTP {exc.code}: {detail}; reconnecting in {backoff:.1f} s")
            except (OSError, ValueError) as exc:
                log(f"{type(exc).__name__}: {exc}; reconnecting in {backoff:.1f} s")
            self.done.wait(backoff)
            backoff = min(backoff * 2, self.max_backoff)

    def on_message(self, message: dict) -> None:
        kind = message.get("type")
        if kind == "act":
            key = (message["match"], message["seat"], message["turn"])
            with self.lock:
                if key in self.taken:
                    return
                self.taken.add(key)
            threading.Thread(target=self.answer, args=(message,), daemon=True).start()
        elif kind == "result":
            with self.lock:
                program = self.programs.pop((message["match"], message["seat"]), None)
            if program is not None:
                with program.lock:
                    program.end({"type": "result", "seat": message["seat"], "result": message["result"]})
            log(f"match {message['match']} seat {message['seat']}: {message['status']}, {message['result']}")
            if self.matches_left is not None:
                self.matches_left -= 1
                if self.matches_left <= 0:
                    self.done.set()

    def answer(self, act: dict) -> None:
        """Ask the seat's program, then POST its answer (retried while the network fails)."""
        seat_key = (act["match"], act["seat"])
        with self.lock:
            program = self.programs.get(seat_key)
            if program is None or program.proc.poll() is not None:
                program = self.programs[seat_key] = Program(self.argv, act["hello"])
        with program.lock:
            try:
                action = program.ask(act)
            except (OSError, ValueError) as exc:  # the seat will lose on time, as a crashed bot does
                log(f"match {act['match']} seat {act['seat']} turn {act['turn']}: {exc}")
                return
        self.post(act, action)

    def post(self, act: dict, action) -> None:
        path = f"/api/matches/{act['match']}/seats/{act['seat']}/act/"
        for attempt in range(5):
            try:
                with self.request(path, {"turn": act["turn"], "action": action}) as response:
                    json.load(response)
                    return
            except urllib.error.HTTPError as exc:  # refused: the reason is in the envelope
                log(f"turn {act['turn']} of seat {act['seat']} refused ({exc.code}): "
                    f"{exc.read().decode(errors='replace')[:300]}")
                return
            except OSError as exc:
                log(f"posting turn {act['turn']}: {exc}; again")
                time.sleep(0.2 * (attempt + 1))

    def close(self) -> None:
        for program in list(self.programs.values()):
            program.end(None)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     usage="%(prog)s --url URL --token TOKEN [--matches N] -- PROGRAM [ARGS...]")
    parser.add_argument("--url", required=True, help="The arena's address, e.g. http://127.0.0.1:8000")
    parser.add_argument("--token", required=True, help="Your API token (POST /api/tokens/)")
    parser.add_argument("--matches", type=int, default=None, help="Stop after this many match results")
    parser.add_argument("--max-backoff", type=float, default=10.0, help="Longest wait between reconnects (s)")
    parser.add_argument("program", nargs=argparse.REMAINDER, help="The bot program and its arguments, after --")
    args = parser.parse_args(argv)
    program = args.program[1:] if args.program[:1] == ["--"] else args.program
    if not program:
        parser.error("name the bot program after --, e.g. -- python3 examples/bots/random_bot.py")
    client = Client(args.url, args.token, program, matches=args.matches, max_backoff=args.max_backoff)
    try:
        client.run()
    except KeyboardInterrupt:
        pass
    finally:
        client.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
