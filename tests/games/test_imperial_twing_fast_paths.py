"""Imperial Twing's fast paths (issue 42, item 5) against the code they stand for: on every
state of random playouts, ``fight.can_lay`` says what ``commit_actions`` beyond ``done`` says
(D13), and the card lookups kept by id answer as the cards do."""
from __future__ import annotations

import pytest

from games.imperial_twing import fight
from games.imperial_twing.content import CARD, ELEMENTS
from games.imperial_twing.table import colours_in_hand, in_play
from tests.games.playouts import playout_states as states


def playout_states(players: int, seed: int):
    return states("imperial-twing", players, seed)


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3), (2, 4), (3, 5)])
def test_can_lay_and_the_kept_lookups_equal_what_they_replace(players, seed):
    from games.imperial_twing.content import SPELLS_OF
    for element in ELEMENTS:
        assert SPELLS_OF[element] == {c for c, card in CARD.items()
                                      if card.kind == "spell" and card.element == element}
    fights = 0
    for state in playout_states(players, seed):
        gone = {entry[0] for entry in state["left"]}
        assert in_play(state) == [s for s in range(state["players"]) if s not in gone]
        for seat in range(players):
            held = {CARD[c].element for c in state["hands"][seat] if CARD[c].kind == "spell"}
            assert colours_in_hand(state, seat) == [e for e in ELEMENTS if e in held]
        if state["fight"] is None or state["fight"]["step"] != "commit":
            continue
        for seat in fight.fighters(state["fight"]):
            actions = fight.commit_actions(state, seat)
            assert fight.can_lay(state, seat) == bool(actions and actions != [{"type": "done"}])
            fights += 1
    assert fights > 5  # the playout did fight


@pytest.mark.parametrize("players,seed", [(2, 6), (3, 7), (4, 8), (2, 9)])
def test_the_hand_limits_and_spell_draws_asked_hand_by_hand_equal_the_walk(players, seed):
    """H.1-H.3: "more than three spell colours or more than fifteen spells" finds the same
    first seat (``over_limit``, asking every hand once first) as the walk in play order
    (``first_over_limit``); T.3: a seat without a spell queues its draw, and nobody queues one
    while every seat holds a spell."""
    from games.imperial_twing.table import first_over_limit, over_limit, queue_spell_draws
    over = lacking = 0
    for state in playout_states(players, seed):
        found = first_over_limit(state)
        assert over_limit(state) == found
        over += found is not None
        before = len(state["draws"])
        queue_spell_draws(state)            # a copy of a state apply made: changed in place
        queued = state["draws"][before:]
        del state["draws"][before:]
        seats = [s for s in in_play(state)
                 if not any(CARD[c].kind == "spell" for c in state["hands"][s])]
        assert {task["seat"] for task in queued} <= set(seats)
        if not seats:
            assert queued == []
        lacking += bool(seats)
    assert lacking > 0


def _spelled(action) -> str:
    import json
    return json.dumps(action, sort_keys=True, default=repr)


@pytest.mark.parametrize("players,seed", [(2, 11), (3, 12), (4, 13), (3, 14)])
def test_can_respond_says_what_the_responses_say(players, seed):
    """D15: the window asks ``can_respond`` of each fighter instead of listing its responses."""
    windows = answered = 0
    for state in playout_states(players, seed):
        if state["fight"] is None or state["fight"]["step"] not in ("window", "reroll"):
            continue
        windows += 1
        for seat in fight.fighters(state["fight"]):
            listed = bool(fight.responses(state, seat))
            assert fight.can_respond(state, seat) == listed
            answered += listed
    assert windows > 5 and answered > 0


def _candidates(state: dict, seat: int, legal: list[dict]) -> list:
    """The legal actions and near misses of them: every play card laid as a spell or a
    creature, done and pass, extra keys, a rider of null, and values of other JSON types that
    Python calls equal (true for 1, 1.0 for 1)."""
    from games.imperial_twing.content import PLAY_IDS
    out = list(legal)
    out += [{"type": kind, "card": card} for kind in ("spell", "creature") for card in PLAY_IDS]
    out += [{"type": "done"}, {"type": "pass"}, {"type": "pass", "x": 1},
            {"type": "done", "card": None}]
    for action in legal:
        out.append({**action, "extra": 0})
        if action["type"] == "creature" and "rider" not in action:
            out.append({**action, "rider": None})
        for key, value in action.items():
            if type(value) is int:
                out += [{**action, key: value == 1}, {**action, key: float(value)}]
    return out


@pytest.mark.parametrize("players,seed", [(2, 21), (3, 22), (4, 23), (2, 24)])
def test_the_quick_legality_check_accepts_only_what_the_listing_lists(players, seed):
    """A validation's check (``refusal``): ``surely_legal`` accepts an action without the
    listing only where the listing, spelled as JSON, holds it, and ``refusal`` says None
    exactly for the actions the listing holds as the log spells them (``plain`` and ``==``
    before any JSON is written)."""
    import games.imperial_twing as it
    accepted = decisions = 0
    for state in playout_states(players, seed):
        seat = state["actor"]
        if state["phase"] in it.CHANCE_PHASES or state["phase"] == "over":
            continue
        decisions += 1
        legal = it.decision_choices(state, seat)
        spelled = {_spelled(a) for a in legal}
        assert all(it.plain(a) for a in legal)
        for action in _candidates(state, seat, legal):
            if it.surely_legal(state, seat, action):
                assert _spelled(action) in spelled, action
                accepted += 1
            listed = _spelled(action) in spelled
            assert (it.refusal(state, seat, action) is None) == listed, action
    assert decisions > 50 and accepted > 50


@pytest.mark.parametrize("players,seed", [(3, 31), (4, 32)])
def test_the_seat_order_and_hand_limit_shortcuts_equal_their_definitions(players, seed):
    """``next_seat``, ``play_order`` and ``breaks_limit`` with every seat in play take
    shortcuts; they answer as the walk over the seats in play and the spell count do."""
    from games.imperial_twing.table import (MAX_COLOURS, MAX_SPELLS, breaks_limit, next_seat,
                                            play_order)
    for state in playout_states(players, seed):
        seats, n, step = in_play(state), state["players"], state["direction"]
        for seat in seats:
            walk = [(seat + step * i) % n for i in range(n) if (seat + step * i) % n in seats]
            assert play_order(state, seat) == walk
            after = [(seat + step * i) % n for i in range(1, n + 1)]
            assert next_seat(state, seat) == next(s for s in after if s in seats)
        for hand in state["hands"]:
            spells = [c for c in hand if CARD[c].kind == "spell"]
            assert breaks_limit(hand) == (len(spells) > MAX_SPELLS or len(
                {CARD[c].element for c in spells}) > MAX_COLOURS)


def _advance_by_steps(state: dict) -> None:
    """``advance`` as it was, every step through ``_step``: what its fight shortcut stands for."""
    import games.imperial_twing as it
    for _ in range(100_000):
        step = it._step(state)
        if step is not None:
            state["phase"], state["actor"] = step
            return
    raise RuntimeError("no progress")


def _outcome(apply, state: dict, event):
    try:
        return "state", apply(state, event)
    except Exception as error:  # noqa: BLE001 - the kind and text of a refusal are compared
        return type(error).__name__, str(error)


@pytest.mark.parametrize("players,seed", [(2, 41), (3, 42), (4, 43), (2, 44), (3, 45)])
def test_advance_with_its_fight_shortcut_applies_as_step_by_step(players, seed):
    """``advance`` asks ``_fight_step`` directly when nothing stands before the fight: every
    event leaves the state as ``advance`` step by step through ``_step`` does, and is refused
    with the same reason: the event the playout applies next, other outcomes of a roll (right,
    out of range, too short, of floats, with a wrong or a repeated spec), up to four legal
    actions and a pass, and now and then a forfeit of each seat."""
    import random

    import games.imperial_twing as it
    from games.engine import registry
    from games.engine.protocol import Chance, Ended, Event
    ruleset, rng = registry.get("imperial-twing"), random.Random(seed)
    rolls = 0

    def by_steps(state, event):
        fast = it.advance
        it.advance = _advance_by_steps  # after_event's advance, as it was
        try:
            return ruleset.apply_in_place(state, event)
        finally:
            it.advance = fast

    for state in playout_states(players, seed):
        nxt = ruleset.next(state)
        if isinstance(nxt, Ended):
            continue
        events = [Event("forfeit", seat, {}) for seat in range(players)] if rng.random() < 0.1 \
            else []
        if isinstance(nxt, Chance):
            spec = nxt.spec
            if spec["kind"] == "dice":
                rolls += state["phase"] in ("roll", "reroll")
                good = [rng.randint(1, spec["sides"]) for _ in range(spec["count"])]
                events += [Event.chance(spec, good), Event("chance", None, {"outcome": good}),
                           Event.chance(spec, good[:-1]), Event.chance(spec, [0] + good[1:]),
                           Event.chance(spec, [spec["sides"] + 1] + good[1:]),
                           Event.chance(spec, [float(v) for v in good]),
                           Event.chance(dict(spec, count=spec["count"] + 1), good),
                           Event.chance(dict(spec, sides=7), good), Event.chance(spec, None),
                           Event("chance", None, {"outcome": good, "spec": None})]
            else:
                events.append(Event.chance(spec, rng.sample(range(spec["n"]), spec["n"]
                                                            if spec["kind"] == "shuffle"
                                                            else spec["k"])))
        else:
            seat = nxt.seats[0]
            events += [Event.action(seat, a) for a in ruleset.legal_actions(state, seat)[:4]]
            events.append(Event("action", seat, {"action": {"type": "pass"}}))
        for event in events:
            fast = _outcome(ruleset.apply_in_place, it.clone(state), event)
            assert fast == _outcome(by_steps, it.clone(state), event), (event, state["phase"])
    assert rolls > 10


@pytest.mark.parametrize("players,seed", [(2, 51), (3, 52), (4, 53), (4, 54)])
def test_settled_hands_queue_no_draw_and_break_no_limit(players, seed):
    """``_step`` asks ``_hands_settled`` (every seat in play) before ``queue_spell_draws`` and
    ``over_limit`` and calls neither when it says True: then the first queues no draw and the
    second finds no seat (False only sends the step to them, as before)."""
    import games.imperial_twing as it
    from games.imperial_twing.table import over_limit, queue_spell_draws
    settled = unsettled = settled_with_left = 0
    for state in playout_states(players, seed):
        gone = {entry[0] for entry in state["left"]}
        assert it._hands_in_play(state) == [state["hands"][s] for s in range(players)
                                            if s not in gone]
        before = len(state["draws"])
        queue_spell_draws(state)
        queued = len(state["draws"]) > before
        del state["draws"][before:]
        quiet = not queued and over_limit(state) is None
        if it._hands_settled(it._hands_in_play(state)):
            assert quiet
            settled += 1
            settled_with_left += bool(gone)
        else:
            unsettled += not quiet
    assert settled > 50 and unsettled > 5
    if players > 2:
        assert settled_with_left > 5  # a seat left and the others' hands were asked alone


def _resolve_by_parts(state: dict) -> list[dict]:
    """``fight.resolve`` as it was: ``pair_outcome`` per defender, ``settle_supporters`` always
    called, every unit's cards walked by a generator and ``summary``'s copies."""
    from games.imperial_twing.content import ELEMENT
    f = state["fight"]
    attacker, kind = f["attacker"], f["kind"]
    outcomes = [fight.pair_outcome(state, d) for d in f["defenders"]]
    for outcome in outcomes:
        defender, winner = outcome["defender"], outcome["winner"]
        if kind == fight.ENDGAME:
            if winner == "defender":
                fight.gain_ornicles(state, defender, 1)
            continue
        seat = attacker if winner == "attacker" else defender if winner == "defender" else None
        if seat is not None and f["sides"][seat]["mode"] == "spells":
            fight.gain_ornicles(state, seat, 1)
    fight.settle_supporters(state, outcomes[0] if outcomes else None)
    lost_any = any(o["winner"] == "defender" for o in outcomes)
    discard = state["discard"]
    for seat in fight.fighters(f):
        side = f["sides"][seat]
        discard += side["spells"]
        if not side["units"]:
            continue
        lost = lost_any if seat == attacker else any(
            o["defender"] == seat and o["winner"] == "attacker" for o in outcomes)
        for card in (c for u in side["units"] for c in (u["card"], u["rider"]) if c):
            keep = not lost or (seat == attacker and ELEMENT[card] == state["characters"][seat])
            (state["retinues"][seat] if keep else discard).append(card)
    last = fight.summary(f, outcomes)
    last["turn"] = state["turn"]
    state["last_fight"] = last
    state["fight"] = None
    return outcomes


@pytest.mark.parametrize("players,seed", [(2, 61), (3, 62), (4, 63), (3, 64), (4, 65)])
def test_resolve_and_its_moved_summary_equal_the_resolve_by_parts(players, seed):
    """F.10-F.14: ``resolve`` (supporters settled only when there are any, the units' cards
    walked in loops, the fight's lists moved into ``last_fight`` by ``final_summary``) leaves
    every state with a fight, at every step of it, as ``_resolve_by_parts`` does, and
    ``final_summary`` says what ``summary`` says; the state the fight was cloned from keeps
    its fight as it was."""
    import copy
    import json

    import games.imperial_twing as it
    resolved = supported = 0
    for state in playout_states(players, seed):
        f = state["fight"]
        if f is None:
            continue
        outcomes = [fight.pair_outcome(state, d) for d in f["defenders"]]
        assert fight.final_summary(f, fight.fighters(f), outcomes) == fight.summary(f, outcomes)
        before = copy.deepcopy(state)
        fast, slow = it.clone(state), it.clone(state)
        assert fight.resolve(fast) == _resolve_by_parts(slow)
        assert json.dumps(fast, sort_keys=True) == json.dumps(slow, sort_keys=True)
        assert state == before
        resolved += 1
        supported += bool(f["supporters"])
    assert resolved > 50 and (players < 3 or supported > 0)
