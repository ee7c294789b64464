"""Built-in bots speak the bot protocol (docs/protocol.md) in process: ``hello`` once, ``act``
each time the seat must choose (its view and legal actions), ``result`` at the end."""
from __future__ import annotations

import random

from .protocol import Ruleset


class Bot:
    """A built-in bot. ``seed`` makes its own choices repeatable; it never touches chance."""

    name = "bot"

    def __init__(self, ruleset: Ruleset, seed: int = 0):
        self.ruleset = ruleset
        self.rng = random.Random(seed)
        self.seat: int | None = None

    def hello(self, message: dict) -> None:
        self.seat = message["seat"]

    def act(self, message: dict):
        """Answer {"type": "act", "seat", "view", "legal_actions"} with one legal action."""
        raise NotImplementedError

    def result(self, message: dict) -> None:
        pass


class RandomBot(Bot):
    """Picks uniformly among the legal actions."""

    name = "random"

    def act(self, message: dict):
        return self.rng.choice(message["legal_actions"])
