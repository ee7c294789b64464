"""Wizard Kings: the move phase's listing made a block at a time. ``rules._can_move`` (asked after
every move: may the seat still do anything but end its move?) answers at once where it can
(movement.steps_out), else from the listing, which stops at the first block with an action,
``move_options(..., only=block)`` (a check of one move) lists that block alone, and a later
whole listing of the same state goes on from the blocks listed so far. Each is held here to a
reference that lists every block of the seat afresh, over the move phases of random matches."""
from __future__ import annotations

import copy
import sys
import threading

import pytest

from games.wizard_kings import rules, scenarios
from games.wizard_kings.movement import destinations

from .conftest import random_decisions


def reference(state: dict, seat: int) -> dict[str, list[dict]]:
    """4.2 as the rules read, for every block of ``seat`` at once: its moves
    (``movement.destinations``) and its move-phase spells (2.22), then the scenario's limits
    (7.1-7.3) on the whole."""
    found = {}
    for bid in sorted(b for b, blk in state["blocks"].items() if blk["owner"] == seat):
        found[bid] = [{"type": "move", "block": bid, **move} for move in destinations(state, bid)]
        found[bid] += rules._move_spells(state, bid)
    if state.get("scenario") is not None:
        scenarios.restrict_moves(state, seat, found)
    return found


def whole(found: dict[str, list[dict]]) -> list[dict]:
    return [action for bid in sorted(found) for action in found[bid]] + [{"type": "done"}]


def fresh(state: dict) -> dict:
    """Nothing remembered of ``state``: each question below starts its listing afresh."""
    rules.forget_listings(state)
    return state


def move_states(options: dict, players: int, seed: int):
    """The states of a random match at which a seat moves (4.2), with that seat."""
    return ((state, seat) for state, seat in random_decisions(options, players, seed)
            if state["phase"] == "move")


@pytest.mark.parametrize("options, players", [({}, 2), ({}, 3), ({"expansion": True}, 2),
                                              *[(o, 2) for o in scenarios.conformance_options()]])
def test_4_2_a_listing_made_a_block_at_a_time_is_the_listing_of_every_block(options, players):
    """4.2: "Ĉiu ludanto, dum sia vico, movas la blokojn de sia armeo ĝis kie movkapablo kaj la
    tereno permesos. Blokoj moviĝas po unu fojo ĉiu vico": a seat moves while a block of its army
    may, and ends its move with done. Whether it may (``_can_move``), one block's actions (the
    check of a move) and the whole listing after either are those of every block listed
    afresh."""
    checked, stopped_early, blocks_checked = 0, 0, 0
    for seed in range(3):
        for state, seat in move_states(options, players, seed):
            expected = reference(state, seat)
            listing = whole(expected)
            # whether the seat may still move, then the whole listing, from where that stopped
            assert rules._can_move(fresh(state), seat) == (len(listing) > 1)
            # the listing's own answer where the quick one (movement.steps_out) is not asked
            assert rules._can_move_by_listing(fresh(state), seat) == (len(listing) > 1)
            entry = rules._LISTINGS.moves
            if entry["state"] is state and entry["rest"]:
                stopped_early += 1
            assert rules.move_options(state, seat) == listing
            assert rules.move_options(fresh(state), seat) == listing
            # one block's check lists that block alone; the whole listing goes on from it
            others = [b for b, blk in state["blocks"].items() if blk["owner"] != seat]
            for bid in sorted(expected)[::3] + others[:1] + ["no-such-block"]:
                fresh(state)
                assert rules.move_options(state, seat, only=bid) == \
                    expected.get(bid, []) + [{"type": "done"}], (seed, bid)
                assert rules.move_options(state, seat, only=bid) == \
                    expected.get(bid, []) + [{"type": "done"}], (seed, bid)  # remembered
                assert rules._can_move(state, seat) == (len(listing) > 1)
                assert rules.move_options(state, seat) == listing, (seed, bid)
                blocks_checked += 1
            checked += 1
        # 4.2 "po unu fojo ĉiu vico": with every block of the seat moved, nothing is left but done,
        # however much of the listing a check has made
        spent = copy.deepcopy(state)
        for blk in spent["blocks"].values():
            blk["moved"] = True
        some = sorted(b for b, blk in spent["blocks"].items() if blk["owner"] == seat)[0]
        assert rules._can_move(fresh(spent), seat) is False
        assert rules._can_move_by_listing(fresh(spent), seat) is False
        assert rules.move_options(fresh(spent), seat, only=some) == [{"type": "done"}]
        assert rules._can_move(spent, seat) is False
        assert rules.move_options(spent, seat) == [{"type": "done"}]
    # move phases of every match, where _can_move had blocks left to list
    assert checked >= 20 and blocks_checked >= 3 * checked
    if not options.get("scenario"):
        assert stopped_early >= checked // 4


def test_4_2_threads_list_their_own_states():
    """4.2 in a threaded server (gunicorn's gthread workers fold several matches at once): the
    listing remembered, which ``_can_move`` and a check make a block at a time, is each thread's
    own, so two threads listing different states at once each get their state's listing."""
    states = [pair for seed in range(2) for pair in list(move_states({}, 2, seed))[::7]][:8]
    expected = [(rules._can_move(fresh(s), seat), rules.move_options(fresh(s), seat))
                for s, seat in states]
    assert len(states) == 8 and all(moves == whole(reference(s, seat))
                                    for (s, seat), (_, moves) in zip(states, expected))
    wrong: list = []

    def work(offset: int):
        for _ in range(60):
            for i in range(offset, len(states), 2):
                state, seat = states[i]
                rules.forget_listings(state)
                got = (rules._can_move(state, seat), rules.move_options(state, seat))
                if got != expected[i]:
                    wrong.append(i)
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # a thread switch every few bytecodes: interleave the listings
    try:
        threads = [threading.Thread(target=work, args=(k,)) for k in (0, 1)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert wrong == []


@pytest.mark.parametrize("options, players", [({}, 2), ({}, 3), ({"expansion": True}, 2),
                                              *[(o, 2) for o in scenarios.conformance_options()]])
def test_4_2_the_routes_kept_are_the_routes_a_fresh_search_finds(options, players):
    """4.2-4.7: "ĝis kie movkapablo kaj la tereno permesos": the hexes a block may end its
    move in are found by a search over paths that depends on the board, the kind, the seat,
    the start, the hexsides it may not leave by (4.7) and the hostile hexes in its reach (4.2,
    4.4); ``movement._routes`` keeps them by these. Served from that memo (filled by earlier
    states of the same matches), they are what a fresh search finds in the state asked about."""
    from games.wizard_kings import movement
    from games.wizard_kings.content import kind_of
    from games.wizard_kings.state import board
    served = 0
    for seed in range(3):
        for state, seat in move_states(options, players, seed):
            b = board(state)
            for bid, blk in sorted(state["blocks"].items()):
                kind = kind_of(blk["kind"])
                if blk["owner"] != seat or blk["moved"] or blk["cast"] or kind.move == 0:
                    continue
                is_pinned, barred = movement.pinned(state, bid)
                if is_pinned:
                    continue
                hostile = movement.Hostile(state, seat)
                key = (kind.key, seat, blk["hex"], tuple(sorted(barred)),
                       hostile.near(blk["hex"], kind.move + 1))
                served += key in b._routes
                kept = movement._routes(b, kind, seat, blk["hex"], barred, hostile)
                assert kept == movement._search_routes(b, kind, blk["hex"], barred,
                                                       movement.Hostile(state, seat)), (bid, seed)
    assert served > 50, served  # the memo served routes found in other states


def test_the_routes_kept_are_bounded(monkeypatch):
    """The routes kept take bounded memory in a worker that plays match after match: a board
    keeps at most ``_ROUTES_KEPT`` of them, and at most ``_ROUTED_BOARDS`` boards keep any (the
    first to begin forgets its own)."""
    from games.wizard_kings import movement
    from games.wizard_kings.board import board_of
    from games.wizard_kings.content import kind_of

    from .conftest import find_kind
    monkeypatch.setattr(movement, "_ROUTES_KEPT", 5)
    monkeypatch.setattr(movement, "_ROUTED_BOARDS", 1)
    monkeypatch.setattr(movement, "_routed", [])
    first, second = board_of(("t-west", "t-east")), board_of(("t-east", "t-west"))
    first._routes.clear()
    second._routes.clear()
    kind = kind_of(find_kind(lambda k: k.move >= 2 and not k.flyer and not k.traits))
    state = {"at": {}, "city_owner": {}, "blocks": {}}
    starts = [h for h in sorted(first.terrain) if first.land(h)][:12]
    for start in starts:
        movement._routes(first, kind, 0, start, set(), movement.Hostile(state, 0))
        assert 1 <= len(first._routes) <= 5
    assert len(starts) == 12
    movement._routes(second, kind, 0, starts[0], set(), movement.Hostile(state, 0))
    assert len(second._routes) == 1 and not first._routes   # one board keeps routes at a time
    assert len(movement._routed) == 1 and movement._routed[0] is second
