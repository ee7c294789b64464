"""Wizard Kings' fast paths (issue 42, item 5) against the code they stand for, on every state of
random playouts: ``movement.steps_out``'s quick answer equals the whole move listing's ("has
the seat anything to do but say done?"), the ports the move phase begins with equal
``is_port`` asked city by city, a copied action equals ``copy.deepcopy`` of it and shares no
list or dict with it, and ``WizardKings.clone`` is a copy key for key that shares nothing but
the log's entries, which no apply changes."""
from __future__ import annotations

import copy

import pytest

from games.wizard_kings import _copy
from games.wizard_kings.movement import is_port, ports_of, steps_out
from games.wizard_kings.rules import move_options
from games.wizard_kings.state import board, live_seats
from tests.games.playouts import playout_states


def containers(value):
    """Every list and dict in ``value``, itself included."""
    if isinstance(value, (list, dict)):
        yield value
        for inner in (value.values() if isinstance(value, dict) else value):
            yield from containers(inner)


@pytest.mark.parametrize("players,seed", [(2, 1), (2, 2), (3, 3), (4, 4), (5, 5), (7, 6)])
def test_steps_out_answers_as_the_whole_listing(players, seed):
    """4.2: a seat moves blocks until it says done; the quick answer, where it gives one, is the
    one the whole listing gives (its actions but done)."""
    answered = {True: 0, False: 0}
    for state in playout_states("wizard-kings", players, seed):
        if state["phase"] != "move":
            continue
        for seat in live_seats(state):
            quick = steps_out(state, seat)
            if quick is not None:
                assert quick == (len(move_options(state, seat)) > 1), (seat, state["turn"])
                answered[quick] += 1
    assert answered[True] > 20 and answered[False] > 5   # both answers were put to the test


@pytest.mark.parametrize("players,seed", [(2, 7), (4, 8), (6, 9)])
def test_ports_of_and_copies_equal_what_they_replace(players, seed):
    """4.8: the ports are the cities ``is_port`` names; an action's copy is a deep copy; the
    state's clone (what ``apply`` copies) equals it key for key and shares nothing with it."""
    from games.engine import registry
    ruleset = registry.get("wizard-kings")
    states = 0
    for state in playout_states("wizard-kings", players, seed):
        if state["maps"]:
            b = board(state)
            assert ports_of(b) == tuple(h for h in sorted(b.cities) if is_port(b, h))
        for action in ruleset.legal_actions(state, (ruleset.next(state).seats or [0])[0]) \
                if hasattr(ruleset.next(state), "seats") else []:
            copied = _copy(action)
            assert copied == copy.deepcopy(action)
            assert not {id(c) for c in containers(copied)} & {id(c) for c in containers(action)}
        clone = ruleset.clone(state)
        assert clone == state and list(clone) == list(state)
        shared = {id(c) for c in containers(clone)} & {id(c) for c in containers(state)}
        assert shared <= {id(c) for entry in state["log"] for c in containers(entry)}
        assert clone["log"] is not state["log"]
        states += 1
    assert states > 100


@pytest.mark.parametrize("options,players,seed", [({}, 2, 10), ({}, 4, 11),
                                                  ({"expansion": True, "capture_artefacts": True}, 3, 12)])
def test_an_apply_never_changes_a_state_or_a_log_entry_it_copied(options, players, seed):
    """``clone_state`` shares the log's entries between a state and its copy: an apply leaves
    the state it was given, its log entries included, as it was, and its copy shares no other
    list or dict with it."""
    import random

    from games.engine import registry
    from games.engine.protocol import Chance, Ended, Event
    from games.engine.search import sample_outcome
    ruleset, rng = registry.get("wizard-kings"), random.Random(seed)
    state, applied = ruleset.setup(players, ruleset.options(options)), 0
    while not isinstance(nxt := ruleset.next(state), Ended):
        before = copy.deepcopy(state)
        if isinstance(nxt, Chance):
            event = Event.chance(nxt.spec, sample_outcome(nxt.spec, rng))
        else:
            event = Event.action(nxt.seats[0], rng.choice(ruleset.legal_actions(state, nxt.seats[0])))
        entries = {id(entry) for entry in state["log"]}
        clone = ruleset.clone(state)
        shared = {id(c) for c in containers(clone)} & {id(c) for c in containers(state)}
        assert shared <= entries | {id(c) for e in state["log"] for c in containers(e)}
        following = ruleset.apply(state, event)
        assert state == before and state["log"] == before["log"]
        state, applied = following, applied + 1
    assert applied > 200


def candidates(state: dict, seat: int, legal: list, rng) -> list:
    """Some of ``legal`` and illegal actions like them: another block, another hex or kind,
    another type, a key too many, no action at all."""
    picked = rng.sample(legal, min(4, len(legal)))
    blocks = sorted(state["blocks"]) or ["b0"]
    hexes = sorted(state["city_owner"]) or ["0101"]
    forged = []
    for action in picked:
        forged.append({**action, "type": rng.choice(["move", "recruit", "add", "done", "cast"])})
        for key in ("block", "to", "hex", "from"):
            if key in action:
                forged.append({**action, key: rng.choice(blocks if key in ("block", "from") else hexes)})
        if "kind" in action:
            forged.append({**action, "kind": rng.choice(["x", action["kind"] + "s"])})
        forged.append({**action, "via": rng.choice(hexes)})
    return picked + forged + [{"type": "done"}, {"type": "move", "block": rng.choice(blocks),
                                                 "to": rng.choice(hexes)},
                              {"type": 1}, ["done"], None]


@pytest.mark.parametrize("players,seed", [(2, 13), (3, 14), (5, 15)])
def test_act_in_place_takes_and_refuses_as_check_action_and_apply_in_place(players, seed):
    """A validation checks and applies every action in one call (``act_in_place``, which asks
    ``acting_seats`` once): for every seat, legal or not, it refuses with ``check_action``'s
    reason and leaves the state as it was, or leaves the state ``apply_in_place`` makes."""
    import random

    from games.engine import registry
    from games.engine.protocol import Event, IllegalAction
    ruleset, rng = registry.get("wizard-kings"), random.Random(seed)
    taken = refused = 0
    for state in playout_states("wizard-kings", players, seed):
        for seat in range(players):
            for action in candidates(state, seat, ruleset.legal_actions(state, seat), rng):
                fused, apart = ruleset.clone(state), ruleset.clone(state)
                try:
                    ruleset.check_action(apart, seat, action)
                    expected = None
                except IllegalAction as exc:
                    expected = exc.reason
                try:
                    ruleset.act_in_place(fused, seat, {"action": action})
                except IllegalAction as exc:
                    assert exc.reason == expected, (seat, action, state["phase"])
                    assert fused == state, (seat, action)
                    refused += 1
                    continue
                assert expected is None, (seat, action, expected)
                ruleset.apply_in_place(apart, Event.action(seat, action))
                assert fused == apart, (seat, action, state["phase"])
                # and nothing listed for the state before it is served for the one after
                assert ([ruleset.legal_actions(fused, s) for s in range(players)]
                        == [ruleset.legal_actions(apart, s) for s in range(players)])
                taken += 1
    assert taken > 200 and refused > 1000
