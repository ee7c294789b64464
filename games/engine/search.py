"""A generic search bot: information-set Monte Carlo tree search over the engine contract.

The bot sees what every bot sees, the ``act`` message (its seat's view and legal actions), and
searches with nothing but the contract: ``determinize``, ``next``, ``legal_actions`` and
``apply_in_place``. It plays every registered game, present and future, with 2-7 seats, chance
and simultaneous decisions.

One iteration (Cowling, Powley and Whitehouse's single-observer ISMCTS, open loop):

1. **Determinize**: draw a full state consistent with the view, ``determinize(view, seat, rng)``;
   what is hidden from the seat (cards not seen, blocks not revealed, deck order, other seats'
   secret choices) is drawn at random, so the search averages over what the seat cannot know.
   The iteration owns that state and plays on it in place (``apply_in_place``), with no copy
   of the state per event.
2. **Select** down the tree: a node holds, for every seat that acts there, statistics per action
   (visits, summed reward, and how often the action was available: different determinizations
   allow different actions, so UCB uses the availability count where UCT uses the parent's
   visits). Chance outcomes are drawn with the bot's own generator, never the match's seed, and
   do not branch the tree (open loop: a node stands for the actions taken, and its statistics
   average over chance).
3. **Expand** one untried action, then **play out** uniformly at random to the end (at most
   ``ROLLOUT_EVENTS`` events; a playout cut there counts as a draw for every seat). A game with
   ``score_now`` (the score were the game scored as it stands) has its playouts cut after
   ``PLAYOUT_DECISIONS`` decisions and the seats placed by that score: where a game runs long
   and random play decides little (a Trap the Wizard round of 300 random rolls), the near future
   says more about a move than a random end does.
4. **Back up** every seat's reward, its placing scaled to [0, 1] (first 1, last 0, ties shared),
   each seat's statistics with its own reward: every seat is assumed to play for itself.

A prior: the game's best hand-written bot (``PRIOR_BOTS``) is asked for its move at the root,
which is the first move tried there and then gets a progressive bias (``PRIOR_BIAS / (visits +
1)`` on its UCB value); the move most visited is played over it only where its mean reward is
higher by more than ``OVERRIDE_Z`` standard errors, so the prior's move is played where the
search tried too few moves to know better (Wizard Kings' movement: some 70 moves, 20 iterations;
a move whose one playout was won was played before the prior's was even tried). Random
playouts are a weak judge of a move (worse where determinizations see every hidden card), and
a short search that starts from the hand-written move and leaves it on evidence only beats the
hand-written bot where a plain search loses to it (bench/search.py).

Simultaneous decisions (several seats in one ``ToAct``) are searched as the rules play them: each
seat chooses from statistics that do not depend on the others' choices in that decision, and the
tree goes on below the joint choice.

Budget: ``MOVE_SHARE`` of ``move_ms`` plus ``BANK_SHARE`` of what is left of the bank, less a
``SAFETY_MS`` margin, from the ``clock`` of the ``act`` message; or a fixed number of iterations
(``iterations=``), which makes the bot deterministic for a given seed whatever the machine.
"""
from __future__ import annotations

import json
import math
import time

from .bots import Bot
# A playout's chance outcomes: the public sampler of every chance spec (dice, shuffle, choice),
# under the name this module always gave it.
from .chance import sample as sample_outcome
from .protocol import Chance, Ended, Event, Result, Ruleset

EXPLORATION = 0.7  # UCB's constant for rewards in [0, 1]
# Progressive bias (Chaslot et al.): at the root, the move the game's best hand-written bot
# would play gets PRIOR_BIAS / (visits + 1) on top of its UCB value, so that a short search
# starts from it and leaves it only for what its playouts show to be better. PRIOR_BOTS: the
# built-in bots asked, the first the game ships.
PRIOR_BIAS = 1.0
# ... and the move searched is played over the prior's only where its mean reward is higher by
# more than OVERRIDE_Z standard errors: where random playouts say little (a game of hidden
# cards, whose determinizations know them all), the search does not throw a good move away.
OVERRIDE_Z = 2.0
PRIOR_BOTS = ("heuristic", "greedy")
MOVE_SHARE, BANK_SHARE, SAFETY_MS = 0.5, 0.02, 30
DEFAULT_CLOCK = {"move_ms": 1000, "bank_ms": 0}  # when the message carries no clock
MAX_ITERATIONS = 1_000_000
ROLLOUT_EVENTS = 2_000
# With a game's ``score_now``, a playout stops after this many decisions below the tree and the
# seats are placed by the score as it stands (see the module docstring).
PLAYOUT_DECISIONS = 20


def action_key(action) -> str:
    """Actions as dictionary keys: their canonical JSON."""
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def rewards(result, players: int) -> list[float]:
    """Each seat's place scaled to [0, 1], first 1 and last 0; seats tied at a placing share
    the places they fill between them (two seats tied first of two get 0.5 each: a draw is
    worth half a win, not a win)."""
    if players == 1:
        return [1.0]
    tied = {placing: list(result.placings).count(placing) for placing in set(result.placings)}
    return [(players - placing - (tied[placing] - 1) / 2) / (players - 1) for placing in result.placings]


def _surely_better(arm: "_Arm", other: "_Arm") -> bool:
    """Is ``arm``'s mean reward above ``other``'s by more than OVERRIDE_Z standard errors? Each
    reward is taken as a win rate, with a win and a loss added (Laplace's rule), so that two
    wins in two playouts are not taken for certainty. The search leaves its prior's move only
    then."""
    if arm is other:
        return False
    rates = [((a.reward + 1) / (a.visits + 2), a.visits + 2) for a in (arm, other)]
    error = math.sqrt(sum(p * (1 - p) / n for p, n in rates))
    return rates[0][0] - rates[1][0] > OVERRIDE_Z * error


class _Arm:
    """One action of one seat at one node."""

    __slots__ = ("action", "visits", "reward", "available")

    def __init__(self, action):
        self.action, self.visits, self.reward, self.available = action, 0, 0.0, 0


class _Node:
    """The statistics of the seats that act after one sequence of actions, and the nodes below
    each joint choice."""

    __slots__ = ("arms", "children")

    def __init__(self):
        self.arms: dict[int, dict[str, _Arm]] = {}
        self.children: dict[tuple[str, ...], _Node] = {}


class SearchBot(Bot):
    """Information-set MCTS over ``determinize`` (see the module docstring)."""

    name = "search"
    thinks = True

    def __init__(self, ruleset: Ruleset, seed: int = 0, *, iterations: int | None = None,
                 think_ms: float | None = None, timer=time.perf_counter, prior: bool = True):
        super().__init__(ruleset, seed)
        # The game's best hand-written bot, asked once a move for the root's prior (None: the
        # game ships none, or prior=False: a plain search).
        shipped = ruleset.builtin_bots()
        name = next((name for name in PRIOR_BOTS if name in shipped), None) if prior else None
        self.prior = shipped[name](ruleset, seed) if name else None
        self._prior_action, self._prior_key = None, None
        self.iterations = iterations
        # A fixed thinking time instead of a share of the clock, and the clock it is measured on
        # (bench/search.py thinks 200 ms of the process's CPU time a move, so that a busy machine
        # does not weaken the bot it measures).
        self.think_ms, self.timer = think_ms, timer
        self.last_iterations = 0  # how many the last move ran (for the bench and tests)
        self.last_seconds = 0.0  # and how long it thought
        self._scores_now = type(ruleset).score_now is not Ruleset.score_now

    def budget_seconds(self, message: dict) -> float:
        """The thinking time of this move: ``think_ms`` if set, else from the clock the message
        gives (or the bot was told)."""
        if self.think_ms is not None:
            return self.think_ms / 1000
        clock = message.get("clock") or self.clock or DEFAULT_CLOCK
        ms = MOVE_SHARE * clock.get("move_ms", 0) + BANK_SHARE * clock.get("bank_ms", 0) - SAFETY_MS
        return max(ms, 1) / 1000

    def hello(self, message: dict) -> None:
        super().hello(message)
        if self.prior is not None:
            self.prior.hello(message)

    def result(self, message: dict) -> None:
        if self.prior is not None:
            self.prior.result(message)

    def act(self, message: dict):
        legal = message["legal_actions"]
        if len(legal) == 1:
            self.last_iterations, self.last_seconds = 0, 0.0
            return legal[0]
        seat, view, timer = message["seat"], message["view"], self.timer
        cap = self.iterations if self.iterations is not None else MAX_ITERATIONS
        started = timer()
        deadline = None if self.iterations is not None else started + self.budget_seconds(message)
        # The prior's move is asked within the budget: its thinking is part of this move's.
        if self.prior is not None:
            self._prior_action = self.prior.act(message)
            self._prior_key = action_key(self._prior_action)
        root, done = _Node(), 0
        while done < cap and (deadline is None or timer() < deadline):
            self._iterate(self.ruleset.determinize(view, seat, self.rng), root, seat)
            done += 1
        self.last_iterations, self.last_seconds = done, timer() - started
        arms = root.arms.get(seat, {})
        scored = [(arms[key].visits, arms[key].reward, index) for index, key in
                  enumerate(action_key(action) for action in legal) if key in arms]
        if self.prior is not None:
            # The prior's move unless a move searched beats it surely; with no playout of its
            # own (no time to search) nothing does.
            best = legal[max(scored)[2]] if scored else self._prior_action
            favoured = arms.get(self._prior_key) or _Arm(self._prior_action)
            return best if _surely_better(arms.get(action_key(best), favoured), favoured) else favoured.action
        return legal[max(scored)[2]] if scored else self.rng.choice(legal)

    # -- one iteration ------------------------------------------------------------------------
    def _choose(self, node: _Node, seat: int, legal: list, prior: str | None = None) -> tuple[_Arm, bool]:
        """An untried action if there is one (the tree grows there), else UCB over the arms
        available in this determinization, the ``prior`` action's (a key) with its progressive
        bias. Returns the arm and whether it was untried."""
        arms = node.arms.setdefault(seat, {})
        available = []
        for action in legal:
            key = action_key(action)
            arm = arms.get(key)
            if arm is None:
                arm = arms[key] = _Arm(action)
            arm.available += 1
            available.append(arm)
        favoured = arms.get(prior) if prior is not None else None
        if favoured is not None and favoured.visits == 0 and favoured in available:
            return favoured, True  # the prior's move is tried first (see the module docstring)
        untried = [arm for arm in available if arm.visits == 0]
        if untried:
            return self.rng.choice(untried), True
        return max(available, key=lambda arm: arm.reward / arm.visits
                   + EXPLORATION * math.sqrt(math.log(arm.available) / arm.visits)
                   + (PRIOR_BIAS / (arm.visits + 1) if arm is favoured else 0.0)), False

    def _iterate(self, state, root: _Node, me: int) -> None:
        """One iteration from ``state``, a determinization drawn for it alone: it is folded in
        place (``apply_in_place``, no copy per event), which the conformance suite holds sound
        (tests/conformance/test_determinize.py: a determinized state shares nothing with its
        view or with anything that outlives it)."""
        ruleset, rng = self.ruleset, self.rng
        apply = ruleset.apply_in_place
        node: _Node | None = root  # None below the frontier: the playout
        path: list[tuple[_Arm, int]] = []
        reward, events, decisions = None, 0, 0
        cut = PLAYOUT_DECISIONS if self._scores_now else None
        while events < ROLLOUT_EVENTS:  # past it the playout is cut: a draw for everyone
            nxt = ruleset.next(state)
            if isinstance(nxt, Ended):
                reward = rewards(nxt.result, len(nxt.result.placings))
                break
            events += 1
            if isinstance(nxt, Chance):
                state = apply(state, Event.chance(nxt.spec, sample_outcome(nxt.spec, rng)))
                continue
            if node is None:
                if cut is not None:
                    if decisions >= cut:
                        scores = ruleset.score_now(state)
                        reward = rewards(Result.from_scores(scores), len(scores))
                        break
                    decisions += 1
                seat = nxt.seats[0]
                action = rng.choice(ruleset.legal_actions(state, seat))
                state = apply(state, Event.action(seat, action))
                continue
            # Every seat of this decision chooses from the node's statistics, the searching seat
            # first where it is one of them (the root's statistics are its own), none seeing the
            # others' choices; the tree goes on below the joint choice.
            keys, frontier = [], False
            for index, seat in enumerate(sorted(nxt.seats, key=lambda s: s != me)):
                if index and seat not in getattr(ruleset.next(state), "seats", ()):
                    break  # an earlier choice of this decision ended it (the rules allow that)
                arm, untried = self._choose(node, seat, ruleset.legal_actions(state, seat),
                                            self._prior_key if node is root and seat == me else None)
                path.append((arm, seat))
                keys.append(action_key(arm.action))
                frontier = frontier or untried
                state = apply(state, Event.action(seat, arm.action))
            node = None if frontier else node.children.setdefault(tuple(keys), _Node())
        for arm, seat in path:
            arm.visits += 1
            arm.reward += 0.5 if reward is None else reward[seat]
