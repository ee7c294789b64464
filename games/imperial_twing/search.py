"""Imperial Twing's tuning of the generic search bot, played under the name ``search``.

The generic search (games/engine/search.py) plays out 20 random decisions below its tree and
places the seats by ``score_now``: 100 + 100 x objects + ornicles for a seat in the game (D25;
10 x objects before version 3).
That ranks two seats by objects and ornicles alone, which change only when a fight is won or an
object bought, and says nothing of the cards that win the next fight. Why this tuning was tried:
a shallower look-ahead judged by what the heuristic bot's games show to win.

This tuning changes two things, and only these (games/engine/tuning.py):

1. **A short playout**: ``CUT_DECISIONS`` (4) random decisions below the tree, not 20: the
   search becomes a look-ahead over the next few decisions (a fight's cards, a response), with
   about two and a half times the iterations a second (1,340-1,510 against 540-570 on the same
   60 positions of the heuristic bot's games, CPU time, 2026-11-28).
2. **An evaluation at the cut** (``evaluate``): each seat's ``features`` weighted by
   ``WEIGHTS``, the log-odds of winning that the heuristic bot's own games give a position
   (``bench/evaluation.py`` fits them: logistic regression of the winner on the difference of
   the two seats' features at every turn of 2,000 two-player games against itself). Objects
   count most (Z.1: three of them open the endgame, and G.2: a seat without one leaves), then
   the cards that win fights, ornicles (C.1: they buy objects), and a seat already in the
   endgame (G.1). A seat that has left is placed below every seat in the game by the rank of
   its leaving (D25), a forfeited seat below all (D14).

The iteration itself is the generic one: ``_iterate`` is the generic function's own code run
with this module's cut, so every other part of the search (selection, chance, the prior and
the override rule, the back-up) is the one every game plays.

Measured by bench/search.py (200 ms of CPU time a move against the heuristic bot, 200 games):
124 wins, 76 losses (62.0 %), where the heuristic bot won 103 of the same deals and the generic
search 119; against the generic search deal by deal, 51 better and 46 worse, so the tuning's
own gain is not shown (BENCHMARKS.md).
"""
from __future__ import annotations

from games.engine.search import SearchBot
from games.engine.tuning import Evaluated, with_cut

from .content import CARD
from .table import in_play, owned_objects

CUT_DECISIONS = 4
# name -> weight of one unit of the feature, in log-odds of winning (bench/evaluation.py fitted
# them on 165,506 positions of 2,000 two-player games of the heuristic bot against itself: the
# log-likelihood of the held-out fifth is -0.521 a position, against -0.541 with objects and
# ornicles alone and -0.693 for the even guess).
WEIGHTS = {
    "objects": 0.572,        # Z.1, O.1: magic objects owned, active or set aside
    "ornicles": 0.074,       # N.1, C.1: ornicles held (they buy objects)
    "endgame": 0.078,        # G.1: the seat has begun its endgame
    "spell_power": 0.020,    # F.2: the power of the spells in hand
    "cats": 0.075,           # K.1-K.4, RI.1: cat cards in hand (re-rolls, Miromon, the ritual)
    "traps": 0.173,          # P.2, P.3: trap cards in hand (a creature taken)
    "retinue_power": 0.044,  # T.2, H.5: the power of the creatures and mounts in the retinue
}
LEFT = -1000.0  # a seat that left the game (G.2), below any seat in it


def features(state: dict, seat: int) -> dict[str, float]:
    """What the evaluation weighs of ``seat`` (WEIGHTS' names), read off the full state."""
    hand, retinue = state["hands"][seat], state["retinues"][seat]
    kinds = [CARD[card].kind for card in hand]
    return {
        "objects": len(owned_objects(state, seat)),
        "ornicles": state["ornicles"][seat],
        "endgame": 1.0 if state["in_endgame"][seat] else 0.0,
        "spell_power": sum(CARD[card].power for card, kind in zip(hand, kinds) if kind == "spell"),
        "cats": kinds.count("cat"),
        "traps": kinds.count("trap"),
        "retinue_power": sum(CARD[card].power for card in retinue),
    }


def evaluate(ruleset, state: dict) -> list[float]:
    """Each seat's value where a playout is cut (see the module docstring): the weighted
    features of a seat in the game; ``LEFT`` plus the rank of its leaving (``score_now``) for
    a seat that left; a forfeited seat below all."""
    ranks, playing = ruleset.score_now(state), set(in_play(state))
    values = []
    for seat in range(state["players"]):
        if seat in state["forfeited"]:
            values.append(-1e9)
        elif seat not in playing:
            values.append(LEFT + ranks[seat])
        else:
            found = features(state, seat)
            values.append(sum(WEIGHTS[name] * found[name] for name in WEIGHTS))
    return values


class ImperialSearchBot(SearchBot):
    """The generic search with a four-decision playout and ``evaluate`` at its cut."""

    _iterate = with_cut(SearchBot._iterate, CUT_DECISIONS)

    def __init__(self, ruleset, seed: int = 0, **kwargs):
        super().__init__(ruleset, seed, **kwargs)  # the prior (heuristic) plays the rules as they are
        self.ruleset = Evaluated(ruleset, evaluate)
