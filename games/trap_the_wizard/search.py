"""Trap the Wizard's tuning of the generic search bot, played under the name ``search``.

The generic search (games/engine/search.py) plays out 20 random decisions below its tree and
places the seats by ``score_now``, the points the round would give as it stands. In Trap the
Wizard that judges most moves alike: few wizards are caught in 20 random decisions, so most
playouts end level, and the search keeps its prior's move (the greedy bot's). Rounds the
greedy bot plays against itself end level at the turn limit (D13) one time in five, its last
wizards going round the wheel for hundreds of rolls without ever stopping where an enemy can
reach them, and the generic search tied as often (37 of its 200 games against it).

This tuning changes two things, and only these:

1. **A short playout**: ``CUT_DECISIONS`` (4) random decisions below the tree, not 20. With a
   tree over the die's open loop, that makes the search a shallow look-ahead over the next rolls
   of both seats, and five times as many iterations a second.
2. **An evaluation at the cut** (``evaluate``), in place of the bare points: the points
   (``score_now``) weighted ``POINT``, plus, for every stack an enemy wizard could land on with
   its next roll (§1.3, §4.3: not on a special field unless it carries the joker; never on a
   start field, D5), the chance of that roll (the die faces that land there, over six) times
   what the stack is worth (the wizard and the pieces it carries), taken from its seat and
   given to the seat that threatens it. A stack whose own seat is to move may walk away first,
   so its threat counts ``OWN_MOVE_RISK`` as much.

The iteration itself is the generic one: ``_iterate`` is the generic function's own code run
with this module's cut (``CUT_DECISIONS``), so every other part of the search (selection,
chance, the prior and the override rule, the back-up) is the one every game plays, and stays
so when it changes (tests/games/test_trap_the_wizard_search.py holds the code object the
same). The evaluation reaches it where the generic search asks the rules for ``score_now``.

Measured by bench/search.py (200 ms of CPU time a move against the greedy bot, one round a
match, 200 games): 124 wins, 17 ties, 59 losses (62.0 %), where the generic search went
104-37-59 on the same deals (BENCHMARKS.md).
"""
from __future__ import annotations

import types

from games.engine.search import SearchBot

from . import TrapTheWizard

CUT_DECISIONS = 4
POINT = 10.0  # a point as the round would score it, against a stack's worth under threat
OWN_MOVE_RISK = 0.35  # a threat to a stack whose seat is to move (it may walk away first)
FACES = range(1, 7)


def evaluate(ruleset: TrapTheWizard, state) -> list[float]:
    """Each seat's value at a playout's cut: its points (the ruleset's ``score_now``) times
    POINT, plus the threats it makes, less the threats it stands under (see the module
    docstring). A seat out of play is below all."""
    points = ruleset.score_now(state)
    lay = state.layout
    reach, special, starts = lay.board.reach, lay.board.special, lay.home_owner
    joker, per_seat, fields, captives = state.joker, state.options.wizards, state.fields, state.captives
    value = [POINT * p for p in points]
    free = [(piece, at) for piece, at in enumerate(fields[:joker]) if at is not None]
    for stack, field in free:
        if field in starts:  # D5: nobody lands on a start field
            continue
        seat = stack // per_seat
        chance = {}  # threatening seat -> the best chance of one of its wizards
        for wizard, at in free:
            hunter = wizard // per_seat
            if hunter == seat or (field in special and joker not in captives[wizard]):
                continue
            faces = sum(1 for face in FACES if field in reach[at][face])
            if faces > chance.get(hunter, 0):
                chance[hunter] = faces
        if not chance:
            continue
        worth = (1 + len(captives[stack])) * (OWN_MOVE_RISK if state.turn == seat else 1.0) / len(FACES)
        value[seat] -= max(chance.values()) * worth
        for hunter, faces in chance.items():
            value[hunter] += faces * worth
    return [-1e9 if seat in state.forfeited else v for seat, v in enumerate(value)]


class _Evaluated:
    """The rules as this search plays them: the game's own, but ``score_now`` is ``evaluate``
    (where the generic iteration cuts a playout). The calls of every iteration are bound here
    once; anything else is the ruleset's."""

    def __init__(self, ruleset):
        self.rules = ruleset
        self.next, self.legal_actions = ruleset.next, ruleset.legal_actions
        self.apply_in_place, self.determinize = ruleset.apply_in_place, ruleset.determinize

    def score_now(self, state) -> list[float]:
        return evaluate(self.rules, state)

    def __getattr__(self, name):
        return getattr(self.rules, name)


def _with_cut(function, decisions: int):
    """``function`` (the generic iteration) with its module's PLAYOUT_DECISIONS read as
    ``decisions``: the same code object, run over a copy of its globals taken when this module
    is imported (a later change to the generic module's constants does not reach it)."""
    names = dict(function.__globals__, PLAYOUT_DECISIONS=decisions)
    return types.FunctionType(function.__code__, names, function.__name__, function.__defaults__,
                              function.__closure__)


class TrapSearchBot(SearchBot):
    """The generic search with a four-decision playout and ``evaluate`` at its cut."""

    _iterate = _with_cut(SearchBot._iterate, CUT_DECISIONS)

    def __init__(self, ruleset, seed: int = 0, **kwargs):
        super().__init__(ruleset, seed, **kwargs)  # the prior (greedy) plays the rules as they are
        self.ruleset = _Evaluated(ruleset)

