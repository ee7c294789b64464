"""Hostile bot: tries the network (Redis on the host's loopback, a public address, DNS) and
reports each attempt on stderr, then plays legal moves. Inside the sandbox every attempt fails."""
import json
import random
import socket
import sys


def attempt(name, connect):
    try:
        connect()
        print(f"NETWORK {name}: CONNECTED", file=sys.stderr, flush=True)
    except OSError as exc:
        print(f"NETWORK {name}: failed ({exc.__class__.__name__}: {exc})", file=sys.stderr, flush=True)


attempt("redis", lambda: socket.create_connection(("127.0.0.1", 6379), timeout=1).close())
attempt("public", lambda: socket.create_connection(("1.1.1.1", 53), timeout=1).close())
attempt("dns", lambda: socket.getaddrinfo("example.com", 80))
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "act":
        print(json.dumps({"action": random.choice(message["legal_actions"])}), flush=True)
