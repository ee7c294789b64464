"""The search bot on every registered game decides as it did when its decisions were recorded
(tests/games/data/search-decisions.json): same seed, same iteration cap, same move, and the
bot's generator left in the same state (so every determinization, choice and playout drew the
same numbers). Speed-ups of the search or of an engine (issue 15: applying in place, cheaper
copies) must keep these; a change of rules or of the search's policy re-records them:

    python -m tests.games.engine.test_search_decisions
"""
from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest

from games.engine import registry
from games.engine.protocol import Chance, Ended, Event, ToAct
from games.engine.runner import hello_message
from games.engine.search import SearchBot, sample_outcome

DATA = Path(__file__).resolve().parent.parent / "data" / "search-decisions.json"
ITERATIONS = 30
PLAYER_COUNTS = (2, 3)
WHERE = (0.1, 0.4, 0.7)  # the decisions searched: these fractions of one random playout's


def _decision_states(ruleset, players: int, seed: int) -> list[tuple[object, int]]:
    """(state, seat) at every decision of more than one action in a random playout."""
    rng, found = random.Random(seed), []
    state = ruleset.setup(players, ruleset.options({}))
    while not isinstance(nxt := ruleset.next(state), Ended):
        if isinstance(nxt, Chance):
            state = ruleset.apply(state, Event.chance(nxt.spec, sample_outcome(nxt.spec, rng)))
            continue
        seat = nxt.seats[0]
        legal = ruleset.legal_actions(state, seat)
        if len(legal) > 1:
            found.append((state, seat))
        state = ruleset.apply(state, Event.action(seat, rng.choice(legal)))
    return found


def decisions(game: str) -> list[dict]:
    """The search's move at a few decisions of ``game``, and a digest of its generator after."""
    ruleset = registry.get(game)
    rows = []
    for players in PLAYER_COUNTS:
        found = _decision_states(ruleset, players, seed=players)
        for where in WHERE:
            state, seat = found[int(where * len(found))]
            bot = SearchBot(ruleset, seed=int(where * 100) + players, iterations=ITERATIONS)
            bot.hello(hello_message(ruleset, ruleset.options({}), players, seat))
            action = bot.act({"type": "act", "seat": seat, "view": ruleset.view(state, seat),
                              "legal_actions": ruleset.legal_actions(state, seat)})
            rows.append({"players": players, "where": where, "seat": seat, "action": action,
                         "iterations": bot.last_iterations,
                         "rng": hashlib.sha256(repr(bot.rng.getstate()).encode()).hexdigest()[:16]})
    return rows


GAMES = sorted(json.loads(DATA.read_text())) if DATA.exists() else []


@pytest.mark.parametrize("game", GAMES)
def test_the_search_decides_as_recorded(game):
    recorded = json.loads(DATA.read_text())[game]
    assert json.loads(json.dumps(decisions(game))) == recorded


def test_every_registered_game_is_recorded():
    assert {r.spec.name for r in registry.builtin()} <= set(GAMES)


if __name__ == "__main__":
    DATA.write_text(json.dumps({r.spec.name: decisions(r.spec.name) for r in registry.builtin()},
                               indent=1, sort_keys=True) + "\n")
