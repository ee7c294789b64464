"""Fixtures for the Wizard Kings rule tests: purpose-built test maps (data/maps here) and a
state builder that puts chosen blocks on them, so each rule is checked where it applies.

The test maps "t-west" and "t-east" (2 maps, 16 x 7 hexes): t-west has a road along row 2
(0002-0702), forest all along column 1 (0100-0106), mountains at 0401 and 0601 with a pass at 0501, swamp at 0203,
desert at 0303, a river along the hexsides between rows 4 and 5 (columns 0-3) with a bridge at
0104|0105 on the road 0103-0106, water at 0605-0706 with coast at 0504-0506 and 0604 (Dune and Birch are ports), a henge at 0402, cities Alder 0200 (3),
Birch 0506 (3), Cedar 0003 (2), Dune 0504 (2). t-east is all clear, cities Elm 1000 (3), Fir
1006 (3), Gum 1303 (2), Hazel 1503 (2) on the board.
"""
from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from games.engine import chance
from games.engine.protocol import Chance, Event, ToAct
from games.engine.search import sample_outcome
from games.wizard_kings import WizardKings, board as wk_board, rules
from games.wizard_kings.content import armies
from games.wizard_kings.state import place

TEST_MAPS = Path(__file__).resolve().parent / "data" / "maps"
RULESET = WizardKings()


def random_decisions(options: dict, players: int, seed: int, events: int = 4000):
    """Every decision of a random match (seeded), as (state, the seat to act), up to ``events``
    events: states made by the copying ``apply``, so each stays as it was yielded."""
    rng = random.Random(seed)
    state = RULESET.setup(players, RULESET.options(options))
    for _ in range(events):
        nxt = RULESET.next(state)
        if isinstance(nxt, Chance):
            state = RULESET.apply(state, Event.chance(nxt.spec, sample_outcome(nxt.spec, rng)))
            continue
        if not hasattr(nxt, "seats"):
            return
        seat = nxt.seats[0]
        yield state, seat
        state = RULESET.apply(state, Event.action(seat, rng.choice(RULESET.legal_actions(state, seat))))


@pytest.fixture(autouse=True, scope="session")
def extra_test_maps():
    if TEST_MAPS not in wk_board.EXTRA_MAP_DIRS:
        wk_board.EXTRA_MAP_DIRS.append(TEST_MAPS)
    yield


def find_kind(test, army: str | None = None) -> str:
    """The key of the first block kind (of ``army``, or of any army) that passes ``test``."""
    for a in armies().values():
        if army is not None and a.key != army:
            continue
        for kind in a.kinds:
            if test(kind):
                return kind.key
    raise LookupError("no kind passes the test")


def plain(kind) -> bool:
    """A block with no terrain trait that moves at least 2 and fires."""
    return (not kind.traits & {"forest", "mountain", "desert", "amphibian", "city", "flyer",
                               "castle", "wizard", "hero", "water"} and kind.move >= 2)


def make_state(blocks, *, players: int = 2, maps=("t-west", "t-east"), phase: str = "move",
               order=None, options=None, armies_=None) -> dict:
    """A state in ``phase`` of turn 1 with ``blocks``: [(id, seat, kind key, steps, hex)].
    Each seat's army is the army of its first block unless ``armies_`` names them."""
    opts = dataclasses.asdict(RULESET.options(options or {}))
    state = rules.new_state(players, opts)
    state["maps"] = list(maps)
    rules._lay_maps(state, list(maps))
    seat_armies = list(armies_ or [None] * players)
    for bid, seat, kind, steps, hex_ in blocks:
        if seat_armies[seat] is None:
            seat_armies[seat] = kind.split("/")[0]
        state["blocks"][bid] = {"owner": seat, "kind": kind, "steps": steps, "hex": None,
                                "known": False, "moved": False, "cast": False}
        place(state, bid, hex_)
    spare = [a for a in armies() if a not in seat_armies]
    state["armies"] = [a or spare.pop() for a in seat_armies]
    state["turn"] = 1
    state["next_id"] = 500
    state["phase"] = phase
    state["order"] = list(order or range(players))
    state["mover"] = 0
    return state


def act(state: dict, seat: int, action: dict) -> dict:
    """Apply one action (checked) and return the new state."""
    return RULESET.apply(state, Event.action(seat, action))


def roll(state: dict, outcome) -> dict:
    """Apply the due chance node with the given outcome."""
    nxt = RULESET.next(state)
    assert isinstance(nxt, Chance), f"no chance is due: {nxt}"
    return RULESET.apply(state, Event.chance(nxt.spec, list(outcome)))


def to_act(state: dict) -> tuple[int, ...]:
    nxt = RULESET.next(state)
    assert isinstance(nxt, ToAct), f"nobody acts: {nxt}"
    return nxt.seats


def moves_of(state: dict, bid: str) -> list[dict]:
    """The legal move actions of block ``bid`` now."""
    seat = state["blocks"][bid]["owner"]
    return [a for a in RULESET.legal_actions(state, seat)
            if a["type"] == "move" and a["block"] == bid]


def reach(state: dict, bid: str) -> set[str]:
    return {a["to"] for a in moves_of(state, bid)}


def derive(spec: dict, salt: int = 0):
    return chance.derive(b"t" * 32, "test", salt, spec)


def idle(state: dict, bid: str | None = None) -> dict:
    """The current block's combat turn with no effect on the battle: ``pass`` where D60 lets it
    (2.22: a wizard, treasure, the pursuit round), else a weapon's carrier waits for its other
    letter (D36), else it fires and every die misses (a 6 hits no block: the best hit number is
    4, a native's 5)."""
    bid = bid or state["battle"]["current"]
    seat = state["blocks"][bid]["owner"]
    legal = RULESET.legal_actions(state, seat)
    for quiet in ({"type": "pass", "block": bid}, {"type": "wait", "block": bid}):
        if quiet in legal:                  # D36: a weapon's carrier waits for its own letter
            return act(state, seat, quiet)
    state = act(state, seat, {"type": "fire", "block": bid})
    return roll(state, [6] * RULESET.next(state).spec["count"])
