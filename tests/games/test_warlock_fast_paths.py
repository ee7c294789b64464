"""Warlock's fast paths (issue 42, item 5) against the code they stand for: on every state of
random playouts, ``duel.has_defence`` equals ``bool(defence_options(...))``,
``combat.has_defence_play`` equals ``fresh_has_defence_play`` and the kept
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
                    hand, pairs = state["hands"][seat], state["options"]["identical_pairs_reflect"]
                    for energy in (0, 3, 4, 5, 6, 8, 10, state["energy"][seat]):
                        for free in (True, False):
                            assert combat.has_defence_play(
                                hand, energy, threat, wizard(state, seat).colour,
                                wizard(state, seat).points, free=free, pairs=pairs,
                                witch=witch) == combat.fresh_has_defence_play(
                                hand, energy, threat, wizard(state, seat).colour,
                                wizard(state, seat).points, free=free, pairs=pairs, witch=witch)
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
    dict with it but the log's entries (a new log list of the same entries: no rule changes an
    entry once written, ``test_no_apply_changes_a_log_entry_written`` holds it), so the rules
    may change it in place."""
    def containers(value):
        if isinstance(value, (list, dict)):
            yield value
            for inner in (value.values() if isinstance(value, dict) else value):
                yield from containers(inner)

    states = 0
    for state in playout_states(players, seed):
        copy = clone_state(state)
        assert copy == state and list(copy) == list(state)
        assert copy["log"] is not state["log"]
        entries = {id(c) for entry in state["log"] for c in containers(entry)}
        shared = {id(c) for c in containers(copy)} & {id(c) for c in containers(state)}
        assert shared <= entries
        assert all(a is b for a, b in zip(copy["log"], state["log"]))
        states += 1
    assert states > 50


# -- the check of an action as it is, the option test, the action's copy (issue 42, item 5) ---

def _edition_states(players: int, seed: int, version: int):
    """Every state of a random playout of Warlock ``version`` (version 2 plays with the rules
    of version 3's other option values: one-card reflections only, no laid ward, ...)."""
    return states("warlock", players, seed, version)


def _candidates(state: dict, seat: int, legal: list) -> list:
    """Legal actions and near misses: every play of the seat's hand and of other hands under
    every card type, reversed pairs, a card twice, every seat as victim (also as True, 1.0 and
    a string), both choices of each choosing kind and wrong ones, stray keys and types."""
    from games.warlock import TASK_ACTIONS

    kind_ = state["tasks"][0]["kind"] if state["tasks"] else None
    types = TASK_ACTIONS.get(kind_, ("swap",))
    hands = [card for hand in state["hands"] for card in hand]
    plays = [p for hand in state["hands"] for p in combat.candidate_plays(hand)]
    plays += [list(reversed(p)) for p in plays if len(p) == 2] + [[c, c] for c in hands[:3]]
    plays += [[], ["WL-nothing-1"], [1], ["WL-witch-1"], ["WL-witch-2"], "WL-witch-1"]
    found = list(legal)
    for type_ in types:
        if type_ in ("attack", "defend"):
            found += [{"type": type_, "cards": p} for p in plays]
        elif type_ == "conjure":
            found += [{"type": type_, "cards": p, "as": use} for p in plays
                      for use in ("attack", "defence", 1)]
        elif type_ == "swap":
            found += [{"type": type_, "card": c} for c in hands + [None, 3, ["x"]]]
        elif type_ in ("pick", "redirect"):
            found += [{"type": type_, "victim": v}
                      for v in list(range(-1, state["players"] + 1)) + [True, False, 1.0, "1"]]
        elif type_ in ("decide", "influence"):
            found += [{"type": type_, "choice": c}
                      for c in ("duel", "learn", "pass", "defend", "Duel", None, 0)]
        else:
            found += [{"type": type_}]
    found += [{"type": t, "extra": 1} for t in types] + [{"type": "mock"}, {"type": "stop"},
                                                          {"type": "wait"}, {}, None, 3]
    return found


def _at_the_costs(state: dict):
    """The state, and copies with every seat's energy at 3, 4 and 6: where the prices of
    learning (3) and of spells (3-6) just can or just cannot be paid."""
    yield state
    for energy in (3, 4, 6):
        copy = clone_state(state)
        copy["energy"] = [energy if e else e for e in copy["energy"]]
        yield copy


@pytest.mark.parametrize("players,seed,version", [(2, 21, 3), (3, 22, 3), (4, 23, 3),
                                                  (5, 24, 3), (6, 25, 3), (2, 26, 2),
                                                  (4, 27, 2)])
def test_refusal_and_has_options_equal_the_listings_they_replace(players, seed, version):
    """``refusal`` (the action checked as it is) answers as ``refusal_by_listing`` (every legal
    action listed and spelled) for every legal action and many illegal ones, every seat, every
    state; ``rules.has_options`` is ``bool(rules.options_for(...))`` for every decision of one
    seat (also for a seat other than the task's: the listing reads the task's)."""
    from games.warlock import refusal, refusal_by_listing, rules

    compared = legal_seen = options_seen = 0
    kinds = set()
    for state in (variant for played in _edition_states(players, seed, version)
                  for variant in _at_the_costs(played)):
        for seat in list(range(players)) + [True, None]:
            legal = rules.options_for(state, state["tasks"][0], seat) if (
                type(seat) is int and seat in rules.acting_seats(state)) else []
            for action in _candidates(state, seat if type(seat) is int else 0, legal):
                fast, slow = refusal(state, seat, action), refusal_by_listing(state, seat, action)
                assert fast == slow, (action, seat, state["tasks"][:1])
                compared += 1
                legal_seen += fast is None
                if fast is None and state["tasks"]:
                    kinds.add(state["tasks"][0]["kind"])
        if state["tasks"] and state["phase"] != "over":
            task = state["tasks"][0]
            if task["kind"] in rules.DECISIONS and task["kind"] not in rules.SIMULTANEOUS:
                assert rules.has_options(state, task) == bool(rules.options_for(state, task))
                options_seen += 1
    assert compared > 1000 and legal_seen > 50 and options_seen > 10
    assert {"decide", "swap", "attack", "defend"} <= kinds, kinds


@pytest.mark.parametrize("action", [
    {"type": "swap", "card": "WL-giant-1"}, {"type": "attack", "cards": ["WL-hero-1", "WL-magic-bow-1"]},
    {"type": "conjure", "cards": [], "as": "defence"}, {"type": "pick", "victim": 2},
    {"type": "decide", "choice": "duel", "n": 1.5, "b": True, "z": None},
    {"type": "attack", "cards": [["nested"]]}, {"type": "x", "d": {"a": [1]}}, [1, [2]], "text", 7])
def test_copy_action_is_a_deep_copy(action):
    from games.warlock.core import clone, copy_action

    def containers(value):
        if isinstance(value, (list, dict)):
            yield value
            for inner in (value.values() if isinstance(value, dict) else value):
                yield from containers(inner)

    copy = copy_action(action)
    assert copy == action == clone(action) and type(copy) is type(action)
    assert not {id(c) for c in containers(copy)} & {id(c) for c in containers(action)}


@pytest.mark.parametrize("players,seed", [(2, 31), (4, 32), (6, 33)])
def test_the_log_is_in_round_order_and_last_round_is_the_filter(players, seed):
    """``rules.last_round`` (the log kept when a round starts, read from the end) equals the
    filter it stands for on every state, for every round up to the state's."""
    from games.warlock import rules

    states = 0
    for state in playout_states(players, seed):
        log = state["log"]
        assert [e["round"] for e in log] == sorted(e["round"] for e in log)
        assert all(e["round"] <= state["round"] for e in log)
        for previous in range(max(0, state["round"] - 2), state["round"] + 1):
            kept = rules.last_round(log, previous) if all(
                e["round"] <= previous for e in log) else None
            if kept is not None:
                assert kept == [e for e in log if e["round"] == previous]
        states += 1
    assert states > 50


@pytest.mark.parametrize("players,seed", [(2, 41), (3, 42), (5, 43), (6, 44)])
def test_no_apply_changes_a_log_entry_written(players, seed):
    """``clone_state`` shares the log's entries between a state and its copy: on every state
    of random playouts, applying every legal action (and each chance outcome drawn) leaves
    every entry written before exactly as it was, and the state given as it was."""
    import copy as copying
    import random

    from games.engine import registry
    from games.engine.protocol import Chance, Ended, Event
    from games.engine.search import sample_outcome

    ruleset, rng = registry.get("warlock"), random.Random(seed)
    applied = shared = 0
    for state in playout_states(players, seed):
        before = copying.deepcopy(state)
        nxt = ruleset.next(state)
        if isinstance(nxt, Ended):
            continue
        if isinstance(nxt, Chance):
            events = [Event.chance(nxt.spec, sample_outcome(nxt.spec, rng))]
        else:
            events = [Event.action(seat, action) for seat in nxt.seats
                      for action in ruleset.legal_actions(state, seat)]
        for event in events:
            after = ruleset.apply(state, event)
            assert state == before  # its log's entries too, which ``after`` shares
            shared += any(e is old for e in after["log"] for old in state["log"])
            applied += 1
    assert applied > 200 and shared > 100  # the entries were shared: the check did check


def _containers(value):
    if isinstance(value, (list, dict)):
        yield value
        for inner in (value.values() if isinstance(value, dict) else value):
            yield from _containers(inner)


@pytest.mark.parametrize("players,seed,version", [(2, 51, 3), (3, 52, 3), (4, 53, 3),
                                                  (5, 54, 3), (6, 55, 3), (3, 56, 2),
                                                  (5, 57, 2)])
def test_decide_copy_equals_the_decide_of_a_copy_it_stands_for(players, seed, version):
    """``rules.decide_copy`` (the action copied only where the state may keep it, a choice that
    leaves another seat to choose ending there) leaves the very state that ``decide`` of a
    copy of every action (the code it stands for) leaves, for every legal
    action of every acting seat on every state of random playouts, and keeps no list or dict
    of the action it was given."""
    from games.warlock import rules
    from games.warlock.core import copy_action

    decided = waited = uncopied = 0
    for state in _edition_states(players, seed, version):
        for seat in rules.acting_seats(state):
            for action in rules.options_for(state, state["tasks"][0], seat):
                kind_ = state["tasks"][0]["kind"]
                fast, slow = clone_state(state), clone_state(state)
                given = clone_state({"action": action})["action"]
                rules.decide_copy(fast, seat, given)
                rules.decide(slow, seat, copy_action(action))
                assert fast == slow and list(fast) == list(slow), (kind_, seat, action)
                assert not {id(c) for c in _containers(given)} & {
                    id(c) for c in _containers(fast)}, (kind_, action)
                decided += 1
                waited += kind_ in rules.SIMULTANEOUS and fast["tasks"][:1] == state["tasks"][:1]
                uncopied += kind_ in rules._READ_ONLY
    assert decided > 300 and waited > 50 and uncopied > 50


def _prepare_decision_as_it_was(state: dict, task: dict) -> bool:
    """``rules.prepare_decision`` of a simultaneous decision as it was: the seats still in the
    game always written as a new list."""
    from games.warlock import rules

    out = state["out"]
    task["seats"] = seats = [s for s in task["seats"] if not out[s]]
    if seats:
        for s in seats:
            if str(s) not in state["choices"]:
                return True
    state["tasks"].pop(0)
    rules.REVEAL[task["kind"]](state, task)
    return False


@pytest.mark.parametrize("players,seed", [(3, 61), (4, 62), (6, 63)])
def test_prepare_decision_writes_the_seats_anew_only_when_one_left(players, seed):
    """``rules.prepare_decision`` of a simultaneous decision (its seats list rewritten only
    when a seat left) leaves the state as the code it stands for does, on every state of
    random playouts whose head is one, and on copies with each of its seats out."""
    from games.warlock import rules

    compared = dropped = 0
    for state in playout_states(players, seed):
        if not state["tasks"] or state["tasks"][0]["kind"] not in rules.SIMULTANEOUS:
            continue
        variants = [clone_state(state)]
        for seat in state["tasks"][0]["seats"]:
            variant = clone_state(state)
            variant["out"][seat] = True
            variants.append(variant)
        for variant in variants:
            fast, slow = clone_state(variant), clone_state(variant)
            assert rules.prepare_decision(fast, fast["tasks"][0]) == \
                _prepare_decision_as_it_was(slow, slow["tasks"][0])
            assert fast == slow
            compared += 1
            dropped += fast["tasks"][0]["seats"] != variant["tasks"][0]["seats"] if (
                fast["tasks"] and fast["tasks"][0]["kind"] in rules.SIMULTANEOUS) else 0
    assert compared > 100 and dropped > 20
