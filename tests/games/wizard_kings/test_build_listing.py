"""Wizard Kings: the recruit and add actions ``build.options`` lists, held to the clauses read
one city and one kind at a time, over the recruitments (1.22) and builds (6.x) of random
matches. ``build.options`` works out once what every city and kind ask alike (the blocks in each
hex, the spare kinds, what the purse must still cover: a search lists the builds of every
decision of its playouts); this reference asks each clause afresh for every pair, as the rules
read."""
from __future__ import annotations

import pytest

from games.wizard_kings import build
from games.wizard_kings.content import kind_of
from games.wizard_kings.movement import is_port
from games.wizard_kings.state import board, pool

from .conftest import random_decisions


def still_covers(draft: dict, spare: dict, uncovered: list, cost: int, covers: str | None = None,
                 bought: str | None = None) -> bool:
    """1.22 with 2.38/2.39: once ``cost`` is paid, the purse still buys a block for every city
    left empty, the cheapest spare blocks first, of those that may stand in a city (no ship, no
    haven), the block being bought no longer spare."""
    left = dict(spare)
    if bought is not None:
        left[bought] -= 1
    costs = sorted(kind_of(k).cost for k, n in left.items() for _ in range(n)
                   if not kind_of(k).traits & {"water", "haven"})
    empty = [h for h in uncovered if h != covers]
    return len(costs) >= len(empty) and sum(costs[:len(empty)]) <= draft["gold"]["purse"] - cost


def reference(state: dict, seat: int) -> list[dict]:
    """The recruit and add actions of ``seat``, in build.options' order, each clause asked for
    each (city, kind) and each block."""
    draft = state["drafts"][str(seat)]
    b = board(state)
    spare = pool(state, seat, draft["blocks"])
    cities = build.building_cities(state, seat, draft)
    # 1.22: at setup every city of the seat's map needs a block
    uncovered = ([h for h in cities if not any(blk["hex"] == h for blk in draft["blocks"].values())]
                 if draft["setup"] else [])
    found = []
    for hex_ in cities:
        here = sorted(bid for bid, blk in draft["blocks"].items() if blk["hex"] == hex_)
        gold = draft["gold"]["purse"] if draft["setup"] else draft["gold"].get(hex_, 0)  # 6.2, 1.22
        for kind in sorted(spare):
            k = kind_of(kind)
            if gold < k.cost or len(here) + 1 > b.stack_limit(hex_):   # 6.2, 4.5
                continue
            if k.wizard and hex_ in b.henges:                          # 6.6
                continue
            if k.traits & {"water", "haven"} and not is_port(b, hex_):  # 2.38, 2.39
                continue
            if draft["setup"] and not still_covers(draft, spare, uncovered, k.cost, hex_, kind):  # 1.22
                continue
            found.append({"type": "recruit", "kind": kind, "hex": hex_})
        for bid in here:
            blk = draft["blocks"][bid]
            k = kind_of(blk["kind"])
            if bid in draft["spent"]:                                  # D34
                continue
            if blk["steps"] < k.max and gold >= k.cost and (
                    not draft["setup"] or still_covers(draft, spare, uncovered, k.cost)):
                found.append({"type": "add", "block": bid})
    return found


def building_states(options: dict, players: int, seed: int, every: int = 3):
    """States of a random match at which a seat builds (its recruitment and the builds of its
    turns), every ``every``-th one."""
    building = ((state, seat) for state, seat in random_decisions(options, players, seed, 3000)
                if state["phase"] in ("recruit", "build"))
    return (pair for seen, pair in enumerate(building, 1) if seen % every == 0)


@pytest.mark.parametrize("options, players", [({}, 2), ({}, 3), ({"expansion": True}, 2),
                                              ({"expansion": True}, 4)])
def test_1_22_and_6_2_recruits_and_adds_are_those_the_clauses_allow_city_by_city(options, players):
    """1.22: "Ĉiu ludanto havas 50 gp por aĉeti sian armeon ... almenaŭ unu bloko en ĉiu urbo";
    6.2: "Blokoj estas produktataj nur en amikaj urboj uzante la gp-ojn haveblajn en tiu urbo";
    4.5's stacking, 6.6's henges and 2.38/2.39's ports, asked for every city and kind."""
    checked, seen = 0, set()
    for seed in range(4):
        for state, seat in building_states(options, players, seed):
            listed = [a for a in build.options(state, seat) if a["type"] in ("recruit", "add")]
            assert listed == reference(state, seat), (seed, state["phase"], seat)
            checked += 1
            seen |= {(state["phase"], a["type"]) for a in listed}
    # recruitments and builds, with recruits and adds in both
    assert checked >= 20 and seen == {(p, t) for p in ("recruit", "build") for t in ("recruit", "add")}
