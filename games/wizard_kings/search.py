"""Wizard Kings' search bot, played under the name ``search``: policy switching over ways to move.

The generic search (games/engine/search.py) does not play Wizard Kings better than the heuristic
bot it starts from: a move phase offers some 70 moves, one block at a time, a random playout of
them says next to nothing of a move, and more time made it worse (BENCHMARKS.md, 20 % wins at
1 s a move against 27 % at 200 ms). Three tries at a better judge of a single move (a cut
playout scored by city gold and strength; playouts by the heuristic bot; the last turns searched
to the end) did not change that.

This bot searches over whole ways of moving instead of single moves: policy switching (Chung,
Buro and Schaeffer's Monte Carlo planning for real-time strategy games; King, Fern and
Hostetler's policy switching). ``POLICIES`` are the heuristic bot's movement with other weights
(bots.MoveWeights): its own, ``attack`` (into an enemy's hex with as many blocks as it has),
``storm`` (attack wherever a block can reach, one block fewer too, and leave no garrison) and
``defend`` (a garrison stays where an enemy block is three hexes from it, attack only two blocks
up). At each of its move decisions it plays
out the rest of the game from determinizations of its view (``determinize``: the blocks it has
not seen are drawn), for each policy in turn: its seat moves by that policy (and fights and
builds as the heuristic bot does), every other seat plays the heuristic bot, chance is drawn
with its own generator; a playout stops ``AHEAD`` turns on and the seats are placed by the gold
of the cities they hold then (1.23, ``score_now``), or by the end where the game ends first. The
policy with the best mean reward this turn makes the move (the heuristic bot's first where
they tie); the statistics of a turn are kept over its move decisions, and start afresh at the
next turn. In every other phase the choices are the heuristic bot's: the policies differ only
in how they move.

What the search knows of its opponents is a model: that they play as the heuristic bot does.
Against the heuristic bot that model is right but for its hidden blocks and the dice; against
another bot it is a guess, as the uniform random playouts of the generic search are.

Measured by bench/search.py on version 3's default, 1.23's two-player game to the victory
(200 ms of CPU time a move against the heuristic bot; BENCHMARKS.md's notes): 34 wins, 4 ties, 11 losses of 49 games (69.4 % wins, 95 % interval 55.5-80.5 %, score 73.5 %), about 53 playouts a second; on the 40 deals the heuristic bot also played in the same seat it went 16-9-15 where the search went 28-3-9 (better on 18 deals, worse on 4, sign test p 0.004). The pool stopped at 49 of its 200 games for the time.
Before (version 2, ten turns, the older heuristic bot) its pools were 126-65-9 of 200 (63.0 %,
85 playouts a second), 130-54-16, 119-72-9 and 114-64-22; each policy alone then: ``attack``
81-79-40, ``storm`` 82-81-37, ``defend`` 26-108-66. A playout is the rules' own work (the move listings,
``apply``) and its bots' (views of the six parts they read, ``HeuristicBot.READS``; the moves
weighed); the rules keep the paths a block's search found (movement._routes, bounded), which
the playouts ask again and again.
"""
from __future__ import annotations

from games.engine.protocol import Chance, Ended, Event, Result
from games.engine.search import ROLLOUT_EVENTS, SearchBot, rewards, sample_outcome

from . import seat_view
from .bots import HeuristicBot, MoveWeights

# The ways of moving searched over, the heuristic bot's own first (it plays where they tie).
POLICIES = {
    "heuristic": MoveWeights(),
    "attack": MoveWeights(need=0, lose=-2.0, city=5.0),
    "storm": MoveWeights(need=-1, lose=1.0, garrison=0.0, wizard=0.0, retake=8.0),
    "defend": MoveWeights(need=2, garrison=-7.0, threat=3, guard=3.0),
}
AHEAD = 3  # a playout stops this many turns after the current one (scored by city gold, 1.23)


class WizardKingsSearchBot(SearchBot):
    """Policy switching over ``POLICIES`` (see the module docstring). The budget is the generic
    search's (``budget_seconds``: a share of the clock, ``think_ms``, or ``iterations``)."""

    def __init__(self, ruleset, seed: int = 0, **kwargs):
        super().__init__(ruleset, seed, prior=False, **kwargs)
        self.policies = {name: HeuristicBot(ruleset, seed, weights=weights)
                         for name, weights in POLICIES.items()}
        self.model = HeuristicBot(ruleset, seed)  # every other seat, in the playouts
        self.turn = None  # the turn whose statistics ``stats`` holds
        self.stats: dict[str, list[float]] = {}  # policy -> [playouts, summed reward]
        self.last_policy = None  # the policy that made the last move (for tests and the bench)

    def hello(self, message: dict) -> None:
        super().hello(message)
        for policy in self.policies.values():
            policy.hello(message)

    def act(self, message: dict):
        view, legal = message["view"], message["legal_actions"]
        self.last_iterations, self.last_seconds = 0, 0.0
        heuristic = self.policies["heuristic"]
        if len(legal) == 1 or view["phase"] != "move":
            self.last_policy = "heuristic"
            return heuristic.act(message)  # the policies differ only in how they move
        if view["turn"] != self.turn:
            self.turn, self.stats = view["turn"], {name: [0, 0.0] for name in self.policies}
        seat, timer, stats = message["seat"], self.timer, self.stats
        cap = self.iterations if self.iterations is not None else float("inf")
        started = timer()
        deadline = None if self.iterations is not None else started + self.budget_seconds(message)
        done = 0
        while done < cap and (deadline is None or timer() < deadline):
            name = min(self.policies, key=lambda policy: stats[policy][0])  # in turn
            state = self.ruleset.determinize(view, seat, self.rng)
            stats[name][0] += 1
            stats[name][1] += self._playout(state, seat, self.policies[name], view["turn"] + AHEAD)
            done += 1
        self.last_iterations, self.last_seconds = done, timer() - started
        best = max(self.policies, key=lambda policy: stats[policy][1] / stats[policy][0]
                   if stats[policy][0] else -1.0)  # max keeps the first of equals
        self.last_policy = best
        return self.policies[best].act(message)

    def _playout(self, state, me: int, policy: HeuristicBot, until: int) -> float:
        """``me``'s reward (its placing scaled to [0, 1], search.rewards) of one playout from
        ``state``, a determinization it owns (folded in place): ``me`` plays ``policy``, every
        other seat the heuristic bot, chance drawn with the bot's generator; stopped after turn
        ``until`` and scored as the board stands (1.23), or at the end."""
        ruleset, rng = self.ruleset, self.rng
        apply = ruleset.apply_in_place
        for _ in range(ROLLOUT_EVENTS):
            nxt = ruleset.next(state)
            if isinstance(nxt, Ended):
                return rewards(nxt.result, len(nxt.result.placings))[me]
            if isinstance(nxt, Chance):
                state = apply(state, Event.chance(nxt.spec, sample_outcome(nxt.spec, rng)))
                continue
            if state["turn"] > until:
                scores = ruleset.score_now(state)
                return rewards(Result.from_scores(scores), len(scores))[me]
            seat = nxt.seats[0]
            bot = policy if seat == me else self.model
            bot.seat = seat
            view = seat_view(state, seat, keys=bot.READS)  # the parts the bot reads
            action = bot.act({"type": "act", "seat": seat, "view": view,
                              "legal_actions": ruleset.legal_actions(state, seat)})
            state = apply(state, Event.action(seat, action))
        return 0.5  # a playout that never ended: a draw, as the generic search counts it
