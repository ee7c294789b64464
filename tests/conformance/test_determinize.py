"""Issue 15.1: "Add to the engine contract determinize(view, seat, rng) -> state: a full state
whose view(state, seat) equals the given view, with everything hidden from that seat drawn at
random consistently with what the view says [...] The conformance suite checks, over many random
states of every game and every seat: view(determinize(view(s, k), k, rng), k) == view(s, k), the
determinized state is legal to play on to the end, and no determinization depends on anything
but the view and the rng."""
import copy
import random

import pytest

from games.engine import registry
from games.engine.log import canonical_json
from games.engine.protocol import Chance, Ended, Event, Ruleset
from games.engine.search import sample_outcome

from .conftest import CASES, PLAYOUTS_TIMEOUT, case_named, detailed, event_bound, ruleset_named

pytestmark = PLAYOUTS_TIMEOUT  # its tests may be the first to ask for the playouts (conftest)

STATES_PER_PLAYOUT = 25
PLAYED_ON = 4  # of those, per playout: played on to the end (a long game's ends cost most)


def has_determinize(ruleset) -> bool:
    return type(ruleset).determinize is not Ruleset.determinize


def test_every_builtin_game_determinizes():
    """Every registered game, and every game added later, has determinize (and so search)."""
    lacking = {r.spec.name for r in registry.builtin() if not has_determinize(r)}
    assert not lacking
    assert all("search" in r.bots() for r in registry.builtin())


DETERMINIZING = [key for key, (name, _) in CASES.items() if has_determinize(ruleset_named(name))]

# The least number of determinizations each test checks: a long game's playouts give many more
# states than the tests sample, a short game's (a toy, a variant that ends soon) may give fewer,
# and then every state it has is checked (``demanded``).
CHECKED_AT_LEAST, OWNED_AT_LEAST = 21, 11


def demanded(least: int, detailed_games, per_playout: int) -> int:
    """``least``, or fewer for a game too short for it: all the (state, seat) pairs the test can
    sample from its playouts (states before the end, at most ``per_playout`` a playout; the end
    repeats a state at most twice: the last event's and match_ended's)."""
    possible = sum(summary.players * max(0, min(per_playout, len(driven.states) - 1) - 2)
                   for summary, driven in detailed_games)
    return max(1, min(least, possible))


def _play_to_the_end(ruleset, state, rng, bound: int) -> Ended:
    """Random legal play from ``state``: every action checked by the rules, chance drawn."""
    for _ in range(bound):
        nxt = ruleset.next(state)
        if isinstance(nxt, Ended):
            return nxt
        if isinstance(nxt, Chance):
            event = Event("chance", None, {"spec": nxt.spec, "outcome": sample_outcome(nxt.spec, rng)})
        else:
            seat = rng.choice(list(nxt.seats))
            action = rng.choice(ruleset.legal_actions(state, seat))
            ruleset.check_action(state, seat, action)
            event = Event("action", seat, {"action": action})
        state = ruleset.apply(state, event)
    raise AssertionError(f"no end within {bound} events")


@pytest.mark.parametrize("key", DETERMINIZING)
def test_a_determinized_state_shows_the_same_view_depends_only_on_it_and_plays_to_the_end(key):
    ruleset = case_named(key).ruleset
    rng = random.Random(15)
    checked = 0
    for summary, driven in detailed(key):
        states = driven.states[1:]
        for index, state in enumerate(rng.sample(states, min(STATES_PER_PLAYOUT, len(states)))):
            if isinstance(ruleset.next(state), Ended):
                continue
            for seat in range(summary.players):
                view = ruleset.view(state, seat)
                before = canonical_json(view)
                made = ruleset.determinize(view, seat, random.Random(7))
                assert canonical_json(view) == before, "determinize changed the view it was given"
                assert ruleset.view(made, seat) == view, f"playout {summary.index}, seat {seat}"
                again = ruleset.determinize(copy.deepcopy(view), seat, random.Random(7))
                assert canonical_json(ruleset.encode(again)) == canonical_json(ruleset.encode(made))
                if index < PLAYED_ON and seat == index % summary.players:
                    bound = event_bound(ruleset, summary.players, case_named(key).options)
                    assert isinstance(_play_to_the_end(ruleset, made, rng, bound), Ended)
                checked += 1
    assert checked >= demanded(CHECKED_AT_LEAST, detailed(key), STATES_PER_PLAYOUT)


def _fold_in_place_to_the_end(ruleset, state, rng, bound: int) -> Ended:
    """Random legal play from ``state`` as the search plays it (games/engine/search.py): every
    event applied in place, ``state`` changed as it goes."""
    for _ in range(bound):
        nxt = ruleset.next(state)
        if isinstance(nxt, Ended):
            return nxt
        if isinstance(nxt, Chance):
            event = Event.chance(nxt.spec, sample_outcome(nxt.spec, rng))
        else:
            seat = rng.choice(list(nxt.seats))
            event = Event.action(seat, rng.choice(ruleset.legal_actions(state, seat)))
        state = ruleset.apply_in_place(state, event)
    raise AssertionError(f"no end within {bound} events")


@pytest.mark.parametrize("key", DETERMINIZING)
def test_a_determinized_state_owns_all_it_holds(key):
    """Issue 15: a search iteration folds its determinized state in place to the end of the
    game (Ruleset.apply_in_place, no copy per event). That is sound only if the state shares
    no mutable object with the view it was drawn from or with anything that outlives it (module
    constants, caches, an earlier determinization): folding it leaves the view as it was, and a
    second determinization from the same view and seed draws the very state the first did."""
    ruleset = case_named(key).ruleset
    rng = random.Random(16)
    checked = 0
    for summary, driven in detailed(key):
        states = driven.states[1:]
        bound = event_bound(ruleset, summary.players, case_named(key).options)
        for state in rng.sample(states, min(PLAYED_ON, len(states))):
            if isinstance(ruleset.next(state), Ended):
                continue
            for seat in range(summary.players):
                view = ruleset.view(state, seat)
                before = canonical_json(view)
                made = ruleset.determinize(view, seat, random.Random(8))
                drawn = canonical_json(ruleset.encode(made))
                _fold_in_place_to_the_end(ruleset, made, rng, bound)
                where = f"playout {summary.index}, seat {seat}"
                assert canonical_json(view) == before, f"{where}: folding changed the view"
                again = ruleset.determinize(view, seat, random.Random(8))
                assert canonical_json(ruleset.encode(again)) == drawn, (
                    f"{where}: folding changed what a later determinization draws")
                checked += 1
    assert checked >= demanded(OWNED_AT_LEAST, detailed(key), PLAYED_ON)
