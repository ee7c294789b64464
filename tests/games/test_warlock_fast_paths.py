"""Warlock's fast paths (issue 42, item 5) against the code they stand for: on every state of
random playouts, ``duel.has_defence`` equals ``bool(defence_options(...))`` and the kept
``combat.result`` equals the result worked out afresh, for every play of every hand against
every spell in flight, with both readings of 5.2.2 for two-card spells."""
from __future__ import annotations

import pytest

from games.warlock import combat, duel
from games.warlock.core import clone_state, wizard
from tests.games.playouts import playout_states as states


def playout_states(players: int, seed: int):
    return states("warlock", players, seed)


def threats_of(state: dict) -> list[dict]:
    """The spells in flight and those a decision under way names."""
    found = list(state["threats"])
    for task in state["tasks"]:
        found += list(task.get("threats", {}).values()) if isinstance(task.get("threats"), dict) else []
        if isinstance(task.get("threat"), dict):
            found.append(task["threat"])
    return found


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3), (5, 4), (6, 5), (2, 6), (3, 7)])
def test_has_defence_and_the_kept_result_equal_what_they_replace(players, seed):
    checked = compared = 0
    for state in playout_states(players, seed):
        for threat in threats_of(state):
            for seat in range(players):
                if state["out"][seat]:
                    continue
                for witch in (True, False):
                    assert duel.has_defence(state, seat, threat, witch) == bool(
                        duel.defence_options(state, seat, threat, witch)), (threat, seat, witch)
                    checked += 1
                me = wizard(state, seat)
                for play in combat.candidate_plays(state["hands"][seat]):
                    for pairs in (True, False):
                        assert combat.result(threat, play, me.colour, me.points, pairs=pairs) == \
                            combat._fresh_result(threat, play, me.colour, me.points, pairs=pairs)
                        compared += 1
    assert checked > 10 and compared > 100  # the playout did fight


@pytest.mark.parametrize("players,seed", [(2, 11), (4, 12), (6, 13)])
def test_clone_state_is_a_deep_copy_key_for_key(players, seed):
    """``Warlock.apply``'s copy equals the state with its keys in order and shares no list or
    dict with it, so the rules may change it in place."""
    def containers(value):
        if isinstance(value, (list, dict)):
            yield value
            for inner in (value.values() if isinstance(value, dict) else value):
                yield from containers(inner)

    states = 0
    for state in playout_states(players, seed):
        copy = clone_state(state)
        assert copy == state and list(copy) == list(state)
        assert not {id(c) for c in containers(copy)} & {id(c) for c in containers(state)}
        states += 1
    assert states > 50
