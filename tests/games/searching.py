"""Helpers for the tests of a game's tuning of the search bot."""
from __future__ import annotations


def events_per_iteration(ruleset_class: type, state, bot_class: type, *, iterations: int,
                         seat: int = 0) -> float:
    """How many events ``bot_class`` applies an iteration (its tree's, its playout's and their
    chance) searching ``state`` for ``seat`` a fixed ``iterations`` times with a fixed seed, the
    rules being ``ruleset_class``'s with their applies counted."""

    class Counting(ruleset_class):
        applied = 0

        def apply_in_place(self, state, event):
            self.applied += 1
            return super().apply_in_place(state, event)

    rules = Counting()
    bot = bot_class(rules, seed=3, iterations=iterations)
    bot.hello({"seat": seat})
    bot.act({"type": "act", "seat": seat, "view": rules.view(state, seat),
             "legal_actions": rules.legal_actions(state, seat)})
    return rules.applied / iterations
