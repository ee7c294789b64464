"""Built-in bots speak the bot protocol (docs/protocol.md) in process: ``hello`` once, ``act``
each time the seat must choose (its view and legal actions), ``result`` at the end."""
from __future__ import annotations

import random

from .protocol import Ruleset


class Bot:
    """A built-in bot. ``seed`` makes its own choices repeatable; it never touches chance."""

    name = "bot"
    # A bot that thinks for as long as its clock allows (the search bot) is left out of the
    # lineups that default to every built-in bot (manage.py tournament without --bots): a
    # tournament of them takes the time control times every move.
    thinks = False

    def __init__(self, ruleset: Ruleset, seed: int = 0):
        self.ruleset = ruleset
        self.rng = random.Random(seed)
        self.seat: int | None = None
        # The clock to think by when an act message carries none: a built-in bot runs in the
        # match driver's process, which tells it the match's time control (bots/driver.py).
        self.clock: dict | None = None

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
