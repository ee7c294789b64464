"""Every state of a random playout, for tests that hold a fast path to the code it stands for."""
import random

from games.engine import registry
from games.engine.protocol import Chance, Ended, Event
from games.engine.search import sample_outcome


def playout_states(game: str, players: int, seed: int, version: int | None = None):
    """Every state of one random playout of ``game`` (random moves, random chance), of its
    edition ``version`` if given (else the current one)."""
    ruleset, rng = registry.get(game), random.Random(seed)
    if version is not None:
        ruleset = ruleset.edition(version)
    state = ruleset.setup(players, ruleset.options({}))
    while True:
        yield state
        nxt = ruleset.next(state)
        if isinstance(nxt, Ended):
            return
        if isinstance(nxt, Chance):
            state = ruleset.apply(state, Event.chance(nxt.spec, sample_outcome(nxt.spec, rng)))
            continue
        seat = nxt.seats[0]
        state = ruleset.apply(state, Event.action(seat, rng.choice(ruleset.legal_actions(state, seat))))
