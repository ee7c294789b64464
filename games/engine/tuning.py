"""A game's tuning of the generic search bot (games/engine/search.py), in two parts a game may
take: a shorter playout below the tree, and its own evaluation where a playout is cut.

Both leave the generic iteration's code as it is, so that selection, chance, the prior and the
rule for leaving it, and the back-up stay the ones every game plays, and stay so when they
change:

- ``with_cut(SearchBot._iterate, decisions)`` is the generic iteration's own code object run
  with ``PLAYOUT_DECISIONS`` read as ``decisions``;
- ``Evaluated(ruleset, evaluate)`` is the rules as the search plays them, with ``score_now``
  (where the generic iteration cuts a playout and places the seats) answered by
  ``evaluate(ruleset, state)``: a value per seat, higher better, ranked as scores are.

Games/imperial_twing/search.py is a tuning made of these two.
"""
from __future__ import annotations

import types
from typing import Callable


def with_cut(function, decisions: int):
    """``function`` (the generic iteration) with its module's PLAYOUT_DECISIONS read as
    ``decisions``: the same code object, run over a copy of its globals taken when this is
    called (a later change to the generic module's constants does not reach it)."""
    names = dict(function.__globals__, PLAYOUT_DECISIONS=decisions)
    return types.FunctionType(function.__code__, names, function.__name__, function.__defaults__,
                              function.__closure__)


class Evaluated:
    """The rules as a tuned search plays them: the game's own, but ``score_now`` is the game's
    evaluation. The calls of every iteration are bound here once; anything else is the
    ruleset's."""

    def __init__(self, ruleset, evaluate: Callable[[object, object], list[float]]):
        self.rules, self._evaluate = ruleset, evaluate
        self.next, self.legal_actions = ruleset.next, ruleset.legal_actions
        self.apply_in_place, self.determinize = ruleset.apply_in_place, ruleset.determinize

    def score_now(self, state) -> list[float]:
        return self._evaluate(self.rules, state)

    def __getattr__(self, name):
        return getattr(self.rules, name)
