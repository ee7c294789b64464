"""The generic search bot (games/engine/search.py) on small games whose best play is known."""
import dataclasses
import random
from dataclasses import dataclass

import pytest

from games.engine.protocol import Chance, Ended, GameSpec, Result, Ruleset, ToAct
from games.engine.bots import Bot
from games.engine.search import (OVERRIDE_Z, PLAYOUT_DECISIONS, SearchBot, _Arm, _surely_better,
                                 action_key, rewards, sample_outcome)


@dataclass(frozen=True)
class _NoOptions:
    pass


class Sticks(Ruleset):
    """Take 1-3 sticks in turn; who takes the last one wins. The player to move wins exactly when
    the sticks left are not a multiple of 4 (take sticks % 4)."""

    spec = GameSpec(name="test-sticks", title="Sticks", version=1, min_players=2, max_players=2,
                    chance=False, hidden_information=False, simultaneous=False, rulebook="(test)")
    Options = _NoOptions

    def setup(self, players, options):
        return {"left": 21, "turn": 0, "winner": None}

    def next(self, state):
        if state["winner"] is not None:
            scores = [1 if seat == state["winner"] else 0 for seat in range(2)]
            return Ended(Result.from_scores(scores))
        return ToAct((state["turn"],))

    def legal_actions(self, state, seat):
        return [{"take": n} for n in range(1, min(3, state["left"]) + 1)] if seat == state["turn"] else []

    def apply(self, state, event):
        left = state["left"] - event.payload["action"]["take"]
        return {"left": left, "turn": 1 - state["turn"], "winner": event.seat if left == 0 else None}

    def view(self, state, seat):
        return dict(state)

    def determinize(self, view, seat, rng):
        return dict(view)  # nothing is hidden: the state the view describes


class HiddenDie(Ruleset):
    """A die is rolled and only seat 0 sees it; seat 0 then says "high" or "low" and wins if it
    is right (4-6 high). Seat 1 then guesses the die's parity blind (a simultaneous-free decision
    with hidden information behind it): it scores nothing, so only seat 0's choice matters."""

    spec = GameSpec(name="test-hidden-die", title="Hidden die", version=1, min_players=2, max_players=2,
                    chance=True, hidden_information=True, simultaneous=False, rulebook="(test)")
    Options = _NoOptions

    def setup(self, players, options):
        return {"die": None, "call": None}

    def next(self, state):
        if state["die"] is None:
            return Chance({"kind": "dice", "count": 1, "sides": 6})
        if state["call"] is None:
            return ToAct((0,))
        right = (state["call"] == "high") == (state["die"] >= 4)
        return Ended(Result.from_scores([1 if right else 0, 0 if right else 1]))

    def legal_actions(self, state, seat):
        return ["high", "low"] if seat == 0 and state["die"] is not None and state["call"] is None else []

    def apply(self, state, event):
        if event.kind == "chance":
            return {**state, "die": event.payload["outcome"][0]}
        return {**state, "call": event.payload["action"]}

    def view(self, state, seat):
        return {"die": state["die"] if seat == 0 else None, "call": state["call"]}

    def determinize(self, view, seat, rng):
        die = view["die"] if view["die"] is not None else rng.randint(1, 6)
        return {"die": die, "call": view["call"]}


def _act(ruleset, state, seat, bot):
    return bot.act({"type": "act", "seat": seat, "view": ruleset.view(state, seat),
                    "legal_actions": ruleset.legal_actions(state, seat)})


@pytest.mark.parametrize("left", [5, 6, 7, 9, 10, 11])
def test_it_finds_the_winning_take(left):
    """From a position not a multiple of 4, the only winning move leaves a multiple of 4."""
    ruleset = Sticks()
    bot = SearchBot(ruleset, seed=left, iterations=3000)
    action = _act(ruleset, {"left": left, "turn": 0, "winner": None}, 0, bot)
    assert action == {"take": left % 4}
    assert bot.last_iterations == 3000


def test_it_uses_what_its_seat_sees_of_hidden_information():
    ruleset = HiddenDie()
    for die in range(1, 7):
        bot = SearchBot(ruleset, seed=die, iterations=200)
        assert _act(ruleset, {"die": die, "call": None}, 0, bot) == ("high" if die >= 4 else "low")


def test_it_is_deterministic_for_a_seed_and_an_iteration_cap():
    ruleset = Sticks()
    state = {"left": 21, "turn": 0, "winner": None}
    first = [_act(ruleset, state, 0, SearchBot(ruleset, seed=3, iterations=300)) for _ in range(2)]
    assert first[0] == first[1]


def test_a_single_legal_action_is_played_without_searching():
    ruleset = Sticks()
    bot = SearchBot(ruleset, seed=0, iterations=100)
    assert _act(ruleset, {"left": 1, "turn": 1, "winner": None}, 1, bot) == {"take": 1}
    assert bot.last_iterations == 0


def test_the_budget_is_a_documented_share_of_the_clock():
    bot = SearchBot(Sticks(), seed=0)
    # MOVE_SHARE 0.5 of move_ms plus BANK_SHARE 0.02 of the bank, less SAFETY_MS 30 ms.
    assert bot.budget_seconds({"clock": {"move_ms": 200, "bank_ms": 10_000}}) == pytest.approx(0.270)
    assert bot.budget_seconds({"clock": {"move_ms": 0, "bank_ms": 0}}) == pytest.approx(0.001)


def test_with_a_clock_it_stops_in_time_and_still_plays_well():
    ruleset = Sticks()
    bot = SearchBot(ruleset, seed=1)
    action = bot.act({"type": "act", "seat": 0, "view": {"left": 7, "turn": 0, "winner": None},
                      "legal_actions": [{"take": 1}, {"take": 2}, {"take": 3}],
                      "clock": {"move_ms": 300, "bank_ms": 0}})
    assert bot.last_iterations > 0 and action == {"take": 3}


@pytest.mark.parametrize("spec", [{"kind": "dice", "count": 3, "sides": 6}, {"kind": "shuffle", "n": 5},
                                  {"kind": "choice", "n": 9, "k": 4}])
def test_chance_is_sampled_from_the_bots_own_generator_in_the_specs_shape(spec):
    from games.engine.chance import check_outcome

    rng = random.Random(4)
    outcomes = [sample_outcome(spec, rng) for _ in range(50)]
    for outcome in outcomes:
        check_outcome(spec, outcome)
    assert len({tuple(o) for o in outcomes}) > 1


def test_rewards_scale_placings_and_share_ties():
    assert rewards(Result((3, 2, 1), (1, 2, 3)), 3) == [1.0, 0.5, 0.0]
    # tied seats share the places they fill: 1st and 2nd of 4 -> (1 + 2/3) / 2; 3rd and 4th
    assert rewards(Result((5, 5, 0, 0), (1, 1, 3, 3)), 4) == pytest.approx([5 / 6, 5 / 6, 1 / 6, 1 / 6])
    assert rewards(Result((2, 2), (1, 1)), 2) == [0.5, 0.5]  # a draw is half a win
    assert rewards(Result((1, 1, 1), (1, 1, 1)), 3) == [0.5, 0.5, 0.5]
    assert action_key({"b": 1, "a": [2]}) == action_key({"a": [2], "b": 1})


class NoDeterminize(Sticks):
    """A game that has not written determinize: the search bot cannot play it."""

    spec = GameSpec(name="test-sticks-blind", title="Sticks", version=1, min_players=2, max_players=2,
                    chance=False, hidden_information=True, simultaneous=False, rulebook="(test)")
    determinize = Ruleset.determinize


def test_search_is_a_builtin_bot_of_every_game_that_determinizes_and_only_of_those():
    """Issue 15.2: "One generic search bot, registered as the built-in bot search for every game"."""
    assert Sticks().bots() == {"random": Sticks().builtin_bots()["random"], "search": SearchBot}
    assert "search" not in NoDeterminize().bots()
    assert SearchBot.thinks and not Sticks().bots()["random"].thinks


def test_without_a_clock_in_the_message_it_thinks_by_the_clock_it_was_told():
    bot = SearchBot(Sticks(), seed=0)
    bot.clock = {"move_ms": 100, "bank_ms": 0}
    assert bot.budget_seconds({}) == pytest.approx(0.020)
    assert bot.budget_seconds({"clock": {"move_ms": 200, "bank_ms": 0}}) == pytest.approx(0.070)


class LongTally(Ruleset):
    """900 turns in turn; each turn the seat adds 0 or 1 to its tally, then a die roll adds its
    parity to both tallies (chance that changes nobody's lead). The higher tally wins. Taking 1 is always right, but a random
    playout to the end drowns one point in the noise of 900 random turns."""

    spec = GameSpec(name="test-long-tally", title="Long tally", version=1, min_players=2, max_players=2,
                    chance=True, hidden_information=False, simultaneous=False, rulebook="(test)")
    Options = _NoOptions
    TURNS = 900  # 1,800 events: within ROLLOUT_EVENTS

    def setup(self, players, options):
        return {"turn": 0, "tally": [0, 0], "rolled": True}

    def next(self, state):
        if not state["rolled"]:
            return Chance({"kind": "dice", "count": 1, "sides": 6})
        if state["turn"] == self.TURNS:
            return Ended(Result.from_scores(state["tally"]))
        return ToAct((state["turn"] % 2,))

    def legal_actions(self, state, seat):
        return [0, 1] if state["rolled"] and state["turn"] < self.TURNS and seat == state["turn"] % 2 else []

    def apply(self, state, event):
        tally = list(state["tally"])
        if event.kind == "chance":
            tally = [t + event.payload["outcome"][0] % 2 for t in tally]
            return {**state, "tally": tally, "rolled": True}
        tally[event.seat] += event.payload["action"]
        return {"turn": state["turn"] + 1, "tally": tally, "rolled": False}

    def view(self, state, seat):
        return {"turn": state["turn"], "tally": list(state["tally"]), "rolled": state["rolled"]}

    def determinize(self, view, seat, rng):
        return {"turn": view["turn"], "tally": list(view["tally"]), "rolled": view["rolled"]}


class ScoredTally(LongTally):
    spec = dataclasses.replace(LongTally.spec, name="test-scored-tally")

    def score_now(self, state):
        return list(state["tally"])


def _counting(ruleset_class):
    applied = []

    class Counting(ruleset_class):
        def apply(self, state, event):
            applied.append(1)
            return super().apply(state, event)

    return Counting(), applied


def test_with_score_now_the_playouts_are_cut_and_the_near_future_decides():
    """search.py: "A game with score_now has its playouts cut after PLAYOUT_DECISIONS decisions
    and the seats placed by that score"; without it a playout runs the whole game."""
    start = {"turn": 0, "tally": [0, 0], "rolled": True}
    scored, applied = _counting(ScoredTally)
    picks = [_act(scored, start, 0, SearchBot(scored, seed=s, iterations=300)) for s in range(5)]
    assert picks == [1] * 5
    # per iteration: the tree's few decisions, then PLAYOUT_DECISIONS decisions and their rolls
    assert len(applied) / (5 * 300) < 2 * PLAYOUT_DECISIONS + 20
    blind, applied = _counting(LongTally)
    _act(blind, start, 0, SearchBot(blind, seed=0, iterations=3))
    assert len(applied) >= 3 * 2 * LongTally.TURNS - 10  # every playout to the end


class TakesOne(Bot):
    """A hand-written bot that always takes one stick (right only when sticks % 4 == 1)."""

    name = "heuristic"

    def act(self, message):
        return {"take": 1}


class SticksWithAHeuristic(Sticks):
    def builtin_bots(self):
        return {**super().builtin_bots(), "heuristic": TakesOne}


def _take(bot, left):
    bot.hello({"seat": 0})
    state = {"left": left, "turn": 0, "winner": None}
    return bot.act({"type": "act", "seat": 0, "view": dict(state),
                    "legal_actions": SticksWithAHeuristic().legal_actions(state, 0)})


def test_it_starts_from_the_hand_written_bots_move_and_leaves_it_on_evidence_only():
    """The prior: without a search (no iteration) the game's hand-written bot's move is played;
    a search long enough to show a better move (from 6 sticks, take 2 wins, the prior's take 1
    loses) plays that; too short a search to be sure of it keeps the prior's move."""
    rules = SticksWithAHeuristic()
    assert type(SearchBot(rules).prior) is TakesOne
    assert _take(SearchBot(rules, seed=1, iterations=0), 6) == {"take": 1}
    assert _take(SearchBot(rules, seed=1, iterations=3000), 6) == {"take": 2}
    assert _take(SearchBot(rules, seed=1, iterations=6), 6) == {"take": 1}
    # prior=False is the plain search, which finds the winning take as well
    assert SearchBot(rules, prior=False).prior is None
    assert _take(SearchBot(rules, seed=1, iterations=3000, prior=False), 6) == {"take": 2}


def test_a_move_is_surely_better_only_by_more_than_override_z_standard_errors():
    def arm(wins, visits):
        a = _Arm({"x": visits})
        a.visits, a.reward = visits, float(wins)
        return a
    prior = arm(50, 100)
    assert _surely_better(arm(80, 100), prior)  # 0.8 against 0.5: about 4.6 standard errors
    assert not _surely_better(arm(58, 100), prior)  # 0.58: about 1.1
    assert not _surely_better(arm(4, 5), arm(2, 5))  # 0.8 against 0.4 on five playouts each
    assert not _surely_better(prior, prior)
    assert OVERRIDE_Z == 2.0


class ManyNumbers(Ruleset):
    """Seat 0 says a number of 0-59, then a coin decides who wins: every number is as good, and
    a short search tries only some of them."""

    spec = GameSpec(name="test-many-numbers", title="Many numbers", version=1, min_players=2,
                    max_players=2, chance=True, hidden_information=False, simultaneous=False,
                    rulebook="(test)")
    Options = _NoOptions

    def setup(self, players, options):
        return {"said": None, "coin": None}

    def next(self, state):
        if state["said"] is None:
            return ToAct((0,))
        if state["coin"] is None:
            return Chance({"kind": "dice", "count": 1, "sides": 2})
        return Ended(Result.from_scores([state["coin"] == 1, state["coin"] == 2]))

    def legal_actions(self, state, seat):
        return list(range(60)) if seat == 0 and state["said"] is None else []

    def apply(self, state, event):
        if event.kind == "chance":
            return {**state, "coin": event.payload["outcome"][0]}
        return {**state, "said": event.payload["action"]}

    def view(self, state, seat):
        return dict(state)

    def determinize(self, view, seat, rng):
        return dict(view)


class SaysSeven(Bot):
    name = "heuristic"

    def act(self, message):
        return 7


class ManyNumbersWithAHeuristic(ManyNumbers):
    def builtin_bots(self):
        return {**super().builtin_bots(), "heuristic": SaysSeven}


@pytest.mark.parametrize("seed", range(8))
def test_with_fewer_iterations_than_moves_the_priors_move_is_tried_first_and_played(seed):
    """Where the search has fewer iterations than there are moves (Wizard Kings' movement: 50
    moves, 20 iterations at 200 ms), the prior's move is tried first and played, not the move
    of some lucky playout: a single won playout is no evidence."""
    rules = ManyNumbersWithAHeuristic()
    bot = SearchBot(rules, seed=seed, iterations=20)
    bot.hello({"seat": 0})
    state = rules.setup(2, None)
    message = {"type": "act", "seat": 0, "view": dict(state), "legal_actions": rules.legal_actions(state, 0)}
    assert bot.act(message) == 7
    assert bot.last_iterations == 20
