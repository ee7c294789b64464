"""Chance outcomes derived, not drawn (ARCHITECTURE.md, "Events").

``outcome = derive(seed, match_id, seq, spec)``: a stream of HMAC-SHA256 blocks keyed by the
match's secret seed over (match id, event seq, block counter), turned into integers below n by
rejection sampling, so every outcome is exactly uniform. Nobody without the seed can predict an
outcome; after the seed is revealed anyone can re-derive every roll and shuffle.

Specs are JSON:
  {"kind": "dice", "count": c, "sides": s}       -> list of c ints in 1..s
  {"kind": "shuffle", "n": n}                    -> a permutation of range(n)
  {"kind": "choice", "n": n, "k": k}             -> k distinct ints of range(n), in drawn order
"""
from __future__ import annotations

import hashlib
import hmac
import secrets

from .protocol import Chance, IllegalAction

_WORD = 8  # bytes per sample: 64-bit integers
_LIMIT = 1 << 64


def new_seed() -> bytes:
    """A fresh secret seed (the only randomness in a match; it lives in the service, not here)."""
    return secrets.token_bytes(32)


def commitment(seed: bytes) -> str:
    """The sha256 of the seed, published in match_created before any outcome is used."""
    return hashlib.sha256(seed).hexdigest()


class _Stream:
    """Unbiased integers from HMAC-SHA256(seed, "match|seq|block")."""

    def __init__(self, seed: bytes, match_id: str, seq: int):
        self._key = seed
        self._prefix = f"{match_id}|{seq}|".encode()
        self._block = 0
        self._buffer = b""

    def _word(self) -> int:
        if len(self._buffer) < _WORD:
            self._buffer += hmac.new(self._key, self._prefix + str(self._block).encode(),
                                     hashlib.sha256).digest()
            self._block += 1
        word, self._buffer = self._buffer[:_WORD], self._buffer[_WORD:]
        return int.from_bytes(word, "big")

    def below(self, n: int) -> int:
        """Uniform in range(n): reject the top sliver of 2**64 that would bias x % n."""
        ceiling = _LIMIT - (_LIMIT % n)
        while True:
            x = self._word()
            if x < ceiling:
                return x % n


_SPEC_KEYS = {"dice": frozenset(("kind", "count", "sides")), "shuffle": frozenset(("kind", "n")),
              "choice": frozenset(("kind", "n", "k"))}


def _positive(spec: dict, name: str, top: int = 10_000) -> None:
    value = spec.get(name)
    if type(value) is not int or not 1 <= value <= top:
        raise IllegalAction(f"chance spec {spec!r}: {name} must be an int in 1..{top}")


def check_spec(spec: dict) -> None:
    """Raise IllegalAction unless ``spec`` is a well-formed chance spec."""
    kind = spec.get("kind") if isinstance(spec, dict) else None
    if kind == "dice":
        _positive(spec, "count", 100), _positive(spec, "sides", 1000)
    elif kind == "shuffle":
        _positive(spec, "n")
    elif kind == "choice":
        _positive(spec, "n"), _positive(spec, "k")
        if spec["k"] > spec["n"]:
            raise IllegalAction(f"chance spec {spec!r}: k exceeds n")
    else:
        raise IllegalAction(f"unknown chance spec {spec!r}")
    expected = _SPEC_KEYS[kind]
    if spec.keys() != expected:
        raise IllegalAction(f"chance spec {spec!r} must have exactly the keys {sorted(expected)}")


def derive(seed: bytes, match_id: str, seq: int, spec: dict):
    """The outcome of the chance event ``seq`` of match ``match_id`` (see the module doc)."""
    check_spec(spec)
    stream = _Stream(seed, str(match_id), seq)
    kind = spec["kind"]
    if kind == "dice":
        return [1 + stream.below(spec["sides"]) for _ in range(spec["count"])]
    n = spec["n"]
    k = n if kind == "shuffle" else spec["k"]
    items = list(range(n))
    for i in range(k):  # the first k steps of a Fisher-Yates shuffle
        j = i + stream.below(n - i)
        items[i], items[j] = items[j], items[i]
    return items[:k]


def check_outcome(spec: dict, outcome) -> None:
    """Raise IllegalAction unless ``outcome`` has the shape ``spec`` allows (any seed could give it)."""
    check_spec(spec)
    if not isinstance(outcome, list) or any(type(x) is not int for x in outcome):
        raise IllegalAction(f"chance outcome {outcome!r} is not a list of ints")
    kind = spec["kind"]
    if kind == "dice":
        if len(outcome) != spec["count"] or not all(1 <= x <= spec["sides"] for x in outcome):
            raise IllegalAction(f"chance outcome {outcome!r} does not fit {spec}")
    else:
        k = spec["n"] if kind == "shuffle" else spec["k"]
        if len(outcome) != k or len(set(outcome)) != k or not all(0 <= x < spec["n"] for x in outcome):
            raise IllegalAction(f"chance outcome {outcome!r} does not fit {spec}")


def due_outcome(due, payload: dict) -> list[int]:
    """The outcome a chance event carries, checked: ``due`` (what the ruleset's ``next`` says
    now) must be a Chance whose spec the payload repeats (or omits), and the outcome must fit
    that spec. Raises IllegalAction otherwise; every ruleset's ``apply`` calls this."""
    if not isinstance(due, Chance):
        raise IllegalAction(f"no chance event is due now ({type(due).__name__.lower()})")
    spec = payload.get("spec", due.spec)
    if spec != due.spec:
        text = repr(spec)
        raise IllegalAction(f"chance spec {text if len(text) <= 60 else text[:57] + '...'} "
                            f"is not {due.spec}")
    check_outcome(due.spec, payload.get("outcome"))
    return list(payload["outcome"])
