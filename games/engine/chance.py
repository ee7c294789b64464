"""Chance outcomes derived, not drawn (ARCHITECTURE.md, "Events").

``outcome = derive(seed, match_id, seq, spec)``: a stream of HMAC-SHA256 blocks keyed by the
match's secret seed over (match id, event seq, block counter), turned into integers below n by
rejection sampling, so every outcome is exactly uniform. Nobody without the seed can predict an
outcome; after the seed is revealed anyone can re-derive every roll and shuffle.

Specs are JSON:
  {"kind": "dice", "count": c, "sides": s}       -> list of c ints in 1..s
  {"kind": "shuffle", "n": n}                    -> a permutation of range(n)
  {"kind": "choice", "n": n, "k": k}             -> k distinct ints of range(n), in drawn order

``sample(spec, rng)`` draws an outcome of the same shape with a caller's generator, for the
playouts of a bot that simulates (docs/library.md).
"""
from __future__ import annotations

import hashlib
import secrets
import struct

from .protocol import Chance, IllegalAction

_LIMIT = 1 << 64
_BLOCK_WORDS = struct.Struct(">4Q")  # an HMAC-SHA256 block read as four big-endian 64-bit words
_FIRST_WORD = struct.Struct(">Q")  # and its first word alone (a single die)
_KEY_BLOCK = 64  # SHA-256's block size: HMAC pads (or first hashes) its key to this width
_XOR_INNER = bytes(x ^ 0x36 for x in range(256))  # RFC 2104's ipad and opad, as byte maps
_XOR_OUTER = bytes(x ^ 0x5C for x in range(256))


def new_seed() -> bytes:
    """A fresh secret seed (the only randomness in a match; it lives in the service, not here)."""
    return secrets.token_bytes(32)


def commitment(seed: bytes) -> str:
    """The sha256 of the seed, published in match_created before any outcome is used."""
    return hashlib.sha256(seed).hexdigest()


class _Key:
    """HMAC-SHA256 under one key (RFC 2104, the same bytes as ``hmac.new(key, message,
    sha256)``) with the key's inner and outer blocks hashed once: ``hmac.new`` sets the key up
    again on every call, which was most of the cost of a die roll, and a validation derives every
    chance outcome of a match under the one seed."""

    def __init__(self, key: bytes):
        if len(key) > _KEY_BLOCK:
            key = hashlib.sha256(key).digest()
        key = key.ljust(_KEY_BLOCK, b"\0")
        self._inner = hashlib.sha256(key.translate(_XOR_INNER))
        self._outer = hashlib.sha256(key.translate(_XOR_OUTER))

    def digest(self, message: bytes) -> bytes:
        inner = self._inner.copy()
        inner.update(message)
        outer = self._outer.copy()
        outer.update(inner.digest())
        return outer.digest()


class _Stream:
    """Unbiased integers from HMAC-SHA256(seed, "match|seq|block"); ``key``, the seed's _Key,
    spares setting the key up again."""

    def __init__(self, seed: bytes, match_id: str, seq: int, *, key: _Key | None = None):
        self._key = key or _Key(seed)
        self._prefix = f"{match_id}|{seq}|".encode()
        self._block = 0
        self._words: list[int] = []  # the words of the last block not read yet, the next one last

    def _word(self) -> int:
        words = self._words
        if not words:
            words += _BLOCK_WORDS.unpack(self._key.digest(self._prefix + b"%d" % self._block))
            words.reverse()
            self._block += 1
        return words.pop()

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


def sample(spec: dict, rng) -> list[int]:
    """An outcome of ``spec`` drawn with the caller's ``rng`` (a ``random.Random``), in the shape
    ``derive`` gives: what a bot that simulates needs for the chance events of its playouts (a
    match's own outcomes are derived, never drawn). Every kind of spec: ``dice``, ``shuffle``
    and ``choice``; any other raises IllegalAction. ``spec`` is taken as the rules' ``next``
    gives it (``check_spec`` is not asked: playouts call this in their inner loop)."""
    kind = spec["kind"]
    if kind == "dice":
        return [rng.randint(1, spec["sides"]) for _ in range(spec["count"])]
    if kind == "shuffle":
        return rng.sample(range(spec["n"]), spec["n"])
    if kind == "choice":
        return rng.sample(range(spec["n"]), spec["k"])
    raise IllegalAction(f"unknown chance spec {spec!r}")


def derive(seed: bytes, match_id: str, seq: int, spec: dict):
    """The outcome of the chance event ``seq`` of match ``match_id`` (see the module doc)."""
    return Deriver(seed, match_id)(seq, spec)


_UNCHECKED = object()


class Deriver:
    """``derive`` for one seed and match, the HMAC key set up once for all its events."""

    def __init__(self, seed: bytes, match_id: str):
        self.seed, self.match_id = seed, str(match_id)
        self._key = _Key(seed)
        self._match_prefix = f"{self.match_id}|".encode()
        self._checked = _UNCHECKED  # the spec object checked last: a game's chance node is a constant
        self._dice = None  # and, for a roll of at most four dice, its (sides, count, ceiling)

    def __call__(self, seq: int, spec: dict):
        """The outcome of the chance event ``seq`` (checks the spec first)."""
        if spec is not self._checked:
            check_spec(spec)
            self._checked = spec
            self._dice = ((spec["sides"], spec["count"], _LIMIT - (_LIMIT % spec["sides"]))
                          if spec["kind"] == "dice" and spec["count"] <= 4 else None)
        dice = self._dice
        if dice is not None:
            # Most rolls: the stream's first block holds a word for every die, and each word is
            # used unless it falls in the rejected sliver (a chance of sides in 2**64 a die),
            # where the stream itself draws the roll. The same outcome, without a _Stream, and
            # the block's HMAC (_Key.digest) written out: a validation derives every roll.
            sides, count, ceiling = dice
            key = self._key
            inner = key._inner.copy()
            inner.update(b"%b%d|0" % (self._match_prefix, seq))
            outer = key._outer.copy()
            outer.update(inner.digest())
            digest = outer.digest()
            if count == 1:
                word = _FIRST_WORD.unpack_from(digest)[0]
                if word < ceiling:
                    return [1 + word % sides]
            else:
                words = _BLOCK_WORDS.unpack(digest)[:count]
                if max(words) < ceiling:
                    return [1 + word % sides for word in words]
        kind = spec["kind"]
        stream = _Stream(self.seed, self.match_id, seq, key=self._key)
        if kind == "dice":
            return [1 + stream.below(spec["sides"]) for _ in range(spec["count"])]
        n = spec["n"]
        k = n if kind == "shuffle" else spec["k"]
        items = list(range(n))
        for i in range(k):  # the first k steps of a Fisher-Yates shuffle
            j = i + stream.below(n - i)
            items[i], items[j] = items[j], items[i]
        return items[:k]


_INTS_ONLY = {int}


def check_outcome(spec: dict, outcome) -> None:
    """Raise IllegalAction unless ``outcome`` has the shape ``spec`` allows (any seed could give it).
    Every apply of a chance event asks it (due_outcome), so it looks at the outcome through
    C-level set, min and max rather than a Python loop per member (a deal of 20: 7 -> 3 us)."""
    check_spec(spec)
    if not isinstance(outcome, list) or (outcome and set(map(type, outcome)) != _INTS_ONLY):
        raise IllegalAction(f"chance outcome {outcome!r} is not a list of ints")
    kind = spec["kind"]
    if kind == "dice":  # count >= 1 (check_spec): a list of that length has a min and a max
        if len(outcome) != spec["count"] or not (1 <= min(outcome) and max(outcome) <= spec["sides"]):
            raise IllegalAction(f"chance outcome {outcome!r} does not fit {spec}")
    else:  # k >= 1, as for dice
        k = spec["n"] if kind == "shuffle" else spec["k"]
        if (len(outcome) != k or len(set(outcome)) != k
                or not (0 <= min(outcome) and max(outcome) < spec["n"])):
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
